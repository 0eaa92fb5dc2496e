/**
 * When to poll next and when to retry: pure functions of their inputs, so the polling loop stays
 * tiny and the schedule can be unit-tested and benchmarked on a virtual clock.
 */

export interface PollSchedule {
  /** First delay, and the floor of every delay (ms). */
  initialMs: number
  /** Cap on a delay, jitter included (ms). */
  maxMs: number
  /** Share of the time waited that the next delay is (default GROWTH; the bench varies it). */
  growth?: number
  /** Relative jitter either way (default JITTER). */
  jitter?: number
}

/**
 * Delays grow with the time already waited (22 % of it, so at most a quarter with jitter): a
 * job that has run for t is noticed within about t/4 of finishing, which keeps the detection
 * lag a fixed share of the job's duration while the number of polls grows only with the
 * logarithm of it until the cap.
 */
export const GROWTH = 0.22
/** Symmetric jitter (±10 %), so runs in a matrix do not poll in lockstep. */
export const JITTER = 0.1

export interface PollInput {
  /** Time since the wait began (ms). */
  elapsedMs: number
  /** Time left before the step's deadline (ms). */
  remainingMs: number
  /** Consecutive failed polls just before this delay. */
  failures: number
  /** The server's Retry-After, when the last answer carried one (ms from now). */
  retryAfterMs?: number | undefined
  /** A uniform random number in [0, 1). */
  random: number
}

/**
 * The delay before the next poll (ms), or undefined when no poll fits before the deadline
 * (the server asked us to come back later than that).
 */
export function nextPollDelay(input: PollInput, schedule: PollSchedule): number | undefined {
  const { initialMs, maxMs, growth = GROWTH, jitter = JITTER } = schedule
  let base = Math.min(maxMs, Math.max(initialMs, growth * input.elapsedMs))
  // Failing polls back off by doubling from the first delay, within the same cap.
  if (input.failures > 0) base = Math.max(base, Math.min(maxMs, initialMs * 2 ** input.failures))
  const jittered = base * (1 + jitter * (2 * input.random - 1))
  const delay = Math.max(Math.min(maxMs, jittered), input.retryAfterMs ?? 0)
  if ((input.retryAfterMs ?? 0) > input.remainingMs) return undefined
  return Math.max(0, Math.min(delay, input.remainingMs))
}

/** Bounds on retrying a request that certainly did not take effect. */
export const RETRY = { attempts: 5, baseMs: 1000, maxMs: 30_000 } as const

/**
 * A 429 without Retry-After: the documented limit is 100 uses per project per hour, so seconds of
 * backoff cannot outlast it. Delays double from tens of seconds to a few minutes, and go on for as
 * long as the step's timeout allows (a 429 was not acted on, so each retry is safe).
 */
export const RATE_LIMIT_RETRY = { baseMs: 20_000, maxMs: 5 * 60_000, jitter: 0.25 } as const

export interface RetryInput {
  /** Attempts made so far (1 after the first failure). */
  attempt: number
  remainingMs: number
  retryAfterMs?: number | undefined
  /** The last failure was a 429 (rate limited). */
  rateLimited?: boolean
  random: number
}

/**
 * Delay before retrying a request (ms), or undefined when it should not be retried: the attempts
 * are spent or the wait would not fit in the time left. With Retry-After: that, within the attempt
 * budget. A 429 without it: the rate-limit backoff, jittered down by up to a quarter so runs
 * limited together spread out, and never over its cap. Else: capped exponential backoff with full jitter.
 */
export function nextRetryDelay(input: RetryInput): number | undefined {
  if (input.rateLimited === true && input.retryAfterMs === undefined) {
    const { baseMs, maxMs, jitter } = RATE_LIMIT_RETRY
    const delay = Math.min(maxMs, baseMs * 2 ** (input.attempt - 1)) * (1 - jitter * input.random)
    return delay < input.remainingMs ? delay : undefined
  }
  if (input.attempt >= RETRY.attempts) return undefined
  const delay = input.retryAfterMs ?? input.random * Math.min(RETRY.maxMs, RETRY.baseMs * 2 ** (input.attempt - 1))
  return delay < input.remainingMs ? delay : undefined
}
