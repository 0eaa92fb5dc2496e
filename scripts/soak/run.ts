/**
 * One soak run: every attempt of a planned workflow run of the built action (`dist/index.js`), run as
 * the runner runs it, against one Agent API simulator and, for re-runs, one fake Actions cache
 * service, with faults queued and signals sent as planned; what happened, for the invariants.
 */
import type { ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { pathToFileURL } from 'node:url'
import { CacheServiceFake, type CacheRequest } from '../../simulator/cache.js'
import {
  AgentApiSimulator,
  type Fault,
  type JobScenario,
  type JobSnapshot,
  type Operation,
  type RecordedRequest
} from '../../simulator/agent-api.js'
import { runAction, type ActionResult } from '../run-action.js'
import { terminalOf, type PlannedFault, type RunPlan, type SignalName, type SignalPlan } from './plan.js'

export const KEY = 'mint_soak_secret_key_5f2a9c41d7'
export const PROJECT = 'proj-soak'
const PROMPT = 'Document the soak release'

export interface Exit extends ActionResult {
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
export interface QueuedFault {
  planned: PlannedFault
  fault: Fault
  retryUntil?: number
}

/** When it was sent (performance.now(), epoch ms just before, ms from spawn); unsent if the process had exited or the moment never came. */
export interface SentSignal extends SignalPlan {
  sentAt?: number
  sentEpoch?: number
  afterSpawnMs?: number
}

export interface AttemptRun {
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

export interface GroupRun {
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

function scenarioOf({ runMs, end, prLinkLagMs, staleAfterMessageMs }: RunPlan): Partial<JobScenario> {
  const scenario: Partial<JobScenario> = { runMs, finalStatus: terminalOf(end), pr: end === 'pr' || end === 'late-pr' }
  return {
    ...scenario,
    ...(prLinkLagMs !== undefined && { prLinkLagMs }),
    ...(staleAfterMessageMs !== undefined && { staleAfterMessageMs }),
    ...(end === 'unknown-status' && { record: { status: 'queued' } })
  }
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
export async function runGroup(plan: RunPlan): Promise<GroupRun> {
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

/**
 * A module preloaded into a signalled attempt: it notes when the action installs a SIGINT or
 * SIGTERM handler, so a kill can be told apart from one that came before the handlers existed.
 */
function handlerProbe(dir: string): string {
  const probe = join(dir, 'handler-probe.mjs')
  writeFileSync(
    probe,
    `import { appendFileSync } from 'node:fs'
for (const method of ['on', 'addListener', 'once', 'prependListener', 'prependOnceListener']) {
  const original = process[method]
  process[method] = function (name, listener) {
    const result = original.call(this, name, listener)
    if (name === 'SIGINT' || name === 'SIGTERM')
      appendFileSync(process.env.SOAK_HANDLER_MARKS, \`\${name} \${performance.timeOrigin + performance.now()}\\n\`)
    return result
  }
}
`
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
