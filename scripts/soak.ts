/**
 * `npm run soak`: a seeded chaos soak of the built action (`dist/index.js`), run as the runner runs
 * it, against the Agent API simulator and, for re-runs, the fake Actions cache service.
 *
 * Every run draws all it does from its own seed (derived from the campaign's): the mode, how the
 * job ends, faults on the create or follow-up and on the polls, `fail-on`, a SIGINT or SIGTERM at a
 * random moment, re-runs of the same workflow run, and optional inputs left out or given empty (as a
 * workflow forwarding an unset value passes them). Its invariants are checked once its attempts
 * are over; a violation prints the run's seed and the command that replays that one run with its log.
 *
 *   node build/scripts/soak.js [--seed N] [--runs N] [--seconds N] [--concurrency N] [--quick]
 *   node build/scripts/soak.js --replay SEED [--quick]
 */
import type { ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { CacheServiceFake, type CacheRequest } from '../simulator/cache.js'
import {
  AgentApiSimulator,
  type Fault,
  type FinalStatus,
  type JobScenario,
  type JobSnapshot,
  type JobStatus,
  type Operation,
  type RecordedRequest
} from '../simulator/agent-api.js'
import { runAction, secretLeaks, type ActionResult } from './run-action.js'

const KEY = 'mint_soak_secret_key_5f2a9c41d7'
const PROJECT = 'proj-soak'
const PROMPT = 'Document the soak release'
/** Timing slack of the checks that compare two clocks readings (Retry-After, a run's end). */
const SLACK_MS = 50
/**
 * The soak's clock and the action's are read in two processes (performance.timeOrigin plus now()):
 * a signal sent within this long of the handler's installation may have come first.
 */
const HANDLER_RACE_MS = 5
/** A create answer this close before the signal may not have been read by the action yet. */
const ANSWER_RACE_MS = 50
const EXIT_AFTER_SIGNAL_MS = 3_000
const EXIT_AFTER_TIMEOUT_MS = 4_000
/**
 * A completed job without a link is read again for 5 s, every 2.5 s (src/agent-api/wait.ts), before the
 * action says there is none. The soak only holds it to a link that came within 2 s: it checks the
 * built action from outside, and must not break when those figures are tuned.
 */
const LINK_SURELY_SEEN_MS = 2_000
const SETTLE_READS_MS = 5_000 + 2_500

// ---------------------------------------------------------------------------------------------
// Seeds

/** mulberry32: tiny, and the same sequence on every platform for a seed. */
class Random {
  private state: number

  constructor(seed: number) {
    this.state = seed >>> 0
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0
    let t = this.state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1))
  }

  chance(p: number): boolean {
    return this.next() < p
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T
  }

  weighted<T extends string>(weights: Record<T, number>): T {
    const entries = Object.entries(weights) as [T, number][]
    let left = this.next() * entries.reduce((sum, [, weight]) => sum + weight, 0)
    for (const [value, weight] of entries) {
      left -= weight
      if (left < 0) return value
    }
    return (entries.at(-1) as [T, number])[0]
  }
}

/**
 * The seed of the campaign's run `index`. Its low 10 bits are the index, so that consecutive runs
 * take the fault classes in turn (see `planRun`) while each run stays replayable from its seed alone.
 */
export function runSeed(campaign: number, index: number): number {
  const mixed = new Random(Math.imul(campaign >>> 0, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b)).next() * 2 ** 32
  return ((mixed & ~0x3ff) | (index & 0x3ff)) >>> 0
}

// ---------------------------------------------------------------------------------------------
// Plans

export type Mode = 'create' | 'message' | 'wait-only'
export type End = 'pr' | 'no-pr' | 'late-pr' | 'failed' | 'archived' | 'timeout' | 'unknown-status'
/** When the signal comes: after spawn, the POST, a re-run's record lookup, or the first poll. */
type Moment = 'spawn' | 'post' | 'restore' | 'wait'
type SignalName = 'SIGINT' | 'SIGTERM'

const POST_FAULTS = [
  '429',
  '503',
  '500',
  '502',
  '504',
  '5xx+effect',
  'reset',
  'reset+effect',
  'hang',
  'truncate',
  'no-id',
  'refused',
  'slow',
  'echo-key'
] as const
type PostClass = (typeof POST_FAULTS)[number] | 'none'
// 404 and hang first: they are never drawn as extras, so a short slice must meet them in turn.
const POLL_FAULTS = ['404', 'hang', '500', '502', 'reset', 'empty', 'truncate', 'html', '429', 'echo-key'] as const
type PollClass = (typeof POLL_FAULTS)[number] | 'none'
/** Fault classes a poll may meet anywhere in a wait: not 404 (final outside the grace) nor a hang (ends it). */
const EXTRA_POLL_FAULTS = ['500', '502', 'reset', 'empty', 'truncate', 'html', '429', 'echo-key'] as const
/** The 'none's keep runs without a poll fault common. */
const POLL_ROTATION: readonly PollClass[] = [...POLL_FAULTS, 'none', 'none', 'none']

/** Every fault class the soak can exercise, as the report names them. */
export const FAULT_CLASSES: readonly string[] = [
  ...POST_FAULTS.map((c) => (c === 'refused' ? c : `post:${c}`)),
  ...POLL_FAULTS.map((c) => `poll:${c}`)
]

const FAIL_ON = [
  'failed, archived, timed-out',
  'none',
  'failed',
  'timed-out',
  'failed, archived, timed-out, no-pr',
  'no-pr',
  'archived\nno-pr'
] as const

type RetryAfter = { seconds: number } | { dateInMs: number }

/** A fault as planned: `cls` names it in the report; a Retry-After date is set when it is served. */
interface PlannedFault {
  cls: string
  fault: Fault
  retryAfter?: RetryAfter
}

interface SignalPlan {
  name: SignalName
  moment: Moment
  /** After spawn, or after the POST, the record lookup or the first poll arrived. */
  delayMs: number
}

interface AttemptPlan {
  post: PlannedFault[]
  poll: PlannedFault[]
  signal?: SignalPlan
}

export interface RunPlan {
  seed: number
  quick: boolean
  mode: Mode
  wait: boolean
  end: End
  runMs: number
  timeoutMs: number
  maxPollInterval: string
  failOn: string
  prLinkLagMs?: number
  staleAfterMessageMs?: number
  /** The seeded job's status (follow-up and wait-only runs). */
  seedStatus?: JobStatus
  /** base-url is a closed port: every request is refused. */
  refused: boolean
  /** The runner's cache service and run variables are set (always for re-runs). */
  cache: boolean
  onRerun: 'resume' | 'new'
  /**
   * Optional inputs at their default left out of `with:` (the runner passes action.yml's default)
   * or given empty, as a workflow forwarding an unset value does: the action must take its default.
   */
  defaulted: Partial<Record<DefaultedInput, 'unset' | 'empty'>>
  /** One per attempt of the same workflow run. */
  attempts: AttemptPlan[]
}

/** The optional inputs a run may leave at their default, unset or empty. */
type DefaultedInput =
  | 'wait'
  | 'fail-on'
  | 'max-poll-interval'
  | 'on-rerun'
  | 'prompt'
  | 'prompt-file'
  | 'job-id'
  | 'context'
  | 'dry-run'
  | 'labels'
  | 'github-token'
  | 'rerun-key'

interface Profile {
  timeoutMs: [number, number]
  /** For runs that can only time out (the job never ends, or its status is unknown). */
  shortTimeoutMs: [number, number]
  runMs: [number, number]
  retryAfterMaxS: number
  lagMs: [number, number]
  staleMs: [number, number]
  slowMs: [number, number]
  waitSignalMs: number
}

