// The summary times the wait as the log does ("Job … is completed after 6s"): from its start to the
// read that saw the job end, not to the step's end, which the preview and the owner phase come after.
import { describe, expect, it } from '@jest/globals'
import { renderSummary } from '../../src/report/summary.js'
import { DONE_JOB as done, runStateAt, settings } from '../fixtures/run-state.js'

const state = runStateAt(1_000_000)
const status = (html: string) => html.split('\n').find((line) => line.includes('>Status<'))

describe("the summary's wait time", () => {
  it('is the wait’s, as the log says it, when the step went on after it (a preview)', () => {
    const ended = { waitStartedAt: 1_000_000, waitEndedAt: 1_006_000, endedAt: 1_011_000, polls: 3 }
    const html = renderSummary({
      state: state({ outcome: 'completed', ...ended }, done),
      settings: settings(),
      serverUrl: undefined
    })
    expect(status(html)).toBe(
      '<tr><th align="left">Status</th><td><code>completed</code>, after 6s and 3 polls</td></tr>'
    )
  })

  it('is up to the step’s end when the wait never saw the job end (a time-out)', () => {
    const cut = { waitStartedAt: 1_000_000, endedAt: 1_011_000, polls: 3 }
    const html = renderSummary({
      state: state({ outcome: 'timed-out', ...cut }, done),
      settings: settings(),
      serverUrl: undefined
    })
    expect(status(html)).toContain('after 11s and 3 polls')
  })
})
