// Start-up benchmark of the built action (dist/index.js) against the Agent API simulator:
// time from spawning the process to the first request the simulator receives, next to bare
// `node -e 0`, a plain node process making one request and the stack's floor (bench/stack-floor.ts,
// bundled as dist/ is), timed in the same interleaved run;
// the bundle's size and make-up, and which of its chunks a plain run loads; the peak RSS of whole runs.
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { gzipSync } from 'node:zlib'
import { inputDefaults, readAction } from '../scripts/action-metadata.js'
import { chunkProbe, librariesIn, type Library } from '../scripts/loaded-chunks.js'
import { CacheServiceFake } from '../simulator/cache.js'
import { AgentApiSimulator } from '../simulator/agent-api.js'
import { median } from './stats.js'

export const DIAGNOSTIC_RSS_LABEL = 'diagnostic: action, wait: true, under `node --liftoff-only`'
/** The waited runs' poll-interval: their job (1.5 s) is seen ended at the first poll. */
export const WAITED_POLL_MS = 2000
export const RECORD_RSS_LABEL = 'action, wait: true, cache service present (saves its re-run record)'

export interface StartupOptions {
  /** Runs of each kind (interleaved). */
  runs: number
  /** Repository root (holds dist/). */
  root: string
  /** The Node.js binary that runs the action and the baselines. */
  node: string
}

export interface BundleFile {
  name: string
  bytes: number
  gzipBytes: number
  /** Copies of undici in the file (one `class Agent extends DispatcherBase` per copy). */
  undiciCopies: number
  /** Whether it holds undici ≥ 6 code (its `undici.error.UND_ERR` error symbols). */
  undici6: boolean
  /** The libraries it holds that only some runs need (scripts/loaded-chunks.ts). */
  libraries: Library[]
  /** Whether a plain run (`wait: false`, no GitHub request, no markup) loads it. */
  loadedAtStart: boolean
}

export interface RssRun {
  label: string
  kb: number[]
  /** spawn → exit of the same runs. */
  ms: number[]
  /**
   * The last poll the simulator received (the one that saw the job end) → exit: what is left of
   * the step once it knows the outcome, free of the poll's jitter. Empty for bare node.
   */
  tailMs: number[]
}

export interface StartupResult {
  runs: number
  /** spawn → exit of `node -e 0`. */
  bareExitMs: number[]
  /** spawn → request received, of `node -e` doing one `http.get`. */
  nodeRequestMs: number[]
  /** spawn → request received, of the stack's floor: @actions/core and undici loaded, one input, one request. */
  floorRequestMs: number[]
  /** The floor's bundle, bytes. */
  floorBytes: number
  /** spawn → first request received (the create), of the action with wait: false. */
  actionFirstRequestMs: number[]
  /** spawn → exit of the same runs. */
  actionExitMs: number[]
  /** spawn → exit of the action given no inputs: loads the bundle, fails on the missing api-key. */
  noInputsExitMs: number[]
  rssMethod: string
  rss: RssRun[]
  bundle: BundleFile[]
  machine: string
}

interface Spawned {
  startedAt: number
  exitedAt: number
  code: number | null
  output: string
}

function spawnTimed(command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<Spawned> {
  return new Promise((resolve, reject) => {
    let output = ''
    const startedAt = performance.now()
    const child = spawn(command, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] })
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
    child.once('error', reject)
    child.once('exit', (code) => {
      const exitedAt = performance.now()
      // 'close' comes once the pipes are drained, so `output` is complete.
      child.once('close', () => resolve({ startedAt, exitedAt, code, output }))
    })
  })
}

/** Only what node needs, so nothing from the caller's environment (proxies, NODE_OPTIONS) skews a run. */
export function baseEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG'])
    if (process.env[name] !== undefined) env[name] = process.env[name]
  return env
}

/** The runner's `INPUT_*` variables for a step: action.yml's defaults, then the step's `with:`. */
export function inputEnv(root: string, inputs: Record<string, string>): Record<string, string> {
  const all = { ...inputDefaults(readAction(root), 'ghs_bench_token'), ...inputs }
  return Object.fromEntries(
    Object.entries(all).map(([name, value]) => [`INPUT_${name.replace(/ /g, '_').toUpperCase()}`, value])
  )
}