const FULL: Profile = {
  timeoutMs: [4000, 15000],
  shortTimeoutMs: [3000, 7000],
  runMs: [200, 3000],
  retryAfterMaxS: 3,
  lagMs: [300, 7000],
  staleMs: [500, 4000],
  slowMs: [300, 1500],
  waitSignalMs: 2500
}

/** The same campaign in shorter jobs and timeouts: for the test slice. */
const QUICK: Profile = {
  timeoutMs: [2000, 4000],
  shortTimeoutMs: [2000, 2500],
  runMs: [200, 1000],
  retryAfterMaxS: 1,
  lagMs: [300, 2500],
  staleMs: [300, 1500],
  slowMs: [200, 800],
  waitSignalMs: 1200
}

/** Everything a run does, from its seed alone. */
export function planRun(seed: number, quick = false): RunPlan {
  const rng = new Random(seed)
  const p = quick ? QUICK : FULL
  // The run's main faults come round in turn: even runs take the next POST class, odd runs the
  // next poll class with a clean POST (a failed POST would end them before any poll). So 28
  // consecutive runs meet every POST class and 26 every poll class.
  const index = seed & 0x3ff
  const turn = index >> 1
  const odd = index % 2 === 1
  let postClass: PostClass = odd ? 'none' : (POST_FAULTS[turn % POST_FAULTS.length] as PostClass)
  const pollClass = odd ? (POLL_ROTATION[turn % POLL_ROTATION.length] as PollClass) : rng.pick(POLL_ROTATION)
  const mode: Mode =
    postClass === 'refused'
      ? rng.weighted({ create: 30, message: 20, 'wait-only': 50 })
      : postClass !== 'none'
        ? rng.weighted({ create: 65, message: 35 })
        : pollClass === '404'
          ? rng.weighted({ create: 60, message: 40 })
          : rng.weighted({ create: 45, message: 30, 'wait-only': 25 })
  const refused = postClass === 'refused'
  // Not on a run meant for a poll fault: without a wait there is no poll.
  const wait = mode === 'wait-only' || !rng.chance(0.15) || (odd && pollClass !== 'none')
  const end = rng.weighted<End>({
    pr: 30,
    'no-pr': 15,
    'late-pr': 15,
    failed: 10,
    archived: 10,
    timeout: 10,
    'unknown-status': 7
  })
  const endless = end === 'timeout' || end === 'unknown-status'
  const timeoutMs = Math.round(rng.int(...(endless ? p.shortTimeoutMs : p.timeoutMs)) / 100) * 100
  const runMs = end === 'timeout' ? 600_000 : rng.int(...p.runMs)
  const plan: RunPlan = {
    seed,
    quick,
    mode,
    wait,
    end,
    runMs,
    timeoutMs,
    maxPollInterval: rng.pick(['1s', '2s', '10s']),
    failOn: rng.pick(FAIL_ON),
    refused,
    cache: false,
    onRerun: 'resume',
    defaulted: {},
    attempts: []
  }
  if (end === 'late-pr') plan.prLinkLagMs = rng.int(...p.lagMs)
  if (mode === 'message') {
    plan.seedStatus = rng.weighted({ completed: 60, active: 25, failed: 15 })
    if (rng.chance(0.4)) plan.staleAfterMessageMs = rng.int(...p.staleMs)
  }
  if (mode === 'wait-only') plan.seedStatus = rng.chance(0.8) || endless ? 'active' : terminalOf(end)

  const rerun = rng.chance(0.3)
  plan.cache = rerun || rng.chance(0.25)
  plan.onRerun = rerun && rng.chance(0.15) ? 'new' : 'resume'
  const count = rerun ? (rng.chance(0.3) ? 3 : 2) : 1
  const posts = mode !== 'wait-only' && !refused
  for (let attempt = 1; attempt <= count; attempt++) {
    const first = attempt === 1
    const moments: Moment[] = [
      'spawn',
      ...(posts ? (['post'] as const) : []),
      ...(!first && plan.onRerun === 'resume' ? (['restore'] as const) : []),
      ...(wait || !first ? (['wait'] as const) : [])
    ]
    const signal = rng.chance(first ? (rerun ? 0.45 : 0.3) : 0.15) ? planSignal(rng, p, moments) : undefined
    // A signal meant for the POST needs a POST that lasts, or it always lands after the answer.
    if (first && signal?.moment === 'post' && postClass === 'none' && rng.chance(0.5)) postClass = 'slow'
    const answer = mode === 'message' ? 200 : 201
    const attemptPlan: AttemptPlan = first
      ? { post: posts ? postFaults(postClass, rng, p, answer) : [], poll: pollFaults(pollClass, rng, p, mode) }
      : {
          post: posts && rng.chance(0.2) ? [tooMany(rng, p)] : [],
          poll: rng.chance(0.3) ? [pollFault(rng.pick(EXTRA_POLL_FAULTS), rng, p)] : []
        }
    if (signal) attemptPlan.signal = signal
    plan.attempts.push(attemptPlan)
  }
  // Drawn last, so the rest of a seed's plan is what it was before these draws existed.
  plan.defaulted = planDefaulted(rng, plan)
  return plan
}

/**
 * Which inputs the run leaves at their default, and how. An input whose planned value is its
 * default is left out or given empty half of the time; inputs the soak never sets otherwise (or
 * that its mode leaves empty) are given empty a third of the time.
 */
function planDefaulted(rng: Random, plan: RunPlan): RunPlan['defaulted'] {
  const atDefault: [DefaultedInput, boolean][] = [
    ['wait', plan.wait],
    ['fail-on', plan.failOn === 'failed, archived, timed-out'],
    ['max-poll-interval', plan.maxPollInterval === '10s'],
    ['on-rerun', plan.onRerun === 'resume']
  ]
  const defaulted: RunPlan['defaulted'] = {}
  for (const [name, isDefault] of atDefault) {
    const draw = rng.next()
    if (isDefault && draw < 0.5) defaulted[name] = draw < 0.25 ? 'unset' : 'empty'
  }
  const neverSet: DefaultedInput[] = [
    plan.mode === 'wait-only' ? 'prompt' : 'prompt-file',
    ...(plan.mode === 'create' ? (['job-id'] as const) : []),
    'context',
    'dry-run',
    'labels',
    'github-token',
    'rerun-key'
  ]
  for (const name of neverSet) if (rng.chance(1 / 3)) defaulted[name] = 'empty'
  return defaulted
}

function terminalOf(end: End): FinalStatus {
  return end === 'failed' || end === 'archived' ? end : 'completed'
}

function planSignal(rng: Random, p: Profile, moments: Moment[]): SignalPlan {
  const moment = rng.pick(moments)
  const delayMs =
    moment === 'spawn'
      ? rng.int(0, 150)
      : moment === 'post'
        ? rng.int(0, 100)
        : moment === 'restore'
          ? rng.int(0, 60)
          : rng.int(0, p.waitSignalMs)
  return { name: rng.pick(['SIGINT', 'SIGTERM'] as const), moment, delayMs }
}

function retryAfter(rng: Random, p: Profile): RetryAfter {
  return rng.chance(0.25)
    ? { dateInMs: rng.int(0, p.retryAfterMaxS * 1000) }
    : { seconds: rng.int(0, p.retryAfterMaxS) }
}

function tooMany(rng: Random, p: Profile, prefix = 'post'): PlannedFault {
  return {
    cls: `${prefix}:429`,
    fault: { kind: 'status', status: 429, body: '{"error":"Rate limit exceeded"}' },
    retryAfter: retryAfter(rng, p)
  }
}

function unavailable(rng: Random, p: Profile): PlannedFault {
  const fault: PlannedFault = { cls: 'post:503', fault: { kind: 'status', status: 503 } }
  if (rng.chance(0.5)) fault.retryAfter = retryAfter(rng, p)
  return fault
}

