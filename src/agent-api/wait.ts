import { Cancelled } from '../base/cancel.js'
import { requestTimeout, type Clock } from '../base/clock.js'
import type { CallOptions } from './call.js'
import { formatDuration } from '../base/duration.js'
import { ApiError, isTransientForPoll } from './errors.js'
import { isTerminal, jobFingerprint, type AgentJob, type TerminalStatus } from './job.js'
import { nextPollDelay, type PollSchedule } from './schedule.js'

/** Why a wait ended (a failure that cannot be retried is thrown as an `ApiError` instead). */
export type WaitEnd =
  | { reason: 'terminal'; job: AgentJob; status: TerminalStatus }
  /** `once`: the first record read, whatever its status. */
  | { reason: 'read'; job: AgentJob }
  | { reason: 'timed-out' }
  | { reason: 'cancelled' }

/** A job we just created or messaged may read 404 for this long after our POST was answered. */
export const NOT_FOUND_GRACE_MS = 20_000
/** A job seen `completed` without a PR link is read again over this long before we say there is none. */
export const PR_SETTLE_MS = 5_000
/** The delay between those reads. */
export const PR_SETTLE_POLL_MS = 2_500
/**
 * After a follow-up, a terminal status counts once the job was seen `active` or its record
 * changed; past this long after the message was answered, it counts anyway.
 */
export const FOLLOW_UP_GRACE_MS = 30_000
const HEARTBEAT_MS = 60_000

export type PollEvent =
  /** A record was read; `held` says why a terminal status did not end the wait. */
  { job: AgentJob; held?: string } | { error: ApiError; retryInMs: number | undefined }

export interface WaitOptions {
  jobId: string
  getJob(jobId: string, call: CallOptions): Promise<AgentJob>
  schedule: PollSchedule
  /** Epoch ms by which the step must end. */
  deadline: number
  /** Poll at once (wait-only, resume) or after the first delay (after a create or message). */
  pollNow: boolean
  /** Until when a 404 may be the service catching up with our POST; undefined: a 404 is final. */
  notFoundUntil: number | undefined
  /**
   * After a follow-up: the message answer's record (its `jobFingerprint`), a stale copy of which
   * must not end the wait.
   */
  previous?: { fingerprint: string; answeredAt: number } | undefined
  /** Stop at the first record read (`wait: false`), riding out failures as any poll does. */
  once?: boolean
  clock: Clock
  signal: AbortSignal
  onPoll(event: PollEvent): void
  /** Called at most once a minute while the job is active. */
  onHeartbeat(message: string): void
}

/** Polls until the job reaches a terminal status, the deadline passes or the step is cancelled. */
export async function waitForJob(options: WaitOptions): Promise<WaitEnd> {
  const { clock, deadline, signal } = options
  const start = clock.now()
  let lastHeartbeat = start
  let polls = 0
  // Consecutive transient failures, for the backoff. A 404 within the grace keeps the normal schedule.
  let failures = 0
  const next = (retryAfterMs?: number): number | undefined => scheduledDelay(options, start, failures, retryAfterMs)
  const holdOf = terminalHold(options.previous, deadline)
  let delay: number | undefined = options.pollNow ? 0 : next()
  // A completed job being read again for a late PR link: a wait that ends meanwhile (its time, a
  // read that fails) ends with it, completed with no docs PR, never as timed out.
  let settled: AgentJob | undefined
  const ended = (): WaitEnd =>
    settled ? { reason: 'terminal', job: settled, status: 'completed' } : { reason: 'timed-out' }

  for (;;) {
    if (delay === undefined) return ended()
    try {
      if (delay > 0) await clock.sleep(delay, signal)
      polls++
      const job = await options.getJob(options.jobId, { timeoutMs: requestTimeout(deadline, clock.now()), signal })
      failures = 0
      if (options.once) {
        options.onPoll({ job })
        return { reason: 'read', job }
      }
      const now = clock.now()
      const { held, settling } = holdOf(job, now)
      options.onPoll(held ? { job, held } : { job })
      if (isTerminal(job.status) && held === undefined) return { reason: 'terminal', job, status: job.status }
      settled = settling && held && job.status === 'completed' ? job : undefined
      delay = settling && held ? Math.min(PR_SETTLE_POLL_MS, deadline - now) : next()
    } catch (error) {
      if (error instanceof Cancelled) return { reason: 'cancelled' }
      if (!(error instanceof ApiError)) throw error
      const retry = error.kind === 'not-found' ? notFoundRetry(options) : isTransientForPoll(error)
      if (!retry) {
        if (settled) return ended()
        throw error
      }
      if (error.kind !== 'not-found') failures++
      delay = next(error.kind === 'not-found' ? undefined : error.retryAfterMs)
      options.onPoll({ error, retryInMs: delay })
    }
    if (clock.now() >= deadline) return ended()
    if (clock.now() - lastHeartbeat >= HEARTBEAT_MS) {
      lastHeartbeat = clock.now()
      options.onHeartbeat(`Still waiting after ${formatDuration(lastHeartbeat - start)} (${polls} polls)`)
    }
  }
}

/** Whether a 404 may still be the service catching up with our POST. */
function notFoundRetry({ notFoundUntil, clock }: WaitOptions): boolean {
  return notFoundUntil !== undefined && clock.now() < notFoundUntil
}

/** The schedule's next delay, from how long the wait has run, how long it has left and the failures in a row. */
function scheduledDelay(
  { clock, deadline, schedule }: WaitOptions,
  start: number,
  failures: number,
  retryAfterMs: number | undefined
): number | undefined {
  return nextPollDelay(
    {
      elapsedMs: clock.now() - start,
      remainingMs: deadline - clock.now(),
      failures,
      retryAfterMs,
      random: clock.random()
    },
    schedule
  )
}

/**
 * Judges each record read: `held` says why its terminal status must not end the wait yet (a
 * follow-up not taken up so far, or a pull request link still to come); `settling`, that a
 * completed job without a link is being read again.
 */
function terminalHold(
  previous: WaitOptions['previous'],
  deadline: number
): (job: AgentJob, now: number) => { held: string | undefined; settling: boolean } {
  // After a follow-up: whether what we read is the follow-up's doing, not the previous prompt's.
  let current = previous === undefined
  let settlingSince: number | undefined
  return (job, now) => {
    if (previous && !current) {
      current =
        job.status === 'active' ||
        jobFingerprint(job) !== previous.fingerprint ||
        now - previous.answeredAt >= FOLLOW_UP_GRACE_MS
    }
    let held: string | undefined
    if (isTerminal(job.status) && !current) {
      held = `still shows the result of the previous prompt; waiting for the follow-up to be taken up`
    } else if (job.status === 'completed' && job.prLink === undefined && deadline - now >= PR_SETTLE_POLL_MS) {
      settlingSince ??= now
      if (now - settlingSince < PR_SETTLE_MS) held = 'completed without a pull request link so far; reading it again'
    }
    return { held, settling: settlingSince !== undefined }
  }
}