export async function measureStartup(options: StartupOptions): Promise<StartupResult> {
  const dist = join(options.root, 'dist', 'index.js')
  if (!existsSync(dist)) throw new Error(`${dist} not found: run npm run package first`)
  const temp = mkdtempSync(join(tmpdir(), 'docs-agent-bench-'))
  const runnerTemp = join(temp, 'runner-temp')
  const floor = buildFloor(options.root, join(temp, 'floor'))
  const sim = await AgentApiSimulator.start({ scenario: { runMs: 1500 } })
  const cache = await CacheServiceFake.start()
  try {
    const outputFile = join(temp, 'output')
    const summaryFile = join(temp, 'summary')
    const actionEnv = (inputs: Record<string, string>, runner: Record<string, string> = {}): NodeJS.ProcessEnv => {
      writeFileSync(outputFile, '')
      writeFileSync(summaryFile, '')
      return {
        ...baseEnv(),
        ...inputEnv(options.root, {
          'api-key': 'mint_bench_key',
          'project-id': 'proj_bench',
          prompt: 'Benchmark the start-up',
          'base-url': sim.url,
          ...inputs
        }),
        GITHUB_OUTPUT: outputFile,
        GITHUB_STEP_SUMMARY: summaryFile,
        ...runner
      }
    }
    const node = options.node
    const firstRequestAfter = async (
      count: number,
      run: () => Promise<Spawned>
    ): Promise<{ run: Spawned; firstMs: number }> => {
      const spawned = await run()
      const request = sim.requests[count]
      if (!request) throw new Error(`no request reached the simulator; output:\n${spawned.output}`)
      return { run: spawned, firstMs: request.at - spawned.startedAt }
    }
    const check = (spawned: Spawned, what: string, expected: number): Spawned => {
      if (spawned.code !== expected)
        throw new Error(`${what} exited with ${spawned.code}, expected ${expected}:\n${spawned.output}`)
      return spawned
    }

    const result: StartupResult = {
      runs: options.runs,
      bareExitMs: [],
      nodeRequestMs: [],
      floorRequestMs: [],
      floorBytes: statSync(floor).size,
      actionFirstRequestMs: [],
      actionExitMs: [],
      noInputsExitMs: [],
      rssMethod: '',
      rss: [],
      bundle: analyseBundle(join(options.root, 'dist')),
      machine: machineNote(options.node)
    }
    const kinds: (() => Promise<void>)[] = [
      async () => {
        const run = check(await spawnTimed(node, ['-e', '0'], baseEnv(), temp), 'node -e 0', 0)
        result.bareExitMs.push(run.exitedAt - run.startedAt)
      },
      async () => {
        // agent: false, so no kept-alive socket holds the process open after the answer.
        const script = `require('node:http').get(process.argv[1] + '/bench-ping', { agent: false }, (r) => r.resume())`
        const { firstMs } = await firstRequestAfter(sim.requests.length, async () =>
          check(await spawnTimed(node, ['-e', script, sim.url], baseEnv(), temp), 'node http.get', 0)
        )
        result.nodeRequestMs.push(firstMs)
      },
      async () => {
        const env = { ...baseEnv(), 'INPUT_BASE-URL': sim.url }
        const { firstMs } = await firstRequestAfter(sim.requests.length, async () =>
          check(await spawnTimed(node, [floor], env, temp), 'the stack floor', 0)
        )
        result.floorRequestMs.push(firstMs)
      },
      async () => {
        const { run, firstMs } = await firstRequestAfter(sim.requests.length, async () =>
          check(await spawnTimed(node, [dist], actionEnv({ wait: 'false' }), temp), 'the action (wait: false)', 0)
        )
        result.actionFirstRequestMs.push(firstMs)
        result.actionExitMs.push(run.exitedAt - run.startedAt)
      },
      async () => {
        // The runner still passes action.yml's defaults.
        const env = {
          ...baseEnv(),
          ...inputEnv(options.root, {}),
          GITHUB_OUTPUT: outputFile,
          GITHUB_STEP_SUMMARY: summaryFile
        }
        const run = check(await spawnTimed(node, [dist], env, temp), 'the action without inputs', 1)
        result.noInputsExitMs.push(run.exitedAt - run.startedAt)
      }
    ]
    // Warm the file cache once, then interleave the kinds, rotating their order each round.
    for (const kind of kinds) await kind()
    for (const key of [
      'bareExitMs',
      'nodeRequestMs',
      'floorRequestMs',
      'actionFirstRequestMs',
      'actionExitMs',
      'noInputsExitMs'
    ] as const) {
      result[key] = []
    }
    for (let round = 0; round < options.runs; round++) {
      for (let k = 0; k < kinds.length; k++) await (kinds[(round + k) % kinds.length] as () => Promise<void>)()
    }
    // Untimed (the hooks slow the loading): which chunks the plain run loads.
    const probe = chunkProbe(temp, join(options.root, 'dist'))
    const probed = await spawnTimed(node, [...probe.nodeArgs, dist], actionEnv({ wait: 'false' }), temp)
    check(probed, 'the action (wait: false) under module hooks', 0)
    const atStart = new Set(probe.loaded())
    for (const file of result.bundle) file.loadedAtStart = atStart.has(file.name)

    // Peak RSS of whole runs: bare node; a waited job (create, a poll, outputs, summary); the same
    // with the cache service present, so the step saves its re-run record through @actions/cache;
    // with labels, which loads @actions/github (Octokit's POST goes to the simulator: a 404, a warning).
    // Every waited run has the runner's variables for a record: only the service decides whether it is saved.
    const rssRuns = Math.max(3, Math.min(5, options.runs))
    const peak = peakRss(temp, node)
    result.rssMethod = peak.method
    const waited = { wait: 'true', 'poll-interval': `${WAITED_POLL_MS / 1000}s` }
    let runId = 0
    const runner = (extra: Record<string, string | undefined> = {}): Record<string, string> => {
      const env: Record<string, string | undefined> = {
        // Keys are immutable in the cache service: every run is a run of its own.
        GITHUB_RUN_ID: String(++runId),
        GITHUB_RUN_ATTEMPT: '1',
        GITHUB_JOB: 'docs',
        GITHUB_ACTION: 'docs-agent',
        RUNNER_TEMP: runnerTemp,
        ...extra
      }
      return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined))
    }
    const plans: { label: string; args: string[]; env: () => NodeJS.ProcessEnv; exit: number }[] = [
      { label: 'node -e 0', args: ['-e', '0'], env: baseEnv, exit: 0 },
      {
        label: 'action, wait: true (job of 1.5 s), no cache service',
        args: [dist],
        env: () => actionEnv(waited, runner()),
        exit: 0
      },
      { label: RECORD_RSS_LABEL, args: [dist], env: () => actionEnv(waited, runner(cache.env())), exit: 0 },
      {
        label: 'action, wait: true + labels (loads @actions/github)',
        args: [dist],
        env: () =>
          actionEnv(
            { ...waited, labels: 'docs', 'github-token': 'ghs_bench' },
            runner({ GITHUB_API_URL: `${sim.url}/github` })
          ),
        exit: 0
      },
      {
        // Not a way to run the action (a workflow cannot pass node flags): it shows how much of the
        // peak is V8's optimizing compiler at work on undici's WebAssembly HTTP parser (llhttp).
        label: DIAGNOSTIC_RSS_LABEL,
        args: ['--liftoff-only', dist],
        env: () => actionEnv(waited, runner()),
        exit: 0
      }
    ]
    for (const plan of plans) {
      const run: RssRun = { label: plan.label, kb: [], ms: [], tailMs: [] }
      for (let i = 0; i < rssRuns; i++) {
        const first = sim.requests.length
        const { kb, spawned } = await peak.run(plan.args, plan.env(), plan.label, plan.exit)
        run.kb.push(kb)
        run.ms.push(spawned.exitedAt - spawned.startedAt)
        const lastPoll = sim.requests
          .slice(first)
          .filter((r) => r.operation === 'get')
          .at(-1)
        if (lastPoll) run.tailMs.push(spawned.exitedAt - lastPoll.at)
      }
      result.rss.push(run)
    }
    const saved = cache.entries.filter((e) => e.committed).length
    if (saved !== rssRuns) throw new Error(`${saved} re-run records saved in ${rssRuns} runs with the cache service`)
    const labelled = sim.requests.some((r) => r.rawPath.includes('/github/repos/'))
    if (!labelled) throw new Error('the labels run never reached the simulator: @actions/github was not exercised')
    return result
  } finally {
    await cache.close()
    await sim.close()
    rmSync(temp, { recursive: true, force: true })
  }
}