/** The POST's faults: the run's class, sometimes after a fault the action retries. */
function postFaults(cls: PostClass, rng: Random, p: Profile, answer: number): PlannedFault[] {
  const retryable = (): PlannedFault => (rng.chance(0.6) ? tooMany(rng, p) : unavailable(rng, p))
  const post = (fault: Fault): PlannedFault => ({ cls: `post:${cls}`, fault })
  switch (cls) {
    case 'none':
      return rng.chance(0.15) ? [retryable()] : []
    case 'refused':
      return []
    case '429':
      return Array.from({ length: rng.int(1, 3) }, () => tooMany(rng, p))
    case '503':
      return Array.from({ length: rng.int(1, 3) }, () => unavailable(rng, p))
    default: {
      const before = rng.chance(0.25) ? [retryable()] : []
      switch (cls) {
        case '500':
        case '502':
        case '504':
          return [...before, post({ kind: 'status', status: Number(cls) })]
        case '5xx+effect':
          return [...before, post({ kind: 'status', status: rng.pick([500, 502, 504]), effect: true })]
        case 'reset':
          return [...before, post({ kind: 'reset' })]
        case 'reset+effect':
          return [...before, post({ kind: 'reset', effect: true })]
        case 'hang':
          return [...before, post({ kind: 'hang' })]
        case 'truncate':
          return [...before, post({ kind: 'truncate' })]
        case 'no-id':
          return [...before, post({ kind: 'body', status: answer, body: '{"status":"active","model":"sim-model-1"}' })]
        case 'slow':
          return [...before, post({ kind: 'delay', ms: rng.int(...p.slowMs) })]
        case 'echo-key':
          return [...before, post({ kind: 'echoAuth', status: 401 })]
      }
    }
  }
}

/** The polls' faults: the run's class (a 404 first, a hang last) among a few the wait must ride out. */
function pollFaults(cls: PollClass, rng: Random, p: Profile, mode: Mode): PlannedFault[] {
  const extras = Array.from({ length: rng.pick([0, 0, 1, 1, 2]) }, () => pollFault(rng.pick(EXTRA_POLL_FAULTS), rng, p))
  if (cls === 'none') return extras
  // Without a POST of ours, a 404 is final (documented): wait-only runs get a 500 instead.
  const main = pollFault(cls === '404' && mode === 'wait-only' ? '500' : cls, rng, p)
  return cls === '404' ? [main, ...extras] : [...extras, main]
}

function pollFault(cls: Exclude<PollClass, 'none'>, rng: Random, p: Profile): PlannedFault {
  const poll = (fault: Fault): PlannedFault => ({ cls: `poll:${cls}`, fault })
  switch (cls) {
    case '500':
    case '502':
      return poll({ kind: 'status', status: Number(cls) })
    case 'reset':
      return poll({ kind: 'reset' })
    case 'empty':
      return poll({ kind: 'body', body: '' })
    case 'truncate':
      return poll({ kind: 'truncate' })
    case 'html':
      return poll({
        kind: 'body',
        status: rng.pick([200, 502]),
        contentType: 'text/html',
        body: '<!doctype html><html><body><h1>502 Bad Gateway</h1></body></html>'
      })
    case '429':
      return tooMany(rng, p, 'poll')
    case '404':
      return poll({ kind: 'notFound' })
    case 'hang':
      return poll({ kind: 'hang' })
    case 'echo-key':
      return poll({ kind: 'echoAuth', status: 500 })
  }
}

// ---------------------------------------------------------------------------------------------
// Running

interface Exit extends ActionResult {
  /** performance.now() and Date.now() when the process exited. */
  at: number
  epoch: number
}

/**
 * Starts the action as the runner does (`runAction`), handing the child back at once: a signal
 * "right after spawn" cannot wait for the first line of output.
 */
function launch(
  inputs: Record<string, string>,
  env: Record<string, string>,
  nodeArgs: string[]
): { child: ChildProcess; exited: Promise<Exit> } {
  let child: ChildProcess | undefined
  let at = 0
  let epoch = 0
  const run = runAction(inputs, {
    env,
    nodeArgs,
    onSpawn: (spawned) => {
      child = spawned
      spawned.on('exit', () => {
        at = performance.now()
        epoch = Date.now()
      })
    }
  })
  if (!child) throw new Error('runAction did not spawn the action')
  const exited = run.then((result) => {
    rmSync(result.workspace, { recursive: true, force: true })
    return { ...result, at, epoch }
  })
  return { child, exited }
}

/** A fault queued on the simulator; `retryUntil` (epoch ms) is set when a request is served it. */
interface QueuedFault {
  planned: PlannedFault
  fault: Fault
  retryUntil?: number
}

interface SentSignal extends SignalPlan {
  /** performance.now() when it was sent; undefined when the process had exited first or the moment never came. */
  sentAt?: number
  /** Epoch ms (performance.timeOrigin plus now()) just before it was sent. */
  sentEpoch?: number
  /** From spawn to the signal. */
  afterSpawnMs?: number
}

interface AttemptRun {
  attempt: number
  exit: Exit
  spawnedAt: number
  spawnedEpoch: number
  signal?: SentSignal
  requests: RecordedRequest[]
  cacheRequests: CacheRequest[]
  /** The simulator's jobs right after the process exited. */
  jobsAtExit: JobSnapshot[]
  /** Epoch ms (performance.timeOrigin plus now()) at which the action installed a handler, per signal. */
  handlersAt: Partial<Record<SignalName, number>>
}

interface GroupRun {
  plan: RunPlan
  attempts: AttemptRun[]
  faultOf: Map<RecordedRequest, QueuedFault>
  /** performance.now() when each request's exchange ended. */
  answeredAt: Map<RecordedRequest, number>
  seededId: string | undefined
  /** Date.now() when the job was seeded. */
  seededEpoch: number | undefined
  jobs: JobSnapshot[]
  durationMs: number
}

function scenarioOf(plan: RunPlan): Partial<JobScenario> {
  const scenario: Partial<JobScenario> = {
    runMs: plan.runMs,
    finalStatus: terminalOf(plan.end),
    pr: plan.end === 'pr' || plan.end === 'late-pr'
  }
  if (plan.prLinkLagMs !== undefined) scenario.prLinkLagMs = plan.prLinkLagMs
  if (plan.staleAfterMessageMs !== undefined) scenario.staleAfterMessageMs = plan.staleAfterMessageMs
  if (plan.end === 'unknown-status') scenario.record = { status: 'queued' }
  return scenario
}

/** A loopback URL nothing listens on: the port was free a moment ago. */
async function closedPortUrl(): Promise<string> {
  const server = createServer()
  await new Promise<void>((resolvePromise) => server.listen(0, '127.0.0.1', resolvePromise))
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 9
  await new Promise<void>((resolvePromise) => server.close(() => resolvePromise()))
  return `http://127.0.0.1:${port}`
}

