/**
 * Faults and hostile input, one scenario per row of the Reliability table in docs/reliability.md,
 * in-process on a virtual clock: a 30 s Retry-After or a request that never answers costs
 * milliseconds.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { createServer as createHttpsServer } from 'node:https'
import { createServer, type Server } from 'node:net'
import { formatDuration } from '../../src/base/duration.js'
import { AgentApiSimulator, type RecordedRequest } from '../../simulator/agent-api.js'
import { useStep } from '../fixtures/step.js'
import { OUTPUT_NAMES } from '../../src/report/finish.js'

// One describe for the file: its hooks stay its own when the mutation suite runs the files together.
describe('faults', () => {
  const KEY = 'mint_fault_secret_key_9876543210'
  const PROJECT = 'proj-faults'
  const step = useStep({
    key: KEY,
    project: PROJECT,
    prompt: 'Document the release',
    inputs: { timeout: '2m' },
    scenario: { runMs: 20_000 }
  })
  const { virtual, requests } = step
  const run = (extra: Record<string, string> = {}, cancel?: AbortController) =>
    step.run(extra, cancel ? { cancel } : {})
  const gap = (list: RecordedRequest[], i: number) => (list[i]?.time ?? 0) - (list[i - 1]?.time ?? 0)
  const created = () => virtual().sim.jobs(PROJECT).length

  describe('create and follow-up: sent again only when the server certainly did not act', () => {
    it('waits for Retry-After (seconds) after a 429, then creates once', async () => {
      virtual().sim.fail('create', {
        kind: 'status',
        status: 429,
        headers: { 'retry-after': '120' },
        body: '{"error":"Rate limit exceeded"}'
      })
      const result = await run({ timeout: '10m' })
      expect(result.code).toBe(0)
      expect(requests('create').map((r) => r.answeredStatus)).toEqual([429, 201])
      expect(gap(requests('create'), 1)).toBeGreaterThanOrEqual(120_000)
      expect(created()).toBe(1)
      expect(result.at('info')).toContainEqual(
        'The create request was not accepted (answered 429: Rate limit exceeded); retrying in 2m'
      )
    })

    it('honours Retry-After as an HTTP-date', async () => {
      const when = new Date(virtual().clock.now() + 30_000).toUTCString()
      virtual().sim.fail('create', { kind: 'status', status: 503, headers: { 'retry-after': when } })
      const result = await run()
      expect(result.code).toBe(0)
      expect(requests('create').map((r) => r.answeredStatus)).toEqual([503, 201])
      expect(gap(requests('create'), 1)).toBeGreaterThanOrEqual(29_000)
    })

    it('backs off after 503s without Retry-After, and gives up after five attempts', async () => {
      virtual().sim.fail('create', { kind: 'status', status: 503 }, { kind: 'status', status: 503 })
      const ridden = await run()
      expect(ridden.code).toBe(0)
      expect(ridden.at('info')).toContainEqual(
        expect.stringMatching(
          /^The create request was not accepted \(answered 503: Simulated HTTP 503\); retrying in \d+ms$/
        )
      )
      expect(requests('create').map((r) => r.answeredStatus)).toEqual([503, 503, 201])
      expect(created()).toBe(1)

      virtual().sim.requests.length = 0
      virtual().sim.failAlways('create', { kind: 'status', status: 503 })
      const given = await run()
      expect(given.code).toBe(1)
      expect(requests('create')).toHaveLength(5)
      expect(given.at('error')).toEqual(['Creating the job failed: answered 503: Simulated HTTP 503.'])
    })

    it('gives up at once when Retry-After does not fit in the time left', async () => {
      virtual().sim.fail('create', {
        kind: 'status',
        status: 429,
        headers: { 'retry-after': '3600' },
        body: '{"error":"Rate limit exceeded"}'
      })
      const result = await run({ timeout: '10m' })
      expect(result.code).toBe(1)
      expect(requests('create')).toHaveLength(1)
      expect(result.at('error')).toEqual([
        "Creating the job failed: rate limited (answered 429: Rate limit exceeded). The Agent API allows 100 jobs and messages per project per hour: spread the runs out (a concurrency: group runs them one at a time), or raise 'timeout' so the step waits longer for the limit to clear."
      ])
    })

    describe('a 429 without Retry-After (the API documents none): the limit is per hour', () => {
      const limited = { kind: 'status', status: 429, body: '{"error":"Rate limit exceeded"}' } as const

      it('backs off from tens of seconds to minutes, saying when the next attempt is, then creates once', async () => {
        virtual().sim.fail('create', ...Array.from({ length: 6 }, () => limited))
        const result = await run({ timeout: '30m' })
        expect(result.code).toBe(0)
        const creates = requests('create')
        expect(creates.map((r) => r.answeredStatus)).toEqual([429, 429, 429, 429, 429, 429, 201])
        expect(created()).toBe(1)
        const gaps = creates.slice(1).map((_, i) => gap(creates, i + 1))
        // Each delay is 75-100 % of 20 s doubled per attempt, capped at 5 minutes.
        gaps.forEach((ms, i) => {
          const step = Math.min(300_000, 20_000 * 2 ** i)
          expect(ms).toBeGreaterThanOrEqual(0.75 * step)
          expect(ms).toBeLessThanOrEqual(step + 1000)
        })
        const next = new Date((creates[1]?.time ?? 0) - ((creates[1]?.time ?? 0) % 1000)).toISOString()
        expect(result.at('info')).toContainEqual(
          expect.stringMatching(
            new RegExp(
              `^The create request was not accepted \\(answered 429: Rate limit exceeded\\); attempt 2 at ${next.slice(0, 10)} ${next.slice(11, 16)}:\\d\\d UTC, in 1[5-9]s$`
            )
          )
        )
      })

      // A Retry-After of 0 (or a date already past by our clock) promises nothing: the limit is per hour.
      it.each([
        ['0', () => '0'],
        ['a date already past', () => new Date(virtual().clock.now() - 60_000).toUTCString()]
      ])('backs off the same way when Retry-After is %s', async (_, retryAfter) => {
        const now = { ...limited, headers: { 'retry-after': retryAfter() } }
        virtual().sim.fail('create', now, now)
        const result = await run({ timeout: '30m' })
        expect(result.code).toBe(0)
        const creates = requests('create')
        expect(creates.map((r) => r.answeredStatus)).toEqual([429, 429, 201])
        expect(created()).toBe(1)
        expect(gap(creates, 1)).toBeGreaterThanOrEqual(15_000)
        expect(gap(creates, 2)).toBeGreaterThanOrEqual(30_000)
        expect(result.at('info')).toContainEqual(
          expect.stringMatching(
            /^The create request was not accepted \(answered 429: Rate limit exceeded\); attempt 2 at /
          )
        )
      })

      it('backs off the same way for a follow-up, and delivers it once', async () => {
        virtual().sim.addJob(PROJECT, { id: 'job_busy', status: 'completed' })
        virtual().sim.fail('message', limited, limited)
        const result = await run({ 'job-id': 'job_busy', prompt: 'More, please', timeout: '30m' })
        expect(result.code).toBe(0)
        const messages = requests('message')
        expect(messages.map((r) => r.answeredStatus)).toEqual([429, 429, 200])
        expect(gap(messages, 1)).toBeGreaterThanOrEqual(15_000)
        expect(gap(messages, 2)).toBeGreaterThanOrEqual(30_000)
        expect(result.at('info')).toContainEqual(
          expect.stringMatching(
            /^The follow-up request was not accepted \(answered 429: Rate limit exceeded\); attempt 3 at /
          )
        )
      })

      it('gives up when timeout runs out, naming the limit and what to do', async () => {
        virtual().sim.failAlways('create', limited)
        const started = virtual().clock.now()
        const result = await run({ timeout: '10m' })
        expect(result.code).toBe(1)
        const creates = requests('create')
        // 0, then about 20 s, 1 min, 2 min 20 s and 5 min in: a sixth would land past 10 minutes.
        expect(creates.length).toBeGreaterThanOrEqual(5)
        expect(creates.length).toBeLessThanOrEqual(6)
        expect((creates.at(-1)?.time ?? 0) - started).toBeLessThan(600_000)
        expect(result.at('error')).toEqual([
          `Creating the job failed: rate limited (answered 429: Rate limit exceeded; ${creates.length} attempts over ${formatDuration((creates.at(-1)?.time ?? 0) - started)}). The Agent API allows 100 jobs and messages per project per hour: spread the runs out (a concurrency: group runs them one at a time), or raise 'timeout' so the step waits longer for the limit to clear.`
        ])
        expect(created()).toBe(0)
      })
    })

    it.each([500, 502, 504])('never sends a create again after a %d: the job may exist', async (status) => {
      virtual().sim.fail('create', { kind: 'status', status, effect: true })
      const result = await run()
      expect(result.code).toBe(1)
      expect(requests('create')).toHaveLength(1)
      expect(created()).toBe(1)
      expect(result.at('error')).toEqual([
        `Creating the job failed after the request was sent (answered ${status}: Simulated HTTP ${status}): the job may have been created. It was not retried, to avoid a duplicate job and pull request; check the agent jobs in the dashboard before running again.`
      ])
      expect(result.summary).toContain('may have been created')
    })

    it.each([
      ['a reset after the server acted', { kind: 'reset', effect: true }, /connection failed.*may have been created/],
      ['a truncated answer', { kind: 'truncate' }, /may have been created/],
      [
        'an answer without a job id',
        { kind: 'body', body: '{"status":"active"}', status: 201 },
        /job record that has no id.*may have been created/
      ],
      [
        'an HTML page',
        { kind: 'body', body: '<html>502</html>', status: 200, contentType: 'text/html' },
        /an HTML page \(a proxy or gateway answering\?\).*may have been created/
      ]
    ] as const)('never sends a create again after %s', async (_name, fault, message) => {
      virtual().sim.fail('create', fault)
      const result = await run()
      expect(result.code).toBe(1)
      expect(requests('create')).toHaveLength(1)
      expect(result.at('error')).toEqual([expect.stringMatching(message)])
    })

    it('never sends a create again that got no answer, and ends at the timeout', async () => {
      virtual().sim.fail('create', { kind: 'hang' })
      const started = virtual().clock.now()
      const result = await run({ timeout: '45s' })
      expect(result.code).toBe(1)
      expect(requests('create')).toHaveLength(1)
      expect(virtual().clock.now() - started).toBeLessThanOrEqual(45_000 + 2_000)
      expect(result.at('error')).toEqual([
        expect.stringMatching(/no answer within 30s\): the job may have been created/)
      ])
    })

    it('never sends a follow-up again after a 500', async () => {
      virtual().sim.addJob(PROJECT, { id: 'job_msg500', status: 'completed' })
      virtual().sim.fail('message', { kind: 'status', status: 500, effect: true })
      const result = await run({ 'job-id': 'job_msg500', prompt: 'Also the API' })
      expect(result.code).toBe(1)
      expect(requests('message')).toHaveLength(1)
      expect(result.outputs['job-id']).toBe('job_msg500')
      expect(result.at('error')).toEqual([
        expect.stringMatching(
          /^Sending the follow-up to job job_msg500 failed after the request was sent.*the follow-up may have been delivered/
        )
      ])
    })

    it('sends again when the connection was refused (nothing was sent), then says so', async () => {
      const result = await run({ 'base-url': 'http://127.0.0.1:9' })
      expect(result.code).toBe(1)
      expect(result.at('info').filter((line) => /ECONNREFUSED.*retrying in/.test(line))).toHaveLength(4)
      expect(result.at('error')).toEqual([
        expect.stringMatching(
          /^Creating the job failed: could not connect: .*ECONNREFUSED.*nothing reached the API\. Check 'base-url'/
        )
      ])
      expect(result.everything()).not.toContain('may have been')
    })

    it('sends again after a DNS failure, which never reached a server', async () => {
      const result = await run({ 'base-url': 'https://agent-api.nonexistent.invalid' })
      expect(result.code).toBe(1)
      expect(result.at('error')).toEqual([
        expect.stringMatching(/could not connect: .*ENOTFOUND.*nothing reached the API/)
      ])
      expect(result.everything()).not.toContain('may have been')
    })

    it("shows the server's error text for a 400, and does not send again", async () => {
      virtual().sim.fail('create', { kind: 'status', status: 400, body: '{"error":"prompt must be shorter"}' })
      const result = await run()
      expect(result.code).toBe(1)
      expect(requests('create')).toHaveLength(1)
      expect(result.at('error')).toEqual(['Creating the job failed: answered 400: prompt must be shorter.'])
    })

    it('drops the start of the key when an echo of it is cut, in the log and the summary', async () => {
      // 290 characters, then the key: the 300-character cut falls inside it.
      const echo = `${'y'.repeat(289)} ${KEY}`
      virtual().sim.fail('create', { kind: 'status', status: 400, body: JSON.stringify({ error: echo }) })
      const result = await run()
      expect(result.code).toBe(1)
      expect(result.at('error')).toEqual([`Creating the job failed: answered 400: ${'y'.repeat(289)} ***….`])
      for (const line of result.lines) expect(line.message).not.toContain(KEY.slice(0, 4))
      expect(result.summary).not.toContain(KEY.slice(0, 4))
    })

    it('does not follow a redirect with the key', async () => {
      const other = await AgentApiSimulator.start({ apiKey: KEY })
      try {
        virtual().sim.fail('create', {
          kind: 'redirect',
          status: 307,
          location: `${other.url}/v2/agent/${PROJECT}/job`
        })
        const result = await run()
        expect(result.code).toBe(1)
        expect(other.requests).toHaveLength(0)
        expect(result.at('error')).toEqual([
          expect.stringMatching(
            /answered 307, a redirect to .*not followed with the API key; check the 'base-url' input/
          )
        ])
      } finally {
        await other.close()
      }
    })
  })

  describe('polls: every transient failure is ridden out within the timeout', () => {
    it('rides out 5xx, 429, resets, empty, truncated, non-JSON and HTML answers', async () => {
      virtual().sim.setScenario({ runMs: 3000 })
      virtual().sim.fail(
        'get',
        { kind: 'status', status: 500 },
        { kind: 'status', status: 502 },
        { kind: 'reset' },
        { kind: 'body', body: '' },
        { kind: 'truncate' },
        { kind: 'body', body: 'not json' },
        { kind: 'body', body: '<html><body>Bad gateway</body></html>', status: 200, contentType: 'text/html' },
        { kind: 'status', status: 429, headers: { 'retry-after': '20' } }
      )
      const result = await run()
      expect(result.code).toBe(0)
      expect(result.outputs.status).toBe('completed')
      const polls = requests('get')
      expect(polls).toHaveLength(9)
      expect(gap(polls, 8)).toBeGreaterThanOrEqual(20_000)
      expect(result.at('info')).toContainEqual(
        expect.stringMatching(
          /^Poll 7 failed: answered 200 with an HTML page \(a proxy or gateway answering\?\) instead of a job \(JSON\); retrying in/
        )
      )
      expect(requests('create')).toHaveLength(1)
    })

    it('waits for Retry-After on a poll even when it is longer than max-poll-interval', async () => {
      virtual().sim.fail('get', { kind: 'status', status: 429, headers: { 'retry-after': '30' } })
      const result = await run({ 'max-poll-interval': '1s', 'poll-interval': '1s' })
      expect(result.code).toBe(0)
      expect(requests('get')[0]?.answeredStatus).toBe(429)
      expect(gap(requests('get'), 1)).toBeGreaterThanOrEqual(30_000)
    })

    it('tolerates 404s for 20 s after the create answer, whatever transient failures come between', async () => {
      virtual().sim.setScenario({ runMs: 25_000 })
      // The failures before and between the 404s double the delay: the last 404 comes near 18 s.
      virtual().sim.fail(
        'get',
        { kind: 'status', status: 500 },
        { kind: 'notFound' },
        { kind: 'reset' },
        { kind: 'notFound' }
      )
      const result = await run()
      expect(result.code).toBe(0)
      const polls = requests('get')
      expect(polls.slice(0, 4).map((r) => r.answeredStatus ?? 'reset')).toEqual([500, 404, 'reset', 404])
      expect((polls[3]?.time ?? 0) - (requests('create')[0]?.time ?? 0)).toBeGreaterThan(15_000)
      expect(result.outputs.status).toBe('completed')
    })

    it('a create answered 404 points at project-id: there is no job to look for', async () => {
      virtual().sim.fail('create', { kind: 'notFound' })
      const result = await run()
      expect(result.code).toBe(1)
      expect(result.at('error')).toEqual([
        "Creating the job failed (answered 404: Job not found). Check the 'project-id' input."
      ])
      expect(result.summary).toContain('<strong>No pull request:</strong> no job was started.')
      expect(result.summary).not.toMatch(/not found 20 s|What now/)
    })

    it('then fails clearly, once 20 s have passed: job not found', async () => {
      virtual().sim.failAlways('get', { kind: 'notFound' })
      const result = await run()
      expect(result.code).toBe(1)
      const polls = requests('get')
      const answered = requests('create')[0]?.time ?? 0
      expect((polls.at(-1)?.time ?? 0) - answered).toBeGreaterThanOrEqual(20_000)
      expect((polls.at(-2)?.time ?? 0) - answered).toBeLessThan(20_000)
      const id = result.outputs['job-id'] ?? ''
      expect(id).toMatch(/^job_/)
      expect(result.at('error')).toEqual([
        `Reading job ${id} failed: job not found (answered 404: Job not found), though this step created it; look for it in the Mintlify dashboard.`
      ])
      expect(result.summary).toContain(`job <code>${id}</code> was not found.`)
      expect(result.summary).toContain('still read as not found 20 s after the create was answered')
      expect(result.summary).not.toMatch(/may still be running|wait for it with/)
    })

    it.each([
      [401, /refused the key \(401\)\. The key may have expired .*the 'api-key' input/],
      [403, /forbade it \(403\).*IP allow-list/]
    ])('fails at once on %d, pointing at the key', async (status, message) => {
      virtual().sim.fail('get', { kind: 'status', status })
      const result = await run()
      expect(result.code).toBe(1)
      expect(requests('get')).toHaveLength(1)
      expect(result.at('error')).toEqual([expect.stringMatching(message)])
      expect(result.outputs['job-id']).toMatch(/^job_/)
      expect(result.summary).toContain(result.outputs['job-id'])
    })

    it("401: the key's form (mint_) is named as written, not taken by the redaction for a cut key", async () => {
      // Every real key starts with mint_, so a hint written `mint_…` is read by the redaction as the
      // key cut short (src/base/text.ts): it showed as `***…`, as if the key were echoed.
      virtual().sim.fail('get', { kind: 'status', status: 401 })
      const result = await run()
      const [error = ''] = result.at('error')
      expect(error).toMatch(/holds a current admin API key \(.*mint_.*\)/)
      expect(error).not.toContain('***')
      expect(result.summary).not.toContain('***')
    })

    it('ends within two seconds of the timeout when polls never answer', async () => {
      virtual().sim.failAlways('get', { kind: 'hang' })
      const started = virtual().clock.now()
      const result = await run({ timeout: '40s' })
      expect(result.code).toBe(1)
      expect(result.outputs['timed-out']).toBe('true')
      expect(virtual().clock.now() - started).toBeLessThanOrEqual(40_000 + 2_000)
    })

    it('answers that arrive late but within the time limit are used', async () => {
      virtual().sim.setScenario({ runMs: 5000 })
      virtual().sim.fail('get', { kind: 'delay', ms: 25_000 })
      const result = await run()
      expect(result.code).toBe(0)
      expect(requests('get')[0]?.answeredStatus).toBe(200)
    })

    it.each([true, false])(
      'refuses a 64 MB answer without reading it all, and carries on (chunked: %s)',
      async (chunked) => {
        virtual().sim.setScenario({ runMs: 3000 })
        virtual().sim.fail('get', { kind: 'huge', bytes: 64 * 1024 * 1024, chunked })
        const result = await run()
        expect(result.code).toBe(0)
        expect(result.at('info')).toContainEqual(expect.stringMatching(/more than 1048576 bytes/))
      }
    )

    it('warns once about an unknown status and keeps polling until the timeout', async () => {
      virtual().sim.setScenario({ record: { status: 'paused' } })
      const result = await run({ timeout: '1m' })
      expect(result.code).toBe(1)
      expect(result.at('warning').filter((w) => w.includes('"paused"'))).toHaveLength(1)
      expect(requests('get').length).toBeGreaterThan(3)
      expect(result.outputs).toMatchObject({ status: 'paused', 'timed-out': 'true' })
    })

    it('copes with missing optional fields', async () => {
      virtual().sim.setScenario({
        runMs: 3000,
        record: { source: undefined, model: undefined, createdAt: undefined, archivedAt: undefined }
      })
      const result = await run()
      expect(result.code).toBe(0)
      expect(result.outputs).toMatchObject({
        status: 'completed',
        model: '',
        'source-repository': '',
        'created-at': ''
      })
    })
  })

  describe('cancellation', () => {
    it('while waiting: stops, keeps the job id, says how to resume', async () => {
      const cancel = step.cancelAtRequest('get', 3)
      const result = await run({}, cancel)
      expect(result.code).toBe(1)
      const id = result.outputs['job-id'] ?? ''
      expect(result.outputs).toMatchObject({ status: 'active', 'timed-out': 'false' })
      expect(result.at('info')).toContainEqual('Received SIGTERM: stopping and reporting what is known.')
      expect(result.at('error')).toEqual([`Cancelled while waiting for job ${id}. Resume with job-id: ${id}.`])
      expect(result.summary).toContain('🛑 Docs agent step cancelled')
      expect(result.summary).toContain(`<code>job-id: ${id}</code> and no prompt`)
    })

    it('during the create request: says the job may have been created', async () => {
      const cancel = new AbortController()
      virtual().sim.fail('create', { kind: 'hang' })
      virtual().sim.onRequest = (request) => {
        if (request.operation === 'create') cancel.abort()
      }
      const result = await run({}, cancel)
      expect(result.code).toBe(1)
      expect(requests('create')).toHaveLength(1)
      expect(result.outputs['job-id']).toBe('')
      expect(result.at('error')).toEqual([
        'Cancelled while the create request was in flight: the job may have been created. Check the agent jobs in the dashboard.'
      ])
    })

    it('before the create was sent: says no job was created', async () => {
      const cancel = new AbortController()
      cancel.abort()
      const result = await run({}, cancel)
      expect(result.code).toBe(1)
      expect(virtual().sim.requests).toHaveLength(0)
      expect(result.at('info')[0]).toBe('Received SIGTERM: stopping and reporting what is known.')
      expect(result.at('error')).toEqual(['Cancelled before the create request was sent: no job was created.'])
      expect(result.summary).toContain('no job was started')
    })

    it('between attempts of a create that was refused: no job was created', async () => {
      const cancel = new AbortController()
      virtual().sim.fail('create', { kind: 'status', status: 429, headers: { 'retry-after': '5' } })
      const result = await step.run(
        {},
        { cancel, onLine: (_level, message) => message.includes('retrying in') && cancel.abort() }
      )
      expect(result.code).toBe(1)
      expect(requests('create')).toHaveLength(1)
      expect(result.at('error')).toEqual(['Cancelled before the create request was sent: no job was created.'])
    })
  })

  describe('the wire: what never reached the API is never "may have been created"', () => {
    let server: Server | undefined
    const saved = { ...process.env }
    beforeEach(() => {
      for (const name of Object.keys(process.env)) if (/_proxy$/i.test(name)) Reflect.deleteProperty(process.env, name)
    })
    afterEach(async () => {
      process.env = { ...saved }
      await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)))
      server = undefined
    })

    const proxy = async (answer: string): Promise<{ url: string; connects: string[] }> => {
      const connects: string[] = []
      server = createServer((socket) => {
        socket.once('data', (data) => {
          connects.push(data.toString('latin1').split('\r\n')[0] ?? '')
          socket.end(answer)
        })
      })
      await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve))
      return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, connects }
    }

    it('a proxy that wants credentials (407): fails at once, pointing at HTTPS_PROXY', async () => {
      const { url, connects } = await proxy('HTTP/1.1 407 Proxy Authentication Required\r\n\r\n')
      process.env.HTTPS_PROXY = url
      const result = await run({ 'base-url': 'https://agent-api.example.test' })
      expect(result.code).toBe(1)
      expect(connects).toEqual(['CONNECT agent-api.example.test:443 HTTP/1.1'])
      expect(result.at('error')).toEqual([
        'Creating the job failed: the proxy refused to connect to the API (it answered 407); nothing reached the API. The proxy wants credentials: put them in HTTPS_PROXY (http://user:password@host:port).'
      ])
      expect(result.everything()).not.toContain('may have been')
    })

    it('a proxy that cannot reach the API (502): sent again, then fails naming the proxy', async () => {
      const { url, connects } = await proxy('HTTP/1.1 502 Bad Gateway\r\n\r\n')
      process.env.HTTPS_PROXY = url
      const result = await run({ 'base-url': 'https://agent-api.example.test' })
      expect(result.code).toBe(1)
      expect(connects).toHaveLength(5)
      expect(result.at('error')).toEqual([
        expect.stringMatching(
          /the proxy refused to connect to the API \(it answered 502\); nothing reached the API\. Check the proxy in HTTPS_PROXY/
        )
      ])
      expect(result.everything()).not.toContain('may have been')
    })

    it.each([
      [
        'a stray % in the password',
        'http://user:50%off@proxy.internal:3128',
        'its user name or password is not percent-encoded'
      ],
      ['no scheme', 'proxy.internal:3128', 'no http:// or https://'],
      ['not a URL', '10.0.0.1:3128', 'not a URL']
    ])(
      'a proxy variable that cannot be parsed (%s): fails before any request, after the outputs, without its value',
      async (_what, value, why) => {
        process.env.HTTPS_PROXY = value
        const result = await run({ 'base-url': 'https://agent-api.example.test' })
        expect(result.code).toBe(1)
        expect(result.at('error')).toEqual([
          `Proxy variable HTTPS_PROXY: ${why}: expected http://host:port or http://user:password@host:port, with % in a password written %25.`
        ])
        expect(Object.keys(result.outputs)).toHaveLength(OUTPUT_NAMES.length)
        expect(result.summary).toContain('❌ Docs agent step failed')
        expect(result.everything()).not.toContain(value)
        expect(result.everything()).not.toContain('50%off')
      }
    )

    it('sends the proxy its credentials', async () => {
      const seen: string[] = []
      server = createServer((socket) => {
        socket.once('data', (data) => {
          seen.push(data.toString('latin1'))
          socket.end('HTTP/1.1 407 Proxy Authentication Required\r\n\r\n')
        })
      })
      await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve))
      process.env.HTTPS_PROXY = `http://user:p%40ss@127.0.0.1:${(server.address() as { port: number }).port}`
      await run({ 'base-url': 'https://agent-api.example.test' })
      expect(seen[0]).toContain(`proxy-authorization: Basic ${Buffer.from('user:p@ss').toString('base64')}`)
    })

    it('a certificate the runner does not trust: fails at once, pointing at the certificate', async () => {
      const https = createHttpsServer(
        {
          key: readFileSync(new URL('../fixtures/self-signed.key', import.meta.url)),
          cert: readFileSync(new URL('../fixtures/self-signed.crt', import.meta.url))
        },
        (_req, res) => res.end('{}')
      )
      server = https
      let requests = 0
      https.on('request', () => requests++)
      await new Promise<void>((resolve) => https.listen(0, '127.0.0.1', resolve))
      const result = await run({ 'base-url': `https://127.0.0.1:${(https.address() as { port: number }).port}` })
      expect(result.code).toBe(1)
      expect(requests).toBe(0)
      expect(result.at('error')).toEqual([
        expect.stringMatching(
          /^Creating the job failed: TLS failed: .*self.signed.*nothing reached the API\. If a proxy or gateway re-signs TLS, give its CA certificate to Node with NODE_EXTRA_CA_CERTS/i
        )
      ])
      expect(result.everything()).not.toContain('may have been')
    })
  })

  describe('what an error answer is said to be', () => {
    it.each([
      ['its error text', { status: 422, body: '{"error":"prompt too long"}' }, 'answered 422: prompt too long'],
      [
        'JSON without error text',
        { status: 422, body: '{"message":"nope"}' },
        'answered 422 with a body that is not JSON (18 bytes)'
      ],
      [
        'an empty error text',
        { status: 422, body: '{"error":""}' },
        'answered 422 with a body that is not JSON (12 bytes)'
      ],
      [
        'JSON that is not an object',
        { status: 422, body: 'null' },
        'answered 422 with a body that is not JSON (4 bytes)'
      ],
      ['plain text', { status: 400, body: 'Bad Request' }, 'answered 400 with a body that is not JSON (11 bytes)'],
      ['an empty body', { status: 400, body: '  ' }, 'answered 400 with an empty body'],
      [
        'HTML, by its type',
        { status: 400, body: 'oops', headers: { 'content-type': 'text/html; charset=utf-8' } },
        'answered 400 with an HTML page (a proxy or gateway answering?)'
      ],
      [
        'HTML, by its look',
        { status: 400, body: '  <!doctype html><p>', headers: { 'content-type': 'application/json' } },
        'answered 400 with an HTML page (a proxy or gateway answering?)'
      ],
      ['a 3xx without a location: no redirect to name', { status: 300, body: '' }, 'answered 300 with an empty body'],
      [
        'a 399 with a location',
        { status: 399, body: '', headers: { location: 'https://elsewhere.example/x' } },
        'answered 399, a redirect to https://elsewhere.example/x'
      ]
    ] as const)('%s', async (_name, answer, message) => {
      virtual().sim.fail('create', { kind: 'status', ...answer })
      const result = await run()
      expect(result.code).toBe(1)
      expect(result.at('error')[0]).toContain(message)
    })

    it('a 2xx whose JSON is not a job record, and one over 1 MiB by its Content-Length', async () => {
      virtual().sim.fail('create', { kind: 'body', body: '[1]', status: 201 })
      expect((await run()).at('error')[0]).toContain('answered 201 with JSON that is not a job record')
      virtual().sim.fail('create', { kind: 'huge', bytes: 1024 * 1024 + 1 })
      expect((await run()).at('error')[0]).toContain('answered with more than 1048576 bytes; refusing to read it')
      virtual().sim.fail('create', { kind: 'huge', bytes: 1024 * 1024 + 1, chunked: true })
      expect((await run()).at('error')[0]).toContain('answered with more than 1048576 bytes; refusing to read it')
    })

    it('an answer of exactly 1 MiB is read', async () => {
      const record = JSON.stringify({ id: 'job_big', status: 'active', model: '' })
      virtual().sim.fail('create', {
        kind: 'body',
        status: 201,
        body: record.replace('"model":""', `"model":"${'m'.repeat(1024 * 1024 - record.length)}"`)
      })
      virtual().sim.addJob(PROJECT, { id: 'job_big', status: 'completed' })
      const result = await run()
      expect(result.outputs['job-id']).toBe('job_big')
    })

    it('logs each request at debug level: method, path, status and time, never a header', async () => {
      const result = await run()
      const debug = result.at('debug').filter((line) => /^(GET|POST) /.test(line))
      expect(debug[0]).toMatch(/^POST \/v2\/agent\/proj-faults\/job -> 201 in \d+ms$/)
      expect(debug[1]).toMatch(/^GET \/v2\/agent\/proj-faults\/job\/job_\w+ -> 200 in \d+ms$/)
      expect(result.at('debug').join('\n')).not.toContain(KEY)
    })

    it('keeps a bare . inside one path segment, and a base URL prefix with trailing slashes', async () => {
      const prefixed = await AgentApiSimulator.start({ apiKey: KEY, prefix: '/agent-proxy', clock: virtual().clock })
      try {
        prefixed.addJob(PROJECT, { id: '.', status: 'completed' })
        const result = await step.run({ 'base-url': `${prefixed.url}//`, 'job-id': '.', prompt: '' })
        expect(result.code).toBe(0)
        expect(prefixed.requests[0]?.rawPath).toBe(`/agent-proxy/v2/agent/${PROJECT}/job/%2E`)
      } finally {
        await prefixed.close()
      }
    })
  })

  describe('hostile input', () => {
    it('keeps ids with / .. ? # % inside one encoded path segment', async () => {
      const project = 'a/b?c#d%e'
      virtual().sim.addJob(project, { id: '..', status: 'completed' })
      const result = await run({ 'project-id': project, 'job-id': '..', prompt: '' })
      expect(result.code).toBe(0)
      expect(virtual().sim.requests[0]?.rawPath).toBe('/v2/agent/a%2Fb%3Fc%23d%25e/job/%2E%2E')
      expect(virtual().sim.requests[0]).toMatchObject({ projectId: project, jobId: '..' })
    })

    it('renders prompt and server text inert in the log and the summary, bidi controls made visible', async () => {
      const prompt = '::error::injected from prompt\n<script>alert(1)</script>\n\n[click](javascript:alert(2))'
      virtual().sim.setScenario({
        runMs: 3000,
        prLink: 'javascript:alert(3)',
        record: {
          model: '::warning::injected\n<img src=x onerror=alert(4)>',
          source: { repository: 'javascript:alert(5)', ref: 'main\u202Egnp.exe' }
        }
      })
      const result = await run({ prompt })
      expect(result.code).toBe(0)
      for (const line of result.lines) expect(line.message).not.toMatch(/^\s*::/)
      expect(result.outputs['pr-link']).toBe('')
      expect(result.summary).not.toMatch(/<script|<img|<b>|href="javascript/i)
      expect(result.summary).toContain('&lt;script&gt;')
      expect(result.summary).toContain('main[U+202E]gnp.exe')
      expect(result.summary).not.toContain('\u202E')
      expect(result.summary.trimEnd()).not.toMatch(/\n\s*\n/)
      // Outputs are data: they keep the server's bytes.
      expect(result.outputs['source-ref']).toBe('main\u202Egnp.exe')
    })

    it('fails an oversized prompt before sending', async () => {
      const result = await step.run(
        { prompt: '', 'prompt-file': 'big.md' },
        { files: { 'big.md': 'x'.repeat(100_001) } }
      )
      expect(result.code).toBe(1)
      expect(result.at('error')).toEqual([
        expect.stringMatching(/^Input 'prompt-file': the prompt has 100,001 characters; the limit is 100,000/)
      ])
      expect(virtual().sim.requests).toHaveLength(0)
    })
  })
})
