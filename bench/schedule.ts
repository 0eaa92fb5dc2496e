// The polling benchmark: drives the action's own wait loop (`waitForJob` in src/agent-api/wait.ts, which
// asks `nextPollDelay` in src/agent-api/schedule.ts for every delay) on a virtual clock, so an hour-long
// job takes microseconds and nothing ever really waits.
import { inputDefaults, readAction } from '../scripts/action-metadata.js'
import type { Clock } from '../src/base/clock.js'
import { parseDuration } from '../src/base/duration.js'
import { ApiError } from '../src/agent-api/errors.js'
import type { AgentJob } from '../src/agent-api/job.js'
import { GROWTH, JITTER, type PollSchedule } from '../src/agent-api/schedule.js'
import { waitForJob } from '../src/agent-api/wait.js'
import { deriveSeed, mean, seededRandom, summarize, type Summary } from './stats.js'

const SECOND = 1000
const MINUTE = 60 * SECOND

/** Job durations of the tables (nominal; each run spreads around it, see `jobDuration`). */
export const DURATIONS_MS = [
  10 * SECOND,
  30 * SECOND,
  MINUTE,
  2 * MINUTE,
  5 * MINUTE,
  10 * MINUTE,
  30 * MINUTE,
  60 * MINUTE
]

/** The deadline of every virtual wait: far beyond the longest job, so it never interferes. */
const DEADLINE_MS = 24 * 60 * MINUTE

export interface Strategy {
  id: string
  label: string
  schedule: PollSchedule
  /** A fixed poller: the same loop with jitter switched off (random() = 0.5 is a factor of 1). */
  fixed: boolean
}

// action.yml is the one source of the inputs' defaults; no token is used here.
const INPUT_DEFAULTS = inputDefaults(readAction(), '')

function durationDefault(name: 'poll-interval' | 'max-poll-interval'): number {
  const ms = parseDuration(INPUT_DEFAULTS[name] ?? '')
  if (ms === undefined) throw new Error(`action.yml: the default of ${name} is not a duration`)
  return ms
}

/** The action's defaults, read from action.yml so the benchmark follows any change. */
export const DEFAULT_SCHEDULE: PollSchedule = {
  initialMs: durationDefault('poll-interval'),
  maxMs: durationDefault('max-poll-interval')
}

const fixedPoller = (seconds: number): Strategy => ({
  id: `fixed-${seconds}s`,
  label: `fixed ${seconds} s`,
  schedule: { initialMs: seconds * SECOND, maxMs: seconds * SECOND },
  fixed: true
})

export const STRATEGIES: Strategy[] = [
  { id: 'default', label: 'default', schedule: DEFAULT_SCHEDULE, fixed: false },
  fixedPoller(5),
  fixedPoller(10),
  fixedPoller(30)
]

/** 429 answers in the second table. */
export interface RateLimitFaults {
  /** Share of polls answered 429. */
  share: number
  /** Retry-After, whole seconds drawn uniformly in [minS, maxS] (the header's delta-seconds form). */
  minS: number
  maxS: number
}

export const RATE_LIMIT: RateLimitFaults = { share: 0.2, minS: 3, maxS: 20 }

/**
 * The duration of one run's job around the nominal `nominalMs`: uniform in ±min(15 s, 20 %).
 * Real jobs never last a round number of seconds, and a fixed poller's lag depends only on
 * where the job's end falls between two of its polls: ±15 s spans a whole period of the 5, 10
 * and 30 s pollers from 2 min up, so their phase is uniform there; short jobs spread by ±20 %.
 */
export function jobDuration(nominalMs: number, u: number): number {
  const spread = Math.min(15 * SECOND, 0.2 * nominalMs)
  return nominalMs + (2 * u - 1) * spread
}

