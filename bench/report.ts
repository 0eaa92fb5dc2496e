// The benchmark's results as Markdown tables, one function per table (printed as they are, and
// laid out in docs/benchmarks.md by bench/document.ts).
import {
  cellOf,
  DURATIONS_MS,
  GET_SHARE,
  type Cell,
  type Feasibility,
  type GoalCheck,
  type Strategy,
  type VariantRow
} from './schedule.js'
import { LARGE_TAGS, type ContextTimes } from './context.js'
import type { RateLimitRuns } from './rate-limit.js'
import { overheadPerRound, type StartupResult, type StartupSummary } from './startup.js'
import { median } from './stats.js'
import { count, durationLabel, measures, pct, table, tableOf, verdict, type Column, type Measure } from './table.js'
import type { WindowResult } from './window.js'

/**
 * Spawn → first request, less the stack floor's (bench/stack-floor.ts) in the same run: what the
 * action's own code adds. The floor itself (V8 compiling @actions/core and undici) comes with the stack.
 */
export const OVERHEAD_BUDGET_MS = 15
export const RSS_BUDGET_MB = 80
/** A run that saves its re-run record loads @actions/cache, which has a budget of its own. */
export const RECORD_RSS_BUDGET_MB = 128

const s1 = (ms: number): string => (ms / 1000).toFixed(1)
const lagCell = (cell: Cell): string => `${s1(cell.lag.median)} / ${s1(cell.lag.p95)} / ${s1(cell.lag.max)}`

/** Lag and GETs per job and strategy; with `limited`, the 429s and how Retry-After was kept. */
export function lagTable(cells: readonly Cell[], strategies: readonly Strategy[], limited = false): string {
  const columns: Column<number>[] = [['Job', durationLabel]]
  for (const s of strategies) {
    const cell = (d: number): Cell => cellOf(cells, s.id, d)
    columns.push([`${s.label}: lag (s) med / p95 / max`, (d) => lagCell(cell(d)), 'r'])
    columns.push([
      limited ? `${s.label}: GETs (429s)` : `${s.label}: GETs`,
      (d) => cell(d).gets.mean.toFixed(1) + (limited ? ` (${(cell(d).rateLimited / cell(d).runs).toFixed(1)})` : ''),
      'r'
    ])
  }
  const row = (d: number): Cell[] => strategies.map((s) => cellOf(cells, s.id, d))
  const sum = (d: number, of: (c: Cell) => number): number => row(d).reduce((total, c) => total + of(c), 0)
  if (limited)
    columns.push(
      ['Polls before Retry-After', (d) => `${sum(d, (c) => c.early)} of ${sum(d, (c) => c.rateLimited)}`, 'r'],
      ['Closest poll after Retry-After', (d) => `${s1(Math.min(...row(d).map((c) => c.minRetryMarginMs)))} s`, 'r']
    )
  return tableOf(columns, DURATIONS_MS)
}

export const rateLimitTable = (cells: readonly Cell[], strategies: readonly Strategy[]): string =>
  lagTable(cells, strategies, true)

export const goalTable = (checks: readonly GoalCheck[]): string =>
  tableOf<GoalCheck>(
    [
      ['Goal', (c) => c.goal],
      ['Job', (c) => durationLabel(c.durationMs)],
      ['Default schedule', (c) => c.value, 'r'],
      ['Limit', (c) => c.limit, 'r'],
      ['Verdict', (c) => verdict(c.pass)]
    ],
    checks
  )

export function variantTable(rows: readonly VariantRow[]): string {
  const longDurations = rows[0]?.getShares.map((g) => g.durationMs) ?? []
  return tableOf<VariantRow>(
    [
      ['Variant', (r) => r.variant.id],
      ['growth', (r) => r.variant.growth.toFixed(2), 'r'],
      ['jitter', (r) => `±${Math.round(r.variant.jitter * 100)} %`, 'r'],
      ['cap', (r) => `${r.variant.maxMs / 1000} s`, 'r'],
      [
        'worst lag p95 ÷ limit (at)',
        (r) => `${r.worstLagRatio.ratio.toFixed(3)} (${(r.worstLagRatio.durationMs / 1000).toFixed(0)} s)`,
        'r'
      ],
      ...longDurations.map((d, i): Column<VariantRow> => [
        `GETs vs fixed 5 s, ${durationLabel(d)}`,
        (r) => pct(r.getShares[i]?.share ?? NaN),
        'r'
      ]),
      ['≤ 55 % from', (r) => (r.getGoalFromMs === undefined ? 'never' : durationLabel(r.getGoalFromMs)), 'r'],
      ['lag goal', (r) => verdict(r.worstLagRatio.ratio <= 1)],
      ['GET goal', (r) => verdict(r.getShares.every((g) => g.share <= GET_SHARE))]
    ],
    rows
  )
}

