import { Cancelled, type CallOptions } from './client.js'
import { formatDuration } from './duration.js'
import { ApiError, isTransientForPoll } from './errors.js'
import type { AgentJob } from './job.js'
import { isTerminal } from './job.js'
import { nextPollDelay, type PollSchedule } from './schedule.js'

/** Why a wait ended (a failure that cannot be retried is thrown as an `ApiError` instead). */
export type WaitEnd = { reason: 'terminal'; job: AgentJob } | { reason: 'timed-out' } | { reason: 'cancelled' }

/**
 * A 404 right after our create or message may be the server catching up: tolerated this many
 * times in a row, within this long of the POST.
 */
export const NOT_FOUND_GRACE = { polls: 3, ms: 30_000 } as const
/** Longest any single request may take. */
export const REQUEST_TIMEOUT_MS = 30_000
/** A request made at the deadline still gets this long, so the last poll can answer. */
const LAST_REQUEST_MS = 2_000
const HEARTBEAT_MS = 60_000

export interface Clock {
  now(): number
  /** Resolves after `ms`; rejects with `Cancelled` when the signal aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>
  /** Uniform in [0, 1). */
  random(): number
}

export interface WaitOptions {
  jobId: string
  getJob(jobId: string, call: CallOptions): Promise<AgentJob>
  schedule: PollSchedule
  /** Epoch ms by which the step must end. */
  deadline: number
  /** Poll at once (wait-only) or after the first delay (after a create or message). */
  pollNow: boolean
  /** When we created or messaged the job, if we did: starts the 404 grace. */
  postedAt: number | undefined
  clock: Clock
  signal: AbortSignal
  /** Called with each record read, and each failed poll. */
  onPoll(event: { job: AgentJob } | { error: ApiError; retryInMs: number | undefined }): void
  /** Called at most once a minute while the job is active. */
  onHeartbeat(message: string): void
}

export function requestTimeout(deadline: number, now: number): number {
  return Math.min(REQUEST_TIMEOUT_MS, Math.max(LAST_REQUEST_MS, deadline - now))
}

/** Polls until the job reaches a terminal status, the deadline passes or the step is cancelled. */
export async function waitForJob(options: WaitOptions): Promise<WaitEnd> {
  const { clock, deadline, signal } = options
  const start = clock.now()
  let lastHeartbeat = start
  let polls = 0
  let failures = 0
  let delay: number | undefined = options.pollNow
    ? 0
    : nextPollDelay({ elapsedMs: 0, remainingMs: deadline - start, failures, random: clock.random() }, options.schedule)

  for (;;) {
    if (delay === undefined) return { reason: 'timed-out' }
    try {
      if (delay > 0) await clock.sleep(delay, signal)
      polls++
      const job = await options.getJob(options.jobId, { timeoutMs: requestTimeout(deadline, clock.now()), signal })
      failures = 0
      options.onPoll({ job })
      if (isTerminal(job.status)) return { reason: 'terminal', job }
      delay = nextPollDelay(
        { elapsedMs: clock.now() - start, remainingMs: deadline - clock.now(), failures, random: clock.random() },
        options.schedule
      )
    } catch (error) {
      if (error instanceof Cancelled) return { reason: 'cancelled' }
      if (!(error instanceof ApiError) || !isRetryable(error, failures, options.postedAt, clock.now())) throw error
      failures++
      delay = nextPollDelay(
        {
          elapsedMs: clock.now() - start,
          remainingMs: deadline - clock.now(),
          failures,
          retryAfterMs: error.retryAfterMs,
          random: clock.random()
        },
        options.schedule
      )
      options.onPoll({ error, retryInMs: delay })
    }
    if (clock.now() >= deadline) return { reason: 'timed-out' }
    if (clock.now() - lastHeartbeat >= HEARTBEAT_MS) {
      lastHeartbeat = clock.now()
      options.onHeartbeat(`Still waiting after ${formatDuration(lastHeartbeat - start)} (${polls} polls)`)
    }
  }
}

function isRetryable(error: ApiError, failures: number, postedAt: number | undefined, now: number): boolean {
  if (error.kind === 'not-found') {
    return postedAt !== undefined && failures < NOT_FOUND_GRACE.polls && now - postedAt < NOT_FOUND_GRACE.ms
  }
  return isTransientForPoll(error)
}
