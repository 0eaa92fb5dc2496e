import type { Octokit } from '@octokit/core'
import type Bottleneck from 'bottleneck'
import type { OctokitOptions } from '@octokit/core/types'
import { socketError } from '../base/causes.js'
import type { Clock } from '../base/clock.js'

/** Retries of one request for a rate limit; the plugins' waits past this are not worth the step's time. */
const RATE_LIMIT_RETRIES = 2
const RATE_LIMIT_WAIT_S = 60
/**
 * The waits before a read's second, third and fourth try, after a 5xx or a failed connection: 7 s
 * in all, inside the shortest budget a read has (10 s, the context's and the permission's), so a
 * read that fails on every try ends on its own last failure, not on its budget.
 */
export const READ_WAITS_MS = [1000, 2000, 4000]
/** Methods that change nothing on GitHub, so sending them again is safe. */
const READS = new Set(['GET', 'HEAD'])
/** The signal of a request that has none: it never fires. */
const NEVER = new AbortController().signal

export interface RetryPace {
  /** Milliseconds per second of the throttling plugin's waits (Retry-After, write spacing); tests make it small. */
  msPerSecond: number
}

interface RequestOptions {
  request?: { signal?: AbortSignal | null }
}

/**
 * The options of `@octokit/plugin-throttling`. A rate-limit answer (403/429 with GitHub's
 * rate-limit headers or message) says GitHub did nothing, so any request, a write too, is tried
 * again after the wait while it fits.
 */
export function throttleOptions(pace: RetryPace, limiter: typeof Bottleneck): Pick<OctokitOptions, 'throttle'> {
  const fits = (retryAfter: number, options: RequestOptions, retryCount: number): boolean =>
    retryCount < RATE_LIMIT_RETRIES && retryAfter <= RATE_LIMIT_WAIT_S && !options.request?.signal?.aborted
  return {
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

/** A request's failure, by its options, while no try follows it: the throttling plugin waits. */
const failedTries = new WeakMap<object, unknown>()

/**
 * An Octokit plugin, given to Octokit before the throttling plugin so that it sees each of that
 * plugin's tries: it keeps the failure of a request's latest try (a rate limit the plugin waits
 * out), for `retryReads` to end on when the signal fires in the wait. A try under way has none:
 * a write's try on its way may take effect, so a signal that cuts it is no refusal.
 */
export function recordTries(octokit: Pick<Octokit, 'hook'>): void {
  octokit.hook.wrap('request', async (request, options) => {
    failedTries.delete(options)
    try {
      return await request(options)
    } catch (error) {
      failedTries.set(options, error)
      throw error
    }
  })
}

/**
 * A read (a GraphQL query included) answered 5xx, or whose connection failed, is tried again after
 * each of READ_WAITS_MS on the step's clock; a write (a GraphQL mutation included) never is (it may have taken effect). A request ends when its signal
 * fires, even in the throttling plugin's waits (those run on timers no signal reaches), and then
 * on its last failure when a try failed before, or when the throttling plugin waits after a rate
 * limit (recordTries): that is why it did not succeed, not the time.
 */
export function retryReads(octokit: Pick<Octokit, 'hook'>, clock: Pick<Clock, 'sleep'>): void {
  // Registered after the plugins, so outermost: the throttling plugin's waits and tries are one try here.
  octokit.hook.wrap('request', async (request, options) => {
    const signal = (options.request as RequestOptions['request'])?.signal ?? undefined
    const waits = isRead(options) ? READ_WAITS_MS : []
    let last: unknown
    for (let tried = 0; ; tried++) {
      try {
        return await untilAborted(request(options), signal)
      } catch (error) {
        if (signal?.aborted) throw failedTries.get(options) ?? last ?? error
        const wait = waits[tried]
        if (wait === undefined || !passing(error)) throw error
        last = error
        // The budget ends in the wait: the failure stands.
        await clock.sleep(wait, signal ?? NEVER).catch(() => {
          throw error
        })
      }
    }
  })
}

/** A GET or HEAD, or a GraphQL query (a POST that changes nothing, unlike a mutation). */
function isRead(options: { method: string; url: string; query?: unknown }): boolean {
  if (READS.has(options.method.toUpperCase())) return true
  const { query } = options
  return /(^|\/)graphql$/.test(options.url) && typeof query === 'string' && !/^\s*mutation\b/.test(query)
}

/**
 * A 5xx answer, or a connection lost or never made (which Octokit reports as a 500 without an
 * answer); not a TLS failure nor a request never sent, which the next try would meet again.
 */
function passing(error: unknown): boolean {
  const { status, response } = error as { status?: unknown; response?: unknown }
  if (typeof status !== 'number' || status < 500) return false
  return response !== undefined || socketError(error) !== undefined
}

function untilAborted<T>(pending: T | Promise<T>, signal: AbortSignal | undefined): Promise<T> {
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
