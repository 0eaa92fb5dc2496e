// The summary as text for a terminal: what `npm run demo` prints instead of the summary's raw HTML.
import { describe, expect, it } from '@jest/globals'
import { summaryAsText } from '../../scripts/summary-text.js'
import { summaryOutcomes } from '../../scripts/summary-outcomes.js'

describe('summaryAsText', () => {
  const completed = async (): Promise<string> =>
    summaryAsText((await summaryOutcomes()).find((o) => o.name === 'completed-pr')?.markdown ?? '')

  it('reads like the rendered summary: the heading, the link with its address, the table as aligned rows', async () => {
    const text = await completed()
    expect(text.split('\n').slice(0, 14)).toEqual([
      '## ✅ Docs pull request ready',
      '',
      'Pull request: acme/docs#1 <https://github.com/acme/docs/pull/1>',
      '',
      'Job:             job_3f9c2a71e0b84d56',
      'Status:          completed, after 33s and 11 polls',
      'Docs repository: acme/docs <https://github.com/acme/docs>',
      'Branch:          main',
      'Model:           sim-model-1',
      'Created:         2026-11-22 10:00:00 UTC',
      'Request:         new job',
      'Context:         Release v1.2.3: notes and 3 changes since v1.2.2',
      '',
      '▸ Prompt (73 characters)'
    ])
  })

  it('shows each <details> under its title, its lines indented, entities decoded, no markup left', async () => {
    const text = await completed()
    expect(text).toContain(
      [
        '▸ Context added from GitHub: Release v1.2.3: notes and 3 changes since v1.2.2 (765 characters)',
        '    ---',
        '',
        '    ## Context from GitHub'
      ].join('\n')
    )
    expect(text).toContain('    > ## Highlights\n    > - `widgets export` writes every widget to JSON or YAML.')
    expect(text).not.toMatch(/<\/?[a-z]+[ >]|&#?\w+;/)
    expect(text.endsWith('    - Fix YAML anchors in widgets.yml (#43)\n')).toBe(true)
  })

  it('gives a link whose text is its address once', () => {
    expect(summaryAsText('<p>See <a href="https://example.com">https://example.com</a>.</p>')).toBe(
      'See https://example.com.\n'
    )
  })
})
