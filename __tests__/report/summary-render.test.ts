// The job summary of every outcome, as the step really writes it (scripts/summary-outcomes.ts),
// rendered as GitHub would (scripts/github-render.ts): GitHub shows it as written, the outcome and
// the pull request lead, untrusted text stays inert and visible, and the raw file stays readable.
import { describe, expect, it } from '@jest/globals'
import { renderLikeGitHub } from '../../scripts/github-render.js'
import { summaryOutcomes } from '../../scripts/summary-outcomes.js'

const outcomes = (await summaryOutcomes()).map((outcome) => ({ ...outcome, ...renderLikeGitHub(outcome.markdown) }))
const PR_OUTCOMES = new Set(['completed-pr', 'follow-up', 'hostile-text'])
// Direction controls: invisible, and able to make `main\u202Egnp.exe` read as `mainexe.png`.
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/
// Longest line of the raw summary file outside <pre> (the prompt keeps its own lines).
const MAX_LINE = 300

function outcome(name: string): (typeof outcomes)[number] {
  const found = outcomes.find((candidate) => candidate.name === name)
  if (!found) throw new Error(`no outcome named ${name}`)
  return found
}

const heading = (name: string): string | undefined => /<h2>(.*?)<\/h2>/.exec(outcome(name).markdown)?.[1]

describe.each(outcomes)('$name', ({ name, markdown, html, removed }) => {
  it('is shown as written: neither the tagfilter nor the sanitizer removes anything', () => {
    expect(removed).toEqual([])
  })

  it('shows no direction control, replacement character or half surrogate pair', () => {
    expect(html).not.toMatch(BIDI)
    expect(markdown).not.toMatch(BIDI)
    expect(html).not.toContain('\ufffd')
    expect(html).not.toMatch(LONE_SURROGATE)
  })

  it('is one HTML block: no blank line before its end, one table row per line', () => {
    const lines = markdown.trimEnd().split('\n')
    expect(lines.filter((line) => line.trim() === '')).toEqual([])
    const rows = lines.filter((line) => line.includes('<tr'))
    for (const row of rows) expect(row).toMatch(/^<tr>(?:(?!<tr[\s>]).)*<\/tr>$/)
    expect(rows).toHaveLength(markdown.split('<tr').length - 1)
  })

  it(`has no line over ${MAX_LINE} characters outside <pre>`, () => {
    const long = markdown
      .replace(/<pre>[\s\S]*?<\/pre>/g, '<pre></pre>')
      .split('\n')
      .filter((line) => line.length > MAX_LINE)
    expect(long).toEqual([])
  })

  if (PR_OUTCOMES.has(name)) {
    it('leads with the pull request link, before any table', () => {
      const link = html.indexOf('<a href="https://github.com/acme/docs/pull/')
      expect(link).toBeGreaterThan(-1)
      const table = html.indexOf('<table>')
      if (table !== -1) expect(link).toBeLessThan(table)
    })
  }
})

it('tells a pull request, no pull request and an unusable link apart in the heading', () => {
  const headings = ['completed-pr', 'completed-no-pr', 'completed-unusable-link'].map(heading)
  expect(headings).not.toContain(undefined)
  expect(new Set(headings).size).toBe(3)
})

it('shows hostile server text as inert text, the override named where it was', () => {
  const { html } = outcome('hostile-text')
  expect(html).toContain('<code>main[U+202E]gnp.exe</code>')
  expect(html).toContain('<code>&#x3C;img src=x onerror=alert(1)>[U+202E]gnp.exe</code>')
  expect(html).not.toContain('<img')
  expect(html).not.toContain('<script')
})