/** bench/stack-floor.ts bundled by ncc with dist/'s target, as an ES module: the path of its entry. */
function buildFloor(root: string, out: string): string {
  const ncc = join(root, 'node_modules', '@vercel', 'ncc', 'dist', 'ncc', 'cli.js')
  const entry = join(root, 'bench', 'stack-floor.ts')
  execFileSync(process.execPath, [ncc, 'build', entry, '-o', out, '--target', 'es2022', '--quiet'], { cwd: root })
  writeFileSync(join(out, 'package.json'), '{ "type": "module" }\n')
  return join(out, 'index.js')
}

interface PeakRss {
  method: string
  /** Peak RSS (KB) of one run, and the run. */
  run(args: string[], env: NodeJS.ProcessEnv, label: string, exit: number): Promise<{ kb: number; spawned: Spawned }>
}

/** GNU time's %M (maxrss of the child, KB) when /usr/bin/time exists, else a preload reading VmHWM at exit. */
function peakRss(temp: string, node: string): PeakRss {
  const file = join(temp, 'rss')
  if (existsSync('/usr/bin/time')) {
    return {
      method: 'GNU time `/usr/bin/time -f %M` (maximum resident set size of the node process, KB)',
      async run(args, env, label, exit) {
        const spawned = await spawnTimed('/usr/bin/time', ['-f', '%M', '-o', file, node, ...args], env, temp)
        if (spawned.code !== exit) throw new Error(`${label} exited with ${spawned.code}:\n${spawned.output}`)
        return { kb: Number(readFileSync(file, 'utf8').trim().split('\n').pop()), spawned }
      }
    }
  }
  const preload = join(temp, 'rss-preload.cjs')
  writeFileSync(
    preload,
    `process.on('exit', () => { const m = /VmHWM:\\s+(\\d+)/.exec(require('node:fs').readFileSync('/proc/self/status', 'utf8')); require('node:fs').writeFileSync(${JSON.stringify(file)}, m ? m[1] : '0') })\n`
  )
  return {
    method: 'VmHWM of /proc/self/status, read by a `--require` preload at process exit (KB)',
    async run(args, env, label, exit) {
      const spawned = await spawnTimed(node, ['--require', preload, ...args], env, temp)
      if (spawned.code !== exit) throw new Error(`${label} exited with ${spawned.code}:\n${spawned.output}`)
      return { kb: Number(readFileSync(file, 'utf8')), spawned }
    }
  }
}

