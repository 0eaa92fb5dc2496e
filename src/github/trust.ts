/**
 * Who may start a job, and whose pull request text the agent may read. On an event that someone
 * without write access can trigger, the text and the trigger are theirs to choose: the actor must
 * be able to write to the repository, and a pull request's own text reaches the agent only when
 * someone who can write stands behind it.
 */
import { inline } from '../base/text.js'
import { isRecord, readPayload } from './event.js'
import { botAllowed, isBot, mayWrite, type Permissions, type PermissionResult } from './permissions.js'

/**
 * Events that anyone who can open an issue, a pull request or a discussion can trigger. A reader
 * can open a pull request between two branches of the repository itself, and that run has the
 * secrets: `pull_request` is one of them, wherever its head is.
 */
const OUTSIDER_EVENTS: ReadonlySet<string> = new Set([
  'pull_request',
  'pull_request_target',
  'issue_comment',
  'issues',
  'pull_request_review',
  'pull_request_review_comment',
  'discussion',
  'discussion_comment',
  'workflow_run'
])

/** The variables that say who triggered the run. */
export interface TrustEnv {
  GITHUB_EVENT_NAME?: string | undefined
  GITHUB_EVENT_PATH?: string | undefined
  GITHUB_ACTOR?: string | undefined
  GITHUB_TRIGGERING_ACTOR?: string | undefined
  GITHUB_REPOSITORY?: string | undefined
}

/** The pull request's people and counts, from the payload. */
export interface PullRequestFacts {
  number: number
  /** The login of whoever opened it; '' when the payload does not say. */
  author: string
  /** Who merged it, when it is merged. */
  mergedBy: string | undefined
  commits: number | undefined
  additions: number | undefined
  deletions: number | undefined
}

export interface TrustFacts {
  event: string
  repository: string
  /** Whether someone without write access can trigger this run. */
  outsider: boolean
  /** `GITHUB_ACTOR`, then `GITHUB_TRIGGERING_ACTOR` when it is someone else. */
  actors: string[]
  pullRequest: PullRequestFacts | undefined
}

export function readTrustFacts(env: TrustEnv, readFile: (path: string) => string): TrustFacts {
  const event = env.GITHUB_EVENT_NAME ?? ''
  const repository = env.GITHUB_REPOSITORY ?? ''
  const payload = readPayload(env.GITHUB_EVENT_PATH, readFile)
  // An issue_comment on a pull request carries it as `issue` (its author as `issue.user`).
  const issue = isRecord(payload.issue) && isRecord(payload.issue.pull_request) ? payload.issue : undefined
  const pr = isRecord(payload.pull_request) ? payload.pull_request : event === 'issue_comment' ? issue : undefined
  const actors = [env.GITHUB_ACTOR ?? '', env.GITHUB_TRIGGERING_ACTOR ?? '']
    .map((login) => login.trim())
    .filter((login, index, all) => login && all.findIndex((other) => sameLogin(other, login)) === index)
  return {
    event,
    repository,
    outsider: OUTSIDER_EVENTS.has(event),
    actors,
    pullRequest: pr && typeof pr.number === 'number' ? pullRequestFacts(pr, pr.number) : undefined
  }
}

function pullRequestFacts(pr: Record<string, unknown>, number: number): PullRequestFacts {
  const count = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined)
  return {
    number,
    author: login(pr.user),
    mergedBy: pr.merged === true ? login(pr.merged_by) || undefined : undefined,
    commits: count(pr.commits),
    additions: count(pr.additions),
    deletions: count(pr.deletions)
  }
}

function login(user: unknown): string {
  return isRecord(user) && typeof user.login === 'string' ? user.login : ''
}

/** Logins and repository names are case-insensitive on GitHub. */
function sameLogin(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase()
}

/** The inputs that widen who may start a job. */
export interface TrustPolicy {
  /** Logins that may start a job without write access; `*` for anyone. */
  allowedNonWriteUsers: readonly string[]
  /** Bots that may start a job (names with or without `[bot]`, or `*`). */
  allowedBots: readonly string[]
}

export type StartDecision =
  | { allowed: true }
  /** `reason`: the notice. `warning`: a permission that could not be read, and what would fix it. */
  | { allowed: false; reason: string; warning: string | undefined }

