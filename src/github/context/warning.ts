/** The one warning for the context's reads that failed. */
import { formatDuration } from '../../base/duration.js'
import { errorMessage } from '../../base/error-message.js'
import { inline } from '../../base/text.js'
import type { Missing } from './reading.js'

/** One warning for every read that failed: what is missing, why, and what would fix it. */
/** `timedOut`: the time limit that passed, if it did (then that is the reason, whatever the errors say). */
export function warning(missing: Missing[], timedOut: number | undefined): string {
  const [first] = missing
  const what = missing.map((m) => m.what)
  const list = what.length > 1 ? `${what.slice(0, -1).join(', ')} and ${what.at(-1) ?? ''}` : (what[0] ?? '')
  const permissions = [...new Set(missing.map((m) => m.permission))].join(' and ')
  return (
    `Context: could not read ${list} (${timedOut === undefined ? reason(first?.error) : `GitHub did not answer within ${formatDuration(timedOut)}`}); the job is created with what was read. ` +
    `The workflow's token (github-token) needs ${permissions} on this repository; set them under \`permissions:\`, ` +
    'or set context: none.'
  )
}

function reason(error: unknown): string {
  // Octokit appends the documentation page of the endpoint: noise in a warning.
  const message = inline(errorMessage(error).replace(/ - https:\/\/docs\.github\.com\S*$/, ''), 200)
  const status = (error as { status?: unknown } | undefined)?.status
  return typeof status === 'number' ? `GitHub answered ${status}: ${message}` : message
}