export const startupTable = (result: StartupResult): string =>
  measures('Measure (ms)', [
    ['`node -e 0`: spawn → exit', result.bareExitMs],
    ['`node -e` one `http.get`: spawn → request received', result.nodeRequestMs],
    [
      `stack floor (@actions/core + undici, one input, one request; ${count(result.floorBytes)} bytes): spawn → request received`,
      result.floorRequestMs
    ],
    ['action, `wait: false`: spawn → first request received', result.actionFirstRequestMs],
    ['action − stack floor, each round: first request received', overheadPerRound(result)],
    ['action, `wait: false`: spawn → exit', result.actionExitMs],
    ['action without inputs (load, fail on `api-key`): spawn → exit', result.noInputsExitMs]
  ])

export const rssTable = (result: StartupResult): string =>
  tableOf<StartupResult['rss'][number]>(
    [
      ['Whole run', (r) => r.label],
      ['peak RSS median (MB)', (r) => (median(r.kb) / 1024).toFixed(1), 'r'],
      ['max (MB)', (r) => (Math.max(...r.kb) / 1024).toFixed(1), 'r'],
      ['spawn → exit median (ms)', (r) => median(r.ms).toFixed(0), 'r'],
      ['last poll → exit median (ms)', (r) => (r.tailMs.length ? median(r.tailMs).toFixed(0) : '–'), 'r'],
      ['runs', (r) => String(r.kb.length), 'r']
    ],
    result.rss
  )

export function bundleTable(result: StartupResult): string {
  const files = tableOf<StartupResult['bundle'][number]>(
    [
      ['File', (f) => `dist/${f.name}`],
      ['bytes', (f) => count(f.bytes), 'r'],
      ['gzip', (f) => count(f.gzipBytes), 'r'],
      ['loaded by a plain run', (f) => (f.loadedAtStart ? 'yes' : 'no')],
      ['holds', (f) => f.libraries.join(', ') || '–'],
      ['undici copies', (f) => String(f.undiciCopies), 'r'],
      ['undici ≥ 6', (f) => (f.undici6 ? 'yes' : 'no')]
    ],
    result.bundle
  )
  const bytes = (of: readonly StartupResult['bundle'][number][]): number => of.reduce((sum, f) => sum + f.bytes, 0)
  const loaded = result.bundle.filter((f) => f.loadedAtStart)
  return `${files}\n\nA plain run (\`wait: false\`, no GitHub request, no markup) loads ${loaded.length} of the ${result.bundle.length} files: ${count(bytes(loaded))} of ${count(bytes(result.bundle))} bytes.`
}

/** Each budget: what it bounds, the measured value, the limit, in one unit. */
export function budgetTable(s: StartupSummary): string {
  type Budget = [string, number, number, string, string?]
  return tableOf<Budget>(
    [
      ['Budget', ([what]) => what],
      ['Measured', ([, value, , unit, note]) => `${value.toFixed(1)} ${unit}${note ?? ''}`, 'r'],
      ['Limit', ([, , limit, unit]) => `${limit} ${unit}`, 'r'],
      ['Verdict', ([, value, limit]) => verdict(value <= limit)]
    ],
    [
      [
        'start-up: the action’s own overhead, spawn → first request less the stack floor’s in the same run (medians)',
        s.overFloorMs,
        OVERHEAD_BUDGET_MS,
        'ms',
        ` (${s.actionFirstRequestMs.toFixed(1)} − ${s.floorMs.toFixed(1)})`
      ],
      ['peak RSS of a run that saves no re-run record (largest)', s.peakRssKb / 1024, RSS_BUDGET_MB, 'MB'],
      ['peak RSS of a run that saves its re-run record (largest)', s.recordPeakRssKb / 1024, RECORD_RSS_BUDGET_MB, 'MB']
    ]
  )
}

