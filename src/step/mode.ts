/**
 * The step's mode, decided once before the flow starts: what is asked of the Agent API (a new job,
 * a follow-up, only a wait, or what a pull request comment's command asks), with where its re-run
 * record is kept and where the job is linked back. Nothing later switches it.
 */
import { READ_ONLY_CACHE_EVENTS, type CommentEvent } from '../github/conversation/command.js'
import { LinkBackThread } from '../github/conversation/thread.js'
import { markerKey } from '../github/conversation/marker.js'
import type { Trigger } from '../github/event.js'
import { nothingToDocument } from '../github/nothing-to-document.js'
import type { RecordStore } from '../rerun/record.js'
import { readCommand } from './comment/command.js'
import { commentRecords, handledCommand } from './comment/records.js'
import type { ConversationDeps, LinkTargets } from './tracking/link-back.js'
import type { CommandSettings, Settings } from './settings.js'

/** What the step does, and what goes with it. */
export interface StepMode {
  /**
   * The request: `settings.mode` is `create` (a new job), `message` (a follow-up to the job in
   * `job-id`) or `wait-only` (a wait on it); `settings.command` is set when a pull request
   * comment asked for it. A grouped follow-up (a message to the open job of a group) is decided
   * here too, next.
   */
  settings: Settings
  /** Where the re-run record is kept: the Actions cache, or the link-back comment. */
  records: RecordStore
  targets: LinkTargets
}

/** A comment that is not a request, or a run with nothing to document: the step ends with one log line that says why. */
export interface NoRequest {
  why: string
}

/**
 * Decides the mode from the inputs and the trigger: the comment's request (or why there is none),
 * the pull request or release to link back on, and, on triggers whose Actions cache is read-only
 * (or under a `cache-mode` that does not both save and restore), the link-back comment as the
 * re-run record.
 */
export async function decideMode(
  settings: Settings | CommandSettings,
  event: {
    name: string
    trigger: Trigger
    comment: CommentEvent | undefined
    records: RecordStore
    /** Whether the run's cache keeps a record from one attempt to the next (rerun/cache.ts). */
    cacheKeepsRecords: boolean
  },
  deps: ConversationDeps
): Promise<StepMode | NoRequest> {
  const { trigger, comment } = event
  // A follow-up to job-id and a wait-only step are explicit requests about a job already made; the
  // release edit of the action's own link-back is an echo for every step (a personal token's edit
  // starts the workflow again, and a follow-up would link back, and so on).
  const explicit = settings.mode === 'message' || settings.mode === 'wait-only'
  const echo = trigger.kind === 'tag' && trigger.release?.ownLinkBack === true
  const nothing = explicit && !echo ? undefined : nothingToDocument(trigger)
  if (nothing !== undefined) return { why: nothing }
  const pull = comment
    ? { repository: comment.repo, number: comment.pullNumber }
    : trigger.kind === 'pull-request'
      ? { repository: trigger.repo, number: trigger.number }
      : undefined
  const linking = settings.linkBack.has('pull-request')
  // A command reads the pull request's comment for its job even when it is not to be written.
  const thread =
    pull && (linking || settings.mode === 'command')
      ? new LinkBackThread(
          deps.api(pull.repository),
          pull.repository,
          pull.number,
          () => deps.identity(),
          markerKey(settings.apiKey)
        )
      : undefined
  const resolved = settings.mode === 'command' ? await readCommand(settings, comment, thread, deps) : settings
  if ('ignored' in resolved) return { why: resolved.ignored }
  const cacheless = READ_ONLY_CACHE_EVENTS.includes(event.name) || !event.cacheKeepsRecords
  const keepsRecord = cacheless && thread && linking
  const kept = keepsRecord ? commentRecords(thread, deps.runUrl, handledCommand(resolved)) : undefined
  return {
    settings: resolved,
    records: kept ?? event.records,
    targets: {
      thread: linking ? thread : undefined,
      superseded: kept?.superseded,
      release:
        settings.linkBack.has('release') && trigger.kind === 'tag'
          ? { repository: trigger.repo, tag: trigger.tag }
          : undefined,
      docsPr: settings.linkBack.has('docs-pr')
    }
  }
}
