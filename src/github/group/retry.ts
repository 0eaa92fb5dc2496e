/**
 * Reads that decide between a follow-up and a new job are retried, a few times, when GitHub is
 * briefly unwell (5xx, a dropped connection) or asks to wait (rate limits). Never used for writes.
 */

export interface RetryOptions {
  /** Resolves after `ms`; rejects when `signal` aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>
  now(): number
  signal: AbortSignal
}

/** Tries per read, the first included. */
export const READ_ATTEMPTS = 3
/** A rate limit that lifts later than this is not waited for. */
export const MAX_RATE_WAIT_MS = 60_000
const BACKOFF_MS = [1_000, 3_000] as const

/** The delay before trying `error`'s read again, or undefined when it is not worth another try. */
export function retryDelay(error: unknown, attempt: number, now: number): number | undefined {
  if (attempt >= READ_ATTEMPTS) return undefined
  const { status, response } = (error ?? {}) as { status?: unknown; response?: { headers?: Record<string, unknown> } }
  const headers = response?.headers ?? {}
  const backoff: number = BACKOFF_MS[attempt - 1] ?? BACKOFF_MS[1]
  const rateLimited =
    status === 429 || (status === 403 && (headers['x-ratelimit-remaining'] === '0' || 'retry-after' in headers))
  if (rateLimited) {
    const after = Number(headers['retry-after'])
    const reset = Number(headers['x-ratelimit-reset'])
    const wait =
      Number.isFinite(after) && 'retry-after' in headers
        ? after * 1000
        : Number.isFinite(reset) && 'x-ratelimit-reset' in headers
          ? reset * 1000 - now
          : backoff
    return wait <= MAX_RATE_WAIT_MS ? Math.max(wait, 0) : undefined
  }
  if (typeof status === 'number') return status >= 500 ? backoff : undefined
  // No answer at all (a reset connection): a read may be sent again.
  return error instanceof Error && error.name !== 'AbortError' ? backoff : undefined
}

/** `read`, tried again after a transient failure; the last failure is thrown. */
export async function retried<T>(read: () => Promise<T>, options: RetryOptions): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await read()
    } catch (error) {
      const delay = options.signal.aborted ? undefined : retryDelay(error, attempt, options.now())
      if (delay === undefined) throw error
      await options.sleep(delay, options.signal)
    }
  }
}
