/** One request's bounds, as every Agent API call takes them. */
export interface CallOptions {
  /** Time limit of this request, answer body included (ms). */
  timeoutMs: number
  /** Aborts on cancellation of the step. */
  signal: AbortSignal
}
