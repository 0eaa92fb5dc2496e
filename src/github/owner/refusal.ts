/** What GitHub answered when it refused a request of the owner phase, read from REST and GraphQL errors alike. */
import { socketError, tlsError } from '../../base/causes.js'
import { errorMessage } from '../../base/error-message.js'
import { inline } from '../../base/text.js'
import { isRecord } from '../event.js'

export interface Refusal {
  /** The HTTP status of a REST refusal; undefined for a GraphQL error or a lost connection. */
  status: number | undefined
  /** GraphQL's error type (`FORBIDDEN`, `UNPROCESSABLE`, …). */
  type: string | undefined
  /** GitHub's own words, or the connection's. */
  message: string
  /** The connection failed: a write may or may not have reached GitHub. */
  lost: boolean
}

export function refusalOf(error: unknown): Refusal {
  // A write's connection that failed may have delivered it: never worded as GitHub out of reach.
  const failed = socketError(error) ?? tlsError(error)
  if (failed) {
    return {
      status: undefined,
      type: undefined,
      message: `the connection failed: ${inline(failed.message, 200)}`,
      lost: true
    }
  }
  const errors = isRecord(error) && Array.isArray(error.errors) ? error.errors.filter(isRecord) : []
  if (errors.length > 0) {
    const messages = errors.map((e) => (typeof e.message === 'string' ? e.message : '')).filter(Boolean)
    const type = errors[0]?.type
    return {
      status: undefined,
      type: typeof type === 'string' ? type : undefined,
      message: messages.join('; ') || errorMessage(error),
      lost: false
    }
  }
  const status = isRecord(error) ? error.status : undefined
  return {
    status: typeof status === 'number' ? status : undefined,
    type: undefined,
    // Octokit ends a REST message with the documentation's link: the log needs GitHub's words only.
    message: errorMessage(error).replace(/ - https:\/\/docs\.github\.com\S*$/, ''),
    lost: false
  }
}

/** GitHub refused for want of permission: a 401 or 403, or GraphQL's FORBIDDEN. */
export function forbidden(refusal: Refusal): boolean {
  return refusal.status === 401 || refusal.status === 403 || refusal.type === 'FORBIDDEN'
}

/** `HTTP 422: …`, `GitHub: …` (GraphQL) or the words alone, bounded and inert, for the log. */
export function said(refusal: Refusal): string {
  const words = inline(refusal.message, 300)
  if (refusal.status !== undefined) return `HTTP ${refusal.status}: ${words}`
  return refusal.type === undefined ? words : `GitHub: ${words}`
}
