/**
 * The warning for a check run request that failed, naming its real cause: the network or GitHub
 * itself (a 5xx, no answer in time) is not a missing permission; a token that cannot make check
 * runs at all (a personal access token: GitHub lets only GitHub Apps, the workflow's token
 * included, write them) is not fixed by `checks: write`.
 */
import { errorMessage } from '../../base/error-message.js'
import { inline } from '../../base/text.js'
import { rateLimited } from '../../github/rate-limited.js'
import { unreachable } from '../../github/unreachable.js'

const UNCHANGED = 'the outputs are unchanged.'

/** `Could not <doing> …`: why, and what would fix it when a permission would. */
export function checkProblem(doing: string, error: unknown, permission: string, personal: boolean): string {
  const lost = unreachable(error)
  if (lost)
    return `Could not ${doing} (${inline(lost, 200)}): a network failure, not a missing permission; ${UNCHANGED}`
  const { status, response } = error as { status?: unknown; response?: unknown }
  const said = inline(errorMessage(error), 300)
  if (typeof status !== 'number' || (status >= 500 && response === undefined))
    return `Could not ${doing}: GitHub did not answer in time (${said}), not a missing permission; ${UNCHANGED}`
  if (status >= 500)
    return `Could not ${doing} (HTTP ${status}): GitHub failed (${said}), not a missing permission; ${UNCHANGED}`
  const limited = rateLimited(error)
  if (limited) return `Could not ${doing} (HTTP ${status}): ${said}. ${limited}, not a missing permission; ${UNCHANGED}`
  if (status === 403 && (personal || /GitHub App|personal access token/i.test(said)))
    return `Could not ${doing} (HTTP 403): ${said}. Check runs need the workflow's token (github.token) or a GitHub App's token: a personal access token cannot make them; ${UNCHANGED}`
  if (status === 404 || status === 422) return `Could not ${doing} (HTTP ${status}): ${said}; ${UNCHANGED}`
  return `Could not ${doing} (HTTP ${status}): ${said}. The 'github-token' input needs ${permission}; ${UNCHANGED}`
}

/** A token that is a person's (`ghp_`, `github_pat_`, an OAuth app's `gho_`, `ghu_`), by GitHub's token prefixes. */
export function personalToken(token: string): boolean {
  return /^(ghp_|github_pat_|gho_|ghu_)/.test(token)
}

/** GitHub answered 4xx: it did nothing. */
export function refusal(error: unknown): boolean {
  return Math.floor(Number((error as { status?: unknown }).status) / 100) === 4
}

/** A 5xx answer or a connection lost (not a time-out): a request that sets a fixed state may be sent once more. */
export function transient(error: unknown): boolean {
  const { status, response } = error as { status?: unknown; response?: unknown }
  return unreachable(error) !== undefined || (typeof status === 'number' && status >= 500 && response !== undefined)
}
