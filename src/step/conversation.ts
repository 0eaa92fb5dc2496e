/**
 * The conversation on GitHub, read from the trigger before the step runs: the request (a comment's
 * command, or the inputs), where the re-run record lives, and where the job is linked back.
 */
import type { Log } from '../base/log.js'
import type { ConversationApi } from '../github/conversation/api.js'
import { READ_ONLY_CACHE_EVENTS, type CommentEvent } from '../github/conversation/command.js'
import { LinkBackThread } from '../github/conversation/thread.js'
import type { Trigger } from '../github/event.js'
import type { RecordStore } from '../rerun/record.js'
import { readCommand, type Ignored } from './comment-command.js'
import { commentRecords, handledCommand } from './comment-records.js'
import type { LinkTargets } from './link-back.js'
import type { CommandSettings, Settings } from './settings.js'

/** What the conversation needs from the step's surroundings. */
export interface ConversationDeps {
  log: Log
  /** The login `github-token` writes as (read once). */
  identity(): Promise<string>
  /** Comments, reactions and release notes of `owner/name`. */
  api(repository: string): ConversationApi
  /**
   * Whether `login` may command: write, maintain or admin on the workflow's repository. Undefined
   * when the permission could not be read.
   */
  mayWrite(login: string): Promise<boolean | undefined>
  /** `GITHUB_SERVER_URL`. */
  serverUrl: string | undefined
  /** The workflow run's page, when on a runner. */
  runUrl: string | undefined
}

/** How the step talks on GitHub: the request it makes, where its re-run record lives, where it links back. */
export interface Conversation {
  settings: Settings
  records: RecordStore
  targets: LinkTargets
}

/**
 * Reads the trigger for the conversation: the comment's request (or why there is none), the
 * pull request or release to link back on, and, on triggers whose Actions cache is read-only, the
 * link-back comment as the re-run record.
 */
export async function converse(
  settings: Settings | CommandSettings,
  event: { name: string; trigger: Trigger; comment: CommentEvent | undefined; records: RecordStore },
  deps: ConversationDeps
): Promise<Conversation | Ignored> {
  const { trigger, comment } = event
  const pull = comment
    ? { repository: comment.repo, number: comment.pullNumber }
    : trigger.kind === 'pull-request'
      ? { repository: trigger.repo, number: trigger.number }
      : undefined
  const linking = settings.linkBack.has('pull-request')
  // A command reads the pull request's comment for its job even when it is not to be written.
  const thread =
    pull && (linking || settings.mode === 'command')
      ? new LinkBackThread(deps.api(pull.repository), pull.repository, pull.number, () => deps.identity())
      : undefined
  const resolved = settings.mode === 'command' ? await readCommand(settings, comment, thread, deps) : settings
  if ('ignored' in resolved) return resolved
  const keepsRecord = READ_ONLY_CACHE_EVENTS.includes(event.name) && thread && linking
  return {
    settings: resolved,
    records: keepsRecord ? commentRecords(thread, deps.runUrl, handledCommand(resolved)) : event.records,
    targets: {
      thread: linking ? thread : undefined,
      release:
        settings.linkBack.has('release') && trigger.kind === 'tag'
          ? { repository: trigger.repo, tag: trigger.tag }
          : undefined,
      docsPr: settings.linkBack.has('docs-pr')
    }
  }
}
