/**
 * The summary's "Docs PR checks" section: each check on the docs pull request's head by name,
 * conclusion and link, and a failure's first problems; after a round of fixes, the head it began
 * with too. Every value is the docs repository's CI's text: one line each, escaped.
 */
import { escapeHtml, inline } from '../base/text.js'
import { httpUrl } from '../github/pr-link.js'
import type { DocsCheckRow, DocsChecksState } from './state.js'

const CELL_CHARS = 80
const PROBLEM_CHARS = 200

const text = (value: string, max = CELL_CHARS): string => escapeHtml(inline(value, max))

export function docsChecksSection(checks: DocsChecksState | undefined): string | undefined {
  if (!checks) return undefined
  const rounds = checks.rounds ? `, after the agent's round of fixes (${text((checks.asked ?? []).join(', '))})` : ''
  const result = checks.result === 'waiting' ? 'unknown' : checks.result
  return [
    `<h3>Docs PR checks</h3>`,
    `<p>docs-checks: <code>${escapeHtml(result)}</code>${rounds}</p>`,
    ...table(checks.checks),
    ...(checks.before?.length ? ["<p>Before the agent's round of fixes:</p>", ...table(checks.before)] : [])
  ].join('\n')
}

function table(checks: DocsCheckRow[]): string[] {
  if (!checks.length) return []
  const rows = checks.map((row) => {
    const href = row.url ? httpUrl(row.url) : undefined
    const link = href ? `<a href="${escapeHtml(href)}">details</a>` : ''
    const problems = row.problems.map((p) => text(p, PROBLEM_CHARS)).join('<br>')
    return `<tr><td>${text(row.name)}</td><td><code>${text(row.conclusion, 40)}</code></td><td>${link}</td><td>${problems}</td></tr>`
  })
  return [
    '<table>',
    '<tr><th>Check</th><th>Conclusion</th><th>Link</th><th>First problems</th></tr>',
    ...rows,
    '</table>'
  ]
}