/** Runs every attempt of one planned workflow run, each against the same simulator and cache service. */
async function runGroup(plan: RunPlan): Promise<GroupRun> {
  const started = performance.now()
  const answeredAt = new Map<RecordedRequest, number>()
  const sim = await AgentApiSimulator.start({
    apiKey: KEY,
    scenario: scenarioOf(plan),
    onRequestEnd: (rec) => answeredAt.set(rec, performance.now())
  })
  const cache = plan.cache ? await CacheServiceFake.start() : undefined
  const runnerTemp = mkdtempSync(join(tmpdir(), 'docs-agent-soak-run-'))
  const baseUrl = plan.refused ? await closedPortUrl() : sim.url
  const queue: Record<Operation, QueuedFault[]> = { create: [], message: [], get: [] }
  const served: Record<Operation, number> = { create: 0, message: 0, get: 0 }
  const faultOf = new Map<RecordedRequest, QueuedFault>()
  let onRequest: ((rec: RecordedRequest) => void) | undefined
  // Mirrors the simulator's queue (queued faults are served in order, one per routed request).
  sim.onRequest = (rec) => {
    if (rec.operation !== 'create' && rec.operation !== 'message' && rec.operation !== 'get') return
    const queued = queue[rec.operation][served[rec.operation]]
    if (queued) {
      served[rec.operation]++
      faultOf.set(rec, queued)
      const after = queued.planned.retryAfter
      if (after && queued.fault.kind === 'status') {
        if ('seconds' in after) queued.retryUntil = rec.time + after.seconds * 1000
        else {
          // An HTTP-date is absolute: it is only meaningful from the moment it is served.
          const date = new Date(Date.now() + after.dateInMs).toUTCString()
          queued.fault.headers = { 'retry-after': date }
          queued.retryUntil = Date.parse(date)
        }
      }
    }
    onRequest?.(rec)
  }

  const group: GroupRun = {
    plan,
    attempts: [],
    faultOf,
    answeredAt,
    seededId: undefined,
    seededEpoch: undefined,
    jobs: [],
    durationMs: 0
  }
  if (plan.mode !== 'create') {
    group.seededId = `job_seeded_${plan.seed}`
    group.seededEpoch = Date.now()
    sim.addJob(PROJECT, { id: group.seededId, status: plan.seedStatus ?? 'active', prompt: 'An earlier prompt' })
  }
  const postOp = plan.mode === 'message' ? 'message' : 'create'
  try {
    for (const [index, attemptPlan] of plan.attempts.entries()) {
      for (const [op, faults] of [
        [postOp, attemptPlan.post],
        ['get', attemptPlan.poll]
      ] as const) {
        for (const planned of faults) {
          const fault = copyFault(planned)
          sim.fail(op, fault)
          queue[op].push({ planned, fault })
        }
      }
      const requestsFrom = sim.requests.length
      const cacheFrom = cache?.requests.length ?? 0
      const inputs: Record<string, string> = {
        'api-key': KEY,
        'project-id': PROJECT,
        'base-url': baseUrl,
        'poll-interval': '500ms',
        'max-poll-interval': plan.maxPollInterval,
        timeout: `${plan.timeoutMs}ms`,
        'fail-on': plan.failOn,
        wait: String(plan.wait),
        'on-rerun': plan.onRerun
      }
      if (plan.mode !== 'wait-only') inputs.prompt = PROMPT
      if (group.seededId) inputs['job-id'] = group.seededId
      for (const [name, how] of Object.entries(plan.defaulted)) {
        if (how === 'unset') Reflect.deleteProperty(inputs, name)
        else inputs[name] = ''
      }
      const env: Record<string, string> = {}
      if (cache) {
        for (const [name, value] of Object.entries(cache.env())) if (value !== undefined) env[name] = value
        Object.assign(env, {
          GITHUB_RUN_ID: String(plan.seed),
          GITHUB_RUN_ATTEMPT: String(index + 1),
          GITHUB_JOB: 'docs',
          GITHUB_ACTION: 'agent',
          RUNNER_TEMP: runnerTemp
        })
      }

      const signal: SentSignal | undefined = attemptPlan.signal && { ...attemptPlan.signal }
      const marks = join(runnerTemp, `handlers-${index + 1}`)
      const nodeArgs = signal ? ['--import', pathToFileURL(handlerProbe(runnerTemp)).href] : []
      if (signal) env.SOAK_HANDLER_MARKS = marks
      const spawnedAt = performance.now()
      const spawnedEpoch = Date.now()
      const { child, exited } = launch(inputs, env, nodeArgs)
      let timer: NodeJS.Timeout | undefined
      const arm = (): void => {
        if (!signal || timer) return
        timer = setTimeout(() => {
          if (child.exitCode !== null || child.signalCode !== null) return
          signal.sentEpoch = performance.timeOrigin + performance.now()
          child.kill(signal.name)
          signal.sentAt = performance.now()
          signal.afterSpawnMs = signal.sentAt - spawnedAt
        }, signal.delayMs)
      }
      if (signal?.moment === 'spawn') arm()
      // The cache service has no hook: its request log is watched for the attempt's lookup.
      let lookup: NodeJS.Timeout | undefined
      if (signal?.moment === 'restore' && cache) {
        lookup = setInterval(() => {
          if (!cache.requests.slice(cacheFrom).some((r) => r.operation === 'lookup')) return
          clearInterval(lookup)
          arm()
        }, 2)
      }
      onRequest = (rec) => {
        const posting = rec.operation === 'create' || rec.operation === 'message'
        if ((signal?.moment === 'post' && posting) || (signal?.moment === 'wait' && rec.operation === 'get')) arm()
      }
      const exit = await exited
      onRequest = undefined
      clearTimeout(timer)
      clearInterval(lookup)
      const attempt: AttemptRun = {
        attempt: index + 1,
        exit,
        spawnedAt,
        spawnedEpoch,
        requests: sim.requests.slice(requestsFrom),
        cacheRequests: cache?.requests.slice(cacheFrom) ?? [],
        jobsAtExit: sim.jobs(PROJECT),
        handlersAt: signal ? readHandlerMarks(marks) : {}
      }
      if (signal) attempt.signal = signal
      group.attempts.push(attempt)
    }
    group.jobs = sim.jobs(PROJECT)
  } finally {
    await sim.close()
    await cache?.close()
    rmSync(runnerTemp, { recursive: true, force: true })
  }
  group.durationMs = performance.now() - started
  return group
}

/** How long Node takes now, from spawn to a bare ES module's first output (ms). */
/**
 * A module preloaded into a signalled attempt: it notes when the action installs a SIGINT or
 * SIGTERM handler, so a kill can be told apart from one that came before the handlers existed.
 */
function handlerProbe(dir: string): string {
  const probe = join(dir, 'handler-probe.mjs')
  writeFileSync(
    probe,
    [
      "import { appendFileSync } from 'node:fs'",
      "for (const method of ['on', 'addListener', 'once', 'prependListener', 'prependOnceListener']) {",
      '  const original = process[method]',
      '  process[method] = function (name, listener) {',
      '    const result = original.call(this, name, listener)',
      "    if (name === 'SIGINT' || name === 'SIGTERM') {",
      '      appendFileSync(process.env.SOAK_HANDLER_MARKS, `${name} ${performance.timeOrigin + performance.now()}\\n`)',
      '    }',
      '    return result',
      '  }',
      '}',
      ''
    ].join('\n')
  )
  return probe
}

function readHandlerMarks(file: string): AttemptRun['handlersAt'] {
  const marks: AttemptRun['handlersAt'] = {}
  if (!existsSync(file)) return marks
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const [name, at] = line.split(' ')
    if ((name === 'SIGINT' || name === 'SIGTERM') && at) marks[name] ??= Number(at)
  }
  return marks
}

/** A fresh copy per run: the simulator keeps the object, and a Retry-After date is written into it. */
function copyFault({ fault, retryAfter: after }: PlannedFault): Fault {
  if (fault.kind !== 'status') return { ...fault }
  return after && 'seconds' in after
    ? { ...fault, headers: { 'retry-after': String(after.seconds) } }
    : { ...fault, headers: { ...fault.headers } }
}

// ---------------------------------------------------------------------------------------------
// Invariants

export type Outcome =
  'completed-pr' | 'completed-no-pr' | 'failed' | 'archived' | 'timed-out' | 'started' | 'cancelled' | 'error'

