/**
 * One soak run: every attempt of a planned workflow run of the built action (`dist/index.js`), run as
 * the runner runs it, against one Agent API simulator and (for re-runs) one fake Actions cache service,
 * with faults queued and signals sent as planned. It records what happened; the invariants judge it.
 */
import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { pathToFileURL } from 'node:url'
import { CacheServiceFake } from '../../simulator/cache.js'
import { AgentApiSimulator, type Fault, type JobSnapshot, type RecordedRequest } from '../../simulator/agent-api.js'
import { runAction, type ActionResult } from '../run-action.js'
import { terminalOf, type PlannedFault, type RunPlan, type SignalPlan } from './plan.js'

export const KEY = 'mint_soak_secret_key_5f2a9c41d7'
const PROJECT = 'proj-soak'
/**
 * Preloaded into a signalled attempt: notes when the action installs a SIGINT or SIGTERM handler,
 * so a kill can be told apart from one that came before the handlers existed.
 */
const HANDLER_PROBE = `import { appendFileSync } from 'node:fs'
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

/** A request to the simulator, with the fault it was served: as planned, as sent, and until when its Retry-After held (epoch ms). */
export interface Request extends RecordedRequest {
  cls?: string
  served?: Fault
  retryUntil?: number
  /** performance.now() when its exchange ended. */
  endedAt?: number
}

export interface Attempt {
  n: number
  /** performance.now() and Date.now() at spawn; the same two at exit. */
  spawnedAt: number
  spawnedEpoch: number
  exit: ActionResult & { at: number; epoch: number }
  /** `sentAt` is performance.now() just after the kill; `sentEpoch` the action's clock just before. */
  signal?: SignalPlan & { sentAt?: number; sentEpoch?: number }
  /** When (the action's clock) the action installed a handler for the planned signal, if it did. */
  handlerAt?: number
  /** A cache lookup found the step's record. */
  resumed: boolean
  requests: Request[]
  /** The simulator's jobs right after the process exited. */
  jobsAtExit: JobSnapshot[]
}

export interface Run {
  plan: RunPlan
  attempts: Attempt[]
  /** The job a follow-up or wait-only step names, and Date.now() when it was seeded. */
  seeded?: { id: string; epoch: number }
  /** The simulator's jobs once every attempt is over. */
  jobs: JobSnapshot[]
}

type Queued = PlannedFault & { served: Fault }

/** Runs every attempt of one planned workflow run; `seed` names the workflow run and the seeded job. */
export async function runPlan(plan: RunPlan, seed: number): Promise<Run> {
  const facts = new Map<RecordedRequest, Partial<Request>>()
  const note = (rec: RecordedRequest, more: Partial<Request>) => facts.set(rec, { ...facts.get(rec), ...more })
  const sim = await AgentApiSimulator.start({
    apiKey: KEY,
    scenario: {
      runMs: plan.runMs,
      finalStatus: terminalOf(plan.end),
      pr: plan.end === 'pr' || plan.end === 'late-pr',
      ...(plan.prLinkLagMs !== undefined && { prLinkLagMs: plan.prLinkLagMs }),
      ...(plan.staleAfterMessageMs !== undefined && { staleAfterMessageMs: plan.staleAfterMessageMs }),
      ...(plan.end === 'unknown-status' && { record: { status: 'queued' } })
    },
    onRequestEnd: (rec) => note(rec, { endedAt: performance.now() })
  })
  const cache = plan.cache ? await CacheServiceFake.start() : undefined
  const runnerTemp = mkdtempSync(join(tmpdir(), 'docs-agent-soak-run-'))
  const run: Run = { plan, attempts: [], jobs: [] }
  if (plan.mode !== 'create') {
    run.seeded = { id: `job_seeded_${seed}`, epoch: Date.now() }
    sim.addJob(PROJECT, { id: run.seeded.id, status: plan.seedStatus ?? 'active', prompt: 'An earlier prompt' })
  }
  // Mirrors the simulator's queues: it serves queued faults in order, one per routed request.
  const queues = { create: [] as Queued[], message: [] as Queued[], get: [] as Queued[] }
  let onRequest: ((rec: RecordedRequest) => void) | undefined
  sim.onRequest = (rec) => {
    if (rec.operation !== 'create' && rec.operation !== 'message' && rec.operation !== 'get') return
    const queued = queues[rec.operation].shift()
    if (queued) note(rec, { cls: queued.cls, served: queued.served, retryUntil: retryUntil(queued, rec.time) })
    onRequest?.(rec)
  }
  const inputs: Record<string, string> = {
    'api-key': KEY,
    'project-id': PROJECT,
    'base-url': plan.refused ? await closedPortUrl() : sim.url,
    'poll-interval': '500ms',
    'max-poll-interval': plan.maxPollInterval,
    timeout: `${plan.timeoutMs}ms`,
    'fail-on': plan.failOn,
    wait: String(plan.wait),
    'on-rerun': plan.onRerun,
    ...(plan.mode !== 'wait-only' && { prompt: 'Document the soak release' }),
    ...(run.seeded && { 'job-id': run.seeded.id })
  }
  for (const [name, how] of Object.entries(plan.defaulted)) {
    if (how === 'unset') Reflect.deleteProperty(inputs, name)
    else inputs[name] = ''
  }
  const cacheEnv = Object.entries(cache?.env() ?? {}).filter(
    (entry): entry is [string, string] => entry[1] !== undefined
  )
  const runEnv = { GITHUB_RUN_ID: String(seed), GITHUB_JOB: 'docs', GITHUB_ACTION: 'agent', RUNNER_TEMP: runnerTemp }
  const probe = join(runnerTemp, 'handler-probe.mjs')
  writeFileSync(probe, HANDLER_PROBE)
  try {
    for (const [index, planned] of plan.attempts.entries()) {
      const n = index + 1
      for (const [op, faults] of [
        [plan.mode === 'message' ? 'message' : 'create', planned.post],
        ['get', planned.poll]
      ] as const) {
        for (const f of faults) {
          const served = copyFault(f)
          sim.fail(op, served)
          queues[op].push({ ...f, served })
        }
      }
      const requestsFrom = sim.requests.length
      const cacheFrom = cache?.requests.length ?? 0
      const signal: Attempt['signal'] = planned.signal && { ...planned.signal }
      const marks = join(runnerTemp, `handlers-${n}`)
      const env: Record<string, string> = {
        ...(cache && { ...Object.fromEntries(cacheEnv), ...runEnv, GITHUB_RUN_ATTEMPT: String(n) }),
        ...(signal && { SOAK_HANDLER_MARKS: marks })
      }
      const spawnedAt = performance.now()
      const spawnedEpoch = Date.now()
      // The child is handed over at spawn: a signal "right after spawn" cannot wait for its first output.
      let child: ChildProcess | undefined
      const exitAt = { at: 0, epoch: 0 }
      const exited = runAction(inputs, {
        env,
        nodeArgs: signal ? ['--import', pathToFileURL(probe).href] : [],
        onSpawn: (spawned) => {
          child = spawned
          spawned.on('exit', () => Object.assign(exitAt, { at: performance.now(), epoch: Date.now() }))
        }
      })
      let timer: NodeJS.Timeout | undefined
      const arm = (): void => {
        if (!signal || timer) return
        timer = setTimeout(() => {
          if (!child || child.exitCode !== null || child.signalCode !== null) return
          signal.sentEpoch = performance.timeOrigin + performance.now()
          child.kill(signal.name)
          signal.sentAt = performance.now()
        }, signal.delayMs)
      }
      if (signal?.moment === 'spawn') arm()
      // The cache service has no hook: its request log is watched for the attempt's lookup.
      const lookup =
        signal?.moment === 'restore'
          ? setInterval(() => {
              if (!cache?.requests.slice(cacheFrom).some((r) => r.operation === 'lookup')) return
              clearInterval(lookup)
              arm()
            }, 2)
          : undefined
      onRequest = (rec) => {
        const posting = rec.operation === 'create' || rec.operation === 'message'
        if ((signal?.moment === 'post' && posting) || (signal?.moment === 'wait' && rec.operation === 'get')) arm()
      }
      const result = await exited
      onRequest = undefined
      clearTimeout(timer)
      clearInterval(lookup)
      rmSync(result.workspace, { recursive: true, force: true })
      const cacheRequests = cache?.requests.slice(cacheFrom) ?? []
      run.attempts.push({
        n,
        spawnedAt,
        spawnedEpoch,
        exit: { ...result, ...exitAt },
        signal,
        handlerAt: signal && handlerMark(marks, signal.name),
        // A lookup that found a key: the record is the key, nothing is downloaded.
        resumed: cacheRequests.some((r) => r.operation === 'lookup' && r.status === 200),
        requests: sim.requests.slice(requestsFrom),
        jobsAtExit: sim.jobs(PROJECT)
      })
    }
    run.jobs = sim.jobs(PROJECT)
  } finally {
    await sim.close()
    await cache?.close()
    rmSync(runnerTemp, { recursive: true, force: true })
  }
  for (const a of run.attempts) a.requests = a.requests.map((rec) => ({ ...rec, ...facts.get(rec) }))
  return run
}

/** When a served Retry-After lets the action go on (epoch ms); an HTTP-date is absolute, so it is set now. */
function retryUntil({ served, retryAfter }: Queued, time: number): number | undefined {
  if (!retryAfter || served.kind !== 'status') return undefined
  if ('seconds' in retryAfter) return time + retryAfter.seconds * 1000
  const date = new Date(Date.now() + retryAfter.dateInMs).toUTCString()
  served.headers = { 'retry-after': date }
  return Date.parse(date)
}

/** A fresh copy per run: the simulator keeps the object, and a Retry-After date is written into it. */
function copyFault({ fault, retryAfter }: PlannedFault): Fault {
  if (fault.kind !== 'status') return { ...fault }
  return retryAfter && 'seconds' in retryAfter
    ? { ...fault, headers: { 'retry-after': String(retryAfter.seconds) } }
    : { ...fault, headers: { ...fault.headers } }
}

/** A loopback URL nothing listens on: the port was free a moment ago. */
async function closedPortUrl(): Promise<string> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 9}`
}

/** The first time the probe noted a handler for `name` (no file: it never saw one). */
function handlerMark(file: string, name: string): number | undefined {
  const text = readFileSync(file, { encoding: 'utf8', flag: 'a+' })
  const line = text.split('\n').find((l) => l.startsWith(`${name} `))
  return line === undefined ? undefined : Number(line.slice(name.length + 1))
}
