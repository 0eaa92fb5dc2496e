import { setTimeout as delay } from 'node:timers/promises'
import { Cancelled } from './cancel.js'

/** Time as the step sees it: the system's in the action, a virtual one in the in-process tests. */
export interface Clock {
  /** Epoch ms. */
  now(): number
  /** Resolves after `ms`; rejects with `Cancelled` when the signal aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>
  /** A signal that aborts `ms` from now: the time limit of one request. */
  timeout(ms: number): AbortSignal
  /** Uniform in [0, 1). */
  random(): number
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    delay(ms, undefined, { signal }).catch((error: unknown) => {
      throw signal.aborted ? new Cancelled(false) : error
    }),
  timeout: timeLimit,
  random: () => Math.random()
}

/**
 * A signal that aborts `ms` from now. Not `AbortSignal.timeout`: Node 20 lets a timeout signal that
 * only `AbortSignal.any` refers to be garbage-collected before it fires (nodejs/node#57736), and the
 * request it bounds then has no limit. Here the pending timer holds the controller.
 */
export function timeLimit(ms: number): AbortSignal {
  const controller = new AbortController()
  setTimeout(() => controller.abort(new DOMException('The operation timed out.', 'TimeoutError')), ms).unref()
  return controller.signal
}

/** Longest any single request may take. */
export const REQUEST_TIMEOUT_MS = 30_000
/** A request made at the deadline still gets this long, so the last poll can answer. */
export const LAST_REQUEST_MS = 2_000

/** The time limit of a request made at `now`: what is left before the deadline, within bounds. */
export function requestTimeout(deadline: number, now: number): number {
  return Math.min(REQUEST_TIMEOUT_MS, Math.max(LAST_REQUEST_MS, deadline - now))
}