export function analyseBundle(dir: string): BundleFile[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.js'))
    .sort((a, b) => (a === 'index.js' ? -1 : b === 'index.js' ? 1 : a.localeCompare(b)))
    .map((name) => {
      const path = join(dir, name)
      const text = readFileSync(path, 'utf8')
      return {
        name,
        bytes: statSync(path).size,
        gzipBytes: gzipSync(text).length,
        undiciCopies: text.split('class Agent extends DispatcherBase').length - 1,
        undici6: text.includes('undici.error.UND_ERR'),
        libraries: librariesIn(text),
        loadedAtStart: false
      }
    })
}

function machineNote(node: string): string {
  const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim()
  const cpu = cpus()
  const model = cpu[0]?.model.trim() ?? 'unknown CPU'
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')
  return `Node ${version} running the action and the baselines, on ${process.platform}/${process.arch}, ${cpu.length} × ${model}, load average ${load} when the bench started`
}

export interface StartupSummary {
  bareMs: number
  nodeRequestMs: number
  floorMs: number
  actionFirstRequestMs: number
  actionExitMs: number
  noInputsMs: number
  /** Action first request − node http.get request. */
  overNodeRequestMs: number
  /** Action first request − the stack floor's request: the action's own overhead. */
  overFloorMs: number
  /** Largest peak of the action's runs that save no re-run record. */
  peakRssKb: number
  /** Largest peak of the runs that save one. */
  recordPeakRssKb: number
}

/**
 * The action's first request less the floor's, round by round: both run in the same round, so a
 * slow spell of the shared cores slows both, and the spread of these shows how far to trust the
 * difference of the medians that the budget judges.
 */
export function overheadPerRound(result: StartupResult): number[] {
  return result.actionFirstRequestMs.map((ms, round) => ms - (result.floorRequestMs[round] ?? Number.NaN))
}

export function summarizeStartup(result: StartupResult): StartupSummary {
  const bareMs = median(result.bareExitMs)
  const nodeRequestMs = median(result.nodeRequestMs)
  const actionFirstRequestMs = median(result.actionFirstRequestMs)
  const floorMs = median(result.floorRequestMs)
  return {
    bareMs,
    nodeRequestMs,
    floorMs,
    actionFirstRequestMs,
    actionExitMs: median(result.actionExitMs),
    noInputsMs: median(result.noInputsExitMs),
    overNodeRequestMs: actionFirstRequestMs - nodeRequestMs,
    overFloorMs: actionFirstRequestMs - floorMs,
    peakRssKb: Math.max(
      ...result.rss.filter((r) => r.label.startsWith('action') && r.label !== RECORD_RSS_LABEL).flatMap((r) => r.kb)
    ),
    recordPeakRssKb: Math.max(...(result.rss.find((r) => r.label === RECORD_RSS_LABEL)?.kb ?? []))
  }
}
