/**
 * `npm run soak`: a seeded chaos soak of the built action (`dist/index.js`), run as the runner runs
 * it, against the Agent API simulator and, for re-runs, the fake Actions cache service.
 *
 * Run `index` of a campaign is a fast-check property over the plans of its main fault (the fault
 * classes come round in turn, scripts/soak/plan.ts), with its own seed drawn from the campaign's;
 * the invariants (scripts/soak/invariants.ts) are checked once its attempts are over. A run that
 * breaks one is shrunk by fast-check to the smallest plan that still breaks it and reported by
 * fast-check, with the command that replays it by seed and path with its full log. Usage: `--help`.
 */
import { resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import fc from 'fast-check'
import { checkGroup, signalNote, type RunReport, type Violation } from './soak/invariants.js'
import { FAULT_CLASSES, planArb } from './soak/plan.js'
import { runGroup, type GroupRun } from './soak/run.js'

export { FAULT_CLASSES }

const USAGE = `node build/scripts/soak.js [--seed N] [--runs N] [--seconds N] [--concurrency N] [--quick] [--shrink-seconds N]
node build/scripts/soak.js --seed N --replay INDEX [--path PATH] [--quick]`

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
  /** How long fast-check may shrink a failing run (default 600 s); 0 reports it as drawn. */
  shrinkSeconds?: number
  /** Where progress and violations go, one line at a time (default: stdout). */
  log?: (line: string) => void
}

export interface SoakReport {
  seed: number
  quick: boolean
  /** Each run as first drawn. */
  runs: RunReport[]
  violations: Violation[]
  /** fast-check's report of each run that broke an invariant, shrunk, with its replay command. */
  failures: string[]
  elapsedMs: number
}

/** The fast-check seed of the campaign's run `index`. */
export function runSeed(campaign: number, index: number): number {
  return (campaign * 1000 + index) % 2 ** 31
}

/**
 * Run `index`: drawn, checked and, when it breaks an invariant, shrunk; or, given fast-check's path
 * of one of its plans (the drawn plan is path 0), that plan alone, logged in full.
 */
async function runOne(index: number, options: SoakOptions, path?: string) {
  const { quick = false, shrinkSeconds = 600 } = options
  const log = options.log ?? ((line: string) => console.log(line))
  const seed = runSeed(options.seed, index)
  let drawn: RunReport | undefined
  const property = fc.asyncProperty(planArb(index, quick), async (plan) => {
    if (path !== undefined && drawn) return true
    const group = await runGroup({ ...plan, seed })
    const report = checkGroup(group)
    if (path !== undefined) logGroup(group, report, log)
    else if (drawn) log(`    shrinking #${index}: ${report.violations.length > 0 ? 'fails' : 'holds'}`)
    drawn ??= report
    return report.violations.length === 0
  })
  // Without time to shrink, fast-check stops at the failure; else shrinking stops at the limit.
  const limit = shrinkSeconds > 0 && path === undefined
  const ending = limit ? { interruptAfterTimeLimit: shrinkSeconds * 1000 } : { endOnFailure: true }
  const details = await fc.check(property, { seed, numRuns: 1, ...(path !== undefined && { path }), ...ending })
  if (!drawn) throw new Error(`run #${index} did not run`, { cause: details.errorInstance })
  if (!details.failed || path !== undefined) return { report: drawn }
  const replay = `node build/scripts/soak.js --seed ${options.seed} --replay ${index} --path ${details.counterexamplePath ?? '0'}`
  return { report: drawn, failure: `${fc.defaultReportMessage(details)}\nreplay: ${replay}${quick ? ' --quick' : ''}` }
}

export async function soak(options: SoakOptions): Promise<SoakReport> {
  const { runs = Number.POSITIVE_INFINITY, seconds = 180, concurrency = 2, quick = false } = options
  const log = options.log ?? ((line: string) => console.log(line))
  const started = performance.now()
  const report: SoakReport = { seed: options.seed, quick, runs: [], violations: [], failures: [], elapsedMs: 0 }
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < runs && performance.now() - started < seconds * 1000) {
      const index = next++
      const { report: run, failure } = await runOne(index, options)
      report.runs.push(run)
      report.violations.push(...run.violations)
      const outcomes = run.attempts.map((a) => `${a.outcome}:${a.code ?? 'signal'}`).join(' → ')
      const status = run.violations.length > 0 ? 'FAIL' : 'ok  '
      log(
        `${status} #${index} seed ${run.seed} ${run.plan.mode}, ends ${run.plan.end}; ${run.faults.join(',') || 'no faults'} ⇒ ${outcomes} (${(run.durationMs / 1000).toFixed(1)}s)`
      )
      for (const violation of run.violations) log(violationLine(violation))
      if (failure) report.failures.push(failure)
      if (failure) log(failure)
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker))
  report.elapsedMs = performance.now() - started
  return report
}

function violationLine(v: Violation): string {
  const where = v.attempt === undefined ? '' : ` attempt ${v.attempt}`
  return `  VIOLATION seed ${v.seed}${where}, invariant ${v.invariant}: ${v.what}`
}

function tally(values: Iterable<string>): string {
  const counts = new Map<string, number>()
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1)
  const sorted = [...counts.entries()].sort(([a], [b]) => a.localeCompare(b))
  return sorted.map(([value, count]) => `${value} ${count}`).join(' · ')
}