// The summary's heading names the outcome (src/report/summary.ts): the one place every ending shows.
const HEADINGS: [RegExp, Outcome][] = [
  [/cancelled/i, 'cancelled'],
  [/timed out/i, 'timed-out'],
  [/job failed/i, 'failed'],
  [/archived/i, 'archived'],
  [/step failed/i, 'error'],
  [/started|follow-up sent/i, 'started'],
  [/pull request ready/i, 'completed-pr'],
  [/no changes|link is unusable/i, 'completed-no-pr']
]

function outcomeOf(summary: string): Outcome | undefined {
  const heading = /<h2>(.*?)<\/h2>/.exec(summary)?.[1]
  if (heading === undefined) return undefined
  return HEADINGS.find(([pattern]) => pattern.test(heading))?.[1]
}

export interface Violation {
  seed: number
  attempt: number | undefined
  invariant: number
  what: string
}

export interface AttemptReport {
  attempt: number
  /** What the attempt ended as; `start-up kill` when Node had not yet run the entry's handlers. */
  outcome: Outcome | 'start-up kill' | 'killed after reporting' | 'unknown'
  code: number | null
  signal?: { name: SignalName; moment: Moment; sent: boolean; afterSpawnMs: number | undefined }
  resumed: boolean
  posted: boolean
  durationMs: number
}

export interface RunReport {
  seed: number
  plan: RunPlan
  attempts: AttemptReport[]
  violations: Violation[]
  /** Fault classes that a request was actually served (or, for `refused`, that the run had). */
  faults: string[]
  /** Kills before the entry's handlers: when, and when the handler was installed if it ever was (ms after spawn). */
  startupKills: { afterMs: number; handlerAfterMs: number | undefined }[]
  /**
   * Creates the simulator answered 201 although the signal came first or too close to tell (not
   * held to invariant 3), and how many of those left job-id empty: a job the step never reported.
   */
  racedAnswers: { raced: number; lost: number }
  durationMs: number
}

/** Checks one run's invariants; everything a report needs about it. */
function checkGroup(group: GroupRun): RunReport {
  const { plan } = group
  const violations: Violation[] = []
  const startupKills: RunReport['startupKills'] = []
  const racedAnswers = { raced: 0, lost: 0 }
  const violate = (attempt: number | undefined, invariant: number, what: string): void => {
    violations.push({ seed: plan.seed, attempt, invariant, what })
  }
  const postOp = plan.mode === 'message' ? 'message' : 'create'
  const acted = (rec: RecordedRequest): boolean => rec.operation === postOp && serverActed(rec, group)
  const created = group.jobs.filter((job) => job.job.id !== group.seededId)
  const actingCreates = group.attempts.flatMap((a) => a.requests.filter(acted))
  const jobOf = new Map<RecordedRequest, string>()
  if (plan.mode === 'create') {
    if (actingCreates.length !== created.length) {
      violate(undefined, 0, `soak bookkeeping: ${created.length} jobs, but ${actingCreates.length} creates acted`)
    }
    actingCreates.forEach((rec, i) => jobOf.set(rec, created[i]?.job.id ?? ''))
  }

  // 1. At most one job (or follow-up) per step across its attempts, unless on-rerun is new.
  const delivered =
    plan.mode === 'create'
      ? created.length
      : Math.max(0, (group.jobs.find((job) => job.job.id === group.seededId)?.prompts.length ?? 1) - 1)
  const perAttempt = group.attempts.map((a) => a.requests.filter(acted).length)
  const what = plan.mode === 'message' ? 'follow-ups delivered' : 'jobs created'
  if (plan.mode === 'wait-only' && (created.length > 0 || delivered > 0)) {
    violate(undefined, 1, `a wait-only step posted: ${created.length} jobs created, ${delivered} messages`)
  } else if (plan.onRerun === 'new') {
    perAttempt.forEach((n, i) => {
      if (n > 1) violate(i + 1, 1, `${n} ${what} by one attempt`)
    })
  } else if (delivered > 1) {
    violate(
      undefined,
      1,
      `${delivered} ${what} for one step (per attempt: ${perAttempt.join(', ')}; ${group.attempts.map(describeAttemptPost(group)).join('; ')})`
    )
  }

  let knownId: string | undefined
  const attempts: AttemptReport[] = []
  for (const a of group.attempts) {
    const { exit } = a
    const n = a.attempt
    const signalSent = a.signal?.sentAt !== undefined
    const startupKill = exit.code === null && exit.signal !== null && exit.summary === ''
    const killedAfterReport = exit.code === null && !startupKill
    // A lookup that found a key: the record is the key, nothing is downloaded.
    const resumed = a.cacheRequests.some((r) => r.operation === 'lookup' && r.status === 200)
    const posts = a.requests.filter((r) => r.operation === postOp)
    const outcome = outcomeOf(exit.summary)
    const report: AttemptReport = {
      attempt: n,
      outcome: startupKill ? 'start-up kill' : killedAfterReport ? 'killed after reporting' : (outcome ?? 'unknown'),
      code: exit.code,
      resumed,
      posted: posts.length > 0,
      durationMs: exit.at - a.spawnedAt
    }
    if (a.signal) {
      report.signal = {
        name: a.signal.name,
        moment: a.signal.moment,
        sent: signalSent,
        afterSpawnMs: a.signal.afterSpawnMs
      }
    }
    attempts.push(report)

    // 5. A summary on every exit path, but for a kill that came before the handler of its signal
    // existed (the preloaded probe says when it was installed).
    if (startupKill) {
      const after = Math.round(a.signal?.afterSpawnMs ?? 0)
      const installedAt = a.signal ? a.handlersAt[a.signal.name] : undefined
      const handlerAfterMs =
        installedAt === undefined ? undefined : Math.round(installedAt - performance.timeOrigin - a.spawnedAt)
      startupKills.push({ afterMs: after, handlerAfterMs })
      const sentEpoch = a.signal?.sentEpoch
      if (installedAt !== undefined && sentEpoch !== undefined && installedAt + HANDLER_RACE_MS < sentEpoch) {
        violate(
          n,
          5,
          `killed by ${exit.signal ?? ''} ${after} ms after spawn, with no summary and no outputs, although its handler was installed ${handlerAfterMs ?? '?'} ms after spawn`
        )
      }
    } else if (exit.summary.trim() === '') {
      violate(n, 5, `no summary (exit ${exit.code ?? exit.signal ?? ''})`)
    }
    // The verdicts above trust the probe: a signal the action handled must have shown it a handler.
    if (signalSent && !startupKill && a.signal && a.handlersAt[a.signal.name] === undefined) {
      violate(n, 0, `soak bookkeeping: ${a.signal.name} was handled, but the probe saw no handler installed`)
    }

    // 6. The key only ever in the one ::add-mask:: line.
    const leaks = secretLeaks({ ...exit, workspace: '' }, KEY)
    if (leaks.length > 0) violate(n, 6, `the API key appears in ${leaks.join(', ')}`)

    // 2. No POST after one that may have acted.
    const ambiguous = posts.findIndex((r) => mayHaveActed(r, group.faultOf.get(r)))
    if (ambiguous >= 0 && ambiguous < posts.length - 1) {
      const first = posts[ambiguous] as RecordedRequest
      violate(
        n,
        2,
        `${posts.length - ambiguous - 1} more ${postOp} request(s) after one that ${describeRequest(first, group)}`
      )
    }

    // 3. job-id on every exit path once the id is known.
    if (!startupKill) {
      const output = exit.outputs['job-id'] ?? ''
      if (plan.mode !== 'create') {
        if (output !== group.seededId) violate(n, 3, `job-id is "${output}", the input was ${group.seededId ?? ''}`)
      } else {
        const answered = posts.find(
          (r) => r.answeredStatus === 201 && acted(r) && group.faultOf.get(r)?.fault.kind !== 'truncate'
        )
        const answeredId = answered && jobOf.get(answered)
        const end = answered && group.answeredAt.get(answered)
        const raced = a.signal?.sentAt !== undefined && end !== undefined && a.signal.sentAt < end + ANSWER_RACE_MS
        let expected: string | undefined
        if (answeredId && raced) {
          racedAnswers.raced++
          if (output === answeredId) knownId = answeredId
          else racedAnswers.lost++
        } else if (answeredId) {
          expected = answeredId
          knownId = answeredId
        } else if (resumed && plan.onRerun === 'resume') {
          expected = knownId
        }
        if (expected !== undefined && output !== expected) {
          const how = answeredId ? 'the create was answered 201 with' : 'this attempt restored the record of'
          violate(n, 3, `job-id is "${output}", but ${how} ${expected}${signalSent ? ` (${signalNote(a)})` : ''}`)
        } else if (expected === undefined && output !== '' && !group.jobs.some((job) => job.job.id === output)) {
          violate(n, 3, `job-id is "${output}", a job the simulator never handed out`)
        }
      }
    }

    // 4. The exit code as fail-on says, for an outcome that agrees with what happened.
    if (!startupKill && !killedAfterReport) {
      for (const problem of outcomeProblems(group, a, outcome)) violate(n, 4, problem)
    }

    // 7. Retry-After honoured: no request of the step before the time the last answer asked for.
    a.requests.forEach((rec, i) => {
      const next = a.requests[i + 1]
      const until = group.faultOf.get(rec)?.retryUntil
      if (!next || until === undefined || rec.answeredStatus === undefined) return
      if (next.time < until - SLACK_MS) {
        violate(
          n,
          7,
          `${next.operation} sent ${until - next.time} ms before the Retry-After of the ${rec.operation} answered ${rec.answeredStatus}`
        )
      }
    })

    // 8. Ends soon after a signal, and soon after the timeout.
    const took = exit.at - a.spawnedAt
    if (took > plan.timeoutMs + EXIT_AFTER_TIMEOUT_MS) {
      violate(n, 8, `ran ${Math.round(took)} ms with timeout ${plan.timeoutMs} ms`)
    }
    if (a.signal?.sentAt !== undefined && exit.at - a.signal.sentAt > EXIT_AFTER_SIGNAL_MS) {
      violate(n, 8, `exited ${Math.round(exit.at - a.signal.sentAt)} ms after ${a.signal.name}`)
    }
  }

  const faults = new Set<string>()
  for (const queued of group.faultOf.values()) faults.add(queued.planned.cls)
  if (plan.refused) faults.add('refused')
  return {
    seed: plan.seed,
    plan,
    attempts,
    violations,
    faults: [...faults].sort(),
    startupKills,
    racedAnswers,
    durationMs: group.durationMs
  }
}