export interface RunResult {
  /** From the job's end to the first poll that saw it ended (ms). */
  lagMs: number
  /** getJob calls, 429-answered ones included. */
  gets: number
  /** Polls made before the Retry-After of the previous answer had passed (must be 0). */
  early: number
  rateLimited: number
  /** Shortest margin between a Retry-After deadline and the poll after it (ms); Infinity without 429s. */
  minRetryMarginMs: number
}

const NEVER = new AbortController().signal
/** What the job reads once ended: with a PR link, so the wait does not hold on to read one. */
const COMPLETED: AgentJob = { status: 'completed', prLink: 'https://github.com/acme/docs/pull/1', raw: {} }
const ACTIVE: AgentJob = { status: 'active', raw: {} }

/** One wait of the real loop on a virtual clock, for a job that ends at `jobMs`. */
export async function runOnce(
  strategy: Strategy,
  jobMs: number,
  random: () => number,
  faults?: { spec: RateLimitFaults; random: () => number }
): Promise<RunResult> {
  let now = 0
  let gets = 0
  let early = 0
  let rateLimited = 0
  let retryDeadline = Number.NEGATIVE_INFINITY
  let minRetryMarginMs = Number.POSITIVE_INFINITY
  const clock: Clock = {
    now: () => now,
    sleep: (ms) => {
      now += ms
      return Promise.resolve()
    },
    // The fake getJob answers at once: no request ever runs into its time limit.
    timeout: () => NEVER,
    random: strategy.fixed ? () => 0.5 : random
  }
  // eslint-disable-next-line @typescript-eslint/require-await -- async so a throw is a rejection, as from the real client
  const getJob = async (): Promise<AgentJob> => {
    gets++
    if (retryDeadline > Number.NEGATIVE_INFINITY) {
      if (now < retryDeadline) early++
      minRetryMarginMs = Math.min(minRetryMarginMs, now - retryDeadline)
      retryDeadline = Number.NEGATIVE_INFINITY
    }
    if (faults && faults.random() < faults.spec.share) {
      const seconds = faults.spec.minS + Math.floor(faults.random() * (faults.spec.maxS - faults.spec.minS + 1))
      rateLimited++
      retryDeadline = now + seconds * SECOND
      throw new ApiError('rate-limited', 'answered 429', 429, seconds * SECOND)
    }
    return now >= jobMs ? COMPLETED : ACTIVE
  }
  const end = await waitForJob({
    jobId: 'job_bench',
    getJob,
    schedule: strategy.schedule,
    deadline: DEADLINE_MS,
    pollNow: false,
    notFoundUntil: undefined,
    clock,
    signal: NEVER,
    onPoll: () => undefined,
    onHeartbeat: () => undefined
  })
  if (end.reason !== 'terminal') throw new Error(`virtual wait ended with ${end.reason}`)
  return { lagMs: now - jobMs, gets, early, rateLimited, minRetryMarginMs }
}

export interface Cell {
  strategy: string
  durationMs: number
  runs: number
  lag: Summary
  /** GETs per job. */
  gets: Summary
  early: number
  rateLimited: number
  minRetryMarginMs: number
}

export interface ScheduleOptions {
  runs: number
  seed: number
}

/**
 * Every strategy at every duration, `runs` runs each. The job durations come from one stream
 * per nominal duration, shared by all strategies (each strategy meets the same jobs); the
 * schedule's jitter and the 429s draw from streams of their own.
 */
export async function measure(
  strategies: readonly Strategy[],
  options: ScheduleOptions,
  faults?: RateLimitFaults
): Promise<Cell[]> {
  const cells: Cell[] = []
  for (const durationMs of DURATIONS_MS) {
    const durations = jobDurations(durationMs, options)
    for (const strategy of strategies) {
      const jitter = seededRandom(deriveSeed(options.seed, 'jitter', strategy.id, durationMs, faults ? '429' : ''))
      const faultRandom = seededRandom(deriveSeed(options.seed, '429', strategy.id, durationMs))
      const results: RunResult[] = []
      for (const jobMs of durations) {
        results.push(await runOnce(strategy, jobMs, jitter, faults && { spec: faults, random: faultRandom }))
      }
      cells.push(toCell(strategy.id, durationMs, results))
    }
  }
  return cells
}

