/** The one warning for the context's reads that failed. */
import { formatDuration } from '../../base/duration.js'
import { errorMessage } from '../../base/error-message.js'
import { inline } from '../../base/text.js'
import { rateLimited, TOKEN_LIMIT } from '../rate-limited.js'
import { unreachable } from '../unreachable.js'
import type { Missing } from './reading.js'

/**
 * One warning for every read that failed: what is missing, why, and what would fix it.
 * `timedOut`: the time limit, if it passed; it is the reason when it cut a read short before any
 * failure of its own (a read cut in a wait between tries ends on its last failure).
 */
export function warning(missing: Missing[], timedOut: number | undefined, dryRun: boolean): string {
  const what = missing.map((m) => m.what)
  const list = what.length > 1 ? `${what.slice(0, -1).join(', ')} and ${what.at(-1) ?? ''}` : (what[0] ?? '')
  const permissions = [...new Set(missing.map((m) => m.permission))].join(' and ')
  const failed = missing.find((m) => !cut(m.error)) ?? missing[0]
  const why =
    timedOut !== undefined && missing.some((m) => cut(m.error))
      ? `GitHub did not answer within ${formatDuration(timedOut)}`
      : reason(failed?.error)
  const outcome = dryRun
    ? 'nothing is created in a dry run; the prompt below holds what was read'
    : 'the job is created with what was read'
  // No permission helps a runner that cannot reach GitHub at all, nor a token over GitHub's rate limit.
  const limited = missing.map((m) => rateLimited(m.error))
  const fix = missing.every((m) => unreachable(m.error) !== undefined)
    ? "The runner could not connect to GitHub's API: check its network (DNS, proxy, firewall), "
    : limited.every(Boolean)
      ? `${limited[0] ?? ''}, not a missing permission: run again once it resets (${TOKEN_LIMIT}), `
      : `The workflow's token (github-token) needs ${permissions} on this repository; set them under \`permissions:\`, `
  return `Context: could not read ${list} (${why}); ${outcome}. ${fix}or set context: none.`
}

/** A read that its signal ended, with no failure of its own. */
function cut(error: unknown): boolean {
  const name = (error as { name?: unknown } | undefined)?.name
  return name === 'TimeoutError' || name === 'AbortError'
}

function reason(error: unknown): string {
  const network = unreachable(error)
  if (network !== undefined) return network
  // Octokit appends the documentation page of the endpoint: noise in a warning.
  const message = inline(errorMessage(error).replace(/ - https:\/\/docs\.github\.com\S*$/, ''), 200)
  const status = (error as { status?: unknown } | undefined)?.status
  return typeof status === 'number' ? `GitHub answered ${status}: ${message}` : message
}