/** Whether the simulator did the work of this POST (created the job, took the message). */
function serverActed(rec: RecordedRequest, group: GroupRun): boolean {
  const fault = group.faultOf.get(rec)?.fault
  if (fault?.kind === 'status' || fault?.kind === 'reset') return fault.effect === true
  const ok = rec.answeredStatus !== undefined && rec.answeredStatus >= 200 && rec.answeredStatus < 300
  return ok && (fault === undefined || fault.kind === 'truncate' || fault.kind === 'delay')
}

/** Whether a POST that ended this way may have acted: the action must never send another. */
function mayHaveActed(rec: RecordedRequest, queued: QueuedFault | undefined): boolean {
  const status = rec.answeredStatus
  if (status === undefined) return true
  if (status >= 500 && status !== 503) return true
  const kind = queued?.fault.kind
  return kind === 'truncate' || (kind === 'body' && status >= 200 && status < 300)
}

/** POST faults the action must fail on (it may not retry them): the outcome is an error or a cancel. */
function isFatalPost(queued: QueuedFault | undefined): boolean {
  if (!queued) return false
  const { fault } = queued
  switch (fault.kind) {
    case 'status':
      return fault.status !== 429 && fault.status !== 503
    case 'delay':
      return false
    case 'reset':
    case 'hang':
    case 'body':
    case 'truncate':
    case 'huge':
    case 'echoAuth':
    case 'redirect':
    case 'notFound':
      return true
  }
}

function describeRequest(rec: RecordedRequest, group: GroupRun): string {
  const cls = group.faultOf.get(rec)?.planned.cls
  return `${cls ? `met ${cls}` : 'had no fault'} (${rec.answeredStatus === undefined ? 'no answer' : `answered ${rec.answeredStatus}`})`
}

function describeAttemptPost(group: GroupRun): (a: AttemptRun) => string {
  return (a) => {
    const posts = a.requests.filter((r) => r.operation === 'create' || r.operation === 'message')
    const signal = a.signal?.sentAt === undefined ? '' : `, ${signalNote(a)}`
    const what = posts.map((r) => describeRequest(r, group)).join(' then ') || 'no POST'
    return `attempt ${a.attempt}: ${what}${signal}`
  }
}

function signalNote(a: AttemptRun): string {
  const s = a.signal
  return s?.afterSpawnMs === undefined ? '' : `${s.name} at ${s.moment}, ${Math.round(s.afterSpawnMs)} ms after spawn`
}

/** What is wrong with the attempt's exit code and stated outcome, given what really happened. */
function outcomeProblems(group: GroupRun, a: AttemptRun, outcome: Outcome | undefined): string[] {
  const { plan } = group
  const { exit } = a
  if (outcome === undefined)
    return [`cannot tell the outcome from the summary heading: ${/<h2>.*?<\/h2>/.exec(exit.summary)?.[0] ?? 'none'}`]
  const problems: string[] = []
  // As the README documents fail-on: comma, space or newline separated, or none.
  const failOn = new Set(plan.failOn.split(/[\s,]+/).filter((word) => word !== 'none'))
  const expectedCode =
    outcome === 'cancelled' || outcome === 'error'
      ? 1
      : outcome === 'timed-out' || outcome === 'failed' || outcome === 'archived'
        ? Number(failOn.has(outcome))
        : outcome === 'completed-no-pr'
          ? Number(failOn.has('no-pr'))
          : 0
  if (exit.code !== expectedCode)
    problems.push(
      `exit code ${exit.code ?? 'none'} for ${outcome} with fail-on "${plan.failOn}", expected ${expectedCode}`
    )

  const postOp = plan.mode === 'message' ? 'message' : 'create'
  const posts = a.requests.filter((r) => r.operation === postOp)
  const postFaulted = posts.some((r) => group.faultOf.has(r))
  const fatal = posts.find((r) => isFatalPost(group.faultOf.get(r)))
  const signalSent = a.signal?.sentAt !== undefined
  const errorLine = exit.stdout.split('\n').find((line) => line.startsWith('::error'))
  if (outcome === 'cancelled' && !signalSent) problems.push('reported cancelled, but no signal was sent')
  if ((outcome === 'timed-out') !== (exit.outputs['timed-out'] === 'true')) {
    problems.push(`outcome ${outcome} with the timed-out output "${exit.outputs['timed-out'] ?? ''}"`)
  }
  if (outcome === 'started' && plan.wait) problems.push('reported started (not waiting) with wait: true')
  if (fatal && outcome !== 'error' && outcome !== 'cancelled') {
    problems.push(`carried on to ${outcome} after a ${postOp} that ${describeRequest(fatal, group)}`)
  }
  // A re-run refuses to post again after an earlier attempt's POST left without a usable answer.
  const earlier = group.attempts.slice(0, group.attempts.indexOf(a))
  // Either the server gave no usable answer, or it answered after the attempt had been cancelled:
  // the attempt then rightly reported that its request may have acted.
  const lostEarlier = earlier.some(
    (b) =>
      b.requests.some((r) => r.operation === postOp && mayHaveActed(r, group.faultOf.get(r))) ||
      /may have been (created|delivered)/.test(b.exit.stdout)
  )
  const refusal = /^::error::Attempt \d+ of this step sent the (create|follow-up) request, but its answer was lost/
  if (outcome === 'error' && !postFaulted && !plan.refused && !(lostEarlier && refusal.test(errorLine ?? '')))
    problems.push(`unexpected error: ${errorLine ?? 'no ::error:: line'}`)

  const status = outcome === 'completed-pr' || outcome === 'completed-no-pr' ? 'completed' : outcome
  if (status !== 'completed' && status !== 'failed' && status !== 'archived') return problems
  if (exit.outputs.status !== status)
    problems.push(`reported ${outcome} with the status output "${exit.outputs.status ?? ''}"`)
  if (plan.end === 'unknown-status')
    problems.push(`reported ${outcome}, but the job only ever showed an unknown status`)
  const jobId = plan.mode === 'create' ? exit.outputs['job-id'] : group.seededId
  const job = a.jobsAtExit.find((j) => j.job.id === jobId)
  if (!job) return [...problems, `reported ${outcome} for job "${jobId ?? ''}", which the simulator does not hold`]
  // From the plan, not the simulator's view: a stale record is exactly what must not be believed.
  const final = plan.mode === 'wait-only' && plan.seedStatus !== 'active' ? plan.seedStatus : terminalOf(plan.end)
  if (status !== final) problems.push(`reported ${outcome}, but the job's current run ends ${final ?? 'active'}`)
  const runStart = runStartOf(group, a, job.job.id)
  if (runStart === undefined && plan.mode === 'message')
    problems.push(`reported ${outcome}, but no follow-up was delivered`)
  const runEnd = runStart === undefined ? undefined : runStart + runLengthOf(plan)
  if (runEnd !== undefined && exit.epoch < runEnd - SLACK_MS) {
    problems.push(`reported ${outcome} ${runEnd - exit.epoch} ms before the job's run (after its last POST) ended`)
  }
  const prLink = exit.outputs['pr-link'] ?? ''
  // Only a completed job's link decides its heading; a failed one may carry a link too.
  if (status === 'completed' && (outcome === 'completed-pr') !== (prLink !== '')) {
    problems.push(`reported ${outcome} with pr-link "${prLink}"`)
  }
  if (outcome === 'completed-no-pr' && plan.end === 'pr')
    problems.push('reported no pull request, but the job had one from the moment it completed')
  if (outcome === 'completed-no-pr' && plan.end === 'late-pr' && runEnd !== undefined) {
    const missed = missedLateLink(group, a, runEnd)
    if (missed) problems.push(missed)
  }
  return problems
}