function jobDurations(nominalMs: number, options: ScheduleOptions): number[] {
  const random = seededRandom(deriveSeed(options.seed, 'job', nominalMs))
  return Array.from({ length: options.runs }, () => jobDuration(nominalMs, random()))
}

function toCell(strategy: string, durationMs: number, results: readonly RunResult[]): Cell {
  return {
    strategy,
    durationMs,
    runs: results.length,
    lag: summarize(results.map((r) => r.lagMs)),
    gets: summarize(results.map((r) => r.gets)),
    early: results.reduce((sum, r) => sum + r.early, 0),
    rateLimited: results.reduce((sum, r) => sum + r.rateLimited, 0),
    minRetryMarginMs: Math.min(...results.map((r) => r.minRetryMarginMs))
  }
}

export function cellOf(cells: readonly Cell[], strategy: string, durationMs: number): Cell {
  const cell = cells.find((c) => c.strategy === strategy && c.durationMs === durationMs)
  if (!cell) throw new Error(`no cell for ${strategy} at ${durationMs} ms`)
  return cell
}

// ---------------------------------------------------------------------------------------------
// Goals

export interface GoalCheck {
  goal: string
  durationMs: number
  value: string
  limit: string
  pass: boolean
}

/** Lag p95 ≤ max(2 s, 25 % of the job's duration). */
export const lagLimitMs = (durationMs: number): number => Math.max(2 * SECOND, 0.25 * durationMs)
export const LAG_CAP_MS = 10 * SECOND
export const GET_SHARE = 0.55
export const GET_SHARE_FROM_MS = 5 * MINUTE

export function checkGoals(cells: readonly Cell[], strategy = 'default'): GoalCheck[] {
  const checks: GoalCheck[] = []
  for (const durationMs of DURATIONS_MS) {
    const cell = cellOf(cells, strategy, durationMs)
    const limit = Math.min(lagLimitMs(durationMs), LAG_CAP_MS)
    checks.push({
      goal: 'lag p95 ≤ min(max(2 s, 25 %), 10 s)',
      durationMs,
      value: seconds(cell.lag.p95),
      limit: seconds(limit),
      pass: cell.lag.p95 <= limit
    })
  }
  for (const durationMs of DURATIONS_MS.filter((d) => d >= GET_SHARE_FROM_MS)) {
    const own = cellOf(cells, strategy, durationMs).gets.mean
    const fixed5 = cellOf(cells, 'fixed-5s', durationMs).gets.mean
    checks.push({
      goal: 'GETs ≤ 55 % of fixed 5 s',
      durationMs,
      value: `${own.toFixed(1)} (${((100 * own) / fixed5).toFixed(1)} %)`,
      limit: `${(GET_SHARE * fixed5).toFixed(1)} (55 % of ${fixed5.toFixed(1)})`,
      pass: own <= GET_SHARE * fixed5
    })
  }
  return checks
}

export const seconds = (ms: number): string => `${(ms / SECOND).toFixed(2)} s`

// ---------------------------------------------------------------------------------------------
// Exploration: other parameters of the same formula.

export interface Variant {
  id: string
  growth: number
  jitter: number
  initialMs: number
  maxMs: number
}

export const DEFAULT_VARIANT: Variant = { id: 'default', growth: GROWTH, jitter: JITTER, ...DEFAULT_SCHEDULE }

/** A variant as a strategy of the real loop: its constants go to `nextPollDelay` through the schedule. */
const variantStrategy = (v: Variant): Strategy => ({
  id: v.id,
  label: v.id,
  schedule: { initialMs: v.initialMs, maxMs: v.maxMs, growth: v.growth, jitter: v.jitter },
  fixed: false
})