const WIDEN = 'allowed-non-write-users (or, for a bot, allowed-bots)'

/**
 * Whether this run may start a job: always on an event only writers can trigger (no request);
 * else every actor must be listed, or have write, maintain or admin permission. A permission that
 * cannot be read refuses.
 */
export async function decideStart(
  facts: TrustFacts,
  policy: TrustPolicy,
  permissions: Permissions
): Promise<StartDecision> {
  if (!facts.outsider) return { allowed: true }
  const events = `${facts.event} events`
  const refuse = (why: string, warning?: string): StartDecision => ({
    allowed: false,
    reason: `No job is started: ${events} can be triggered by people without write access to ${facts.repository}, and ${why}. To let them, list them in ${WIDEN}.`,
    warning
  })
  if (facts.actors.length === 0) return refuse('the runner did not say who triggered it (GITHUB_ACTOR is empty)')
  for (const actor of facts.actors) {
    const who = inline(actor, 100)
    if (isBot(actor)) {
      if (botAllowed(actor, policy.allowedBots)) continue
      return refuse(`${who} is a bot not listed in allowed-bots`)
    }
    if (listed(actor, policy.allowedNonWriteUsers)) continue
    const result = await permissions.of(actor)
    if (!result.known) {
      return refuse(
        `the permission of ${who} could not be read`,
        permissionUnread(who, facts.repository, result, 'no job is started')
      )
    }
    if (!mayWrite(result.permission)) {
      return refuse(`${who} has ${result.permission} permission; starting a job takes write, maintain or admin`)
    }
  }
  return { allowed: true }
}

/** The warning for a permission that could not be read: a network failure, or what the token needs. */
export function permissionUnread(
  who: string,
  repository: string,
  result: Extract<PermissionResult, { known: false }>,
  so: string
): string {
  return result.network
    ? `Could not read the permission of ${who} on ${repository} (${inline(result.error, 200)}, after retries), so ${so}. A network failure, not a missing permission: run the workflow again.`
    : `Could not read the permission of ${who} on ${repository} (${inline(result.error, 200)}), so ${so}. The workflow's token (github-token) needs \`metadata: read\` on this repository (GITHUB_TOKEN always has it).`
}

function listed(login: string, names: readonly string[]): boolean {
  return names.some((name) => name === '*' || sameLogin(name, login))
}

/** Whether the pull request's own text reaches the agent, and why, in words for the log. */
export type AuthorText = { include: boolean; why: string }

/**
 * The pull request author's text is included when the author can write, when someone who can
 * merged it, or when `untrusted-context: include` says so. A permission that cannot be read counts
 * as no write access.
 */
export async function decideAuthorText(
  pr: PullRequestFacts | undefined,
  untrustedContext: 'include' | 'withhold',
  policy: Pick<TrustPolicy, 'allowedBots'>,
  permissions: Permissions
): Promise<AuthorText> {
  if (untrustedContext === 'include') return { include: true, why: 'untrusted-context: include' }
  if (!pr?.author) return { include: false, why: 'the event does not say who opened it' }
  const author = inline(pr.author, 100)
  if (isBot(pr.author)) {
    return botAllowed(pr.author, policy.allowedBots)
      ? { include: true, why: `its author ${author} is listed in allowed-bots` }
      : { include: false, why: `its author ${author} is a bot not listed in allowed-bots` }
  }
  const own = await permissions.of(pr.author)
  if (own.known && mayWrite(own.permission)) {
    return { include: true, why: `its author ${author} has ${own.permission} permission` }
  }
  let merged = ''
  if (pr.mergedBy) {
    const merger = await permissions.of(pr.mergedBy)
    const by = inline(pr.mergedBy, 100)
    if (merger.known && mayWrite(merger.permission)) {
      return { include: true, why: `${by}, who has ${merger.permission} permission, merged it` }
    }
    merged = ` and ${by}, who merged it, ${described(merger)}`
  }
  return { include: false, why: `its author ${author} ${described(own)}${merged}` }
}

function described(result: PermissionResult): string {
  return result.known
    ? `has ${result.permission} permission`
    : `has a permission that could not be read (${inline(result.error, 200)})`
}
