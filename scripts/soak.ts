/**
 * `npm run soak -- [--seed N] [--runs N] [--seconds N] [--concurrency N] [--shrink-seconds N] [--quick]`: a
 * chaos soak of the built action. Run `index` of a campaign is a fast-check property, with a seed of its
 * own, over the plans of its main fault (soak/plan.ts), run (soak/run.ts) and checked (soak/invariants.ts);
 * a run that breaks an invariant is shrunk to its smallest failing plan and reported by fast-check with the
 * command that replays it (`--seed N --replay INDEX --path PATH [--quick]`).
 */
import { resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import fc from 'fast-check'
import { check, ending } from './soak/invariants.js'
import { FAULT_CLASSES, planArb } from './soak/plan.js'
import { runPlan, type Run } from './soak/run.js'

export { FAULT_CLASSES }

// The same seed plans the same runs: at most `runs`, none started after `seconds` (180), `concurrency` (2) at a
// time; `quick`: the slice's shorter jobs and timeouts; a failing run shrinks for `shrinkSeconds` (600; 0: none).
export interface SoakOptions {
  seed: number
  runs?: number
  seconds?: number
  concurrency?: number
  quick?: boolean
  shrinkSeconds?: number
  log?: (line: string) => void
}

/** A run as first drawn, the fault classes it met and its violations; fast-check's report if it failed. */
export type SoakRun = Run & { faults: string[]; violations: string[]; failure?: string }

/** Run `index`: drawn, checked and shrunk if it fails; or, given a path (the drawn plan is 0), that plan alone. */
async function runOne(index: number, options: SoakOptions, path?: string): Promise<SoakRun> {
  const { quick = false, shrinkSeconds = 600, log = console.log } = options
  const seed = (options.seed * 1000 + index) % 2 ** 31
  let drawn: SoakRun | undefined
  const property = fc.asyncProperty(planArb(index, quick), async (plan) => {
    const run = await runPlan(plan, seed)
    const violations = check(run)
    if (path !== undefined) for (const a of run.attempts) log(`=== attempt ${a.n}\n${a.exit.stdout}${a.exit.stderr}`)
    const faults = run.attempts.flatMap((a) => a.requests.flatMap((r) => r.cls ?? []))
    drawn ??= { ...run, faults: [...new Set(plan.refused ? ['refused', ...faults] : faults)].sort(), violations }
    // fast-check's report shows the error's stack: here, the violations alone.
    if (violations.length > 0) throw Object.assign(new Error(), { stack: violations.join('\n') })
  })
  // Without time to shrink (or replaying), fast-check stops at the failure; else shrinking stops at the limit.
  const settings = { seed, numRuns: 1, includeErrorInReport: true, ...(path !== undefined && { path }) }
  const limit = shrinkSeconds > 0 && path === undefined
  const ending = limit ? { interruptAfterTimeLimit: shrinkSeconds * 1000 } : { endOnFailure: true }
  const details = await fc.check(property, { ...settings, ...ending })
  if (!drawn) throw new Error(`run #${index} did not run`, { cause: details.errorInstance })
  if (!details.failed) return drawn
  const replay = `--seed ${options.seed} --replay ${index} --path ${details.counterexamplePath ?? '0'}`
  const command = `node build/scripts/soak.js ${replay}${quick ? ' --quick' : ''}`
  return { ...drawn, failure: `${fc.defaultReportMessage(details)}\nreplay: ${command}` }
}

/** The campaign: runs 0, 1, 2… while the count and the time allow, one line each. */
export async function soak(options: SoakOptions): Promise<SoakRun[]> {
  const { runs = Number.POSITIVE_INFINITY, seconds = 180, concurrency = 2, log = console.log } = options
  const started = performance.now()
  const done: SoakRun[] = []
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < runs && performance.now() - started < seconds * 1000) {
      const index = next++
      const run = await runOne(index, options)
      done.push(run)
      const outcomes = run.attempts.map((a) => `${ending(a) ?? 'unknown'}:${a.exit.code ?? 'signal'}`).join(' → ')
      const what = `${run.plan.mode}, ends ${run.plan.end}; ${run.faults.join(',') || 'no faults'} ⇒ ${outcomes}`
      log(`${run.failure ? 'FAIL' : 'ok  '} #${index} ${what}${run.failure ? `\n${run.failure}` : ''}`)
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker))
  return done
}

async function cli(): Promise<number> {
  const text = { type: 'string' } as const
  const flags = { seed: text, runs: text, seconds: text, concurrency: text, 'shrink-seconds': text, replay: text }
  const { values } = parseArgs({ options: { ...flags, path: text, quick: { type: 'boolean' } } })
  const n: Partial<Record<keyof typeof flags, number>> = {}
  for (const name of Object.keys(flags) as (keyof typeof flags)[]) {
    const raw = values[name]
    if (raw !== undefined && !/^\d+$/.test(raw)) throw new Error(`--${name} needs a whole number, not "${raw}"`)
    if (raw !== undefined) n[name] = Number(raw)
  }
  const seed = n.seed ?? Date.now() % 1_000_000
  const options = { ...n, seed, shrinkSeconds: n['shrink-seconds'], quick: values.quick }
  console.log(`soak: seed ${seed}${options.quick ? ', quick' : ''}`)
  if (n.replay !== undefined) {
    const { failure } = await runOne(n.replay, options, values.path ?? '0')
    console.log(failure ?? 'no violation')
    return failure ? 1 : 0
  }
  const runs = await soak(options)
  const failed = runs.filter((run) => run.failure).length
  const unmet = FAULT_CLASSES.filter((cls) => !runs.some((run) => run.faults.includes(cls)))
  console.log(`\n${runs.length} runs, ${failed} failed; fault classes not met: ${unmet.join(', ') || 'none'}`)
  return failed > 0 ? 1 : 0
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await cli()
}
