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
// Preloaded into a signalled attempt: notes when the action installs a SIGINT or SIGTERM handler (every way
// of adding one emits `newListener`), so a kill can be told apart from one that came before it.
const HANDLER_PROBE = `import { appendFileSync } from 'node:fs'
process.on('newListener', (name) => {
  if (name === 'SIGINT' || name === 'SIGTERM')
    appendFileSync(process.env.SOAK_HANDLER_MARKS, \`\${name} \${performance.timeOrigin + performance.now()}\\n\`)
})
`

/** A request, the fault it was served (class, as sent, until when its Retry-After held), when its exchange ended. */
export type Request = RecordedRequest & { cls?: string; served?: Fault; retryUntil?: number; endedAt?: number }

/** Times: performance.now() (`…At`), Date.now() (`…Epoch`), the action's clock (`sentEpoch`, `handlerAt`). */
export interface Attempt {
  n: number
  spawnedAt: number
  spawnedEpoch: number
  exit: ActionResult & { at: number; epoch: number }
  signal?: SignalPlan & { sentAt?: number; sentEpoch?: number }
  handlerAt?: number
  /** A cache lookup found the step's record. */
  resumed: boolean
  requests: Request[]
  jobsAtExit: JobSnapshot[]
}

/** The simulator's jobs at the end, and the job a follow-up or wait-only step names (seeded at `epoch`). */
export type Run = { plan: RunPlan; attempts: Attempt[]; jobs: JobSnapshot[]; seeded?: { id: string; epoch: number } }

type Queued = PlannedFault & { served: Fault }

/** Runs every attempt of one planned workflow run; `seed` names the workflow run and the seeded job. */
export async function runPlan(plan: RunPlan, seed: number): Promise<Run> {
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
    // What the soak knows of a request is noted on the simulator's record of it.
    onRequestEnd: (rec) => Object.assign(rec, { endedAt: performance.now() })
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
  const queue = (op: keyof typeof queues, planned: PlannedFault): void => {
    const served = copyFault(planned)
    sim.fail(op, served)
    queues[op].push({ ...planned, served })
  }
  let reached: ((moment: SignalPlan['moment']) => void) | undefined
  sim.onRequest = (rec) => {
    if (rec.operation !== 'create' && rec.operation !== 'message' && rec.operation !== 'get') return
    const queued = queues[rec.operation].shift()
    if (queued) Object.assign(rec, { cls: queued.cls, served: queued.served, retryUntil: retryUntil(queued, rec.time) })
    reached?.(rec.operation === 'get' ? 'wait' : 'post')
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
  const runEnv = { GITHUB_RUN_ID: String(seed), GITHUB_JOB: 'docs', GITHUB_ACTION: 'agent', RUNNER_TEMP: runnerTemp }
  const cacheEnv = Object.entries(cache?.env() ?? {}).filter((entry) => entry[1] !== undefined)
  const probe = join(runnerTemp, 'handler-probe.mjs')
  writeFileSync(probe, HANDLER_PROBE)
  try {
    for (const [index, planned] of plan.attempts.entries()) {
      const n = index + 1
      for (const f of planned.post) queue(plan.mode === 'message' ? 'message' : 'create', f)
      for (const f of planned.poll) queue('get', f)
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
      reached = (moment) => {
        if (!signal || timer || moment !== signal.moment) return
        timer = setTimeout(() => {
          if (!child || child.exitCode !== null || child.signalCode !== null) return
          signal.sentEpoch = performance.timeOrigin + performance.now()
          child.kill(signal.name)
          signal.sentAt = performance.now()
        }, signal.delayMs)
      }
      reached('spawn')
      // The cache service has no hook: its request log is watched for the attempt's lookup.
      const lookup = setInterval(() => {
        if (signal?.moment !== 'restore') clearInterval(lookup)
        else if (cache?.requests.slice(cacheFrom).some((r) => r.operation === 'lookup')) reached?.('restore')
      }, 2)
      const result = await exited
      reached = undefined
      clearTimeout(timer)
      clearInterval(lookup)
      rmSync(result.workspace, { recursive: true, force: true })
      run.attempts.push({
        n,
        spawnedAt,
        spawnedEpoch,
        exit: { ...result, ...exitAt },
        signal,
        handlerAt: signal && handlerMark(marks, signal.name),
        // A lookup that found a key: the record is the key, nothing is downloaded.
        resumed: !!cache?.requests.slice(cacheFrom).some((r) => r.operation === 'lookup' && r.status === 200),
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
