/**
 * Agent API simulator: a real HTTP server on loopback speaking the Mintlify Agent API v2
 * (contract: /work/shared/agent-api), for the end-to-end tests, the demo and the benchmark.
 *
 *   const sim = await AgentApiSimulator.start({ scenario: { runMs: 200 } });
 *   sim.url                          // base URL, prefix included, no trailing slash
 *   sim.setScenario({ pr: false })   // merged into the behaviour of jobs created/messaged from now on
 *   sim.addJob('proj', { id: 'job_1', status: 'completed' })   // pre-seed a job
 *   sim.fail('create', { kind: 'status', status: 502, effect: true })  // next create: job made, client sees 502
 *   sim.failAlways('get', { kind: 'hang' })   // every poll hangs, until failAlways('get', null)
 *   sim.refuseFollowUpsToCompleted = true      // a follow-up to a `completed` job: 400, nothing done
 *   sim.onJobCreated = (job) => …              // each new job (its id and the number of its future PR)
 *   sim.onJobMessaged = (job) => …             // each follow-up a job takes (simulator/docs-repository.ts)
 *   sim.requests                     // every request received, in order, faulted ones included
 *   sim.jobs('proj')                 // stored jobs, with the prompts they received
 *   sim.setAutomations({ perWindow: 0 })  // the automations known, their trigger's limit and status
 *   sim.runs()                       // the automation runs the trigger queued
 *   await sim.close()                // also destroys hanging and streaming connections
 *
 * Routes, under the optional prefix: POST /v2/agent/{projectId}/job → 201 + job;
 * POST /v2/agent/{projectId}/job/{id}/message → 200 + job; GET /v2/agent/{projectId}/job/{id} → 200 + job;
 * and the preview deployments, POST /v1/project/preview/{projectId} and GET /v1/project/update-status/{statusId}
 * (simulator/previews.ts; `previews` option, `setPreviews`, `deployments()`); and the automations' trigger,
 * POST /v1/workflow/{projectId}/{automationId}/trigger (simulator/automations.ts; `automations` option,
 * `setAutomations`, `runs()`).
 * Path segments are split on `/` in the raw path, then percent-decoded one by one.
 * Order of checks: route (404, 405), fault (queued before always), auth (401), body (400; none for a trigger),
 * job (404), a refused follow-up (400), rate limit (429, only successful creates and messages count as uses).
 * A follow-up to a `completed` job makes it `active` again, then `completed` with the same `prLink`
 * (the agent goes on on the same branch), unless `refuseFollowUpsToCompleted` is set.
 * Errors are JSON `{"error": "..."}`.
 */
