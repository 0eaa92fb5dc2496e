/** What an error wraps, read by shape, not by class: Node's own errors may come from another realm than ours. */

export interface Cause {
  message: string
  code: string | undefined
}

// Node's socket and DNS errors, and undici's own for a socket closed or a connection not made.
const CONNECTION_CODES =
  /^(ECONNRESET|ECONNREFUSED|ECONNABORTED|EPIPE|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|UND_ERR_SOCKET|UND_ERR_CONNECT_TIMEOUT|UND_ERR_CLOSED)$/

/**
 * The error and what it wraps (undici wraps the socket's error), at most five deep; of an
 * AggregateError without a cause (both addresses of a host refused), the first.
 */
export function causes(error: unknown): Cause[] {
  const chain: Cause[] = []
  let cause: unknown = error
  for (let depth = 0; depth < 5 && isErrorLike(cause); depth++) {
    chain.push({ message: cause.message, code: typeof cause.code === 'string' ? cause.code : undefined })
    cause = cause.cause === undefined && Array.isArray(cause.errors) ? (cause.errors as unknown[])[0] : cause.cause
  }
  if (chain.length === 0) chain.push({ message: String(error), code: undefined })
  return chain
}

/**
 * Why the connection failed, when `error` is a connection lost or never made (Octokit reports one
 * as status 500, "fetch failed"): the socket's own words. Undefined for an answer from the server.
 */
export function connectionFailure(error: unknown): string | undefined {
  const failed = socketError(error)
  return failed && `the connection failed: ${failed.message}`
}

/** The socket's or DNS's error that `error` wraps, if any. */
export function socketError(error: unknown): (Cause & { code: string }) | undefined {
  return causes(error).find((cause): cause is Cause & { code: string } => CONNECTION_CODES.test(cause.code ?? ''))
}

function isErrorLike(value: unknown): value is { message: string; code?: unknown; cause?: unknown; errors?: unknown } {
  return typeof value === 'object' && value !== null && typeof (value as { message?: unknown }).message === 'string'
}