export interface VariantRow {
  variant: Variant
  /** Per table duration: lag p95 and mean GETs. */
  cells: { durationMs: number; lagP95: number; gets: number }[]
  /** Worst lag p95 / its limit over a dense grid of durations (≤ 1 meets the goal everywhere). */
  worstLagRatio: { ratio: number; durationMs: number }
  /** At the table's durations ≥ 5 min: GETs / GETs of the fixed 5 s poller. */
  getShares: { durationMs: number; share: number }[]
  /** Shortest job (10 s steps) from which GETs stay ≤ 55 % of fixed 5 s, up to 60 min. */
  getGoalFromMs: number | undefined
}

/**
 * 60 durations, log-spaced from 5 s to 10 min: the lag goal must hold between table rows too.
 * Past about 1 min every delay is at the cap and the lag's distribution no longer changes with
 * the duration, so longer jobs would only cost time.
 */
export const DENSE_DURATIONS_MS = Array.from({ length: 60 }, (_, i) => Math.round(5 * SECOND * 120 ** (i / 59)))
/** The dense grid's runs per duration, as a multiple of the table's: the worst of 66 noisy p95s leans high. */
export const DENSE_RUNS_FACTOR = 5
/** Runs per step of the break-even scan: a job's GET count varies little, its mean even less. */
export const BREAK_EVEN_RUNS = 50

export async function explore(
  variants: readonly Variant[],
  fixed5Measured: ReadonlyMap<number, number>,
  options: ScheduleOptions
): Promise<VariantRow[]> {
  const rows: VariantRow[] = []
  for (const variant of variants) {
    const strategy = variantStrategy(variant)
    const runAll = async (jobs: readonly number[], random: () => number): Promise<RunResult[]> => {
      const results: RunResult[] = []
      for (const jobMs of jobs) results.push(await runOnce(strategy, jobMs, random))
      return results
    }
    const cells = []
    for (const durationMs of DURATIONS_MS) {
      // The table's jobs and jitter stream: the default variant reproduces the table's default row.
      const random = seededRandom(deriveSeed(options.seed, 'jitter', 'default', durationMs, ''))
      const runs = await runAll(jobDurations(durationMs, options), random)
      cells.push({ durationMs, lagP95: summarize(runs.map((r) => r.lagMs)).p95, gets: mean(runs.map((r) => r.gets)) })
    }
    let worstLagRatio = { ratio: 0, durationMs: 0 }
    const dense = { ...options, runs: DENSE_RUNS_FACTOR * options.runs }
    for (const durationMs of [...DENSE_DURATIONS_MS, ...DURATIONS_MS.filter((d) => d <= 10 * MINUTE)]) {
      const random = seededRandom(deriveSeed(options.seed, 'dense', durationMs))
      const lags = (await runAll(jobDurations(durationMs, dense), random)).map((r) => r.lagMs)
      const ratio = summarize(lags).p95 / Math.min(lagLimitMs(durationMs), LAG_CAP_MS)
      if (ratio > worstLagRatio.ratio) worstLagRatio = { ratio, durationMs }
    }
    const getShares = cells
      .filter((c) => c.durationMs >= GET_SHARE_FROM_MS)
      .map((c) => ({ durationMs: c.durationMs, share: c.gets / (fixed5Measured.get(c.durationMs) ?? Number.NaN) }))
    let getGoalFromMs: number | undefined
    for (let durationMs = MINUTE; durationMs <= 60 * MINUTE; durationMs += 10 * SECOND) {
      const random = seededRandom(deriveSeed(options.seed, 'break-even', durationMs))
      const jobs = jobDurations(durationMs, { ...options, runs: BREAK_EVEN_RUNS })
      const gets = mean((await runAll(jobs, random)).map((r) => r.gets))
      if (gets <= GET_SHARE * fixed5Gets(durationMs)) getGoalFromMs ??= durationMs
      else getGoalFromMs = undefined
    }
    rows.push({ variant, cells, worstLagRatio, getShares, getGoalFromMs })
  }
  return rows
}

