import { describe, expect, it } from '@jest/globals'
import { ApiError, type ApiErrorKind } from '../../src/agent-api/errors.js'
import { cancelMessage, explain } from '../../src/report/failure.js'
import type { RunState } from '../../src/report/state.js'
import { runStateAt, settings } from '../fixtures/run-state.js'

const state = runStateAt(Date.parse('2026-11-22T10:00:00Z'))

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
      "Reading job job_1 failed: the Agent API refused the key (401). The key may have expired (a key expires 7, 30, 60 or 90 days after it is made, unless made without expiration): check on the dashboard's API keys page that the 'api-key' input holds a current admin API key (one starting with mint_), and replace it if it expired."
    ],
    [
      'forbidden',
      403,
      'create',
      'posting',
      "Creating the job failed: the Agent API forbade it (403). A key with an IP allow-list is answered 403 from any other address, and a GitHub-hosted runner's address changes: use a key without one, or a runner whose fixed address is on it. Check too that the key in 'api-key' belongs to project 'p' and has the write scope."
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