export const windowTable = (results: readonly WindowResult[]): string =>
  measures(
    'Process (Node): window (ms)',
    results.map((r): Measure => [
      `${r.target === 'action' ? '`dist/index.js`' : 'floor: a module whose first statement installs the handler'} (${r.version}, ${r.spawns} processes)`,
      r.windowMs
    ])
  )

/** Creates during a closed hourly window: the action now, and the retry schedule it had before. */
export const rateLimitWindowTable = (r: RateLimitRuns): string =>
  measures(
    'Measure',
    [
      ['requests answered 429 during the 1-hour window, this action', r.refused],
      ['window open → job created (s), this action', r.lateMs, 1000],
      ['requests before giving up, the schedule before (5 attempts)', r.before.requests],
      ['time they spanned (s), the schedule before', r.before.spanMs, 1000]
    ],
    1,
    false
  )

export const contextTable = (c: ContextTimes): string =>
  measures(
    'Measure (ms, real time)',
    [
      ['`context: auto`: step start → create received', c.autoMs],
      ['`context: none`: step start → create received', c.noneMs],
      [`\`context: auto\`, ${count(LARGE_TAGS)} tags, large release: step start → create received`, c.largeMs],
      ['`context: auto`, 31 tags, the same large release: step start → create received', c.fewTagsMs],
      ['`context: auto`: step start → first GitHub request', c.firstReadMs],
      ['`context: auto`: step start → last round’s first request', c.lastRoundMs],
      ['first `context: auto` run of the process (loads @actions/github)', [c.firstAutoMs]]
    ],
    0,
    false
  )

/** The GitHub requests `context: auto` makes, in rounds, and what it adds to the prompt. */
export function contextSummary(c: ContextTimes): string {
  const rounds = (of: readonly (readonly string[])[]): string =>
    of.map((round) => round.map((route) => `\`${route}\``).join(' and ')).join(', then ')
  return table(
    ['Release', 'GitHub requests', 'rounds', 'context (characters)'],
    [
      ['31 tags, 120 commits', String(c.requests), rounds(c.rounds), count(c.contextChars)],
      [`${count(LARGE_TAGS)} tags, 250 commits, 531 files`, String(c.largeRequests), rounds(c.largeRounds), '–']
    ],
    ['l', 'r', 'l', 'r']
  )
}

/** How the large release's context spends the budget. */
export function contextBudgetTable(c: ContextTimes): string {
  const total = c.sections.reduce((sum, s) => sum + s.chars, 0)
  return table(
    ['Part of the context (large release)', 'characters', 'share'],
    [
      ...c.sections.map((s) => [s.title, count(s.chars), `${((100 * s.chars) / total).toFixed(0)} %`]),
      ['total (budget 60,000)', count(total), '100 %']
    ],
    ['l', 'r', 'r']
  )
}

export const feasibilityTable = (f: Feasibility): string =>
  tableOf<Feasibility['rows'][number]>(
    [
      ['Job', (r) => durationLabel(r.durationMs)],
      ['fewest GETs, strict', (r) => String(r.strict), 'r'],
      ['fewest GETs, p95 slack', (r) => String(r.relaxed), 'r'],
      ['55 % of fixed 5 s', (r) => r.limit.toFixed(1), 'r'],
      ['default schedule', (r) => r.measured.toFixed(1), 'r']
    ],
    f.rows
  )

const secondsText = (ms: number | undefined): string =>
  ms === undefined ? 'never (up to 2 h)' : `${(ms / 1000).toFixed(0)} s (${(ms / 60_000).toFixed(1)} min)`

/** From which job duration 55 % of fixed 5 s's GETs can be met: by the bounds, and by the default schedule. */
export const breakEvenTable = (f: Feasibility, defaultFromMs: number | undefined): string =>
  table(
    ['GETs ≤ 55 % of fixed 5 s', 'for jobs from'],
    [
      ['fewest GETs, strict', secondsText(f.strictFromMs)],
      ['fewest GETs, p95 slack', secondsText(f.relaxedFromMs)],
      ['default schedule', secondsText(defaultFromMs)]
    ],
    ['l', 'r']
  )
