import { Cancelled } from '../base/cancel.js'
import { requestTimeout, type Clock } from '../base/clock.js'
import type { PreviewApi } from './client.js'
import type { CallOptions } from './call.js'
import type { PreviewRequested, PreviewStatus } from './deployment.js'
import { ApiError, isTransientForPoll } from './errors.js'

/** How asking for a branch's preview ended: never thrown, since a preview never changes the step's result. */
export type PreviewEnd =
  | { kind: 'ready'; url: string }
  /** 403: the plan has no previews. */
  | { kind: 'not-available' }
  /** 429, and 429 again after waiting once. */
  | { kind: 'rate-limited' }
  | { kind: 'failed'; url: string; summary: string | undefined }
  | { kind: 'timed-out'; url: string }
  | { kind: 'error'; error: ApiError }
  | { kind: 'cancelled' }

/** The longest the step waits for a preview, whatever is left of `timeout`. */
export const PREVIEW_MAX_MS = 10 * 60_000
/** Between two reads of the deployment's status. */
export const PREVIEW_POLL_MS = 5_000
/** After a 429 without Retry-After: the documented window is a minute. */
export const PREVIEW_RATE_WAIT_MS = 60_000

export interface PreviewOptions {
  clock: Clock
  signal: AbortSignal
  /** Epoch ms by which the step must end; the preview takes at most PREVIEW_MAX_MS of it. */
  deadline: number
  /** One line per event worth a debug line (a rate limit waited, a failed read retried). */
  debug(message: string): void
}

/** Asks for `branch`'s preview (a redeploy when it exists) and follows the deployment to its end. */
export async function awaitPreview(api: PreviewApi, branch: string, options: PreviewOptions): Promise<PreviewEnd> {
  const { clock, signal } = options
  const deadline = Math.min(options.deadline, clock.now() + PREVIEW_MAX_MS)
  const call = (): CallOptions => ({ timeoutMs: requestTimeout(deadline, clock.now()), signal })
  try {
    let requested: PreviewRequested
    try {
      requested = await api.requestPreview(branch, call())
    } catch (error) {
      // A 429 means nothing was done: one more try after the wait it asks for, if there is time.
      if (!(error instanceof ApiError) || error.kind !== 'rate-limited') throw error
      const wait = error.retryAfterMs ?? PREVIEW_RATE_WAIT_MS
      if (clock.now() + wait >= deadline) return { kind: 'rate-limited' }
      options.debug(`Preview: rate limited; asking again in ${Math.ceil(wait / 1000)} s`)
      await clock.sleep(wait, signal)
      requested = await api.requestPreview(branch, call())
    }
    return await follow(api, requested, deadline, options)
  } catch (error) {
    if (error instanceof Cancelled) return { kind: 'cancelled' }
    if (!(error instanceof ApiError)) throw error
    if (error.kind === 'forbidden') return { kind: 'not-available' }
    if (error.kind === 'rate-limited') return { kind: 'rate-limited' }
    return { kind: 'error', error }
  }
}

async function follow(
  api: PreviewApi,
  { statusId, previewUrl: url }: PreviewRequested,
  deadline: number,
  options: PreviewOptions
): Promise<PreviewEnd> {
  const { clock, signal } = options
  let waitMs = PREVIEW_POLL_MS
  for (;;) {
    // A read that cannot come before the deadline (a Retry-After past it included) is not waited for.
    if (clock.now() + waitMs > deadline) return { kind: 'timed-out', url }
    await clock.sleep(waitMs, signal)
    let read: PreviewStatus
    try {
      read = await api.getPreviewStatus(statusId, { timeoutMs: requestTimeout(deadline, clock.now()), signal })
    } catch (error) {
      if (!(error instanceof ApiError) || !isTransientForPoll(error)) throw error
      // A 429 asks us to slow down: the next read waits at least its Retry-After.
      waitMs = error.kind === 'rate-limited' ? Math.max(PREVIEW_POLL_MS, error.retryAfterMs ?? 0) : PREVIEW_POLL_MS
      const again = `reading it again in ${Math.ceil(waitMs / 1000)} s`
      options.debug(`Preview: reading the deployment's status failed (${error.message}); ${again}`)
      continue
    }
    waitMs = PREVIEW_POLL_MS
    if (read.status === 'success') return { kind: 'ready', url }
    if (read.status === 'failure') return { kind: 'failed', url, summary: read.summary }
  }
}