/** The end-of-campaign table: what the runs met, and what they broke. */
export function formatReport(report: SoakReport): string {
  const { runs } = report
  const attempts = runs.flatMap((r) => r.attempts)
  const sent = attempts.flatMap((a) => (a.signal?.sent ? [a.signal] : []))
  const later = runs.flatMap((r) => r.attempts.slice(1))
  const kills = runs.flatMap((r) => r.startupKills)
  const defaulted = runs.flatMap((r) => Object.entries(r.plan.defaulted).map(([name, how]) => `${name} ${how}`))
  const rows = {
    campaign: `seed ${report.seed}${report.quick ? ' (quick)' : ''}, ${(report.elapsedMs / 1000).toFixed(0)} s`,
    runs: `${runs.length} (${attempts.length} action processes)`,
    'by mode': tally(runs.map((r) => r.plan.mode + (r.plan.wait ? '' : ' wait:false'))),
    'by end': tally(runs.map((r) => r.plan.end)),
    'by fault class': tally(runs.flatMap((r) => (r.faults.length > 0 ? r.faults : ['none']))),
    'fault classes not met': FAULT_CLASSES.filter((cls) => !runs.some((r) => r.faults.includes(cls))).join(', '),
    'by fail-on': tally(runs.map((r) => r.plan.failOn.replace(/\s+/g, ' '))),
    'inputs at their default': tally(defaulted),
    outcomes: tally(attempts.map((a) => a.outcome)),
    'signals sent': `${sent.length}: ${tally(sent.map((s) => `${s.name} at ${s.moment}`))}`,
    're-runs': `${later.length} later attempts, ${later.filter((a) => a.resumed).length} resumed the job, ${later.filter((a) => a.posted).length} posted`,
    'create answers raced by a signal': `${runs.reduce((sum, r) => sum + r.racedAnswers.raced, 0)} (job-id left empty in ${runs.reduce((sum, r) => sum + r.racedAnswers.lost, 0)})`,
    'killed during Node start-up': `${kills.length}${kills.map((k) => `, at ${k.afterMs} ms (handler at ${k.handlerAfterMs ?? 'none'})`).join('')}`,
    violations: `${report.violations.length} ${tally(report.violations.map((v) => `invariant ${v.invariant}`))}`
  }
  const width = Math.max(...Object.keys(rows).map((name) => name.length))
  const lines = Object.entries(rows).map(([name, value]) => `${name.padEnd(width)}  ${value || 'none'}`)
  return [...lines, ...report.failures].join('\n')
}

function logGroup(group: GroupRun, report: RunReport, log: (line: string) => void): void {
  log(`plan: ${JSON.stringify(group.plan)}`)
  for (const a of group.attempts) {
    const signal = a.signal ? `; ${a.signal.sentAt === undefined ? `${a.signal.name} not sent` : signalNote(a)}` : ''
    log(
      `\n=== attempt ${a.attempt}: exit ${a.exit.code ?? a.exit.signal ?? ''} after ${Math.round(a.exit.at - a.spawnedAt)} ms${signal}`
    )
    log(`--- stdout ---\n${a.exit.stdout.trimEnd()}`)
    if (a.exit.stderr.trim()) log(`--- stderr ---\n${a.exit.stderr.trimEnd()}`)
    log('--- requests (ms after spawn) ---')
    for (const rec of a.requests) {
      const cls = group.faultOf.get(rec)?.planned.cls
      const answer = rec.answeredStatus ?? 'no answer'
      log(`  +${Math.round(rec.at - a.spawnedAt)} ${rec.method} ${rec.rawPath} -> ${answer}${cls ? ` [${cls}]` : ''}`)
    }
    log(`--- cache service: ${a.cacheRequests.map((r) => `${r.operation} ${r.status ?? '-'}`).join(', ')}`)
    log(`--- outputs: ${JSON.stringify(a.exit.outputs)}\n--- summary ---\n${a.exit.summary.trim()}`)
  }
  const jobs = group.jobs.map((j) => ({ id: j.job.id, status: j.job.status, prompts: j.prompts.length }))
  log(`\njobs in the simulator: ${JSON.stringify(jobs)}`)
  log(report.violations.length === 0 ? '\nno violation' : `\n${report.violations.map(violationLine).join('\n')}`)
}

async function cli(): Promise<number> {
  const whole = { type: 'string' } as const
  const { values } = parseArgs({
    options: {
      seed: whole,
      runs: whole,
      seconds: whole,
      concurrency: whole,
      'shrink-seconds': whole,
      replay: whole,
      path: { type: 'string', default: '0' },
      quick: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false }
    }
  })
  if (values.help) {
    console.log(USAGE)
    return 0
  }
  const number = (name: 'seed' | 'runs' | 'seconds' | 'concurrency' | 'shrink-seconds' | 'replay') => {
    const raw = values[name]
    const n = Number(raw)
    if (raw !== undefined && (raw === '' || !Number.isInteger(n) || n < 0))
      throw new Error(`--${name} needs a whole number, not "${raw}"`)
    return raw === undefined ? undefined : n
  }
  const options: SoakOptions = { seed: number('seed') ?? Date.now() % 1_000_000, quick: values.quick }
  const index = number('replay')
  if (index !== undefined) return (await runOne(index, options, values.path)).report.violations.length > 0 ? 1 : 0
  Object.assign(options, { runs: number('runs'), seconds: number('seconds'), concurrency: number('concurrency') })
  options.shrinkSeconds = number('shrink-seconds')
  console.log(`soak: seed ${options.seed}, ${options.runs ?? 'unbounded'} runs${options.quick ? ', quick' : ''}`)
  const report = await soak(options)
  console.log(`\n${formatReport(report)}`)
  return report.violations.length > 0 ? 1 : 0
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await cli()
}