import { once } from 'node:events'
import { type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { performance } from 'node:perf_hooks'
import { timeLimit } from '../src/base/clock.js'
import { FaultPlan } from './faults.js'
import { closeServer, fakeServer } from './loopback.js'
import {
  DEFAULT_SCENARIO,
  DOCS_REPOSITORY,
  JobStore,
  type JobScenario,
  type JobSnapshot,
  type SeedJob,
  type StoredJob
} from './jobs.js'
import { PreviewService, previewRoute, type Deployment, type PreviewRoute, type PreviewScenario } from './previews.js'
import {
  AutomationService,
  automationRoute,
  type AutomationRoute,
  type AutomationRun,
  type AutomationScenario
} from './automations.js'

export type { AgentJob, FinalStatus, JobScenario, JobSnapshot, JobStatus, SeedJob } from './jobs.js'
export type { Deployment, PreviewScenario } from './previews.js'
export type { Automation, AutomationRun, AutomationScenario } from './automations.js'

export type Operation = 'create' | 'message' | 'get'
/** The preview deployments' two requests (simulator/previews.ts). */
export type PreviewOperation = PreviewRoute['op']
/** An automation's trigger (simulator/automations.ts). */
export type AutomationOperation = AutomationRoute['op']

/** A job just created: the pull request it opens once it ends with one is number `prNumber` of `repository`. */
export interface CreatedJob {
  projectId: string
  id: string
  /** `owner/name` of the docs repository its `prLink` points into. */
  repository: string
  prNumber: number
}

export type Fault =
  /** Answer this status and raw body (default `{"error": "Simulated HTTP <status>"}`); effect: do the real work first. */
  | { kind: 'status'; status: number; body?: string; headers?: Record<string, string>; effect?: boolean }
  /** Read the request, then reset the connection without answering; effect: do the real work first. */
  | { kind: 'reset'; effect?: boolean }
  /** Never answer, until the client gives up or the simulator closes. */
  | { kind: 'hang' }
  /** Answer normally after `ms`. */
  | { kind: 'delay'; ms: number }
  /** Answer this raw body (empty, truncated JSON, HTML...) with `status` (default 200). */
  | { kind: 'body'; body: string; status?: number; contentType?: string }
  /** Do the real work, send the full Content-Length but half the bytes, then destroy the socket. */
  | { kind: 'truncate' }
  /** 200 with a body of `bytes` bytes streamed in chunks; chunked: no Content-Length to reject early on. */
  | { kind: 'huge'; bytes: number; chunked?: boolean }
  /** Error body echoing the Authorization header back: `{"error": "bad key <value>"}`. */
  | { kind: 'echoAuth'; status: number }
  /** Redirect to `location`. */
  | { kind: 'redirect'; status: 301 | 302 | 307 | 308; location: string }
  /** 404 `{"error": "Job not found"}`, as an eventually consistent store answers right after a create. */
  | { kind: 'notFound' }

export interface RecordedRequest {
  method: string
  /** The request target as received, query included. */
  rawPath: string
  operation: Operation | PreviewOperation | AutomationOperation | 'unknown'
  /** Decoded path parameters. */
  projectId?: string
  jobId?: string
  automationId?: string
  statusId?: string
  headers: Record<string, string | string[] | undefined>
  body: string
  /** performance.now() at arrival, to measure intervals between requests. */
  at: number
  /** The simulator clock's now() at arrival (virtual time under a `VirtualClock`). */
  time: number
  /** Status sent, if any (none for reset, hang or a client that went away first). */
  answeredStatus?: number
  fault?: Fault['kind']
}

/** Time as the simulator sees it: real by default, a `VirtualClock` in the in-process tests. */
export interface SimulatorClock {
  now(): number
  /** A signal that aborts `ms` from now. */
  timeout(ms: number): AbortSignal
  /** Resolves once `until` aborts (a virtual clock moves time on meanwhile). */
  hold(until: AbortSignal): Promise<void>
}

export const realTime: SimulatorClock = {
  now: () => Date.now(),
  // Not AbortSignal.timeout: Node 20 can collect it inside AbortSignal.any and a latency never ends.
  timeout: timeLimit,
  hold: (until) =>
    new Promise((resolve) => {
      if (until.aborted) resolve()
      else until.addEventListener('abort', () => resolve(), { once: true })
    })
}

export interface SimulatorOptions {
  /** Default 0: any free port. */
  port?: number
  /** Default 127.0.0.1. */
  host?: string
  /** The only key accepted; by default any key starting with `mint_`. */
  apiKey?: string
  /** Path prefix of all routes, e.g. `/proxy/agent`. */
  prefix?: string
  /** Creates plus messages allowed per project per rolling hour; default 100 as documented. */
  rateLimit?: number
  scenario?: Partial<JobScenario>
  /** The preview deployments' behaviour (plan, outcome, timing, rate limit). */
  previews?: Partial<PreviewScenario>
  /** The automations known, their trigger's rate limit and success status. */
  automations?: Partial<AutomationScenario>
  /** Called once per request when its exchange ends (answered, reset, or abandoned). */
  onRequestEnd?: (request: RecordedRequest) => void
  /** Job ages, delays and hangs run on this clock (default: real time). */
  clock?: SimulatorClock
}

type Route =
  | { op: 'create'; projectId: string }
  | { op: 'message' | 'get'; projectId: string; jobId: string }
  | PreviewRoute
  | AutomationRoute
type RouteError = { status: number; error: string; allow?: string }
type Answer = { status: number; json: unknown; headers?: Record<string, string> }

const JOB_NOT_FOUND: Answer = { status: 404, json: { error: 'Job not found' } }
const RATE_LIMITED: Answer = { status: 429, json: { error: 'Rate limit exceeded' } }
const NOT_FOUND: RouteError = { status: 404, error: 'Not found' }
// One reused buffer: a huge body is never held in memory whole.
const HUGE_CHUNK = Buffer.alloc(64 * 1024, 'x')

export class AgentApiSimulator {
  readonly requests: RecordedRequest[] = []
  private readonly store: JobStore
  private readonly previews: PreviewService
  private readonly automations: AutomationService
  private readonly server: Server
  private readonly prefix: string
  private readonly faults = new FaultPlan<Operation | PreviewOperation | AutomationOperation, Fault>()
  // Aborts pending delays on close, so no timer outlives the simulator.
  private readonly closing = new AbortController()
  private readonly clock: SimulatorClock
  /** Called when a routed request arrives, before any fault: a test's moment to act (cancel, say). */
  onRequest: ((request: RecordedRequest) => void) | undefined
  /** Called for each job a create makes: a fake GitHub can open its docs pull request. */
  onJobCreated: ((job: CreatedJob) => void) | undefined
  /** Called for each follow-up a job takes: a fake GitHub can push the agent's new commit to its docs pull request. */
  onJobMessaged: ((job: CreatedJob) => void) | undefined
  /** A follow-up to a `completed` job is answered 400 and does nothing, as a service may do (not documented). */
  refuseFollowUpsToCompleted = false

  private constructor(private readonly options: SimulatorOptions) {
    this.clock = options.clock ?? realTime
    this.store = new JobStore({ ...DEFAULT_SCENARIO, ...options.scenario }, options.rateLimit ?? 100, () =>
      this.clock.now()
    )
    this.previews = new PreviewService(options.previews ?? {}, () => this.clock.now())
    this.automations = new AutomationService(
      options.automations ?? {},
      () => this.clock.now(),
      (projectId, prompt) => this.createJob(projectId, prompt).id
    )
    this.prefix = normalizePrefix(options.prefix ?? '')
    this.server = fakeServer((req, res) => this.handle(req, res))
  }

  static async start(options: SimulatorOptions = {}): Promise<AgentApiSimulator> {
    const sim = new AgentApiSimulator(options)
    sim.server.listen(options.port ?? 0, options.host ?? '127.0.0.1')
    await once(sim.server, 'listening')
    return sim
  }

  get url(): string {
    const { address, port } = this.server.address() as AddressInfo
    const host = address.includes(':') ? `[${address}]` : address
    return `http://${host}:${port}${this.prefix}`
  }

  /** Merges `s` into the scenario of jobs created or messaged from now on. */
  setScenario(s: Partial<JobScenario>): void {
    this.store.scenario = { ...this.store.scenario, ...s }
  }

  /** Pre-seeds a job; `scenario` is merged over the current one for this job only. */
  addJob(projectId: string, job: SeedJob, scenario: Partial<JobScenario> = {}): void {
    this.store.seed(projectId, job, { ...this.store.scenario, ...scenario })
  }

  /** Queues faults: each of the next requests for `op` consumes one, in order. */
  fail(op: Operation | PreviewOperation | AutomationOperation, ...faults: Fault[]): void {
    this.faults.fail(op, ...faults)
  }

  /** Every request for `op` gets `fault` (after any queued ones) until called with null. */
  failAlways(op: Operation | PreviewOperation | AutomationOperation, fault: Fault | null): void {
    this.faults.failAlways(op, fault)
  }

  /** Merges `s` into the preview deployments' behaviour from now on. */
  setPreviews(s: Partial<PreviewScenario>): void {
    this.previews.scenario = { ...this.previews.scenario, ...s }
  }

  /** Every preview deployment asked for, oldest first. */
  deployments(): Deployment[] {
    return this.previews.list()
  }

  /** Merges `s` into the automations' behaviour from now on. */
  setAutomations(s: Partial<AutomationScenario>): void {
    this.automations.scenario = { ...this.automations.scenario, ...s }
  }

  /** Every automation run the trigger queued, oldest first. */
  runs(): AutomationRun[] {
    return this.automations.runs()
  }

  jobs(projectId?: string): JobSnapshot[] {
    return this.store.snapshots(projectId)
  }

  async close(): Promise<void> {
    this.closing.abort()
    await closeServer(this.server)
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const rec: RecordedRequest = {
      method: req.method ?? '',
      rawPath: req.url ?? '',
      operation: 'unknown',
      headers: { ...req.headers },
      body: '',
      at: performance.now(),
      time: this.clock.now()
    }
    this.requests.push(rec)
    res.once('close', () => this.options.onRequestEnd?.(rec))
    this.exchange(req, res, rec).catch(() => {
      // An unexpected error, or an exchange cut short by close() or by the client.
      if (res.headersSent || res.destroyed) res.destroy()
      else sendJson(res, rec, 500, { error: 'Simulator error' })
    })
  }

  private async exchange(req: IncomingMessage, res: ServerResponse, rec: RecordedRequest): Promise<void> {
    rec.body = await readBody(req)

    const route = parseRoute(rec.method, rec.rawPath, this.prefix)
    if ('error' in route) {
      sendJson(res, rec, route.status, { error: route.error }, route.allow ? { allow: route.allow } : {})
      return
    }
    rec.operation = route.op
    if (route.op === 'preview-status') rec.statusId = route.statusId
    else rec.projectId = route.projectId
    if (route.op === 'message' || route.op === 'get') rec.jobId = route.jobId
    if (route.op === 'trigger') rec.automationId = route.automationId
    this.onRequest?.(rec)

    const fault = this.faults.next(route.op)
    if (fault) {
      rec.fault = fault.kind
      return this.applyFault(fault, route, req, res, rec)
    }
    const { status, json, headers } = this.perform(route, req, rec.body)
    sendJson(res, rec, status, json, headers)
  }

  /** The real work of a request and the answer the service would give. */
  private perform(route: Route, req: IncomingMessage, body: string): Answer {
    if (!this.authorized(req.headers.authorization)) return { status: 401, json: { error: 'Invalid API key' } }
    if (route.op === 'preview' || route.op === 'preview-status') return this.previews.answer(route, body)
    if (route.op === 'trigger') return this.automations.answer(route)
    let prompt = ''
    if (route.op !== 'get') {
      const parsed = parsePrompt(body)
      if (parsed === undefined)
        return { status: 400, json: { error: 'Body must be JSON {"prompt": non-empty string}' } }
      prompt = parsed
    }
    if (route.op === 'create') {
      if (!this.store.use(route.projectId)) return RATE_LIMITED
      return { status: 201, json: this.store.toJson(this.createJob(route.projectId, prompt)) }
    }
    const job = this.store.get(route.projectId, route.jobId)
    if (!job) return JOB_NOT_FOUND
    if (route.op === 'message') {
      if (this.refuseFollowUpsToCompleted && this.store.toJson(job).status === 'completed')
        return { status: 400, json: { error: 'Job is completed: start a new job' } }
      if (!this.store.use(route.projectId)) return RATE_LIMITED
      this.store.message(job, prompt)
      this.onJobMessaged?.({
        projectId: job.projectId,
        id: job.id,
        repository: DOCS_REPOSITORY,
        prNumber: job.prNumber
      })
    }
    return { status: 200, json: this.store.toJson(job) }
  }

  /** A new job (a create's, or an automation run's), announced to `onJobCreated`. */
  private createJob(projectId: string, prompt: string): StoredJob {
    const created = this.store.create(projectId, prompt)
    this.onJobCreated?.({ projectId, id: created.id, repository: DOCS_REPOSITORY, prNumber: created.prNumber })
    return created
  }

  /** Aborts when the client goes away or the simulator closes. */
  private ended(res: ServerResponse): AbortSignal {
    const gone = new AbortController()
    if (res.destroyed) gone.abort()
    else res.once('close', () => gone.abort())
    return AbortSignal.any([this.closing.signal, gone.signal])
  }

  private authorized(header: string | undefined): boolean {
    const key = /^Bearer (.+)$/i.exec(header ?? '')?.[1]
    if (key === undefined) return false
    return this.options.apiKey === undefined ? key.startsWith('mint_') : key === this.options.apiKey
  }

  private async applyFault(
    fault: Fault,
    route: Route,
    req: IncomingMessage,
    res: ServerResponse,
    rec: RecordedRequest
  ): Promise<void> {
    switch (fault.kind) {
      case 'status':
        if (fault.effect) this.perform(route, req, rec.body)
        send(
          res,
          rec,
          fault.status,
          fault.body ?? JSON.stringify({ error: `Simulated HTTP ${fault.status}` }),
          fault.headers
        )
        break
      case 'reset':
        if (fault.effect) this.perform(route, req, rec.body)
        req.socket.resetAndDestroy()
        break
      case 'hang':
        // The socket stays open until the client gives up or close() destroys it.
        await this.clock.hold(this.ended(res))
        break
      case 'delay': {
        await this.clock.hold(AbortSignal.any([this.ended(res), this.clock.timeout(fault.ms)]))
        if (res.destroyed || this.closing.signal.aborted) break
        const { status, json } = this.perform(route, req, rec.body)
        sendJson(res, rec, status, json)
        break
      }
      case 'body':
        send(res, rec, fault.status ?? 200, fault.body, { 'content-type': fault.contentType ?? 'application/json' })
        break
      case 'truncate': {
        const { status, json } = this.perform(route, req, rec.body)
        const bytes = Buffer.from(JSON.stringify(json))
        rec.answeredStatus = status
        res.writeHead(status, { 'content-type': 'application/json', 'content-length': bytes.length })
        res.write(bytes.subarray(0, bytes.length >> 1), () => res.destroy())
        break
      }
      case 'huge':
        await streamHuge(res, rec, fault.bytes, fault.chunked ?? false)
        break
      case 'echoAuth':
        sendJson(res, rec, fault.status, { error: `bad key ${req.headers.authorization ?? ''}` })
        break
      case 'redirect':
        send(res, rec, fault.status, '', { location: fault.location })
        break
      case 'notFound':
        sendJson(res, rec, JOB_NOT_FOUND.status, JOB_NOT_FOUND.json)
        break
      default:
        fault satisfies never
    }
  }
}

function parseRoute(method: string, rawPath: string, prefix: string): Route | RouteError {
  const path = rawPath.split('?', 1)[0] ?? ''
  if (!path.startsWith(`${prefix}/`)) return NOT_FOUND
  let segments: string[]
  try {
    segments = path
      .slice(prefix.length + 1)
      .split('/')
      .map((s) => decodeURIComponent(s))
  } catch {
    return { status: 400, error: 'Malformed percent-encoding in path' }
  }
  const allow = (expected: 'GET' | 'POST', route: Route): Route | RouteError =>
    method === expected ? route : { status: 405, error: `Method ${method} not allowed`, allow: expected }
  const preview = previewRoute(segments)
  if (preview) return allow(preview.op === 'preview' ? 'POST' : 'GET', preview)
  const trigger = automationRoute(segments)
  if (trigger) return allow('POST', trigger)
  const [v2, agent, projectId, job, jobId, message, ...rest] = segments
  if (v2 !== 'v2' || agent !== 'agent' || !projectId || job !== 'job' || jobId === '' || rest.length > 0) {
    return NOT_FOUND
  }
  if (jobId === undefined) return allow('POST', { op: 'create', projectId })
  if (message === undefined) return allow('GET', { op: 'get', projectId, jobId })
  if (message === 'message') return allow('POST', { op: 'message', projectId, jobId })
  return NOT_FOUND
}

/** The prompt of a `{"prompt": string}` body, or undefined when the body is not that. */
function parsePrompt(body: string): string | undefined {
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    return undefined
  }
  if (typeof parsed !== 'object' || parsed === null || !('prompt' in parsed)) return undefined
  const { prompt } = parsed
  return typeof prompt === 'string' && prompt.length > 0 ? prompt : undefined
}

