import { describe, expect, it } from '@jest/globals'
import { nextSteps } from '../../src/report/next-steps.js'
import type { Settings } from '../../src/step/settings.js'
import type { RunState } from '../../src/report/state.js'
import { runStateAt, settings } from '../fixtures/run-state.js'

const state = runStateAt(Date.parse('2026-11-22T10:00:00Z'))

describe('nextSteps', () => {
  const text = (s: RunState, given: Settings | undefined = settings()) =>
    nextSteps(s, given)
      ?.map((part) => (typeof part === 'string' ? part : `[${part.code}]`))
      .join('')

  it.each<[string, Partial<RunState>, Record<string, unknown> | undefined, string | undefined]>([
    [
      'failed',
      { outcome: 'failed' },
      {},
      'The Mintlify dashboard shows why. To try again, send a follow-up ([job-id: job_1] with a prompt) or start a new workflow run (re-running this one resumes the same job).'
    ],
    [
      'archived',
      { outcome: 'archived' },
      {},
      'An archived job is over: the agent does no more work on it. To continue, send a follow-up ([job-id: job_1] with a prompt) or start a new workflow run (re-running this one resumes the same job).'
    ],
    [
      'timed out',
      { outcome: 'timed-out' },
      {},
      "It may still finish: wait for it with [job-id: job_1] and no prompt, or raise [timeout] (and the workflow job's [timeout-minutes]). Re-running this workflow job resumes it."
    ],
    [
      'cancelled, running',
      { outcome: 'cancelled' },
      { status: 'active' },
      'It may still finish: wait for it with [job-id: job_1] and no prompt, or re-run this workflow job to resume it.'
    ],
    ['cancelled, ended', { outcome: 'cancelled' }, { status: 'completed' }, undefined],
    [
      'error, running',
      { outcome: 'error' },
      { status: 'active' },
      'It may still be running: wait for it with [job-id: job_1] and no prompt.'
    ],
    ['error, no job', { outcome: 'error', jobId: undefined }, undefined, undefined],
    ['started', { outcome: 'started' }, {}, 'In a later step, wait for it with [job-id: job_1] and no prompt.'],
    ['completed with a PR', { outcome: 'completed' }, { prLink: 'https://github.com/a/b/pull/1' }, undefined],
    [
      'completed, unusable link',
      { outcome: 'completed' },
      { prLink: 'javascript:x' },
      'Find the pull request of this job in the Mintlify dashboard; the [pr-link] output is empty.'
    ],
    [
      'completed, no PR',
      { outcome: 'completed' },
      {},
      'For changes, send a follow-up ([job-id: job_1] with a prompt) that says more precisely what to change.'
    ],
    ['dry run', { outcome: 'dry-run' }, undefined, undefined]
  ])('%s', (_name, patch, job, expected) => {
    expect(text(state(patch, job))).toBe(expected)
  })

  it('a job not found: what to check, never waiting on the id again', () => {
    const wrongId =
      "Project [p] has no job [job_1]. Check [job-id] for a typo; that [project-id] is the project the job was created in; and, when an earlier step created it, that this step is given that step's [job-id] output. Waiting on this id again will not find it."
    expect(text(state({ outcome: 'error', notFound: true }), settings({ 'job-id': 'job_1', prompt: '' }))).toBe(wrongId)
    expect(text(state({ outcome: 'error', notFound: true }), settings({ 'job-id': 'job_1', prompt: 'more' }))).toBe(
      wrongId
    )
    expect(text(state({ outcome: 'error', notFound: true }))).toBe(
      'The job this step created still read as not found 20 s after the create was answered. Look for it in the Mintlify dashboard (project [p]) before running this step again.'
    )
    expect(nextSteps(state({ outcome: 'error', notFound: true }), undefined)).toBeUndefined()
  })

  it('a create that may have acted: look for the job, do not run again', () => {
    expect(text(state({ outcome: 'error', jobId: undefined, mayHaveActed: true }))).toBe(
      'Look in the Mintlify dashboard for a job created around 2026-11-22 10:00:00 UTC. If there is one, wait for it with [job-id] and no prompt, rather than running this step again: that would create a second job.'
    )
    expect(
      text(state({ outcome: 'cancelled', mayHaveActed: true }), settings({ 'job-id': 'job_1', prompt: 'more' }))
    ).toBe(
      'Look at job [job_1] in the Mintlify dashboard. If it took up the follow-up, wait for it with [job-id: job_1] and no prompt, rather than sending it again.'
    )
  })
})
