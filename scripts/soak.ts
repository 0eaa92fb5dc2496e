/**
 * `npm run soak`: a seeded chaos soak of the built action (`dist/index.js`), run as the runner runs
 * it, against the Agent API simulator and, for re-runs, the fake Actions cache service.
 *
 * Run `index` of a campaign is a fast-check property over the plans of its main fault (the fault
 * classes come round in turn, scripts/soak/plan.ts), with its own seed drawn from the campaign's;
 * the invariants (scripts/soak/invariants.ts) are checked once its attempts are over. A run that
 * breaks one is shrunk by fast-check to the smallest plan that still breaks it, and printed with the
 * command that replays it, by seed and fast-check's path, with its full log.
 *
 *   node build/scripts/soak.js [--seed N] [--runs N] [--seconds N] [--concurrency N] [--quick]
 *                              [--shrink-seconds N]
 *   node build/scripts/soak.js --seed N --replay INDEX [--path PATH] [--quick]
 */
import { resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import fc from 'fast-check'
import { checkGroup, signalNote, type RunReport, type Violation } from './soak/invariants.js'
import { FAULT_CLASSES, planArb, type RunPlan } from './soak/plan.js'
import { runGroup, type GroupRun } from './soak/run.js'

export { FAULT_CLASSES }

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

/** A run that broke an invariant, shrunk: the smallest plan that still breaks one, and its path. */
export interface Failure {
  index: number
  seed: number
  path: string
  shrinks: number
  plan: RunPlan
  violations: Violation[]
}

export interface SoakReport {
  seed: number
  quick: boolean
  /** Each run as first drawn. */
  runs: RunReport[]
  violations: Violation[]
  failures: Failure[]
  elapsedMs: number
}

/** The fast-check seed of the campaign's run `index`. */
export function runSeed(campaign: number, index: number): number {
  return (campaign * 1000 + index) % 2 ** 31
}

/** Run `index`'s property: a plan of its main fault holds every invariant. `checked` sees every run of it. */
function property(index: number, seed: number, quick: boolean, checked: (group: GroupRun, report: RunReport) => void) {
  return fc.asyncProperty(planArb(index, quick), async (drawn) => {
    const group = await runGroup({ ...drawn, seed })
    const report = checkGroup(group)
    checked(group, report)
    return report.violations.length === 0
  })
}

/** One run: drawn, checked and, when it breaks an invariant, shrunk. */
async function runOne(
  index: number,
  options: SoakOptions,
  log: (line: string) => void
): Promise<{ report: RunReport; failure?: Failure }> {
  const seed = runSeed(options.seed, index)
  const shrinkSeconds = options.shrinkSeconds ?? 600
  let drawn: RunReport | undefined
  let smallest: RunReport | undefined
  const details = await fc.check(
    property(index, seed, options.quick ?? false, (_group, report) => {
      if (drawn)
        log(
          `    shrinking #${index}: ${report.violations.length > 0 ? 'fails' : 'holds'} with ${describePlan(report.plan)}`
        )
      drawn ??= report
      if (report.violations.length > 0) smallest = report
    }),
    // Without time to shrink, fast-check stops at the failure; else shrinking stops at the limit.
    {
      seed,
      numRuns: 1,
      ...(shrinkSeconds > 0 ? { interruptAfterTimeLimit: shrinkSeconds * 1000 } : { endOnFailure: true })
    }
  )
  if (!drawn) throw new Error(`run #${index} did not run`, { cause: details.errorInstance })
  if (!details.failed || !smallest) return { report: drawn }
  const path = details.counterexamplePath ?? '0'
  const failure = {
    index,
    seed,
    path,
    shrinks: details.numShrinks,
    plan: smallest.plan,
    violations: smallest.violations
  }
  return { report: drawn, failure }
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
      const { report: run, failure } = await runOne(index, options, log)
      report.runs.push(run)
      report.violations.push(...run.violations)
      log(runLine(index, run))
      for (const violation of run.violations) log(violationLine(violation))
      if (failure) {
        report.failures.push(failure)
        log(`  smallest failing plan after ${failure.shrinks} shrinks: ${describePlan(failure.plan)}`)
        for (const violation of failure.violations) log(violationLine(violation))
        log(`    replay: ${replayCommand(report, failure)}`)
      }
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker))
  report.elapsedMs = performance.now() - started
  return report
}

function replayCommand(campaign: { seed: number; quick: boolean }, f: Pick<Failure, 'index' | 'path'>): string {
  return `node build/scripts/soak.js --seed ${campaign.seed} --replay ${f.index} --path ${f.path}${campaign.quick ? ' --quick' : ''}`
}

function violationLine(v: Violation): string {
  const where = v.attempt === undefined ? '' : ` attempt ${v.attempt}`
  return `  VIOLATION seed ${v.seed}${where}, invariant ${v.invariant}: ${v.what}`
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
  if (report.failures.length > 0) {
    lines.push('', 'smallest failing plans:')
    for (const f of report.failures)
      lines.push(`  #${f.index} after ${f.shrinks} shrinks: ${describePlan(f.plan)}`, `    ${replayCommand(report, f)}`)
  }
  return lines.join('\n')
}

/**
 * One run again, from its seed and fast-check's path (the drawn plan is path 0), with everything
 * it did: the plan, each attempt's log, requests, outputs and summary.
 */
export async function replay(
  campaign: number,
  index: number,
  path: string,
  quick: boolean,
  log: (line: string) => void
): Promise<RunReport> {
  const seed = runSeed(campaign, index)
  let replayed: RunReport | undefined
  // fast-check goes on past the path's value when it holds: only that first value is run.
  const logged = fc.asyncProperty(planArb(index, quick), async (drawn) => {
    if (replayed) return true
    const group = await runGroup({ ...drawn, seed })
    replayed = checkGroup(group)
    logGroup(group, replayed, log)
    return true
  })
  const details = await fc.check(logged, { seed, path, numRuns: 1 })
  if (!replayed) throw new Error(`path ${path} replayed nothing`, { cause: details.errorInstance })
  return replayed
}

function logGroup(group: GroupRun, report: RunReport, log: (line: string) => void): void {
  log(`plan: ${JSON.stringify(group.plan)}`)
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
  log(report.violations.length === 0 ? '\nno violation' : `\n${report.violations.map(violationLine).join('\n')}`)
}

async function cli(): Promise<number> {
  const { values } = parseArgs({
    options: {
      seed: { type: 'string' },
      runs: { type: 'string' },
      seconds: { type: 'string' },
      concurrency: { type: 'string' },
      'shrink-seconds': { type: 'string' },
      replay: { type: 'string' },
      path: { type: 'string', default: '0' },
      quick: { type: 'boolean', default: false }
    }
  })
  const whole = (name: keyof typeof values): number | undefined => {
    const raw = values[name]
    if (typeof raw !== 'string') return undefined
    const n = Number(raw)
    if (raw === '' || !Number.isInteger(n) || n < 0) throw new Error(`--${name} needs a whole number, not "${raw}"`)
    return n
  }
  const log = (line: string): void => console.log(line)
  const options: SoakOptions = { seed: whole('seed') ?? Date.now() % 1_000_000, quick: values.quick }
  const index = whole('replay')
  if (index !== undefined) {
    const report = await replay(options.seed, index, values.path, values.quick, log)
    return report.violations.length > 0 ? 1 : 0
  }
  options.runs = whole('runs')
  options.seconds = whole('seconds')
  options.concurrency = whole('concurrency')
  options.shrinkSeconds = whole('shrink-seconds')
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