export const VARIANTS: Variant[] = [
  DEFAULT_VARIANT,
  { ...DEFAULT_VARIANT, id: 'cap 10.5 s', maxMs: 10_500 },
  { ...DEFAULT_VARIANT, id: 'growth 0.20', growth: 0.2 },
  { ...DEFAULT_VARIANT, id: 'growth 0.25', growth: 0.25 },
  { ...DEFAULT_VARIANT, id: 'growth 0.20, cap 10.5 s', growth: 0.2, maxMs: 10_500 },
  { ...DEFAULT_VARIANT, id: 'growth 0.25, cap 10.5 s', growth: 0.25, maxMs: 10_500 },
  { ...DEFAULT_VARIANT, id: 'growth 0.25, cap 10.5 s, jitter ±5 %', growth: 0.25, maxMs: 10_500, jitter: 0.05 }
]

// ---------------------------------------------------------------------------------------------
// What any schedule must spend: a lower bound on GETs under the lag goal.

/**
 * Fewest GETs that can see a job of `durationMs` end, for any schedule that meets the lag goal
 * at every duration: a job that ends just after a poll at t waits the whole next interval, so
 * that interval may be at most min(max(2 s, 25 % of t), 10 s), stretched by `slack` (1/0.95
 * grants the p95 its 5 %: a lag spread evenly over [0, I] has its p95 at 0.95 I). Taking every
 * interval as long as allowed (greedy) gives the fewest polls.
 */
export function minimumGets(durationMs: number, slack: number): number {
  let t = 0
  let gets = 0
  while (t < durationMs) {
    t += slack * Math.min(lagLimitMs(t), LAG_CAP_MS)
    gets++
  }
  return gets
}

/** GETs of a fixed 5 s poller for a job of `durationMs`, averaged over its phase. */
export const fixed5Gets = (durationMs: number): number => durationMs / (5 * SECOND) + 0.5

/** Shortest job (whole seconds) from which `gets(d)` stays ≤ 55 % of the fixed 5 s poller's up to 2 h. */
export function breakEvenMs(gets: (durationMs: number) => number): number | undefined {
  let since: number | undefined
  for (let d = 10 * SECOND; d <= 120 * MINUTE; d += SECOND) {
    if (gets(d) <= GET_SHARE * fixed5Gets(d)) since ??= d
    else since = undefined
  }
  return since
}

export interface Feasibility {
  rows: { durationMs: number; strict: number; relaxed: number; limit: number; measured: number }[]
  strictFromMs: number | undefined
  relaxedFromMs: number | undefined
}

export function feasibility(cells: readonly Cell[]): Feasibility {
  const relaxed = 1 / 0.95
  return {
    rows: DURATIONS_MS.filter((d) => d >= 5 * 60_000).map((d) => ({
      durationMs: d,
      strict: minimumGets(d, 1),
      relaxed: minimumGets(d, relaxed),
      limit: GET_SHARE * cellOf(cells, 'fixed-5s', d).gets.mean,
      measured: cellOf(cells, 'default', d).gets.mean
    })),
    strictFromMs: breakEvenMs((d) => minimumGets(d, 1)),
    relaxedFromMs: breakEvenMs((d) => minimumGets(d, relaxed))
  }
}

/** The variant meeting the lag goal everywhere that reaches the GET goal soonest; ties keep the earlier (default first). */
export function pickBest(rows: readonly VariantRow[]): VariantRow | undefined {
  let best: VariantRow | undefined
  for (const row of rows) {
    if (row.worstLagRatio.ratio > 1) continue
    const from = row.getGoalFromMs ?? Number.POSITIVE_INFINITY
    if (!best || from < (best.getGoalFromMs ?? Number.POSITIVE_INFINITY)) best = row
  }
  return best
}