/** When the job's current run started (epoch ms): its create, its last follow-up, or its seeding. */
function runStartOf(group: GroupRun, a: AttemptRun, jobId: string): number | undefined {
  const upTo = group.attempts.slice(0, group.attempts.indexOf(a) + 1).flatMap((x) => x.requests)
  const posts = upTo.filter((r) => (r.operation === 'message' || r.operation === 'create') && serverActed(r, group))
  if (group.plan.mode === 'create') {
    // The create that made this job: the n-th create that acted made the n-th job.
    const ids = group.jobs.map((j) => j.job.id)
    const creates = posts.filter((r) => r.operation === 'create')
    return creates[ids.indexOf(jobId)]?.time
  }
  return group.plan.mode === 'message' ? posts.at(-1)?.time : group.seededEpoch
}

/** How long the job stays active after a POST (or its seeding). */
function runLengthOf(plan: RunPlan): number {
  if (plan.mode === 'wait-only' && plan.seedStatus !== 'active') return 0
  return plan.runMs
}

/** A completed job whose link came soon after must still get it when the settle reads had room to see it. */
function missedLateLink(group: GroupRun, a: AttemptRun, runEnd: number): string | undefined {
  const { plan } = group
  const lag = plan.prLinkLagMs ?? 0
  if (a.signal?.sentAt !== undefined || plan.staleAfterMessageMs !== undefined) return undefined
  if (lag > LINK_SURELY_SEEN_MS) return undefined
  const gets = a.requests.filter((r) => r.operation === 'get')
  if (gets.some((r) => group.faultOf.has(r))) return undefined
  const firstCompleted = gets.find((r) => r.time >= runEnd + SLACK_MS)
  if (!firstCompleted) return undefined
  const deadline = a.spawnedEpoch + plan.timeoutMs
  if (firstCompleted.time + SETTLE_READS_MS + 500 > deadline) return undefined
  return `reported no pull request, but its link appeared ${lag} ms after the job completed, within the settle reads`
}

// ---------------------------------------------------------------------------------------------
// Campaign

export interface SoakOptions {
  /** The campaign's seed: the same seed plans the same runs. */
  seed: number
  /** At most this many runs (default: as many as fit in `seconds`). */
  runs?: number
  /** No run starts after this many seconds (default 180). */
  seconds?: number
  /** Runs at a time (default 2). */
  concurrency?: number
  /** Shorter jobs and timeouts (the test slice). */
  quick?: boolean
  /** Where progress and violations go, one line at a time (default: stdout). */
  log?: (line: string) => void
}

export interface SoakReport {
  seed: number
  quick: boolean
  runs: RunReport[]
  violations: Violation[]
  elapsedMs: number
}

export async function soak(options: SoakOptions): Promise<SoakReport> {
  const { seed, runs = Number.POSITIVE_INFINITY, seconds = 180, concurrency = 2, quick = false } = options
  const log = options.log ?? ((line: string) => console.log(line))
  const started = performance.now()
  const reports: RunReport[] = []
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < runs && performance.now() - started < seconds * 1000) {
      const index = next++
      const report = checkGroup(await runGroup(planRun(runSeed(seed, index), quick)))
      reports.push(report)
      log(runLine(index, report))
      for (const violation of report.violations) log(violationLine(violation, quick))
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker))
  return {
    seed,
    quick,
    runs: reports,
    violations: reports.flatMap((r) => r.violations),
    elapsedMs: performance.now() - started
  }
}

function replayCommand(seed: number, quick: boolean): string {
  return `node build/scripts/soak.js --replay ${seed}${quick ? ' --quick' : ''}`
}

function violationLine(v: Violation, quick: boolean): string {
  const where = v.attempt === undefined ? '' : ` attempt ${v.attempt}`
  return `  VIOLATION seed ${v.seed}${where}, invariant ${v.invariant}: ${v.what}\n    replay: ${replayCommand(v.seed, quick)}`
}

function describePlan(plan: RunPlan): string {
  const mode = `${plan.mode}${plan.wait ? '' : ' (wait: false)'}`
  const signals = plan.attempts.map((a) =>
    a.signal ? `${a.signal.name}@${a.signal.moment}+${a.signal.delayMs}ms` : '-'
  )
  const rerun =
    plan.attempts.length > 1 ? ` ×${plan.attempts.length}${plan.onRerun === 'new' ? ' (on-rerun: new)' : ''}` : ''
  const defaulted = Object.entries(plan.defaulted).map(([name, how]) => (how === 'unset' ? `-${name}` : `${name}=''`))
  const inputs = defaulted.length > 0 ? `, inputs ${defaulted.join(' ')}` : ''
  return `${mode}, ends ${plan.end}, timeout ${plan.timeoutMs}ms, signals ${signals.join('/')}${rerun}${inputs}`
}

function runLine(index: number, report: RunReport): string {
  const status = report.violations.length > 0 ? 'FAIL' : 'ok  '
  const outcomes = report.attempts.map((a) => `${a.outcome}:${a.code ?? 'signal'}`).join(' → ')
  const faults = report.faults.length > 0 ? report.faults.join(',') : 'no faults'
  return `${status} #${index} seed ${report.seed} ${describePlan(report.plan)}; ${faults} ⇒ ${outcomes} (${(report.durationMs / 1000).toFixed(1)}s)`
}

