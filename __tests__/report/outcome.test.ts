import { describe, expect, it } from '@jest/globals'
import { inputDefaults, readAction } from '../../scripts/action-metadata.js'
import { ApiError, type ApiErrorKind } from '../../src/agent-api/errors.js'
import { parseJob } from '../../src/agent-api/job.js'
import { cancelMessage, explain, mayStillRun, nextSteps, pullRequest, verdict } from '../../src/report/outcome.js'
import { parseSettings, type Settings } from '../../src/step/settings.js'
import { initialState, type RunState } from '../../src/report/state.js'

const DEFAULTS = inputDefaults(readAction(), 'tok')
const settings = (inputs: Record<string, string> = {}): Settings =>
  parseSettings({
    get: (name) => ({ ...DEFAULTS, 'api-key': 'k', 'project-id': 'p', prompt: 'x', ...inputs })[name] ?? '',
    readFile: () => ''
  })
const state = (patch: Partial<RunState>, job?: Record<string, unknown>): RunState => ({
  ...initialState(Date.parse('2026-11-22T10:00:00Z'), 'job_1'),
  ...(job ? { job: parseJob(job) } : {}),
  ...patch
})

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

describe('cancelMessage', () => {
  it.each<[string, Partial<RunState>, 'create' | 'message' | 'wait-only', boolean, string]>([
    [
      'create on the wire',
      { phase: 'posting' },
      'create',
      true,
      'Cancelled while the create request was in flight: the job may have been created. Check the agent jobs in the dashboard.'
    ],
    [
      'follow-up on the wire',
      { phase: 'posting' },
      'message',
      true,
      'Cancelled while the follow-up request was in flight: the follow-up may have been delivered. Check the agent jobs in the dashboard.'
    ],
    [
      'create not yet sent',
      { phase: 'posting' },
      'create',
      false,
      'Cancelled before the create request was sent: no job was created.'
    ],
    [
      'before posting',
      { phase: 'before-post', jobId: undefined },
      'create',
      false,
      'Cancelled before the create request was sent: no job was created.'
    ],
    [
      'follow-up before posting',
      { phase: 'before-post' },
      'message',
      false,
      'Cancelled before the follow-up request was sent: no follow-up was sent.'
    ],
    [
      'waiting',
      { phase: 'reading' },
      'create',
      false,
      'Cancelled while waiting for job job_1. Resume with job-id: job_1.'
    ],
    [
      'wait-only',
      { phase: 'before-post' },
      'wait-only',
      false,
      'Cancelled while waiting for job job_1. Resume with job-id: job_1.'
    ]
  ])('%s', (_name, patch, mode, sent, message) => {
    expect(cancelMessage(mode, state(patch), sent)).toBe(message)
  })
})

describe('explain', () => {
  // Parsed inside each test: a settings mutant then fails its tests, not the whole file's collection.
  const modes = { create: {}, message: { 'job-id': 'job_1', prompt: 'more' } }
  it.each<[ApiErrorKind, number | undefined, keyof typeof modes, RunState['phase'], string]>([
    [
      'server-error',
      502,
      'create',
      'posting',
      'Creating the job failed after the request was sent (m): the job may have been created. It was not retried, to avoid a duplicate job and pull request; check the agent jobs in the dashboard before running again.'
    ],
    [
      'no-answer',
      undefined,
      'message',
      'posting',
      'Sending the follow-up to job job_1 failed after the request was sent (m): the follow-up may have been delivered. It was not retried, to avoid a duplicate job and pull request; check the agent jobs in the dashboard before running again.'
    ],
    ['server-error', 500, 'create', 'reading', 'Reading job job_1 failed: m.'],
    [
      'unauthorized',
      401,
      'create',
      'reading',
      "Reading job job_1 failed: the Agent API refused the key (401). Check that the 'api-key' input holds a current admin API key (mint_…)."
    ],
    [
      'forbidden',
      403,
      'create',
      'posting',
      "Creating the job failed: the Agent API forbade it (403). Check that the key in 'api-key' belongs to project 'p' and that its IP allow-list admits this runner."
    ],
    ['not-found', 404, 'create', 'posting', "Creating the job failed (m). Check the 'project-id' input."],
    [
      'not-found',
      404,
      'message',
      'posting',
      "Sending the follow-up to job job_1 failed: job not found (m). Check the 'job-id' input and that it belongs to project 'p'."
    ],
    [
      'rate-limited',
      429,
      'create',
      'posting',
      "Creating the job failed: rate limited (m). The Agent API allows 100 jobs and messages per project per hour: spread the runs out (a concurrency: group runs them one at a time), or raise 'timeout' so the step waits longer for the limit to clear."
    ],
    [
      'redirect',
      307,
      'create',
      'posting',
      "Creating the job failed: m. Redirects are not followed with the API key; check the 'base-url' input."
    ],
    [
      'proxy',
      407,
      'create',
      'posting',
      'Creating the job failed: m; nothing reached the API. The proxy wants credentials: put them in HTTPS_PROXY (http://user:password@host:port).'
    ],
    [
      'proxy',
      502,
      'create',
      'reading',
      'Reading job job_1 failed: m; nothing reached the API. Check the proxy in HTTPS_PROXY and NO_PROXY.'
    ],
    [
      'tls',
      undefined,
      'create',
      'posting',
      "Creating the job failed: m; nothing reached the API. If a proxy or gateway re-signs TLS, give its CA certificate to Node with NODE_EXTRA_CA_CERTS; else check 'base-url'."
    ],
    [
      'not-sent',
      undefined,
      'create',
      'posting',
      "Creating the job failed: m; nothing reached the API. Check 'base-url' and the runner's network."
    ],
    ['invalid', 400, 'create', 'posting', 'Creating the job failed: m.'],
    ['unavailable', 503, 'create', 'posting', 'Creating the job failed: m.'],
    ['bad-response', 200, 'create', 'reading', 'Reading job job_1 failed: m.'],
    [
      'not-found',
      404,
      'create',
      'reading',
      'Reading job job_1 failed: job not found (m), though this step created it; look for it in the Mintlify dashboard.'
    ]
  ])('%s (%s) in %s mode while %s', (kind, status, mode, phase, message) => {
    expect(explain(new ApiError(kind, 'm', status), settings(modes[mode]), state({ phase }))).toBe(message)
  })

  it('anything else is an unexpected error', () => {
    expect(explain(new TypeError('x is undefined'), settings(), state({}))).toBe('Unexpected error: x is undefined')
  })
})

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
      'To continue, send a follow-up ([job-id: job_1] with a prompt) or start a new workflow run (re-running this one resumes the same job).'
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
