import type { OctokitOptions } from '@octokit/core/types'

/** Retries of one request for a rate limit; the plugins' waits past this are not worth the step's time. */
const RATE_LIMIT_RETRIES = 2
const RATE_LIMIT_WAIT_S = 60
/** A read answered 5xx (or lost on the way) is tried this many more times. */
const READ_RETRIES = 3
/** Methods that change nothing on GitHub, so sending them again is safe. */
const READS = new Set(['GET', 'HEAD'])
/** Every 4xx: a client error is GitHub's answer, not a passing fault (rate limits are throttling's). */
const NOT_TRANSIENT = Array.from({ length: 100 }, (_, i) => 400 + i)

export interface RetryPace {
  /** Milliseconds per second of a wait (Retry-After, backoff); tests make it small. */
  msPerSecond: number
}

interface RequestOptions {
  method?: string
  request?: { signal?: AbortSignal | null; retries?: number }
}

/**
 * The options of `@octokit/plugin-retry` and `@octokit/plugin-throttling`. A rate-limit answer
 * (403/429 with GitHub's rate-limit headers or message) says GitHub did nothing, so any request is
 * retried after the wait while it fits; a 5xx or a connection lost may come after a write took
 * effect, so only reads are retried on those (see `onlyReadsRetry`).
 */
export function retryOptions(pace: RetryPace): Pick<OctokitOptions, 'retry' | 'throttle'> {
  const fits = (retryAfter: number, options: RequestOptions, retryCount: number): boolean =>
    retryCount < RATE_LIMIT_RETRIES && retryAfter <= RATE_LIMIT_WAIT_S && !options.request?.signal?.aborted
  return {
    retry: { doNotRetry: NOT_TRANSIENT, retries: READ_RETRIES, retryAfterBaseValue: pace.msPerSecond },
    throttle: {
      retryAfterBaseValue: pace.msPerSecond,
      onRateLimit: (retryAfter: number, options: RequestOptions, _octokit: unknown, retryCount: number) =>
        fits(retryAfter, options, retryCount),
      onSecondaryRateLimit: (retryAfter: number, options: RequestOptions, _octokit: unknown, retryCount: number) =>
        fits(retryAfter, options, retryCount)
    }
  }
}

interface Hooks {
  hook: {
    before(name: 'request', fn: (options: RequestOptions) => void): void
    error(name: 'request', fn: (error: unknown, options: RequestOptions) => never): void
  }
}

/**
 * The retry plugin reads `request.retries` when a request fails: 0 for a write (it may have taken
 * effect) and for a request whose signal has fired (the step's time is up; sending it again fails at once).
 */
export function onlyReadsRetry(octokit: Hooks): void {
  octokit.hook.before('request', (options) => {
    if (READS.has((options.method ?? 'GET').toUpperCase())) return
    options.request ??= {}
    options.request.retries = 0
  })
  octokit.hook.error('request', (error, options) => {
    if (options.request?.signal?.aborted) options.request.retries = 0
    throw error
  })
}