function tally(values: Iterable<string>): string {
  const counts = new Map<string, number>()
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1)
  return [...counts.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([value, count]) => `${value} ${count}`)
    .join(' · ')
}

/** The end-of-campaign table. */
export function formatReport(report: SoakReport): string {
  const { runs } = report
  const attempts = runs.flatMap((r) => r.attempts)
  const signals = attempts.flatMap((a) => (a.signal ? [a.signal] : []))
  const sent = signals.filter((s) => s.sent)
  const later = runs.flatMap((r) => r.attempts.slice(1).map((a) => ({ a, r })))
  const kills = runs.flatMap((r) => r.startupKills)
  const slowest = runs.reduce<RunReport | undefined>((a, b) => (a && a.durationMs >= b.durationMs ? a : b), undefined)
  const unexercised = FAULT_CLASSES.filter((cls) => !runs.some((r) => r.faults.includes(cls)))
  const rows: [string, string][] = [
    ['campaign', `seed ${report.seed}${report.quick ? ' (quick)' : ''}, ${(report.elapsedMs / 1000).toFixed(0)} s`],
    ['runs', `${runs.length} (${attempts.length} action processes)`],
    ['by mode', tally(runs.map((r) => r.plan.mode + (r.plan.wait ? '' : ' wait:false')))],
    ['by end', tally(runs.map((r) => r.plan.end))],
    ['by fault class', tally(runs.flatMap((r) => (r.faults.length > 0 ? r.faults : ['none'])))],
    ['fault classes not met', unexercised.length > 0 ? unexercised.join(', ') : 'none'],
    ['by fail-on', tally(runs.map((r) => r.plan.failOn.replace(/\s+/g, ' ')))],
    [
      'inputs at their default',
      `${runs.filter((r) => Object.keys(r.plan.defaulted).length > 0).length} runs: ${tally(runs.flatMap((r) => Object.entries(r.plan.defaulted).map(([name, how]) => `${name} ${how}`)))}`
    ],
    ['outcomes', tally(attempts.map((a) => a.outcome))],
    [
      'signals',
      `${sent.length} sent (${tally(sent.map((s) => s.name))}; at ${tally(sent.map((s) => s.moment))}), ${signals.length - sent.length} planned but the process had exited or never got there`
    ],
    [
      're-runs',
      `${runs.filter((r) => r.attempts.length > 1).length} runs, ${later.length} later attempts: ${later.filter(({ a }) => a.resumed).length} resumed the job, ${later.filter(({ a }) => a.posted).length} posted (${later.filter(({ r }) => r.plan.onRerun === 'new').length} with on-rerun: new)`
    ],
    [
      'create answers raced by a signal',
      `${runs.reduce((sum, r) => sum + r.racedAnswers.raced, 0)} (job-id left empty in ${runs.reduce((sum, r) => sum + r.racedAnswers.lost, 0)})`
    ],
    [
      'killed during Node start-up',
      kills.length === 0
        ? '0'
        : `${kills.length}, at ${kills.map((k) => `${k.afterMs} ms (handler ${k.handlerAfterMs === undefined ? 'not yet installed' : `installed at ${k.handlerAfterMs} ms`})`).join(', ')} after spawn`
    ],
    [
      'violations',
      report.violations.length === 0
        ? '0'
        : `${report.violations.length} (${tally(report.violations.map((v) => `invariant ${v.invariant}`))})`
    ],
    [
      'slowest run',
      slowest
        ? `seed ${slowest.seed}, ${(slowest.durationMs / 1000).toFixed(1)} s (${describePlan(slowest.plan)})`
        : '-'
    ]
  ]
  const width = Math.max(...rows.map(([name]) => name.length))
  const lines = rows.map(([name, value]) => `${name.padEnd(width)}  ${value}`)
  const seeds = [...new Set(report.violations.map((v) => v.seed))]
  if (seeds.length > 0) lines.push('', 'replay:', ...seeds.map((s) => `  ${replayCommand(s, report.quick)}`))
  return lines.join('\n')
}

/** One run again, with everything it did: the plan, each attempt's log, requests, outputs and summary. */
export async function replay(seed: number, quick: boolean, log: (line: string) => void): Promise<RunReport> {
  const plan = planRun(seed, quick)
  log(`plan: ${JSON.stringify(plan)}`)
  const group = await runGroup(plan)
  const report = checkGroup(group)
  for (const a of group.attempts) {
    log(
      `\n=== attempt ${a.attempt}: exit ${a.exit.code ?? a.exit.signal ?? ''} after ${Math.round(a.exit.at - a.spawnedAt)} ms${a.signal ? `; ${a.signal.sentAt === undefined ? `${a.signal.name} not sent` : signalNote(a)}` : ''}`
    )
    log('--- stdout ---')
    log(a.exit.stdout.trimEnd())
    if (a.exit.stderr.trim()) log(`--- stderr ---\n${a.exit.stderr.trimEnd()}`)
    log('--- requests (ms after spawn) ---')
    for (const rec of a.requests) {
      const cls = group.faultOf.get(rec)?.planned.cls
      log(
        `  +${Math.round(rec.at - a.spawnedAt)} ${rec.method} ${rec.rawPath} -> ${rec.answeredStatus ?? 'no answer'}${cls ? ` [${cls}]` : ''}`
      )
    }
    if (a.cacheRequests.length > 0)
      log(`--- cache service: ${a.cacheRequests.map((r) => `${r.operation} ${r.status ?? '-'}`).join(', ')}`)
    log(`--- outputs: ${JSON.stringify(a.exit.outputs)}`)
    log(`--- summary ---\n${a.exit.summary.trim()}`)
  }
  log(
    `\njobs in the simulator: ${JSON.stringify(group.jobs.map((j) => ({ id: j.job.id, status: j.job.status, prompts: j.prompts.length })))}`
  )
  log(
    report.violations.length === 0
      ? '\nno violation'
      : `\n${report.violations.map((v) => violationLine(v, quick)).join('\n')}`
  )
  return report
}

// ---------------------------------------------------------------------------------------------
// Command line

function parseArgs(argv: string[]): { options: SoakOptions; replaySeed: number | undefined } {
  const options: SoakOptions = { seed: Date.now() % 1_000_000 }
  let replaySeed: number | undefined
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    const value = (): number => {
      const n = Number(argv[++i])
      if (!Number.isInteger(n) || n < 0) throw new Error(`${arg ?? ''} needs a whole number`)
      return n
    }
    switch (arg) {
      case '--seed':
        options.seed = value()
        break
      case '--runs':
        options.runs = value()
        break
      case '--seconds':
        options.seconds = value()
        break
      case '--concurrency':
        options.concurrency = value()
        break
      case '--replay':
        replaySeed = value()
        break
      case '--quick':
        options.quick = true
        break
      default:
        throw new Error(
          `unknown argument ${arg ?? ''}: expected --seed N, --runs N, --seconds N, --concurrency N, --replay SEED, --quick`
        )
    }
  }
  return { options, replaySeed }
}

async function cli(): Promise<number> {
  const { options, replaySeed } = parseArgs(process.argv.slice(2))
  const log = (line: string): void => console.log(line)
  if (replaySeed !== undefined) {
    const report = await replay(replaySeed, options.quick ?? false, log)
    return report.violations.length > 0 ? 1 : 0
  }
  log(
    `soak: seed ${options.seed}, ${options.runs ?? 'unbounded'} runs, ${options.seconds ?? 180} s, concurrency ${options.concurrency ?? 2}${options.quick ? ', quick' : ''}`
  )
  const report = await soak(options)
  log(`\n${formatReport(report)}`)
  return report.violations.length > 0 ? 1 : 0
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await cli()
}
