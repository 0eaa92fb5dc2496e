/**
 * A `/docs` comment on a pull request becomes the step's request: read, checked (who wrote it, and
 * whether they may write), acknowledged with a reaction, and turned into a new job or a follow-up.
 */
import { errorMessage } from '../../base/error-message.js'
import type { Log } from '../../base/log.js'
import { removeHidden } from '../../base/hidden.js'
import { formatCount, inline, normalizeLineEndings } from '../../base/text.js'
import { refused, type CommentKind, type ConversationApi } from '../../github/conversation/api.js'
import { commandText, type CommentEvent } from '../../github/conversation/command.js'
import type { LinkMarker } from '../../github/conversation/marker.js'
import type { LinkBackThread } from '../../github/conversation/thread.js'
import { botAllowed, mayWrite } from '../../github/permissions.js'
import { permissionUnread } from '../../github/trust.js'
import { unreachable } from '../../github/unreachable.js'
import type { ConversationDeps } from '../tracking/link-back.js'
import { MAX_PROMPT_CHARS, type CommandSettings, type Settings } from '../settings.js'

/** Why a comment is not a request: the one log line the step ends with. */
export interface Ignored {
  ignored: string
}

/**
 * The request in the event's comment, or why there is none. A writer's `/docs …` on a pull
 * request that links to a job is a follow-up to it; on one that does not, a new job.
 */
export async function readCommand(
  settings: CommandSettings,
  comment: CommentEvent | undefined,
  thread: LinkBackThread | undefined,
  deps: ConversationDeps
): Promise<Settings | Ignored> {
  if (!comment || !thread) return { ignored: 'Not a comment on a pull request: nothing to do.' }
  const who = `@${inline(comment.author.login, 60)}`
  if (comment.action !== 'created' && comment.action !== 'submitted')
    return { ignored: `Comment by ${who} was ${inline(comment.action, 20)}: only a new comment can be a request.` }
  const asked = commandText(comment.body, settings.triggerPhrase)
  if (asked === undefined)
    return { ignored: `Comment by ${who} does not start with ${settings.triggerPhrase}: nothing to do.` }
  if (!asked) return { ignored: `Comment by ${who} has nothing after ${settings.triggerPhrase}: nothing to do.` }
  const refused = await whyNotPermitted(settings, comment, who, deps)
  if (refused) return refused

  // The agent reads no more of the comment than a reviewer sees.
  const visible = await removeHidden(normalizeLineEndings(asked))
  const requested = visible.text.trim()
  if (!requested)
    return { ignored: `Comment by ${who} has nothing visible after ${settings.triggerPhrase}: nothing to do.` }
  const prompt = withinLimit(requested, deps.log)
  let marker
  try {
    marker = await thread.marker()
  } catch (error) {
    // Unread comments are not "no linked job": a new job could duplicate the linked one.
    deps.log.warning(
      `Could not read the comments of pull request #${thread.number} (${inline(unreachable(error) ?? errorMessage(error), 200)}): the command from ${who} is not carried out.`
    )
    await acknowledge(comment, thread.api, deps.log, 'confused')
    return { ignored: `The command from ${who} was not carried out: the pull request's comments could not be read.` }
  }
  await acknowledge(comment, thread.api, deps.log, 'eyes')
  const linked = linkedJob(marker, comment.id)
  const command = { author: comment.author.login, text: requested, id: comment.id, hidden: visible.removed }
  if (linked) {
    deps.log.info(`${settings.triggerPhrase} from ${who}: a follow-up to job ${inline(linked)}.`)
    // The linked job's record: whether an outsider's text reached it, for merge: auto (step/outsider.ts).
    const outsider = marker?.outsider && marker.job === linked ? { outsider: true as const } : {}
    return {
      ...settings,
      mode: 'message',
      jobId: linked,
      prompt,
      command: { ...command, kind: 'follow-up', ...outsider }
    }
  }
  deps.log.info(`${settings.triggerPhrase} from ${who}: no job is linked to this pull request, so a new one.`)
  return { ...settings, mode: 'create', prompt, command: { ...command, kind: 'create' } }
}

/** Why the comment's author may not command (a bot not listed, no write access, a permission not read); undefined: they may. */
async function whyNotPermitted(
  settings: CommandSettings,
  comment: CommentEvent,
  who: string,
  deps: ConversationDeps
): Promise<Ignored | undefined> {
  if (comment.author.bot && !botAllowed(comment.author.login, settings.allowedBots))
    return { ignored: `${who} is a bot not listed in allowed-bots: its comment is not a request.` }
  const read = await deps.permission(comment.author.login)
  if (!read.known) {
    // It may be a writer's command that is dropped: a warning, where the run is looked at (as trust.ts's gate).
    deps.log.warning(
      permissionUnread(who, comment.repo, read, `the ${settings.triggerPhrase} command is not carried out`)
    )
    return { ignored: `Could not read ${who}'s permission on ${comment.repo}: the comment is not acted on.` }
  }
  if (!mayWrite(read.permission))
    return { ignored: `${who} has no write access to ${comment.repo}: the comment is not a request.` }
  return undefined
}

/** The request as sent: its first MAX_PROMPT_CHARS characters, with a warning when it is longer. */
function withinLimit(requested: string, log: Log): string {
  if (requested.length <= MAX_PROMPT_CHARS) return requested
  log.warning(
    `The request has ${formatCount(requested.length)} characters; the first ${formatCount(MAX_PROMPT_CHARS)} are sent.`
  )
  // Never between the two halves of a character past U+FFFF: a lone surrogate is not Unicode.
  const cut = requested.slice(0, MAX_PROMPT_CHARS)
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut
}

/** The job comment `id` goes to: the marker's linked job, or the one it went to if it was handled before. */
function linkedJob(marker: LinkMarker | undefined, id: number): string | undefined {
  // A re-run of the run that handled this comment asks the same again, so its re-run record matches.
  const again = [marker?.command, ...(marker?.records ?? []).map((entry) => entry.command)].find(
    (handled) => handled?.id === id
  )
  return again ? again.job : marker?.job
}

/**
 * A reaction says the command was read (👀) or read and not carried out (😕); reviews take none
 * (GitHub has no reactions for them).
 */
async function acknowledge(
  comment: CommentEvent,
  api: ConversationApi,
  log: Log,
  content: 'eyes' | 'confused'
): Promise<void> {
  const kind: CommentKind | undefined =
    comment.event === 'issue_comment'
      ? 'issue'
      : comment.event === 'pull_request_review_comment'
        ? 'review-comment'
        : undefined
  if (!kind) return
  try {
    await api.react(kind, comment.id, content)
  } catch (error) {
    log.warning(refused('react to the comment', error, 'pull-requests: write (or issues: write)'))
  }
}
