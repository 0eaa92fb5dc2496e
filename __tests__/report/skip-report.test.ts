// A skipped run's report: its outputs, its one log line, its summary and what to do now; and the
// skip rules' row and judged files in any run's summary.
import { describe, expect, it } from '@jest/globals'
import { initialState, type RunState, type SkipState } from '../../src/report/state.js'
import { renderOutputs } from '../../src/report/finish.js'
import { nextSteps } from '../../src/report/next-steps.js'
import { judgedFiles, skipRow } from '../../src/report/skip.js'
import { renderSummary } from '../../src/report/summary.js'
import { verdict } from '../../src/report/verdict.js'
import { settings } from '../fixtures/run-state.js'

const REASON = 'skip-labels: pull request #21 has the label <skip-docs>'
const skipped = (skip: Partial<SkipState> = {}): RunState => ({
  ...initialState(0, undefined),
  outcome: 'skipped',
  endedAt: 10,
  skip: { skipped: true, reason: REASON, ...skip }
})
const list = (of: string, paths: string[], incomplete?: string) => ({ of, paths, incomplete })

describe('a skipped run', () => {
  it('outputs skipped and the reason; every other outcome skipped: false and no reason', () => {
    expect(renderOutputs(skipped(), undefined)).toMatchObject({ skipped: 'true', 'skip-reason': REASON, 'job-id': '' })
    const judgedNotSkipped = { ...skipped({ skipped: false }), outcome: 'dry-run' as const }
    expect(renderOutputs(judgedNotSkipped, undefined)).toMatchObject({ skipped: 'false', 'skip-reason': '' })
    expect(renderOutputs({ ...skipped(), skip: undefined }, undefined)['skip-reason']).toBe('')
  })

  it('ends with one notice, and does not fail', () => {
    expect(verdict(skipped(), settings())).toEqual({
      failed: false,
      level: 'notice',
      message: `Skipped, no job started: ${REASON}.`
    })
    expect(verdict({ ...skipped(), skip: undefined }, settings()).message).toBe('Skipped, no job started: .')
  })

  it('says what to do to document the change anyway', () => {
    expect(nextSteps(skipped(), settings())).toEqual([
      'Explicit requests are never skipped: to document this change anyway, run the workflow by hand (',
      { code: 'workflow_dispatch' },
      ') or comment ',
      { code: '/docs <request>' },
      ' on the pull request, where the workflow takes commands.'
    ])
  })

  it('leads its summary with the reason, escaped, and lists no prompt', () => {
    const html = renderSummary({ state: skipped(), settings: settings(), serverUrl: undefined })
    expect(html).toContain('<h2>⏭️ Skipped: no docs job for this change</h2>')
    expect(html).toContain(
      '<p><strong>Nothing was sent</strong> to the Agent API, and nothing written on GitHub: skip-labels: pull request #21 has the label &lt;skip-docs&gt;.</p>'
    )
    expect(html).toContain(
      '<tr><th align="left">Skip rules</th><td>skipped this run: skip-labels: pull request #21 has the label &lt;skip-docs&gt;</td></tr>'
    )
    expect(html).toContain('<strong>What now:</strong> Explicit requests are never skipped')
    expect(html).not.toContain('<details')
    const unknown = renderSummary({
      state: { ...skipped(), skip: undefined },
      settings: settings(),
      serverUrl: undefined
    })
    expect(unknown).toContain('and nothing written on GitHub: .</p>')
  })
})

describe('the skip rules in the summary', () => {
  it('a row for a decision that did not skip, and one a dry run would make', () => {
    expect(
      skipRow({ skipped: false, reason: 'paths matches 1 of the 2 changed files of a...b: src/<x>.ts' }, false)
    ).toBe('not skipped: paths matches 1 of the 2 changed files of a...b: src/&lt;x&gt;.ts')
    expect(skipRow({ skipped: true, reason: 'r' }, true)).toBe('would skip this run: r')
    expect(skipRow({ skipped: true, reason: 'a\nb' }, false)).toBe('skipped this run: a b')
  })

  it("a dry run's block of the judged files: each list, its state, its paths", () => {
    const judged = judgedFiles({
      skipped: false,
      reason: 'r',
      files: [list('v1...v2', ['a.ts', 'b\nc.ts']), list('pull request #3', [], 'they could not be read')]
    })
    expect(judged).toEqual({
      title: '2 changed files the skip rules judged',
      text: 'v1...v2: 2 paths\n  a.ts\n  b c.ts\npull request #3: 0 paths, may be incomplete (they could not be read)'
    })
    expect(judgedFiles({ skipped: true, reason: 'label' })).toBeUndefined()
    expect(judgedFiles({ skipped: true, reason: 'label', files: [] })).toBeUndefined()
    expect(judgedFiles(undefined)).toBeUndefined()
  })

  it('lists 300 paths of a list and counts the rest', () => {
    const paths = Array.from({ length: 302 }, (_, i) => `f${i}`)
    const text = judgedFiles({ skipped: false, reason: 'r', files: [list('x', paths)] })?.text.split('\n') ?? []
    expect(text).toHaveLength(302)
    expect(text.slice(-2)).toEqual(['  f299', '  … and 2 more'])
  })

  it('in the summary: the row in any run, the open block in a dry run only', () => {
    const skip: SkipState = { skipped: true, reason: 'r', files: [list('a...b', ['x.ts'])] }
    const state: RunState = { ...initialState(0, undefined), outcome: 'dry-run', endedAt: 1, skip, prompt: 'p' }
    const dry = renderSummary({ state, settings: settings({ 'dry-run': 'true' }), serverUrl: undefined })
    expect(dry).toContain('<tr><th align="left">Skip rules</th><td>would skip this run: r</td></tr>')
    expect(dry).toContain(
      '<details open><summary>1 changed file the skip rules judged (20 characters)</summary><pre>\na...b: 1 path\n  x.ts</pre></details>'
    )
    const real = renderSummary({
      state: { ...state, outcome: 'completed' },
      settings: settings(),
      serverUrl: undefined
    })
    expect(real).toContain('<td>skipped this run: r</td>')
    expect(real).not.toContain('the skip rules judged')
  })
})
