/**
 * Commands from pull request comments: a comment (or review) whose first line starts with the
 * trigger phrase asks the docs agent for work. This module reads such an event and its text;
 * who may command is decided by the step, with the permission read.
 */
import type { EventEnv } from '../event.js'

/** The events that carry a comment on a pull request. */
export const COMMENT_EVENTS = ['issue_comment', 'pull_request_review_comment', 'pull_request_review'] as const
export type CommentEventName = (typeof COMMENT_EVENTS)[number]

/**
 * Events whose runs get a read-only Actions cache (since June 2026): the re-run record cannot be
 * saved there, so the link-back comment holds it.
 */
export const READ_ONLY_CACHE_EVENTS: readonly string[] = ['pull_request_target', 'issue_comment']

/** A comment (or review) on a pull request, as the event payload tells it. */
export interface CommentEvent {
  event: CommentEventName
  /** The payload's `action`: `created`, `submitted`, `edited`, `deleted`, … */
  action: string
  repo: string
  pullNumber: number
  /** The comment's (or review's) id. */
  id: number
  body: string
  author: { login: string; bot: boolean }
}

export function isCommentEvent(name: string | undefined): name is CommentEventName {
  return COMMENT_EVENTS.some((event) => event === name)
}

/**
 * The comment of an `issue_comment` on a pull request, or of a review or review comment; undefined
 * for any other event (an issue's comment included) or a payload that does not hold one.
 */
export function readCommentEvent(env: EventEnv, readFile: (path: string) => string): CommentEvent | undefined {
  const event = env.GITHUB_EVENT_NAME
  if (!isCommentEvent(event) || !env.GITHUB_EVENT_PATH) return undefined
  let payload: unknown
  try {
    payload = JSON.parse(readFile(env.GITHUB_EVENT_PATH))
  } catch {
    return undefined
  }
  if (!isRecord(payload)) return undefined
  const comment = event === 'pull_request_review' ? payload.review : payload.comment
  const pull = event === 'issue_comment' ? payload.issue : payload.pull_request
  // An issue's comments come as `issue_comment` too: only a pull request's have `issue.pull_request`.
  if (!isRecord(comment) || !isRecord(pull) || (event === 'issue_comment' && !isRecord(pull.pull_request)))
    return undefined
  const { id } = comment
  const number = pull.number
  const user = isRecord(comment.user) ? comment.user : {}
  const login = typeof user.login === 'string' ? user.login : ''
  if (typeof id !== 'number' || typeof number !== 'number' || !login) return undefined
  return {
    event,
    action: typeof payload.action === 'string' ? payload.action : '',
    repo: env.GITHUB_REPOSITORY ?? '',
    pullNumber: number,
    id,
    body: typeof comment.body === 'string' ? comment.body : '',
    author: { login, bot: user.type === 'Bot' || login.endsWith('[bot]') }
  }
}

/**
 * The request in a comment whose first line starts with `phrase` (then a space, or the line's
 * end): the rest of that line and the lines after it, trimmed. Undefined without the phrase, and
 * when the first line that is not blank is indented four columns or more (a tab reaches the fourth):
 * GitHub shows that line as code (CommonMark 0.31, 4.4 Indented code blocks), not as a request.
 */
export function commandText(body: string, phrase: string): string | undefined {
  const first = body.replace(/^(?:[ \t]*(?:\r\n?|\n))+/, '')
  const indent = /^[ \t]*/.exec(first)?.[0] ?? ''
  if (indent.length >= 4 || indent.includes('\t')) return undefined
  const text = first.replace(/^\s+/, '')
  if (!text.startsWith(phrase)) return undefined
  const rest = text.slice(phrase.length)
  if (rest !== '' && !/^\s/.test(rest)) return undefined
  return rest.trim()
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
