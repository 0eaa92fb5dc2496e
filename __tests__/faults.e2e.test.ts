/**
 * Faults and hostile input, one scenario per behaviour the README's Reliability table promises,
 * against the simulator, with the built action run as the runner runs it.
 */
import { describe, expect, it } from '@jest/globals'
import { createServer, type Server } from 'node:net'
import { useSimulator } from './simulator-fixture.js'
import { AgentApiSimulator, type RecordedRequest } from '../simulator/server.js'
import { annotations, runAction, secretLeaks } from '../scripts/run-action.js'

const KEY = 'mint_fault_secret_key_9876543210'
const PROJECT = 'proj-faults'
let sim: AgentApiSimulator

useSimulator(KEY, {}, (started) => (sim = started))

const inputs = (extra: Record<string, string> = {}) => ({
  'api-key': KEY,
  'project-id': PROJECT,
  'base-url': sim.url,
  'poll-interval': '500ms',
  timeout: '20s',
  prompt: 'Document the release',
  ...extra
})
const of = (op: RecordedRequest['operation']) => sim.requests.filter((r) => r.operation === op)
const gap = (requests: RecordedRequest[], i: number) => (requests[i]?.at ?? 0) - (requests[i - 1]?.at ?? 0)

describe('create and follow-up: retried only when the server certainly did not act', () => {
  it('waits for Retry-After (seconds) after a 429, then creates once', async () => {
    sim.fail('create', {
      kind: 'status',
      status: 429,
      headers: { 'retry-after': '2' },
      body: '{"error":"Rate limit exceeded"}'
    })
    const run = await runAction(inputs())
    expect(run.code).toBe(0)
    const creates = of('create')
    expect(creates.map((r) => r.answeredStatus)).toEqual([429, 201])
    expect(gap(creates, 1)).toBeGreaterThanOrEqual(1950)
    expect(run.stdout).toMatch(/answered 429: Rate limit exceeded\); retrying in 2s/)
  })

  it('honours Retry-After as an HTTP-date', async () => {
    const when = new Date(Date.now() + 3000).toUTCString()
    sim.fail('create', { kind: 'status', status: 503, headers: { 'retry-after': when } })
    const run = await runAction(inputs())
    expect(run.code).toBe(0)
    const creates = of('create')
    expect(creates.map((r) => r.answeredStatus)).toEqual([503, 201])
    // The date has whole-second precision: at least 1 s remains of the 3 s asked for.
    expect(gap(creates, 1)).toBeGreaterThanOrEqual(1000)
  })

  it('backs off after a 503 without Retry-After', async () => {
    sim.fail('create', { kind: 'status', status: 503 }, { kind: 'status', status: 503 })
    const before = sim.jobs(PROJECT).length
    const run = await runAction(inputs())
    expect(run.code).toBe(0)
    expect(of('create').map((r) => r.answeredStatus)).toEqual([503, 503, 201])
    expect(sim.jobs(PROJECT)).toHaveLength(before + 1)
  })

  it('gives up at once when Retry-After does not fit in the time left', async () => {
    sim.fail('create', {
      kind: 'status',
      status: 429,
      headers: { 'retry-after': '3600' },
      body: '{"error":"Rate limit exceeded"}'
    })
    const run = await runAction(inputs({ timeout: '10s' }))
    expect(run.code).toBe(1)
    expect(of('create')).toHaveLength(1)
    expect(annotations(run.stdout, 'error')[0]).toMatch(/rate limited .*100 jobs and messages per project per hour/)
  })

  it.each([500, 502, 504])('never retries a create answered %d: the job may exist', async (status) => {
    sim.fail('create', { kind: 'status', status, effect: true })
    const before = sim.jobs(PROJECT).length
    const run = await runAction(inputs())
    expect(run.code).toBe(1)
    expect(of('create')).toHaveLength(1)
    expect(sim.jobs(PROJECT)).toHaveLength(before + 1)
    expect(annotations(run.stdout, 'error')[0]).toMatch(
      new RegExp(
        `^Creating the job failed after the request was sent \\(answered ${status}.*the job may have been created\\. It was not retried`
      )
    )
    expect(run.summary).toContain('may have been created')
  })

  it('never retries a create whose connection was reset', async () => {
    sim.fail('create', { kind: 'reset', effect: true })
    const run = await runAction(inputs())
    expect(run.code).toBe(1)
    expect(of('create')).toHaveLength(1)
    expect(annotations(run.stdout, 'error')[0]).toMatch(/connection failed.*may have been created/)
  })

  it('never retries a create that got no answer, and ends near the timeout', async () => {
    sim.fail('create', { kind: 'hang' })
    const started = Date.now()
    const run = await runAction(inputs({ timeout: '3s' }))
    const took = Date.now() - started
    expect(run.code).toBe(1)
    expect(of('create')).toHaveLength(1)
    expect(took).toBeLessThan(3000 + 4000)
    expect(annotations(run.stdout, 'error')[0]).toMatch(/no answer within 3s.*may have been created/)
  })

  it('never retries a follow-up answered 500', async () => {
    sim.addJob(PROJECT, { id: 'job_msg500', status: 'completed' })
    sim.fail('message', { kind: 'status', status: 500, effect: true })
    const run = await runAction(inputs({ 'job-id': 'job_msg500', prompt: 'Also the API' }))
    expect(run.code).toBe(1)
    expect(of('message')).toHaveLength(1)
    expect(run.outputs['job-id']).toBe('job_msg500')
    expect(annotations(run.stdout, 'error')[0]).toMatch(/the follow-up may have been delivered/)
  })

  it('retries when the connection was refused (nothing was sent)', async () => {
    const run = await runAction(inputs({ 'base-url': 'http://127.0.0.1:9', timeout: '10s' }))
    expect(run.code).toBe(1)
    expect(run.stdout.match(/ECONNREFUSED.*retrying in/g)?.length).toBeGreaterThanOrEqual(2)
    expect(annotations(run.stdout, 'error')[0]).toMatch(/^Creating the job failed: could not connect/)
  })

  it('treats an answer without a job id as an error, not retried', async () => {
    sim.setScenario({ record: { id: undefined } })
    const run = await runAction(inputs())
    expect(run.code).toBe(1)
    expect(of('create')).toHaveLength(1)
    expect(annotations(run.stdout, 'error')[0]).toMatch(/job record that has no id.*may have been created/)
  })

  it("shows the server's error text for a 400", async () => {
    sim.fail('create', { kind: 'status', status: 400, body: '{"error":"prompt must be shorter"}' })
    const run = await runAction(inputs())
    expect(run.code).toBe(1)
    expect(of('create')).toHaveLength(1)
    expect(annotations(run.stdout, 'error')[0]).toBe('Creating the job failed: answered 400: prompt must be shorter.')
  })

  it('does not follow a redirect with the key', async () => {
    const other = await AgentApiSimulator.start({ apiKey: KEY })
    try {
      sim.fail('create', { kind: 'redirect', status: 307, location: `${other.url}/v2/agent/${PROJECT}/job` })
      const run = await runAction(inputs())
      expect(run.code).toBe(1)
      expect(other.requests).toHaveLength(0)
      expect(annotations(run.stdout, 'error')[0]).toMatch(/answered 307, a redirect to .*not followed with the API key/)
    } finally {
      await other.close()
    }
  })
})

