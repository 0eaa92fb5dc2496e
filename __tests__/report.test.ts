import { describe, expect, it } from '@jest/globals'
import { parseJob, type AgentJob } from '../src/job.js'
import { OUTPUT_NAMES, SUMMARY_PROMPT_CHARS, renderOutputs, renderSummary } from '../src/report.js'
import { initialState, type RunState } from '../src/state.js'

function job(fields: Record<string, unknown>): AgentJob {
  return parseJob(fields) as AgentJob
}

function state(patch: Partial<RunState>): RunState {
  return { ...initialState(1_000_000, undefined), ...patch }
}

const done = job({
  id: 'job_1',
  status: 'completed',
  source: { repository: 'https://github.com/acme/docs', ref: 'main' },
  model: 'm-1',
  prLink: 'https://github.com/acme/docs/pull/42',
  createdAt: '2026-11-21T10:00:00Z',
  archivedAt: null
})

describe('renderOutputs', () => {
  it('fills every output from a completed job', () => {
    const outputs = renderOutputs(state({ jobId: 'job_1', job: done, outcome: 'completed' }), undefined)
    expect(Object.keys(outputs)).toEqual([...OUTPUT_NAMES])
    expect(outputs).toMatchObject({
      'job-id': 'job_1',
      status: 'completed',
      'pr-link': 'https://github.com/acme/docs/pull/42',
      'pr-number': '42',
      'pr-repository': 'acme/docs',
      'source-repository': 'https://github.com/acme/docs',
      'source-ref': 'main',
      model: 'm-1',
      'created-at': '2026-11-21T10:00:00Z',
      'archived-at': '',
      'timed-out': 'false'
    })
    expect(JSON.parse(outputs.job)).toMatchObject({ id: 'job_1', archivedAt: null })
  })

  it('gives only http(s) links, and PR numbers only for GitHub pull requests', () => {
    const hostile = job({ id: 'j', status: 'completed', prLink: 'javascript:alert(1)' })
    expect(renderOutputs(state({ job: hostile }), undefined)['pr-link']).toBe('')
    const other = job({ id: 'j', status: 'completed', prLink: 'https://gitlab.com/a/b/-/merge_requests/1' })
    expect(renderOutputs(state({ job: other }), undefined)).toMatchObject({
      'pr-link': 'https://gitlab.com/a/b/-/merge_requests/1',
      'pr-number': ''
    })
    const ghe = job({ id: 'j', status: 'completed', prLink: 'https://ghe.example/a/b/pull/3' })
    expect(renderOutputs(state({ job: ghe }), 'https://ghe.example')['pr-repository']).toBe('a/b')
  })

  it('reports a timeout', () => {
    expect(renderOutputs(state({ jobId: 'j', outcome: 'timed-out' }), undefined)['timed-out']).toBe('true')
  })
})

describe('renderSummary', () => {
  const render = (patch: Partial<RunState>, prompt?: string) =>
    renderSummary({ state: state(patch), mode: 'create', prompt, serverUrl: undefined })

  it('shows the job, its PR and how long we waited', () => {
    const html = render(
      { jobId: 'job_1', job: done, outcome: 'completed', waitStartedAt: 1_000_000, endedAt: 1_062_000, polls: 9 },
      'Document v2'
    )
    expect(html).toContain('✅ Docs agent job completed')
    expect(html).toContain('<code>job&#95;1</code>')
    expect(html).toContain('<a href="https://github.com/acme/docs/pull/42">acme/docs&#35;42</a>')
    expect(html).toContain('1m 2s, 9 polls')
    expect(html).toContain('<details><summary>Prompt (11 characters)</summary><pre>Document v2</pre></details>')
  })

  it('says plainly when the agent changed no files', () => {
    const html = render({ jobId: 'j', job: job({ id: 'j', status: 'completed', prLink: null }), outcome: 'completed' })
    expect(html).toContain('no pull request (the agent changed no files)')
  })

  it('tells how to resume after a timeout', () => {
    const html = render({ jobId: 'job_9', job: job({ id: 'job_9', status: 'active' }), outcome: 'timed-out' })
    expect(html).toContain('<code>job-id: job&#95;9</code>')
  })

  it('renders hostile text inert', () => {
    const evil = job({
      id: 'j',
      status: 'completed',
      model: '<img src=x onerror=alert(1)>',
      prLink: 'javascript:alert(1)',
      source: { repository: 'javascript:alert(2)', ref: '[x](javascript:alert(3))' }
    })
    const html = render(
      { jobId: 'j', job: evil, outcome: 'completed', failure: '<script>alert(4)</script>' },
      '</pre><script>x</script>\n\n# heading\n[a](javascript:b)'
    )
    expect(html).not.toMatch(/<img|<script|<\/pre><script|href="javascript/i)
    expect(html).not.toMatch(/\]\(/)
    // One HTML block: a blank line would let markdown apply to what follows it.
    expect(html.trimEnd()).not.toMatch(/\n\s*\n/)
  })

  it('truncates a long prompt and stays far below 1 MiB', () => {
    const long = 'x'.repeat(100_000)
    const huge = job({ id: 'j'.repeat(10_000), status: 'c'.repeat(100_000), model: 'm'.repeat(500_000) })
    const html = render({ jobId: 'j', job: huge, outcome: 'error', failure: 'f'.repeat(100_000) }, long)
    expect(html).toContain(`first ${SUMMARY_PROMPT_CHARS} shown`)
    expect(Buffer.byteLength(html)).toBeLessThan(64 * 1024)
  })
})
