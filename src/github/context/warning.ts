/** The one warning for the context's reads that failed. */
import { socketError } from '../../base/causes.js'
import { formatDuration } from '../../base/duration.js'
import { errorMessage } from '../../base/error-message.js'
import { inline } from '../../base/text.js'
import type { Missing } from './reading.js'

/** One warning for every read that failed: what is missing, why, and what would fix it. */
/** `timedOut`: the time limit that passed, if it did (then that is the reason, whatever the errors say). */
export function warning(missing: Missing[], timedOut: number | undefined, dryRun: boolean): string {
  const [first] = missing
  const what = missing.map((m) => m.what)
  const list = what.length > 1 ? `${what.slice(0, -1).join(', ')} and ${what.at(-1) ?? ''}` : (what[0] ?? '')
  const permissions = [...new Set(missing.map((m) => m.permission))].join(' and ')
  const why = timedOut === undefined ? reason(first?.error) : `GitHub did not answer within ${formatDuration(timedOut)}`
  const outcome = dryRun
    ? 'nothing is created in a dry run; the prompt below holds what was read'
    : 'the job is created with what was read'
  // No permission helps a runner that cannot reach GitHub at all.
  const fix =
    timedOut === undefined && missing.every((m) => networkFailure(m.error) !== undefined)
      ? "The runner could not connect to GitHub's API: check its network (DNS, proxy, firewall), "
      : `The workflow's token (github-token) needs ${permissions} on this repository; set them under \`permissions:\`, `
  return `Context: could not read ${list} (${why}); ${outcome}. ${fix}or set context: none.`
}

function reason(error: unknown): string {
  const network = networkFailure(error)
  if (network !== undefined) return `could not reach GitHub: ${inline(network, 200)}`
  // Octokit appends the documentation page of the endpoint: noise in a warning.
  const message = inline(errorMessage(error).replace(/ - https:\/\/docs\.github\.com\S*$/, ''), 200)
  const status = (error as { status?: unknown } | undefined)?.status
  return typeof status === 'number' ? `GitHub answered ${status}: ${message}` : message
}

/** The socket's error when `error` wraps one (Octokit reports a failed fetch as a 500), with its code. */
export function networkFailure(error: unknown): string | undefined {
  const failed = socketError(error)
  return (
    failed && (failed.message.includes(failed.code) ? failed.message : `${failed.message} (${failed.code})`.trimStart())
  )
}
