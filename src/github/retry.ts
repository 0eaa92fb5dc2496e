import type { Octokit } from '@octokit/core'
import type Bottleneck from 'bottleneck'
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
export function retryOptions(pace: RetryPace, limiter: typeof Bottleneck): Pick<OctokitOptions, 'retry' | 'throttle'> {
  const fits = (retryAfter: number, options: RequestOptions, retryCount: number): boolean =>
    retryCount < RATE_LIMIT_RETRIES && retryAfter <= RATE_LIMIT_WAIT_S && !options.request?.signal?.aborted
  return {
    retry: { doNotRetry: NOT_TRANSIENT, retries: READ_RETRIES, retryAfterBaseValue: pace.msPerSecond },
    throttle: {
      retryAfterBaseValue: pace.msPerSecond,
      // GitHub asks for a second between writes: paced like the waits (the plugin's own groups are per process, in real seconds).
      write: new limiter.Group({ maxConcurrent: 1, minTime: pace.msPerSecond }),
      notifications: new limiter.Group({ maxConcurrent: 1, minTime: 3 * pace.msPerSecond }),
      onRateLimit: (retryAfter: number, options: RequestOptions, _octokit: unknown, retryCount: number) =>
        fits(retryAfter, options, retryCount),
      onSecondaryRateLimit: (retryAfter: number, options: RequestOptions, _octokit: unknown, retryCount: number) =>
        fits(retryAfter, options, retryCount)
    }
  }
}

/**
 * The retry plugin reads `request.retries` when a request fails: 0 for a write (it may have taken
 * effect). A request whose signal fires fails then, even in a plugin's wait between tries (those
 * waits run on timers no signal reaches); the try after the wait fails at once, unsent.
 */
export function onlyReadsRetry(octokit: Pick<Octokit, 'hook'>): void {
  octokit.hook.before('request', (options) => {
    if (READS.has(options.method.toUpperCase())) return
    options.request = { ...options.request, retries: 0 }
  })
  // Registered last, so outermost: it sees the plugins' waits and retries as one request.
  octokit.hook.wrap('request', (request, options) =>
    untilAborted(request(options), (options.request as RequestOptions['request'])?.signal)
  )
}

function untilAborted<T>(pending: T | Promise<T>, signal: AbortSignal | null | undefined): Promise<T> {
  if (!signal) return Promise.resolve(pending)
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error)
    if (signal.aborted) onAbort()
    else signal.addEventListener('abort', onAbort, { once: true })
    Promise.resolve(pending)
      .then(resolve, reject)
      .finally(() => signal.removeEventListener('abort', onAbort))
  })
}
