/**
 * A GitHub request that failed by connection (refused, DNS, reset, TLS) is worded as the network,
 * naming where it went: the token's permissions are not in question.
 */
import { socketError, tlsError } from '../base/causes.js'
import { inline } from '../base/text.js'

/**
 * `could not reach GitHub at <host>: <cause>` when `error` is a connection that failed (Octokit
 * reports one as a 500 without an answer); undefined for an answer from GitHub.
 */
export function unreachable(error: unknown): string | undefined {
  const failed = socketError(error) ?? tlsError(error)
  if (!failed) return undefined
  const cause = failed.message.includes(failed.code) ? failed.message : `${failed.message} (${failed.code})`
  const host = hostOf(error)
  return `could not reach GitHub${host ? ` at ${host}` : ''}: ${inline(cause, 200)}`
}

/** The host the request went to: Octokit's error carries its request. */
function hostOf(error: unknown): string | undefined {
  const url = (error as { request?: { url?: unknown } } | undefined)?.request?.url
  if (typeof url !== 'string') return undefined
  try {
    return new URL(url).host
  } catch {
    return undefined
  }
}