describe('polls: every transient failure is retried within the timeout', () => {
  it('rides out 5xx, 429, resets, empty, truncated, non-JSON and HTML answers', async () => {
    sim.setScenario({ runMs: 500 })
    sim.fail(
      'get',
      { kind: 'status', status: 500 },
      { kind: 'status', status: 502 },
      { kind: 'reset' },
      { kind: 'body', body: '' },
      { kind: 'truncate' },
      { kind: 'body', body: 'not json' },
      { kind: 'body', body: '<html><body>Bad gateway</body></html>', status: 200, contentType: 'text/html' },
      { kind: 'status', status: 429, headers: { 'retry-after': '1' } }
    )
    const run = await runAction(inputs({ 'max-poll-interval': '2s', timeout: '60s' }))
    expect(run.code).toBe(0)
    expect(run.outputs.status).toBe('completed')
    const polls = of('get')
    expect(polls.length).toBe(9)
    expect(gap(polls, 8)).toBeGreaterThanOrEqual(990)
    expect(run.stdout).toMatch(/an HTML page \(a proxy or gateway answering\?\)/)
    expect(of('create')).toHaveLength(1)
  })

  it('waits for Retry-After on a poll even when it is longer than the poll delay', async () => {
    sim.fail('get', { kind: 'status', status: 429, headers: { 'retry-after': '3' } })
    const run = await runAction(inputs({ 'max-poll-interval': '1s' }))
    expect(run.code).toBe(0)
    const polls = of('get')
    expect(polls[0]?.answeredStatus).toBe(429)
    expect(gap(polls, 1)).toBeGreaterThanOrEqual(2990)
  })

  it('tolerates a few 404s right after creation', async () => {
    sim.fail('get', { kind: 'notFound' }, { kind: 'notFound' })
    const run = await runAction(inputs())
    expect(run.code).toBe(0)
    expect(
      of('get')
        .slice(0, 2)
        .map((r) => r.answeredStatus)
    ).toEqual([404, 404])
  })

  it('then fails clearly: job not found', async () => {
    sim.failAlways('get', { kind: 'notFound' })
    const run = await runAction(inputs())
    expect(run.code).toBe(1)
    expect(of('get')).toHaveLength(4)
    expect(annotations(run.stdout, 'error')[0]).toMatch(/failed: job not found/)
    expect(run.outputs['job-id']).toMatch(/^job_/)
  })

  it.each([
    [401, /refused the key \(401\)\. Check that the 'api-key' input/],
    [403, /forbade it \(403\).*IP allow-list/]
  ])('fails at once on %d, pointing at the key', async (status, message) => {
    sim.fail('get', { kind: 'status', status })
    const run = await runAction(inputs())
    expect(run.code).toBe(1)
    expect(of('get')).toHaveLength(1)
    expect(annotations(run.stdout, 'error')[0]).toMatch(message)
    expect(run.outputs['job-id']).toMatch(/^job_/)
    expect(run.summary).toContain(run.outputs['job-id']?.replace(/_/g, '&#95;'))
  })

  it('ends within a couple of seconds of the timeout when polls never answer', async () => {
    sim.failAlways('get', { kind: 'hang' })
    const started = Date.now()
    const run = await runAction(inputs({ timeout: '4s' }))
    const took = Date.now() - started
    expect(run.code).toBe(1)
    expect(run.outputs['timed-out']).toBe('true')
    expect(took).toBeLessThan(4000 + 3500)
  })

  it.each([true, false])(
    'refuses a 64 MB answer without reading it all, and carries on (chunked: %s)',
    async (chunked) => {
      sim.setScenario({ runMs: 300 })
      sim.fail('get', { kind: 'huge', bytes: 64 * 1024 * 1024, chunked })
      const run = await runAction(inputs())
      expect([run.code, run.stdout]).toEqual([0, expect.stringMatching(/more than 1048576 bytes/)])
    }
  )

  it('warns once about an unknown status and keeps polling until the timeout', async () => {
    sim.setScenario({ record: { status: 'paused' } })
    const run = await runAction(inputs({ timeout: '3s' }))
    expect(run.code).toBe(1)
    const warnings = annotations(run.stdout, 'warning')
    expect(warnings.filter((w) => w.includes('"paused"'))).toHaveLength(1)
    expect(of('get').length).toBeGreaterThan(1)
    expect(run.outputs).toMatchObject({ status: 'paused', 'timed-out': 'true' })
  })

  it('copes with missing optional fields', async () => {
    sim.setScenario({ record: { source: undefined, model: undefined, createdAt: undefined, archivedAt: undefined } })
    const run = await runAction(inputs())
    expect(run.code).toBe(0)
    expect(run.outputs).toMatchObject({ status: 'completed', model: '', 'source-repository': '', 'created-at': '' })
  })
})

