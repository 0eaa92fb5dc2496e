// The Agent API simulator over real HTTP on loopback: the contract it plays and every fault it injects.
import { describe, it, expect, beforeAll, afterAll } from '@jest/globals'
import { AgentApiSimulator, type SimulatorOptions } from '../../simulator/agent-api.js'
import { DEFAULT_PORT, optionsFromArgs, startFromArgs } from '../../simulator/cli.js'
import { VirtualClock } from '../../simulator/virtual-clock.js'

const KEY = 'mint_test_key'
const RUN_MS = 150
const PR_LINK = /^https:\/\/github\.com\/acme\/docs\/pull\/\d+$/

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

interface Reply {
  status: number
  headers: Headers
  text: string
  json: Record<string, unknown>
}

async function call(
  sim: AgentApiSimulator,
  method: string,
  path: string,
  init: { body?: string; key?: string | null } = {}
): Promise<Reply> {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (init.key !== null) headers.authorization = `Bearer ${init.key ?? KEY}`
  const res = await fetch(`${sim.url}${path}`, { method, headers, body: init.body, redirect: 'manual' })
  const text = await res.text()
  let json: Record<string, unknown> = {}
  try {
    json = JSON.parse(text) as Record<string, unknown>
  } catch {
    // a raw-body fault: the text is what the test looks at
  }
  return { status: res.status, headers: res.headers, text, json }
}

const jobPath = (project: string, id?: string): string =>
  `/v2/agent/${encodeURIComponent(project)}/job${id === undefined ? '' : `/${encodeURIComponent(id)}`}`
const create = (sim: AgentApiSimulator, project: string, prompt = 'Document the CLI'): Promise<Reply> =>
  call(sim, 'POST', jobPath(project), { body: JSON.stringify({ prompt }) })
const message = (sim: AgentApiSimulator, project: string, id: string, prompt: string): Promise<Reply> =>
  call(sim, 'POST', `${jobPath(project, id)}/message`, { body: JSON.stringify({ prompt }) })
const get = (sim: AgentApiSimulator, project: string, id: string): Promise<Reply> =>
  call(sim, 'GET', jobPath(project, id))

function idOf(reply: Reply): string {
  const id = reply.json.id
  if (typeof id !== 'string') throw new Error(`no job id in ${reply.text}`)
  return id
}

/** Reads a body chunk by chunk, keeping none of it. */
async function countBytes(body: ReadableStream<Uint8Array> | null): Promise<number> {
  let read = 0
  for await (const chunk of body ?? []) read += chunk.byteLength
  return read
}

/** Runs `fn` against a simulator of its own, closed afterwards. */
async function withSim(options: SimulatorOptions, fn: (sim: AgentApiSimulator) => Promise<void>): Promise<void> {
  const sim = await AgentApiSimulator.start(options)
  try {
    await fn(sim)
  } finally {
    await sim.close()
  }
}

