/** The kinds of API failure; every response and network error is classified once, here. */
import { causes, isTlsCode, type Cause } from '../base/causes.js'

export type ApiErrorKind =
  /** 401: the key is wrong. */
  | 'unauthorized'
  /** 403: the key may not do this (or the IP allow-list refused us). */
  | 'forbidden'
  /** 404. */
  | 'not-found'
  /** 400 and other 4xx: the request itself is wrong; the server's `error` text says why. */
  | 'invalid'
  /** 429. The server did not act. */
  | 'rate-limited'
  /** 503: the server did not act. */
  | 'unavailable'
  /** 500, 502, 504 and other 5xx: the server may have acted. */
  | 'server-error'
  /** The request never left: connection refused, DNS failure, connect timeout, closed before sending. */
  | 'not-sent'
  /** The proxy refused to open a tunnel to the API (`status` is the proxy's answer): nothing was sent. */
  | 'proxy'
  /** TLS failed before the request was sent (an untrusted or expired certificate, a name mismatch). */
  | 'tls'
  /** Sent, but no complete answer (reset, our timer fired): the server may have acted. */
  | 'no-answer'
  /** A 2xx whose body we cannot use (empty, not JSON, too large, no job id). */
  | 'bad-response'
  /** A 3xx: we never follow redirects with the key. */
  | 'redirect'

export class ApiError extends Error {
  /** Retry-After from the answer, in ms from when it came; on a 429, only one that asks for a wait. */
  readonly retryAfterMs: number | undefined

  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    /** HTTP status, when an answer came (for `proxy`, the proxy's). */
    readonly status?: number,
    retryAfterMs?: number
  ) {
    super(message)
    this.name = 'ApiError'
    // A 429's Retry-After of 0 (or a date already past, clocks skew) is read as none. The contract
    // documents no Retry-After and limits over a window (100 uses per project per hour), so "now"
    // does not mean the limit has cleared: each caller's own wait for the limit applies, where
    // "now" would send a create five times at once and give up.
    this.retryAfterMs = kind === 'rate-limited' && retryAfterMs === 0 ? undefined : retryAfterMs
  }
}

/**
 * Whether a POST may be sent again: only when the server certainly did not act on it, and
 * trying again can help (a refused proxy login or a bad certificate will not mend in seconds).
 */
export function isSafeToRetryPost(error: ApiError): boolean {
  switch (error.kind) {
    case 'rate-limited':
    case 'unavailable':
    case 'not-sent':
      return true
    case 'proxy':
      return error.status !== 407
    case 'unauthorized':
    case 'forbidden':
    case 'not-found':
    case 'invalid':
    case 'server-error':
    case 'tls':
    case 'no-answer':
    case 'bad-response':
    case 'redirect':
      return false
  }
}

/** Whether a poll (a GET, safe to repeat) should be tried again after this failure. */
export function isTransientForPoll(error: ApiError): boolean {
  switch (error.kind) {
    case 'rate-limited':
    case 'unavailable':
    case 'server-error':
    case 'not-sent':
    case 'no-answer':
    case 'bad-response':
      return true
    case 'proxy':
      return error.status !== 407
    case 'unauthorized':
    case 'forbidden':
    case 'not-found':
    case 'invalid':
    case 'tls':
    case 'redirect':
      return false
  }
}

/** Whether a POST that failed this way may have taken effect on the server. */
export function mayHaveTakenEffect(error: ApiError): boolean {
  switch (error.kind) {
    case 'server-error':
    case 'no-answer':
    case 'bad-response':
      return true
    case 'unauthorized':
    case 'forbidden':
    case 'not-found':
    case 'invalid':
    case 'rate-limited':
    case 'unavailable':
    case 'not-sent':
    case 'proxy':
    case 'tls':
    case 'redirect':
      return false
  }
}

export function kindOfStatus(status: number): ApiErrorKind {
  if (status === 401) return 'unauthorized'
  if (status === 403) return 'forbidden'
  if (status === 404) return 'not-found'
  if (status === 429) return 'rate-limited'
  if (status === 503) return 'unavailable'
  if (status >= 500) return 'server-error'
  if (status >= 300 && status < 400) return 'redirect'
  return 'invalid'
}

/** What is known about a request that ended without an answer. */
export interface WireFacts {
  /** Whether the request's bytes had been handed to the socket. */
  sent: boolean
  /** Whether our own time limit fired. */
  timedOut: boolean
  /** That time limit, for the message. */
  timeoutMs: number
}

// undici reports a proxy that refuses CONNECT as an abort naming the proxy's status.
const PROXY_REFUSAL = /^Proxy response \((\d{3})\) !== 200 when HTTP Tunneling/

/** Classifies an error thrown by the HTTP client (never a response) from what happened on the wire. */
export function networkError(error: unknown, wire: WireFacts): ApiError {
  const seconds = `${Math.round(wire.timeoutMs / 100) / 10}s`
  const chain = causes(error)
  const proxy = chain.map((e) => PROXY_REFUSAL.exec(e.message)).find(Boolean)
  if (proxy) {
    const status = Number(proxy[1])
    return new ApiError('proxy', `the proxy refused to connect to the API (it answered ${status})`, status)
  }
  const tls = chain.find((e) => isTlsCode(e.code))
  // A TLS error after the request's bytes were written (a bad record, an alert mid-answer) leaves
  // the server free to have acted on them: only one before sending is a certain "not sent".
  if (tls && wire.sent) return new ApiError('no-answer', `TLS failed after the request was sent: ${detail(chain)}`)
  if (tls) return new ApiError('tls', `TLS failed: ${detail(chain)}`)
  if (wire.timedOut) {
    return wire.sent
      ? new ApiError('no-answer', `no answer within ${seconds}`)
      : new ApiError('not-sent', `could not connect within ${seconds}`)
  }
  return wire.sent
    ? new ApiError('no-answer', `connection failed: ${detail(chain)}`)
    : new ApiError('not-sent', `could not connect: ${detail(chain)}`)
}

function detail(chain: Cause[]): string {
  return chain
    .map(({ message, code }) => (code && !message.includes(code) ? `${message} (${code})` : message))
    .join(': ')
}

/**
 * Retry-After in ms from `nowMs`: delta-seconds or an HTTP-date. Undefined when absent or
 * malformed; a date in the past is 0.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined
  const text = value.trim()
  if (/^\d+$/.test(text)) return Number(text) * 1000
  if (!/[a-z]/i.test(text)) return undefined
  const date = parseHttpDate(text)
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs)
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
/** RFC 9110's asctime form, `Sun Nov  6 08:49:37 1994`: the day of the month is two digits or a space and one. */
const ASCTIME = /^[A-Z][a-z]{2} ([A-Z][a-z]{2}) ( \d|\d\d) (\d\d):(\d\d):(\d\d) (\d{4})$/

/** Epoch ms of an HTTP-date (any of RFC 9110's three forms), or NaN. */
function parseHttpDate(text: string): number {
  const asctime = ASCTIME.exec(text)
  // The asctime form names no zone, yet is GMT: Date.parse would read it in the runner's local time.
  if (!asctime) return Date.parse(text)
  const [, month, day, hours, minutes, seconds, year] = asctime
  const index = MONTHS.indexOf(month ?? '')
  return index < 0 ? NaN : Date.UTC(Number(year), index, Number(day), Number(hours), Number(minutes), Number(seconds))
}