describe('cancellation', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)('on %s: stops fast, keeps the job id, says how to resume', async (signal) => {
    sim.setScenario({ runMs: 60_000 })
    let sentAt = 0
    const run = await runAction(inputs({ timeout: '60s' }), {
      onOutput: {
        text: 'is active',
        then: (child) => {
          sentAt = Date.now()
          child.kill(signal)
        }
      }
    })
    expect(Date.now() - sentAt).toBeLessThan(2500)
    expect(run.code).toBe(1)
    const id = run.outputs['job-id'] as string
    expect(id).toMatch(/^job_/)
    expect(run.outputs).toMatchObject({ status: 'active', 'timed-out': 'false' })
    expect(run.summary).toContain('Cancelled while waiting')
    expect(run.summary).toContain(`job-id: ${id.replace(/_/g, '&#95;')}`)
    expect(annotations(run.stdout, 'error')[0]).toBe(
      `Cancelled while waiting for job ${id}. Resume with job-id: ${id}.`
    )
  })

  it('on a cancel during the create request, says the job may have been created', async () => {
    sim.fail('create', { kind: 'hang' })
    const run = await runAction(inputs(), {
      onOutput: { text: '::debug::Mode create', then: (child) => setTimeout(() => child.kill('SIGTERM'), 300) }
    })
    expect(run.code).toBe(1)
    expect(of('create')).toHaveLength(1)
    expect(run.outputs['job-id']).toBe('')
    expect(annotations(run.stdout, 'error')).toEqual([
      'Cancelled while the create request was in flight: the job may have been created. Check the agent jobs in the dashboard.'
    ])
    expect(run.summary).toContain('may have been created')
  })
})