describe('Agent API simulator', () => {
  let sim: AgentApiSimulator
  // Jobs age on it: a test moves it past RUN_MS rather than waiting.
  const clock = new VirtualClock()
  beforeAll(async () => {
    sim = await AgentApiSimulator.start({ scenario: { runMs: RUN_MS }, clock })
  })
  afterAll(() => sim.close())

  describe('job lifecycle', () => {
    it('creates an active job that completes with a pull request', async () => {
      const created = await create(sim, 'life')
      expect(created.status).toBe(201)
      expect(created.json).toEqual({
        id: expect.stringMatching(/^job_[0-9a-f]{16}$/),
        status: 'active',
        source: { repository: 'https://github.com/acme/docs', ref: 'main' },
        model: 'sim-model-1',
        prLink: null,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        archivedAt: null
      })
      const id = idOf(created)
      expect((await get(sim, 'life', id)).json.status).toBe('active')
      clock.advance(RUN_MS + 50)
      const done = await get(sim, 'life', id)
      expect(done.status).toBe(200)
      expect(done.json).toMatchObject({
        id,
        status: 'completed',
        prLink: expect.stringMatching(PR_LINK),
        archivedAt: null
      })
      expect(sim.jobs('life')).toEqual([{ projectId: 'life', prompts: ['Document the CLI'], job: done.json }])
    })

    it.each([
      ['without a pull request', { pr: false }, { status: 'completed', prLink: null, archivedAt: null }],
      ['failed', { finalStatus: 'failed', pr: false }, { status: 'failed', prLink: null, archivedAt: null }],
      [
        'archived',
        { finalStatus: 'archived' },
        { status: 'archived', prLink: expect.stringMatching(PR_LINK), archivedAt: expect.any(String) }
      ]
    ] as const)('ends %s as the scenario says', async (_name, scenario, expected) => {
      await withSim({ scenario: { runMs: RUN_MS, ...scenario }, clock }, async (own) => {
        const id = idOf(await create(own, 'p'))
        clock.advance(RUN_MS + 50)
        expect((await get(own, 'p', id)).json).toMatchObject(expected)
      })
    })

    it('re-activates a job on a follow-up message and keeps its prompts and pull request', async () => {
      const id = idOf(await create(sim, 'follow', 'first'))
      clock.advance(RUN_MS + 50)
      const firstLink = (await get(sim, 'follow', id)).json.prLink
      const messaged = await message(sim, 'follow', id, 'second')
      expect(messaged.status).toBe(200)
      expect(messaged.json).toMatchObject({ id, status: 'active', prLink: null })
      expect(sim.jobs('follow')[0]?.prompts).toEqual(['first', 'second'])
      clock.advance(RUN_MS + 50)
      expect((await get(sim, 'follow', id)).json).toMatchObject({ status: 'completed', prLink: firstLink })
    })

    it('refuses a follow-up to a completed job with 400 when told to, and does nothing', async () => {
      await withSim({ scenario: { runMs: RUN_MS } }, async (own) => {
        own.refuseFollowUpsToCompleted = true
        const id = idOf(await create(own, 'p', 'first'))
        // While the job is active, a follow-up is still taken.
        expect((await message(own, 'p', id, 'while active')).status).toBe(200)
        await sleep(RUN_MS + 50)
        const done = (await get(own, 'p', id)).json
        expect(done.status).toBe('completed')
        const refused = await message(own, 'p', id, 'too late')
        expect(refused.status).toBe(400)
        expect(refused.json).toEqual({ error: 'Job is completed: start a new job' })
        expect(own.jobs('p')[0]?.prompts).toEqual(['first', 'while active'])
        expect((await get(own, 'p', id)).json).toEqual(done)
        own.refuseFollowUpsToCompleted = false
        expect((await message(own, 'p', id, 'again')).json).toMatchObject({ status: 'active' })
      })
    })

    it('still takes a follow-up to a failed job when refusing those to completed ones', async () => {
      await withSim({ scenario: { runMs: 0, finalStatus: 'failed', pr: false } }, async (own) => {
        own.refuseFollowUpsToCompleted = true
        const id = idOf(await create(own, 'p'))
        expect((await message(own, 'p', id, 'retry')).status).toBe(200)
      })
    })

    it('tells onJobCreated of each new job and the pull request it will open', async () => {
      await withSim({ scenario: { runMs: 0 } }, async (own) => {
        const seen: unknown[] = []
        own.onJobCreated = (job) => seen.push(job)
        const id = idOf(await create(own, 'p'))
        await message(own, 'p', id, 'more')
        const link = String((await get(own, 'p', id)).json.prLink)
        expect(seen).toEqual([{ projectId: 'p', id, repository: 'acme/docs', prNumber: Number(link.split('/').pop()) }])
      })
    })

    it('serves pre-seeded jobs, terminal at once or active for runMs', async () => {
      sim.addJob('seeded', { id: 'job_done', status: 'failed' }, { pr: false })
      sim.addJob('seeded', { id: 'job_busy' }, { runMs: RUN_MS })
      expect((await get(sim, 'seeded', 'job_done')).json).toMatchObject({
        id: 'job_done',
        status: 'failed',
        prLink: null
      })
      expect((await get(sim, 'seeded', 'job_busy')).json.status).toBe('active')
      clock.advance(RUN_MS + 50)
      expect((await get(sim, 'seeded', 'job_busy')).json).toMatchObject({
        status: 'completed',
        prLink: expect.stringMatching(PR_LINK)
      })
    })

    it('merges record overrides into the job JSON, removing fields set to undefined', async () => {
      await withSim(
        {
          scenario: {
            runMs: 0,
            prLink: 'javascript:alert(1)',
            record: { status: 'weird', id: undefined, model: '<script>' }
          }
        },
        async (own) => {
          const created = await create(own, 'p')
          expect(created.json).toMatchObject({ status: 'weird', model: '<script>', prLink: 'javascript:alert(1)' })
          expect(created.json).not.toHaveProperty('id')
          expect(own.jobs('p')[0]?.job.status).toBe('completed')
        }
      )
    })
  })

  describe('errors', () => {
    it.each([
      ['an empty prompt', JSON.stringify({ prompt: '' })],
      ['no prompt', JSON.stringify({ text: 'x' })],
      ['a non-string prompt', JSON.stringify({ prompt: 42 })],
      ['a non-JSON body', 'prompt=x'],
      ['no body', undefined]
    ])('answers 400 to %s', async (_name, body) => {
      const reply = await call(sim, 'POST', jobPath('bad'), { body })
      expect(reply.status).toBe(400)
      expect(reply.json.error).toEqual(expect.any(String))
      expect(sim.jobs('bad')).toEqual([])
    })

    it('answers 401 to a missing or wrong key', async () => {
      expect((await call(sim, 'POST', jobPath('auth'), { body: '{"prompt":"x"}', key: null })).status).toBe(401)
      expect((await call(sim, 'POST', jobPath('auth'), { body: '{"prompt":"x"}', key: 'sk_live' })).status).toBe(401)
      await withSim({ apiKey: 'mint_right' }, async (own) => {
        expect((await call(own, 'POST', jobPath('p'), { body: '{"prompt":"x"}', key: 'mint_wrong' })).status).toBe(401)
        expect((await call(own, 'POST', jobPath('p'), { body: '{"prompt":"x"}', key: 'mint_right' })).status).toBe(201)
      })
    })

    it('answers 404 to an unknown job or route and 405 to a wrong method', async () => {
      expect(await get(sim, 'nf', 'job_missing')).toMatchObject({ status: 404, json: { error: 'Job not found' } })
      expect((await message(sim, 'nf', 'job_missing', 'x')).status).toBe(404)
      expect((await call(sim, 'GET', '/v1/agent/nf/job')).status).toBe(404)
      const wrong = await call(sim, 'DELETE', jobPath('nf', 'job_x'))
      expect(wrong.status).toBe(405)
      expect(wrong.headers.get('allow')).toBe('GET')
    })

    it('answers 429 once creates and messages exceed the hourly limit of a project', async () => {
      await withSim({ rateLimit: 2 }, async (own) => {
        const id = idOf(await create(own, 'p'))
        expect((await message(own, 'p', id, 'more')).status).toBe(200)
        expect(await create(own, 'p')).toMatchObject({ status: 429, json: { error: 'Rate limit exceeded' } })
        expect((await message(own, 'p', id, 'more')).status).toBe(429)
        expect((await get(own, 'p', id)).status).toBe(200)
        expect((await create(own, 'other')).status).toBe(201)
      })
    })
  })

  describe('paths', () => {
    it('decodes each raw path segment, so ids with / ? # % round-trip', async () => {
      const project = 'a/b?c#d%e'
      const id = idOf(await create(sim, project))
      expect((await get(sim, project, id)).json.id).toBe(id)
      const last = sim.requests.at(-1)
      expect(last?.rawPath).toBe(`/v2/agent/a%2Fb%3Fc%23d%25e/job/${id}`)
      expect(last).toMatchObject({ operation: 'get', projectId: project, jobId: id, answeredStatus: 200 })
      expect((await call(sim, 'GET', '/v2/agent/%E0%A4/job/x')).status).toBe(400)
    })

    it('serves every route under the prefix and nothing outside it', async () => {
      await withSim({ prefix: '/proxy/agent/' }, async (own) => {
        expect(own.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/proxy\/agent$/)
        expect((await create(own, 'p')).status).toBe(201)
        const outside = await fetch(`${own.url.replace('/proxy/agent', '')}${jobPath('p')}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${KEY}` },
          body: '{"prompt":"x"}'
        })
        expect(outside.status).toBe(404)
      })
    })

    it('records every request with its headers, body and answer', async () => {
      await create(sim, 'rec', 'recorded prompt')
      expect(sim.requests.at(-1)).toMatchObject({
        method: 'POST',
        operation: 'create',
        projectId: 'rec',
        body: JSON.stringify({ prompt: 'recorded prompt' }),
        headers: expect.objectContaining({ authorization: `Bearer ${KEY}` }),
        answeredStatus: 201,
        at: expect.any(Number)
      })
    })
  })

  describe('faults', () => {
    it('status with effect: the job is created, the client sees the error', async () => {
      sim.fail('create', { kind: 'status', status: 503, effect: true })
      expect(await create(sim, 'fx')).toMatchObject({ status: 503, json: { error: 'Simulated HTTP 503' } })
      expect(sim.jobs('fx')).toHaveLength(1)
      expect(sim.requests.at(-1)).toMatchObject({ fault: 'status', answeredStatus: 503 })
    })

    it('status without effect: raw body and headers, nothing done', async () => {
      sim.fail('create', {
        kind: 'status',
        status: 429,
        body: 'slow down',
        headers: { 'Retry-After': '7', 'Content-Type': 'text/plain' }
      })
      const reply = await create(sim, 'fs')
      expect(reply).toMatchObject({ status: 429, text: 'slow down' })
      expect(reply.headers.get('retry-after')).toBe('7')
      expect(reply.headers.get('content-type')).toBe('text/plain')
      expect(sim.jobs('fs')).toEqual([])
    })

    it('reset: the connection drops without an answer, after the work when effect is set', async () => {
      sim.fail('create', { kind: 'reset' }, { kind: 'reset', effect: true })
      await expect(create(sim, 'fr')).rejects.toThrow()
      expect(sim.jobs('fr')).toHaveLength(0)
      await expect(create(sim, 'fr')).rejects.toThrow()
      expect(sim.jobs('fr')).toHaveLength(1)
      expect(sim.requests.at(-1)?.answeredStatus).toBeUndefined()
    })

    it('delay: answers normally after the delay', async () => {
      const clock = new VirtualClock()
      await withSim({ clock }, async (own) => {
        own.fail('create', { kind: 'delay', ms: 200 })
        const started = clock.now()
        expect((await create(own, 'fd')).status).toBe(201)
        expect(clock.now() - started).toBe(200)
        expect(own.requests[0]).toMatchObject({ time: started, fault: 'delay', answeredStatus: 201 })
      })
    })

    it('body: answers a raw body with its status and content type', async () => {
      const id = idOf(await create(sim, 'fb'))
      sim.fail(
        'get',
        { kind: 'body', body: '<html>Bad gateway</html>', status: 502, contentType: 'text/html' },
        { kind: 'body', body: '' }
      )
      const html = await get(sim, 'fb', id)
      expect(html).toMatchObject({ status: 502, text: '<html>Bad gateway</html>' })
      expect(html.headers.get('content-type')).toBe('text/html')
      expect(await get(sim, 'fb', id)).toMatchObject({ status: 200, text: '' })
    })

    it('truncate: announces the full length, sends half and drops the connection', async () => {
      const id = idOf(await create(sim, 'ft'))
      const full = JSON.stringify((await get(sim, 'ft', id)).json)
      sim.fail('get', { kind: 'truncate' })
      const res = await fetch(`${sim.url}${jobPath('ft', id)}`, { headers: { authorization: `Bearer ${KEY}` } })
      expect(res.status).toBe(200)
      expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(full))
      await expect(res.text()).rejects.toThrow()
    })

    it.each([false, true])('huge (chunked: %s): streams exactly the bytes asked for', async (chunked) => {
      const bytes = 16 * 1024 * 1024 + 5
      const id = idOf(await create(sim, 'fh'))
      sim.fail('get', { kind: 'huge', bytes, chunked })
      const res = await fetch(`${sim.url}${jobPath('fh', id)}`, { headers: { authorization: `Bearer ${KEY}` } })
      expect(res.headers.get('content-length')).toBe(chunked ? null : String(bytes))
      expect(await countBytes(res.body)).toBe(bytes)
    })

    it('huge: streams a body too large to ever exist in memory, and stays responsive once the client leaves', async () => {
      const bytes = 64 * 1024 ** 3 // 64 GiB: no buffer can hold it, so it must be streamed
      const id = idOf(await create(sim, 'fh'))
      sim.fail('get', { kind: 'huge', bytes })
      const res = await fetch(`${sim.url}${jobPath('fh', id)}`, { headers: { authorization: `Bearer ${KEY}` } })
      const reader = res.body?.getReader()
      const first: unknown = (await reader?.read())?.value
      expect(first instanceof Uint8Array && first.byteLength > 0).toBe(true)
      await reader?.cancel()
      // the simulator still answers promptly afterwards
      expect((await get(sim, 'fh', id)).status).toBe(200)
    })

    it('echoAuth: echoes the Authorization header in the error body', async () => {
      sim.fail('create', { kind: 'echoAuth', status: 401 })
      expect(await create(sim, 'fe')).toMatchObject({ status: 401, json: { error: `bad key Bearer ${KEY}` } })
    })

    it('redirect: answers the status with a Location header', async () => {
      sim.fail('create', { kind: 'redirect', status: 307, location: 'https://evil.example/steal' })
      const reply = await create(sim, 'fl')
      expect(reply.status).toBe(307)
      expect(reply.headers.get('location')).toBe('https://evil.example/steal')
      expect(sim.jobs('fl')).toEqual([])
    })

    it('notFound: the first polls after a create miss the job, then it appears', async () => {
      const id = idOf(await create(sim, 'fn'))
      sim.fail('get', { kind: 'notFound' }, { kind: 'notFound' })
      expect(await get(sim, 'fn', id)).toMatchObject({ status: 404, json: { error: 'Job not found' } })
      expect((await get(sim, 'fn', id)).status).toBe(404)
      expect((await get(sim, 'fn', id)).status).toBe(200)
    })

    it('failAlways: every request faults until reset with null', async () => {
      const id = idOf(await create(sim, 'fa'))
      sim.failAlways('get', { kind: 'status', status: 500 })
      expect((await get(sim, 'fa', id)).status).toBe(500)
      expect((await get(sim, 'fa', id)).status).toBe(500)
      sim.failAlways('get', null)
      expect((await get(sim, 'fa', id)).status).toBe(200)
    })

    it('hang: never answers, and close() still ends promptly', async () => {
      const own = await AgentApiSimulator.start()
      try {
        own.failAlways('create', { kind: 'hang' })
        const pending = create(own, 'p')
        pending.catch(() => undefined) // awaited below, after close
        while (own.requests.length === 0) await sleep(10)
        await sleep(50)
        expect(own.requests[0]?.fault).toBe('hang')
        expect(own.requests[0]?.answeredStatus).toBeUndefined()
        // A close that waited for the hung request would never end: the test's time limit is the bound.
        await own.close()
        await expect(pending).rejects.toThrow()
      } finally {
        await own.close()
      }
    })
  })

  describe('command line', () => {
    it('starts from flags and logs one line per request without the key', async () => {
      const lines: string[] = []
      const own = await startFromArgs(
        ['--port', '0', '--run-ms', '0', '--final', 'failed', '--no-pr', '--prefix', '/p', '--api-key', KEY],
        (line) => lines.push(line)
      )
      try {
        expect(own.url).toMatch(/\/p$/)
        const created = await create(own, 'proj')
        expect(created.json).toMatchObject({ status: 'failed', prLink: null })
        while (lines.length === 0) await sleep(10)
        expect(lines).toEqual(['POST /p/v2/agent/proj/job 201'])
        expect(lines.join('\n')).not.toContain(KEY)
      } finally {
        await own.close()
      }
    })

    it('listens on a fixed port unless told another, so a .env pointing at it holds across starts', () => {
      expect(DEFAULT_PORT).toBe(4242)
      expect(optionsFromArgs([]).port).toBe(DEFAULT_PORT)
      expect(optionsFromArgs(['--port', '5123']).port).toBe(5123)
      expect(optionsFromArgs(['--port', '0']).port).toBe(0)
    })

    it.each([
      [['--port', 'http'], '--port expects a non-negative integer, got "http"'],
      [['--run-ms', 'soon'], '--run-ms expects a non-negative integer, got "soon"'],
      [['--final', 'done'], '--final expects one of completed, failed, archived, got "done"'],
      [['--verbose'], "Unknown option '--verbose'"]
    ])('rejects bad flags %j', async (argv, error) => {
      await expect(startFromArgs(argv)).rejects.toThrow(error)
    })
  })
})
