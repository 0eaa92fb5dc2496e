/** The kinds of API failure; every response and network error is classified once, here. */
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
  /** No connection was made (refused, DNS, connect timeout): the request never left. */
  | 'not-sent'
  /** Sent, but no complete answer (reset, timeout): the server may have acted. */
  | 'no-answer'
  /** A 2xx whose body we cannot use (empty, not JSON, too large, no job id). */
  | 'bad-response'
  /** A 3xx: we never follow redirects with the key. */
  | 'redirect'

export class ApiError extends Error {
  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    /** HTTP status, when an answer came. */
    readonly status?: number,
    /** Retry-After from the answer, in ms from when it came. */
    readonly retryAfterMs?: number
  ) {
    super(message)
    this.name = 'ApiError'
  }
}

/** Whether a POST may be sent again: only when the server certainly did not act on it. */
export function isSafeToRetryPost(error: ApiError): boolean {
  switch (error.kind) {
    case 'rate-limited':
    case 'unavailable':
    case 'not-sent':
      return true
    case 'unauthorized':
    case 'forbidden':
    case 'not-found':
    case 'invalid':
    case 'server-error':
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
    case 'unauthorized':
    case 'forbidden':
    case 'not-found':
    case 'invalid':
    case 'redirect':
      return false
  }
}

/** Whether a POST that failed this way may have taken effect on the server. */
export function mayHaveTakenEffect(error: ApiError): boolean {
  return error.kind === 'server-error' || error.kind === 'no-answer' || error.kind === 'bad-response'
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

/** Connection errors raised before any byte of the request was written. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT'
])

/** Classifies an error thrown by the HTTP client (never a response). */
export function kindOfNetworkError(error: unknown): 'not-sent' | 'no-answer' {
  let cause: unknown = error
  // undici wraps the socket error; look through the chain.
  for (let depth = 0; depth < 5 && cause; depth++) {
    const code = (cause as { code?: unknown }).code
    if (typeof code === 'string' && NOT_SENT_CODES.has(code)) return 'not-sent'
    cause = (cause as { cause?: unknown }).cause
  }
  return 'no-answer'
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
  const date = Date.parse(text)
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs)
}

/** A message for anything thrown, `Error` or not. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message
  if (typeof error === 'string') return error
  try {
    // JSON.stringify gives undefined for undefined and functions, whatever its type says.
    const json = JSON.stringify(error) as unknown
    return typeof json === 'string' ? json : String(error)
  } catch {
    return String(error)
  }
}