describe('secrets', () => {
  it('never shows the key, even when the server echoes it back, with debug logging on', async () => {
    sim.fail('create', { kind: 'echoAuth', status: 400 })
    const run = await runAction(inputs({ 'api-key': `  ${KEY}\n` }), { env: { RUNNER_DEBUG: '1' } })
    expect(run.code).toBe(1)
    expect(of('create')[0]?.headers.authorization).toBe(`Bearer ${KEY}`)
    expect(run.stdout.split('\n')[0]).toBe(`::add-mask::${KEY}`)
    expect(run.stdout).toContain('::debug::')
    expect(annotations(run.stdout, 'error')[0]).toContain('bad key Bearer ***')
    expect(secretLeaks(run, KEY)).toEqual([])
  })

  it('keeps the key out of outputs and the summary when a job record carries it', async () => {
    sim.setScenario({ record: { model: `model-${KEY}` } })
    const run = await runAction(inputs(), { env: { RUNNER_DEBUG: '1' } })
    expect(run.code).toBe(0)
    expect(run.outputs.model).toBe('model-***')
    expect(secretLeaks(run, KEY)).toEqual([])
  })
})

describe('hostile input', () => {
  it('keeps ids with / .. ? # % inside one encoded path segment', async () => {
    const project = 'a/b?c#d%e'
    sim.addJob(project, { id: '..' })
    const run = await runAction(inputs({ 'project-id': project, 'job-id': '..', prompt: '' }))
    expect(run.code).toBe(0)
    expect(sim.requests[0]?.rawPath).toBe('/v2/agent/a%2Fb%3Fc%23d%25e/job/%2E%2E')
    expect(sim.requests[0]).toMatchObject({ projectId: project, jobId: '..' })
  })

  it('renders prompt and server text inert in the log and the summary', async () => {
    const prompt = '::error::injected from prompt\n<script>alert(1)</script>\n\n[click](javascript:alert(2))'
    sim.setScenario({
      prLink: 'javascript:alert(3)',
      record: {
        model: '::warning::injected\n<img src=x onerror=alert(4)>',
        source: { repository: 'javascript:alert(5)', ref: '<b>main</b>' }
      }
    })
    const run = await runAction(inputs({ prompt }))
    expect(run.code).toBe(0)
    expect(run.stdout).not.toMatch(/^::(error|warning)::injected/m)
    expect(run.outputs['pr-link']).toBe('')
    expect(run.summary).not.toMatch(/<script|<img|<b>|href="javascript/i)
    expect(run.summary).toContain('&#60;script&#62;')
    expect(run.summary.trimEnd()).not.toMatch(/\n\s*\n/)
  })

  it('fails an oversized prompt before sending', async () => {
    const file = await runAction(inputs({ prompt: '', 'prompt-file': 'big.md' }), {
      files: { 'big.md': 'x'.repeat(100_001) }
    })
    expect(file.code).toBe(1)
    expect(annotations(file.stdout, 'error')[0]).toMatch(
      /^Input 'prompt-file': the prompt has 100001 characters; the limit is 100000/
    )
    expect(sim.requests).toHaveLength(0)
  })
})

describe('proxies', () => {
  it('sends API traffic through HTTPS_PROXY', async () => {
    const connects: string[] = []
    const proxy: Server = createServer((socket) => {
      socket.once('data', (data) => {
        connects.push(data.toString('latin1').split('\r\n')[0] ?? '')
        socket.end('HTTP/1.1 502 Bad Gateway\r\n\r\n')
      })
    })
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
    const { port } = proxy.address() as { port: number }
    try {
      const run = await runAction(inputs({ 'base-url': 'https://agent-api.example.test', timeout: '5s' }), {
        env: { HTTPS_PROXY: `http://127.0.0.1:${port}` }
      })
      expect(run.code).toBe(1)
      expect(connects[0]).toBe('CONNECT agent-api.example.test:443 HTTP/1.1')
    } finally {
      await new Promise((resolve) => proxy.close(resolve))
    }
  })
})
