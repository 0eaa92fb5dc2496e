/**
 * The writes of the conversation on a pull request or release: the action's identity, comments
 * (list, create, update, delete), reactions and release notes. The client retries the reads; a
 * write is never sent again after a 5xx (a create that may have been done is not sent twice); a
 * refusal throws the Octokit error.
 */
import type { getOctokit } from '@actions/github'
import { errorMessage } from '../../base/error-message.js'
import { inline } from '../../base/text.js'
import { allPages } from '../pages.js'
import type { CountedRequest, RequestCount } from '../requests.js'
import { rateLimited } from '../rate-limited.js'
import { unreachable } from '../unreachable.js'
import { readIdentity } from './identity.js'
import type { IssueComment } from './marker.js'

type Octokit = ReturnType<typeof getOctokit>

const WRITE_TIMEOUT_MS = 30_000
/** Pages of 100 comments read at most: a thread longer than this is not one the action takes part in. */
export const MAX_COMMENT_PAGES = 30

/** Where a command came from: a reaction goes to an issue comment or a review comment. */
export type CommentKind = 'issue' | 'review-comment'

export interface ConversationApi {
  /**
   * The login the token writes as (identity.ts): `/user`, else GraphQL's `viewer`, else the
   * workflow token's bot when GitHub says the token cannot read it; throws on any other failure.
   */
  identity(): Promise<string>
  /** Every comment of issue or pull request `number` (100 a page). */
  listComments(number: number): Promise<IssueComment[]>
  createComment(number: number, body: string): Promise<IssueComment>
  updateComment(id: number, body: string): Promise<void>
  deleteComment(id: number): Promise<void>
  react(kind: CommentKind, id: number, content: 'eyes' | '+1' | 'confused'): Promise<void>
  /** A release's id and notes; undefined when the tag has none. */
  release(tag: string): Promise<{ id: number; body: string } | undefined>
  updateRelease(id: number, body: string): Promise<void>
}

/** What every request shares: the Octokit loaded on demand, the repository, and each request's options. */
interface Conversation {
  client: () => Promise<Octokit>
  owner: string
  repo: string
  /** A fresh time limit for each request, and the count it goes in. */
  request: () => CountedRequest
}

const comment = (data: { id: number; body?: string; user: { login: string } | null }): IssueComment => ({
  id: data.id,
  body: data.body ?? '',
  author: data.user?.login ?? ''
})

async function listComments({ client, owner, repo, request }: Conversation, number: number): Promise<IssueComment[]> {
  const octokit = await client()
  let pages = 0
  // One time limit for the whole listing. Each page is cut to what is used as it comes; past
  // MAX_COMMENT_PAGES the read fails rather than answer part of the thread (a missing own
  // comment would be written twice).
  const listing = request()
  const first = octokit.rest.issues.listComments({
    owner,
    repo,
    issue_number: number,
    per_page: 100,
    request: listing
  })
  return allPages(octokit, first, listing, (page) => {
    if (++pages > MAX_COMMENT_PAGES) {
      throw new Error(`pull request #${number} has more than ${MAX_COMMENT_PAGES * 100} comments: not read`)
    }
    return page.map(comment)
  })
}

async function createComment(
  { client, owner, repo, request }: Conversation,
  number: number,
  body: string
): Promise<IssueComment> {
  const octokit = await client()
  const { data } = await octokit.rest.issues.createComment({
    owner,
    repo,
    issue_number: number,
    body,
    request: request()
  })
  return comment(data)
}

async function updateComment({ client, owner, repo, request }: Conversation, id: number, body: string): Promise<void> {
  const octokit = await client()
  await octokit.rest.issues.updateComment({ owner, repo, comment_id: id, body, request: request() })
}

async function deleteComment({ client, owner, repo, request }: Conversation, id: number): Promise<void> {
  const octokit = await client()
  await octokit.rest.issues.deleteComment({ owner, repo, comment_id: id, request: request() })
}

async function react(
  { client, owner, repo, request }: Conversation,
  kind: CommentKind,
  id: number,
  content: 'eyes' | '+1' | 'confused'
): Promise<void> {
  const octokit = await client()
  const params = { owner, repo, comment_id: id, content, request: request() }
  if (kind === 'issue') await octokit.rest.reactions.createForIssueComment(params)
  else await octokit.rest.reactions.createForPullRequestReviewComment(params)
}

async function release(
  { client, owner, repo, request }: Conversation,
  tag: string
): Promise<{ id: number; body: string } | undefined> {
  const octokit = await client()
  try {
    const { data } = await octokit.rest.repos.getReleaseByTag({ owner, repo, tag, request: request() })
    return { id: data.id, body: data.body ?? '' }
  } catch (error) {
    if ((error as { status?: unknown }).status === 404) return undefined
    throw error
  }
}

async function updateRelease({ client, owner, repo, request }: Conversation, id: number, body: string): Promise<void> {
  const octokit = await client()
  await octokit.rest.repos.updateRelease({ owner, repo, release_id: id, body, request: request() })
}

/** The conversation of `owner/name` through an Octokit loaded on demand; its requests counted in `count`. */
export function conversationApi(
  client: () => Promise<Octokit>,
  repository: string,
  count?: RequestCount
): ConversationApi {
  const [owner = '', repo = ''] = repository.split('/')
  const request = (): CountedRequest => ({
    signal: AbortSignal.timeout(WRITE_TIMEOUT_MS),
    count
  })
  const at: Conversation = { client, owner, repo, request }
  return {
    identity: async () => readIdentity(await client(), request),
    listComments: (number) => listComments(at, number),
    createComment: (number, body) => createComment(at, number, body),
    updateComment: (id, body) => updateComment(at, id, body),
    deleteComment: (id) => deleteComment(at, id),
    react: (kind, id, content) => react(at, kind, id, content),
    release: (tag) => release(at, tag),
    updateRelease: (id, body) => updateRelease(at, id, body)
  }
}

/** GitHub said no: what was refused and the permission the token needs (a lost connection needs none). */
export function refused(what: string, error: unknown, permission: string, input = "'github-token' input"): string {
  const lost = unreachable(error)
  if (lost)
    return `Could not ${what} (${inline(lost, 200)}): a network failure, not a missing permission; the outputs are unchanged.`
  const status = (error as { status?: unknown }).status
  const code = typeof status === 'number' ? ` (HTTP ${status})` : ''
  const limited = rateLimited(error)
  const fix = limited ? `${limited}, not a missing permission` : `The ${input} needs ${permission}`
  return `Could not ${what}${code}: ${inline(errorMessage(error), 200)}. ${fix}; the outputs are unchanged.`
}
