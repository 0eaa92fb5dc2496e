import { describe, expect, it } from '@jest/globals'
import { OUTPUT_NAMES, renderOutputs } from '../../src/report/finish.js'
import { initialState } from '../../src/report/state.js'
import { DONE_JOB as done, runStateAt, UNUSED_OUTPUTS } from '../fixtures/run-state.js'

const state = runStateAt(1_000_000)

describe('renderOutputs', () => {
  it('fills every output from a completed job', () => {
    const outputs = renderOutputs(state({ outcome: 'completed', prompt: 'p' }, done), undefined)
    expect(Object.keys(outputs)).toEqual([...OUTPUT_NAMES])
    expect(outputs).toEqual({
      ...UNUSED_OUTPUTS,
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
      'timed-out': 'false',
      'not-permitted': 'false',
      job: JSON.stringify(done),
      prompt: 'p'
    })
    expect(renderOutputs(state({}), undefined, { command: { kind: 'create', author: 'm', text: 't' } }).command).toBe(
      'create'
    )
  })

  it('gives only http(s) links, and PR numbers only for GitHub pull requests', () => {
    expect(renderOutputs(state({}, { status: 'completed', prLink: 'javascript:alert(1)' }), undefined)['pr-link']).toBe(
      ''
    )
    expect(renderOutputs(state({}, { prLink: 'https://gitlab.com/a/b/-/merge_requests/1' }), undefined)).toMatchObject({
      'pr-link': 'https://gitlab.com/a/b/-/merge_requests/1',
      'pr-number': ''
    })
    expect(renderOutputs(state({}, { prLink: 'https://ghe.example/a/b/pull/3' }), 'https://ghe.example')).toMatchObject(
      { 'pr-repository': 'a/b', 'pr-number': '3' }
    )
  })

  it('keeps the server bytes (direction controls included): outputs are data', () => {
    expect(renderOutputs(state({}, { source: { ref: 'main\u202Egnp.exe' } }), undefined)['source-ref']).toBe(
      'main\u202Egnp.exe'
    )
  })

  it('reports a timeout, and empty values when nothing is known', () => {
    expect(renderOutputs(state({ outcome: 'timed-out' }), undefined)['timed-out']).toBe('true')
    const empty = renderOutputs(initialState(0, undefined), undefined)
    expect(Object.entries(empty).filter(([, v]) => v !== '')).toEqual([
      ['timed-out', 'false'],
      ['not-permitted', 'false'],
      ['grouped', 'false'],
      ['skipped', 'false']
    ])
  })

  it('reports who was asked to review the docs pull request, who is assigned, and how it merges', () => {
    const owned = (merge?: 'auto-merge' | 'merged' | 'open') =>
      renderOutputs(
        {
          ...state({}),
          owner: {
            reviewers: ['dev', 'acme/docs-team'],
            assignees: ['dev'],
            merge: merge && { result: merge, method: 'squash' }
          }
        },
        undefined
      )
    expect(owned('auto-merge')).toMatchObject({
      reviewers: 'dev,acme/docs-team',
      assignees: 'dev',
      merge: 'auto-merge'
    })
    expect([owned('merged').merge, owned('open').merge, owned().merge]).toEqual(['merged', '', ''])
  })

  it('reports a run that was not permitted to start a job', () => {
    const outputs = renderOutputs(state({ outcome: 'not-permitted' }), undefined)
    expect(outputs['not-permitted']).toBe('true')
    expect(outputs['timed-out']).toBe('false')
  })
})