function normalizePrefix(prefix: string): string {
  const trimmed = prefix.replace(/\/+$/, '')
  return trimmed === '' || trimmed.startsWith('/') ? trimmed : `/${trimmed}`
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

function sendJson(
  res: ServerResponse,
  rec: RecordedRequest,
  status: number,
  json: unknown,
  headers: Record<string, string> = {}
): void {
  send(res, rec, status, JSON.stringify(json), headers)
}

function send(
  res: ServerResponse,
  rec: RecordedRequest,
  status: number,
  body: string,
  headers: Record<string, string> = {}
): void {
  rec.answeredStatus = status
  res.setHeader('content-type', 'application/json')
  res.setHeader('content-length', Buffer.byteLength(body))
  // setHeader is case-insensitive, so the caller's headers replace the defaults whatever their case.
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value)
  res.writeHead(status)
  res.end(body)
}

/** Streams `bytes` bytes with backpressure; stops as soon as the client goes away. */
async function streamHuge(res: ServerResponse, rec: RecordedRequest, bytes: number, chunked: boolean): Promise<void> {
  rec.answeredStatus = 200
  res.writeHead(
    200,
    chunked ? { 'content-type': 'application/json' } : { 'content-type': 'application/json', 'content-length': bytes }
  )
  for (let left = bytes; left > 0 && !res.destroyed; left -= HUGE_CHUNK.length) {
    const chunk = left >= HUGE_CHUNK.length ? HUGE_CHUNK : HUGE_CHUNK.subarray(0, left)
    if (!res.write(chunk)) await drainOrClose(res)
  }
  if (!res.destroyed) res.end()
}

function drainOrClose(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done)
      res.off('close', done)
      resolve()
    }
    res.on('drain', done)
    res.on('close', done)
  })
}
