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

/** The socket's or DNS's error that `error` wraps, if any: a connection lost or never made. */
export function socketError(error: unknown): (Cause & { code: string }) | undefined {
  return causes(error).find((cause): cause is Cause & { code: string } => CONNECTION_CODES.test(cause.code ?? ''))
}

/** The TLS error that `error` wraps, if any: a certificate refused, a handshake that failed. */
export function tlsError(error: unknown): (Cause & { code: string }) | undefined {
  return causes(error).find((cause): cause is Cause & { code: string } => isTlsCode(cause.code))
}

/** OpenSSL's certificate codes and Node's TLS and SSL ones. */
export function isTlsCode(code: string | undefined): boolean {
  return (
    code !== undefined &&
    (/CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/.test(code) || code.startsWith('ERR_TLS_') || code.startsWith('ERR_SSL_'))
  )
}

function isErrorLike(value: unknown): value is { message: string; code?: unknown; cause?: unknown; errors?: unknown } {
  return typeof value === 'object' && value !== null && typeof (value as { message?: unknown }).message === 'string'
}
