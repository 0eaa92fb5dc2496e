/**
 * The summary's "Docs PR checks" section: each check on the docs pull request's head by name,
 * conclusion and link, and a failure's first problems; after a round of fixes, the head it began
 * with too. Every value is the docs repository's CI's text: one line each, escaped.
 */
import { escapeHtml, inline, plural } from '../base/text.js'
import { byteLength } from './summary-block.js'
import { httpUrl } from '../github/pr-link.js'
import type { DocsCheckRow, DocsChecksState } from './state.js'

const CELL_CHARS = 80
const PROBLEM_CHARS = 200

const text = (value: string, max = CELL_CHARS): string => escapeHtml(inline(value, max))

/**
 * At most about `maxBytes` bytes as written: the rows that do not fit are counted, not shown (the
 * runner drops a step's whole summary past 1 MiB, and the phase reads up to 1,000 checks a head).
 */
export function docsChecksSection(checks: DocsChecksState | undefined, maxBytes = Infinity): string | undefined {
  if (!checks) return undefined
  const rounds = checks.rounds ? `, after the agent's round of fixes (${text((checks.asked ?? []).join(', '))})` : ''
  const result = checks.result === 'waiting' ? 'unknown' : checks.result
  const lines = [`<h3>Docs PR checks</h3>`, `<p>docs-checks: <code>${escapeHtml(result)}</code>${rounds}</p>`]
  // What is left, with room kept for the frames and the lines that count the rows left out.
  const budget = { room: maxBytes - byteLength(lines.join('\n')) - 1000 }
  lines.push(...table(checks.checks, budget))
  if (checks.before?.length) lines.push("<p>Before the agent's round of fixes:</p>", ...table(checks.before, budget))
  return lines.join('\n')
}

function table(checks: DocsCheckRow[], budget: { room: number }): string[] {
  if (!checks.length) return []
  const rows: string[] = []
  for (const row of checks) {
    const href = row.url ? httpUrl(row.url) : undefined
    const link = href ? `<a href="${escapeHtml(href)}">details</a>` : ''
    const problems = row.problems.map((p) => text(p, PROBLEM_CHARS)).join('<br>')
    const html = `<tr><td>${text(row.name)}</td><td><code>${text(row.conclusion, 40)}</code></td><td>${link}</td><td>${problems}</td></tr>`
    if (byteLength(html) + 1 > budget.room) break
    budget.room -= byteLength(html) + 1
    rows.push(html)
  }
  const left = checks.length - rows.length
  return [
    '<table>',
    '<tr><th>Check</th><th>Conclusion</th><th>Link</th><th>First problems</th></tr>',
    ...rows,
    ...(left ? [`<tr><td colspan="4">… and ${plural(left, 'more check')}: see the log</td></tr>`] : []),
    '</table>'
  ]
}
