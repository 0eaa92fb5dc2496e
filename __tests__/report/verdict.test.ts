import { describe, expect, it } from '@jest/globals'
import { mayStillRun, pullRequest, verdict } from '../../src/report/verdict.js'
import type { RunState } from '../../src/report/state.js'
import { runStateAt, settings } from '../fixtures/run-state.js'

const state = runStateAt(Date.parse('2026-11-22T10:00:00Z'))

describe('verdict', () => {
  it.each<
    [string, Partial<RunState>, Record<string, unknown> | undefined, Record<string, string>, [boolean, string, string]]
  >([
    ['error', { outcome: 'error', failure: 'Boom.' }, undefined, {}, [true, 'error', 'Boom.']],
    ['error without a reason', { outcome: undefined }, undefined, {}, [true, 'error', 'The step failed.']],
    ['cancelled', { outcome: 'cancelled', failure: 'Cancelled x.' }, undefined, {}, [true, 'error', 'Cancelled x.']],
    ['cancelled without a reason', { outcome: 'cancelled' }, undefined, {}, [true, 'error', 'Cancelled.']],
    [
      'dry run',
      { outcome: 'dry-run' },
      undefined,
      {},
      [false, 'notice', 'Dry run: the prompt was built and nothing was sent (dry-run: true).']
    ],
    [
      'started',
      { outcome: 'started' },
      undefined,
      {},
      [false, 'info', 'Job job_1 started; not waiting (wait: false).']
    ],
    [
      'follow-up started',
      { outcome: 'started' },
      undefined,
      { 'job-id': 'job_1' },
      [false, 'info', 'Job job_1 has the follow-up; not waiting (wait: false).']
    ],
    [
      'timed out',
      { outcome: 'timed-out' },
      { status: 'active' },
      { timeout: '90s' },
      [true, 'error', 'Timed out after 1m 30s waiting for job job_1 (still active). Resume with job-id: job_1.']
    ],
    [
      'timed out, tolerated',
      { outcome: 'timed-out' },
      undefined,
      { 'fail-on': 'failed' },
      [false, 'warning', 'Timed out after 30m waiting for job job_1; fail-on does not include timed-out.']
    ],
    [
      'failed',
      { outcome: 'failed' },
      undefined,
      {},
      [true, 'error', "Docs agent job job_1 ended failed (fail-on includes 'failed')."]
    ],
    [
      'archived, tolerated',
      { outcome: 'archived' },
      undefined,
      { 'fail-on': 'failed' },
      [false, 'warning', 'Docs agent job job_1 ended archived; fail-on does not include it.']
    ],
    [
      'completed with a PR',
      { outcome: 'completed' },
      { prLink: 'https://github.com/a/b/pull/1' },
      { 'fail-on': 'no-pr' },
      [false, 'notice', 'Docs pull request: https://github.com/a/b/pull/1']
    ],
    [
      'completed, no PR',
      { outcome: 'completed' },
      {},
      {},
      [false, 'info', 'Docs agent job job_1 completed without a pull request (the agent changed no files).']
    ],
    [
      'completed, no PR, failing',
      { outcome: 'completed' },
      {},
      { 'fail-on': 'no-pr' },
      [
        true,
        'error',
        "Docs agent job job_1 completed without a pull request (the agent changed no files) (fail-on includes 'no-pr')."
      ]
    ],
    [
      'completed, unusable link',
      { outcome: 'completed' },
      { prLink: 'javascript:x' },
      {},
      [
        false,
        'warning',
        'Docs agent job job_1 completed with a pull request link that is not http(s) (javascript:), so it is not used.'
      ]
    ]
  ])('%s', (_name, patch, job, inputs, [failed, level, message]) => {
    expect(verdict(state(patch, job), settings(inputs))).toEqual({ failed, level, message })
  })

  it('bad input (no settings): fails', () => {
    expect(verdict(state({ outcome: 'error', failure: "Input 'x': y" }), undefined)).toEqual({
      failed: true,
      level: 'error',
      message: "Input 'x': y"
    })
  })
})

describe('pullRequest and mayStillRun', () => {
  it.each<[unknown, unknown]>([
    [undefined, { kind: 'none' }],
    ['https://github.com/a/b/pull/1', { kind: 'link', url: 'https://github.com/a/b/pull/1' }],
    ['JavaScript:alert(1)', { kind: 'unusable', scheme: 'javascript:' }],
    ['ftp://x/y', { kind: 'unusable', scheme: 'ftp:' }],
    ['not a url', { kind: 'unusable', scheme: 'not a URL' }]
  ])('%j', (prLink, expected) => {
    expect(pullRequest(state({}, prLink === undefined ? {} : { prLink }))).toEqual(expected)
  })

  it('a job may still run unless it ended, and only when there is one', () => {
    expect(['active', 'paused', undefined].map((status) => mayStillRun(state({}, status ? { status } : {})))).toEqual([
      true,
      true,
      true
    ])
    expect(['completed', 'failed', 'archived'].map((status) => mayStillRun(state({}, { status })))).toEqual([
      false,
      false,
      false
    ])
    expect(mayStillRun(state({ jobId: undefined }))).toBe(false)
    expect(mayStillRun(state({ notFound: true }, { status: 'active' }))).toBe(false)
  })
})
