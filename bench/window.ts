// The start-up window: how long after the runner starts dist/index.js a cancel (SIGTERM) still
// kills it outright, with no summary, because src/index.ts has not installed its handlers yet.
// Found from outside, by signalling real processes at increasing delays after the spawn.
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { AgentApiSimulator } from '../simulator/agent-api.js'
import { baseEnv, inputEnv } from './startup.js'

/** The coarse steps of the search (ms); the last one is then walked again 1 ms at a time. */
export const WINDOW_STEP_MS = 5
const GIVE_UP_MS = 1000

/**
 * The floor under any action: an ES module whose first statement installs the handler, which
 * writes a summary and exits 1 as the action would. What is left is Node's own start-up.
 */
const FLOOR_MODULE = `import { writeFileSync } from 'node:fs'
process.on('SIGTERM', () => {
  writeFileSync(process.env.GITHUB_STEP_SUMMARY, 'cancelled')
  process.exit(1)
})
setTimeout(() => undefined, 60_000)
`

export type WindowTarget = 'action' | 'floor'

export interface WindowResult {
  target: WindowTarget
  /** The Node.js binary and its version. */
  node: string
  version: string
  /** Per run: the delay of the earliest SIGTERM that the step turned into a summary and exit 1 (ms). */
  windowMs: number[]
  /** Processes spawned in all. */
  spawns: number
}

interface Outcome {
  /** Spawn → SIGTERM sent (ms). */
  sentMs: number
  handled: boolean
}

export async function measureWindow(options: {
  root: string
  /** The action's runtime first. */
  nodes: { path: string; version: string }[]
  runs: number
}): Promise<WindowResult[]> {
  const dist = join(options.root, 'dist', 'index.js')
  const temp = mkdtempSync(join(tmpdir(), 'docs-agent-window-'))
  // A job that outlasts any run: a handled signal always ends the step as cancelled, exit 1.
  const sim = await AgentApiSimulator.start({ scenario: { runMs: 10 * 60_000 }, rateLimit: 100_000 })
  const summaryFile = join(temp, 'summary')
  const env = {
    ...baseEnv(),
    ...inputEnv(options.root, {
      'api-key': 'mint_bench_window_key',
      'project-id': 'proj_bench',
      prompt: 'Benchmark the start-up window',
      'base-url': sim.url
    }),
    GITHUB_OUTPUT: join(temp, 'output'),
    GITHUB_STEP_SUMMARY: summaryFile
  }

  const floor = join(temp, 'floor.mjs')
  writeFileSync(floor, FLOOR_MODULE)
  const scripts: Record<WindowTarget, string> = { action: dist, floor }

  const signalAt = (node: string, target: WindowTarget, delayMs: number): Promise<Outcome> => {
    writeFileSync(summaryFile, '')
    writeFileSync(env.GITHUB_OUTPUT, '')
    return new Promise((resolve, reject) => {
      let output = ''
      let sentMs: number | undefined
      const startedAt = performance.now()
      const child = spawn(node, [scripts[target]], { env, cwd: temp, stdio: ['ignore', 'pipe', 'pipe'] })
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
      // The spawn itself takes some of the delay: the timer is set for what is left of it.
      const timer = setTimeout(
        () => {
          sentMs = performance.now() - startedAt
          child.kill('SIGTERM')
        },
        Math.max(0, delayMs - (performance.now() - startedAt))
      )
      child.once('error', reject)
      child.once('close', (code, signal) => {
        clearTimeout(timer)
        const summary = readFileSync(summaryFile, 'utf8')
        if (sentMs === undefined) reject(new Error(`${target} ended (${code}) before the signal:\n${output}`))
        else if (signal === 'SIGTERM' && summary === '') resolve({ sentMs, handled: false })
        else if (code === 1 && summary !== '') resolve({ sentMs, handled: true })
        else reject(new Error(`unexpected end after SIGTERM at ${sentMs.toFixed(1)} ms: ${code} ${signal}\n${output}`))
      })
    })
  }

  /**
   * The earliest handled SIGTERM: from a delay that is killed, coarse steps up to the first handled
   * one, then 1 ms steps from the last killed one. The search starts a little below the previous
   * run's result (or at 0), stepping down first if that is already handled.
   */
  const windowOf = async (result: WindowResult): Promise<number> => {
    const attempt = (delayMs: number): Promise<Outcome> => {
      if (delayMs > GIVE_UP_MS)
        throw new Error(`${result.node}: still killed by a SIGTERM ${GIVE_UP_MS} ms after the spawn`)
      result.spawns++
      return signalAt(result.node, result.target, delayMs)
    }
    const previous = result.windowMs.at(-1)
    let delay = previous === undefined ? 0 : Math.max(0, Math.floor(previous) - 2 * WINDOW_STEP_MS)
    for (;;) {
      const outcome = await attempt(delay)
      if (!outcome.handled) break
      if (delay === 0) return outcome.sentMs
      delay = Math.max(0, delay - 2 * WINDOW_STEP_MS)
    }
    do {
      delay += WINDOW_STEP_MS
    } while (!(await attempt(delay)).handled)
    for (let fine = delay - WINDOW_STEP_MS + 1; ; fine++) {
      const outcome = await attempt(fine)
      if (outcome.handled) return outcome.sentMs
    }
  }

  try {
    // The floor on the action's runtime (the first binary) only: it says how much of the window is Node's.
    const results: WindowResult[] = options.nodes.flatMap((n, i) =>
      (i === 0 ? (['action', 'floor'] as const) : (['action'] as const)).map((target) => ({
        target,
        node: n.path,
        version: n.version,
        windowMs: [],
        spawns: 0
      }))
    )
    // Warm the file cache, then take turns so every kind meets the same machine load.
    for (const result of results) await signalAt(result.node, result.target, 200)
    for (let run = 0; run < options.runs; run++) {
      for (const result of results) result.windowMs.push(await windowOf(result))
    }
    return results
  } finally {
    await sim.close()
    rmSync(temp, { recursive: true, force: true })
  }
}
