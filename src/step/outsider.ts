/**
 * Whether a job carries text written by someone without write access: such text can steer the
 * agent, so `merge: auto` never merges its docs pull request at once. It is a property of the job,
 * decided when the prompt is built: a new job's prompt carried a pull request's own text by such
 * an author (`untrusted-context: include`, or a maintainer merged an outsider's pull request); a
 * follow-up's job (`job-id`, a `/docs` command, a grouped run) inherits it from the record the
 * job's earlier runs left, whatever this run's event. The run's state keeps it, and with it the
 * re-run record, the group's record and the link-back's marker, on every exit path.
 */
import { inline } from '../base/text.js'
import { isBot, mayWrite, type Permissions } from '../github/permissions.js'
import type { AuthorText, PullRequestFacts } from '../github/trust.js'
import type { CreateOrMessage } from './settings.js'

/** Why a new job's prompt carries an outsider's text (the pull request's own text was included); undefined when it does not. */
export async function promptOutsider(
  pr: PullRequestFacts | undefined,
  number: number,
  author: AuthorText,
  permissions: Permissions
): Promise<string | undefined> {
  if (!author.include) return undefined
  const login = pr?.author ?? ''
  // A bot's text counts as an outsider's: allowed-bots says it may run, not that its words are a writer's.
  const own = login && !isBot(login) ? await permissions.of(login) : undefined
  if (own?.known && mayWrite(own.permission)) return undefined
  return `pull request #${number}'s own text was included: ${author.why}`
}

/** What a follow-up knows of the job it goes to. */
export interface FollowedJob {
  /** The pull request of this run's event, when it has one. */
  pullRequest: { number: number; author: string } | undefined
  permissions: Permissions
}

/**
 * Why a follow-up's job may carry an outsider's text: its record says so (a `/docs` command's
 * link-back marker), its pull request's author has no write access (its text may have reached the
 * job when it was created), or nothing records how the job was made (a `job-id` follow-up on an
 * event with no pull request): the strictest reading. Undefined when a writer stands behind it.
 */
export async function inheritedOutsider(settings: CreateOrMessage, job: FollowedJob): Promise<string | undefined> {
  if (settings.mode !== 'message') return undefined
  if (settings.command?.outsider) return 'the link-back comment records that its job was given such text'
  const pr = job.pullRequest
  if (!pr) {
    return settings.command
      ? undefined
      : `its job ${inline(settings.jobId)} was made by an earlier run, and nothing here records whether that run gave it such text`
  }
  const own = pr.author && !isBot(pr.author) ? await job.permissions.of(pr.author) : undefined
  if (own?.known && mayWrite(own.permission)) return undefined
  return `its job may have been given pull request #${pr.number}'s own text when it was created, and its author ${inline(pr.author || 'unknown', 100)} has no write access`
}
