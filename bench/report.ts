// Renders the benchmark's results: the tables (Markdown, also printed as they are) and
// docs/benchmarks.md around them.
import type { ChartSpec, Series } from './chart.js'
import {
  BREAK_EVEN_RUNS,
  breakEvenMs,
  cellOf,
  DENSE_RUNS_FACTOR,
  DURATIONS_MS,
  GET_SHARE,
  LAG_CAP_MS,
  lagLimitMs,
  minimumGets,
  RATE_LIMIT,
  type Cell,
  type GoalCheck,
  type Strategy,
  type VariantRow
} from './schedule.js'
import { LARGE_TAGS, type ContextTimes } from './context.js'
import type { RateLimitRuns } from './rate-limit.js'
import type { StartupResult, StartupSummary } from './startup.js'
import { median } from './stats.js'
import { WINDOW_STEP_MS, type WindowResult } from './window.js'

export const STARTUP_BUDGET_MS = 100
export const RSS_BUDGET_MB = 80
/** A run that saves its re-run record loads @actions/cache, which has a budget of its own. */
export const RECORD_RSS_BUDGET_MB = 128

/** A Markdown table with padded columns, readable as plain text too. */
export function table(head: string[], rows: string[][], align: ('l' | 'r')[] = []): string {
  const widths = head.map((h, i) => Math.max(h.length, 3, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: string[]): string =>
    `| ${cells.map((c, i) => (align[i] === 'r' ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join(' | ')} |`
  const rule = `| ${widths.map((w, i) => (align[i] === 'r' ? `${'-'.repeat(w - 1)}:` : '-'.repeat(w))).join(' | ')} |`
  return [line(head), rule, ...rows.map(line)].join('\n')
}

export function durationLabel(ms: number): string {
  const seconds = Math.round(ms / 1000)
  if (seconds < 60) return `${seconds} s`
  const rest = seconds % 60
  return rest === 0 ? `${seconds / 60} min` : `${Math.floor(seconds / 60)} min ${rest} s`
}

const s1 = (ms: number): string => (ms / 1000).toFixed(1)
const lagCell = (cell: Cell): string => `${s1(cell.lag.median)} / ${s1(cell.lag.p95)} / ${s1(cell.lag.max)}`
const pct = (x: number): string => `${(100 * x).toFixed(1)} %`
const verdict = (pass: boolean): string => (pass ? 'PASS' : 'MISS')

export function lagTable(cells: readonly Cell[], strategies: readonly Strategy[]): string {
  const head = ['Job']
  for (const s of strategies) head.push(`${s.label}: lag (s) med / p95 / max`, `${s.label}: GETs`)
  const rows = DURATIONS_MS.map((d) => [
    durationLabel(d),
    ...strategies.flatMap((s) => {
      const cell = cellOf(cells, s.id, d)
      return [lagCell(cell), cell.gets.mean.toFixed(1)]
    })
  ])
  return table(head, rows, ['l', ...strategies.flatMap((): ('l' | 'r')[] => ['r', 'r'])])
}

export function rateLimitTable(cells: readonly Cell[], strategies: readonly Strategy[]): string {
  const head = ['Job']
  for (const s of strategies) head.push(`${s.label}: lag (s) med / p95 / max`, `${s.label}: GETs (429s)`)
  head.push('Polls before Retry-After', 'Closest poll after Retry-After')
  const rows = DURATIONS_MS.map((d) => {
    const row = strategies.map((s) => cellOf(cells, s.id, d))
    const early = row.reduce((sum, c) => sum + c.early, 0)
    const limited = row.reduce((sum, c) => sum + c.rateLimited, 0)
    const margin = Math.min(...row.map((c) => c.minRetryMarginMs))
    return [
      durationLabel(d),
      ...row.flatMap((c) => [lagCell(c), `${c.gets.mean.toFixed(1)} (${(c.rateLimited / c.runs).toFixed(1)})`]),
      `${early} of ${limited}`,
      `${s1(margin)} s`
    ]
  })
  return table(head, rows, ['l', ...strategies.flatMap((): ('l' | 'r')[] => ['r', 'r']), 'r', 'r'])
}

export function goalTable(checks: readonly GoalCheck[]): string {
  return table(
    ['Goal', 'Job', 'Default schedule', 'Limit', 'Verdict'],
    checks.map((c) => [c.goal, durationLabel(c.durationMs), c.value, c.limit, verdict(c.pass)]),
    ['l', 'l', 'r', 'r', 'l']
  )
}

export function variantTable(rows: readonly VariantRow[]): string {
  const longDurations = rows[0]?.getShares.map((g) => g.durationMs) ?? []
  return table(
    [
      'Variant',
      'growth',
      'jitter',
      'cap',
      'worst lag p95 ÷ limit (at)',
      ...longDurations.map((d) => `GETs vs fixed 5 s, ${durationLabel(d)}`),
      '≤ 55 % from',
      'lag goal',
      'GET goal'
    ],
    rows.map((r) => [
      r.variant.id,
      r.variant.growth.toFixed(2),
      `±${Math.round(r.variant.jitter * 100)} %`,
      `${r.variant.maxMs / 1000} s`,
      `${r.worstLagRatio.ratio.toFixed(3)} (${(r.worstLagRatio.durationMs / 1000).toFixed(0)} s)`,
      ...r.getShares.map((g) => pct(g.share)),
      r.getGoalFromMs === undefined ? 'never' : durationLabel(r.getGoalFromMs),
      verdict(r.worstLagRatio.ratio <= 1),
      verdict(r.getShares.every((g) => g.share <= GET_SHARE))
    ]),
    ['l', 'r', 'r', 'r', 'r', ...longDurations.map((): 'r' => 'r'), 'r', 'l', 'l']
  )
}

export function startupTable(result: StartupResult): string {
  const row = (label: string, values: number[]): string[] => {
    const sorted = [...values].sort((a, b) => a - b)
    return [
      label,
      median(values).toFixed(1),
      (sorted[0] ?? NaN).toFixed(1),
      (sorted[sorted.length - 1] ?? NaN).toFixed(1),
      String(values.length)
    ]
  }
  return table(
    ['Measure (ms)', 'median', 'min', 'max', 'runs'],
    [
      row('`node -e 0`: spawn → exit', result.bareExitMs),
      row('`node -e` one `http.get`: spawn → request received', result.nodeRequestMs),
      row('action, `wait: false`: spawn → first request received', result.actionFirstRequestMs),
      row('action, `wait: false`: spawn → exit', result.actionExitMs),
      row('action without inputs (load, fail on `api-key`): spawn → exit', result.noInputsExitMs)
    ],
    ['l', 'r', 'r', 'r', 'r']
  )
}

export function rssTable(result: StartupResult): string {
  return table(
    [
      'Whole run',
      'peak RSS median (MB)',
      'max (MB)',
      'spawn → exit median (ms)',
      'last poll → exit median (ms)',
      'runs'
    ],
    result.rss.map((r) => [
      r.label,
      (median(r.kb) / 1024).toFixed(1),
      (Math.max(...r.kb) / 1024).toFixed(1),
      median(r.ms).toFixed(0),
      r.tailMs.length ? median(r.tailMs).toFixed(0) : '–',
      String(r.kb.length)
    ]),
    ['l', 'r', 'r', 'r', 'r', 'r']
  )
}

export function bundleTable(result: StartupResult): string {
  return table(
    ['File', 'bytes', 'gzip', 'undici copies', 'undici ≥ 6', 'Octokit'],
    result.bundle.map((f) => [
      `dist/${f.name}`,
      f.bytes.toLocaleString('en-US'),
      f.gzipBytes.toLocaleString('en-US'),
      String(f.undiciCopies),
      f.undici6 ? 'yes' : 'no',
      f.octokit ? 'yes' : 'no'
    ]),
    ['l', 'r', 'r', 'r', 'l', 'l']
  )
}

export function budgetTable(summary: StartupSummary): string {
  const startupPass = summary.overBareMs <= STARTUP_BUDGET_MS
  const rssMb = summary.peakRssKb / 1024
  const recordMb = summary.recordPeakRssKb / 1024
  return table(
    ['Budget', 'Measured', 'Limit', 'Verdict'],
    [
      [
        'start-up: first request − bare `node -e 0` (medians)',
        `${summary.overBareMs.toFixed(1)} ms (${summary.actionFirstRequestMs.toFixed(1)} − ${summary.bareMs.toFixed(1)})`,
        `${STARTUP_BUDGET_MS} ms`,
        verdict(startupPass)
      ],
      [
        'peak RSS of a whole run (largest of the action runs that save no re-run record)',
        `${rssMb.toFixed(1)} MB`,
        `${RSS_BUDGET_MB} MB`,
        verdict(rssMb <= RSS_BUDGET_MB)
      ],
      [
        'peak RSS of a run that saves its re-run record (largest)',
        `${recordMb.toFixed(1)} MB`,
        `${RECORD_RSS_BUDGET_MB} MB`,
        verdict(recordMb <= RECORD_RSS_BUDGET_MB)
      ]
    ],
    ['l', 'r', 'r', 'l']
  )
}

export function windowTable(results: readonly WindowResult[]): string {
  return table(
    ['Process', 'Node', 'window median (ms)', 'min', 'max', 'runs', 'processes signalled'],
    results.map((r) => {
      const sorted = [...r.windowMs].sort((a, b) => a - b)
      return [
        r.target === 'action' ? '`dist/index.js`' : 'floor: an ES module whose first statement installs the handler',
        r.version,
        median(r.windowMs).toFixed(1),
        (sorted[0] ?? NaN).toFixed(1),
        (sorted[sorted.length - 1] ?? NaN).toFixed(1),
        String(r.windowMs.length),
        String(r.spawns)
      ]
    }),
    ['l', 'l', 'r', 'r', 'r', 'r', 'r']
  )
}

/** Creates during a closed hourly window: the action now, and the retry schedule it had before. */
export function rateLimitWindowTable(r: RateLimitRuns): string {
  const row = (label: string, values: readonly number[], digits: number, scale = 1): string[] => {
    const scaled = values.map((v) => v / scale)
    return [label, median(scaled).toFixed(digits), Math.max(...scaled).toFixed(digits), String(values.length)]
  }
  return table(
    ['Measure', 'median', 'max', 'runs'],
    [
      row('requests answered 429 during the 1-hour window, this action', r.refused, 0),
      row('window open → job created (s), this action', r.lateMs, 0, 1000),
      row('requests before giving up, the schedule before (5 attempts)', r.before.requests, 0),
      row('time they spanned (s), the schedule before', r.before.spanMs, 1, 1000)
    ],
    ['l', 'r', 'r', 'r']
  )
}

export function contextTable(c: ContextTimes): string {
  const row = (label: string, values: readonly number[]): string[] => [
    label,
    median(values).toFixed(0),
    Math.max(...values).toFixed(0),
    String(values.length)
  ]
  return table(
    ['Measure (ms, real time)', 'median', 'max', 'runs'],
    [
      row('`context: auto`: step start → create received', c.autoMs),
      row('`context: none`: step start → create received', c.noneMs),
      row(
        `\`context: auto\`, ${LARGE_TAGS.toLocaleString('en-US')} tags, large release: step start → create received`,
        c.largeMs
      ),
      row('`context: auto`, 31 tags, the same large release: step start → create received', c.fewTagsMs),
      row('`context: auto`: step start → first GitHub request', c.firstReadMs),
      row('`context: auto`: step start → last round’s first request', c.lastRoundMs),
      row('first `context: auto` run of the process (loads @actions/github)', [c.firstAutoMs])
    ],
    ['l', 'r', 'r', 'r']
  )
}

/** How the large release's context spends the budget. */
export function contextBudgetTable(c: ContextTimes): string {
  const total = c.sections.reduce((sum, s) => sum + s.chars, 0)
  return table(
    ['Part of the context (large release)', 'characters', 'share'],
    [
      ...c.sections.map((s) => [s.title, s.chars.toLocaleString('en-US'), `${((100 * s.chars) / total).toFixed(0)} %`]),
      ['total (budget 60,000)', total.toLocaleString('en-US'), '100 %']
    ],
    ['l', 'r', 'r']
  )
}

export function contextSummary(c: ContextTimes): string {
  const added = median(c.autoMs) - median(c.noneMs)
  const latency = c.rounds.length * c.latencyMs
  const rounds = c.rounds.map((round) => round.map((route) => `\`${route}\``).join(' and ')).join(', then ')
  const large = median(c.largeMs) - median(c.noneMs)
  const largeRounds = c.largeRounds.map((round) => round.map((route) => `\`${route}\``).join(' and ')).join(', then ')
  return `With ${LARGE_TAGS.toLocaleString('en-US')} tags and a release of 250 commits changing 531 files (GitHub lists 300), it adds ${large.toFixed(0)} ms with ${c.largeRequests} requests in ${c.largeRounds.length} rounds (${largeRounds}); among 31 tags the same release takes ${(median(c.fewTagsMs) - median(c.noneMs)).toFixed(0)} ms: the tags of the component's major are read, not the repository's, and the rest of the time is the large comparison. \`context: auto\` adds ${added.toFixed(0)} ms (difference of medians) with ${c.requests} GitHub requests in ${c.rounds.length} rounds (${rounds}): ${latency} ms of latency and ${(added - latency).toFixed(0)} ms of work. The context adds ${c.contextChars.toLocaleString('en-US')} characters to the prompt; the step logs “${c.logLine}”.`
}

// ---------------------------------------------------------------------------------------------
// Chart

const COLORS: Record<string, string> = {
  default: '#1a7f37',
  'fixed-5s': '#0969da',
  'fixed-10s': '#bf8700',
  'fixed-30s': '#8250df'
}

export function chartSpec(cells: readonly Cell[], strategies: readonly Strategy[], runs: number): ChartSpec {
  const line = (s: Strategy, value: (c: Cell) => number): Series => ({
    label: s.label,
    color: COLORS[s.id] ?? '#57606a',
    emphasis: s.id === 'default',
    points: DURATIONS_MS.map((d) => ({ x: d, y: value(cellOf(cells, s.id, d)) }))
  })
  return {
    title: 'Polling strategies: detection lag and requests per job',
    xLabel: 'job duration (log scale)',
    xTicks: DURATIONS_MS.map((d) => ({ value: d, label: durationLabel(d) })),
    panels: [
      {
        title: 'Detection lag, p95 (s)',
        yLabel: 'lag p95 (s)',
        yScale: 'linear',
        yTicks: [0, 5, 10, 15, 20, 25, 30],
        series: [
          ...strategies.map((s) => line(s, (c) => c.lag.p95 / 1000)),
          {
            label: 'goal',
            color: '#cf222e',
            dashed: true,
            points: DURATIONS_MS.map((d) => ({ x: d, y: Math.min(lagLimitMs(d), LAG_CAP_MS) / 1000 }))
          }
        ]
      },
      {
        title: 'GET requests per job (log scale)',
        yLabel: 'GETs per job',
        yScale: 'log',
        yTicks: [1, 3, 10, 30, 100, 300, 1000],
        series: [
          ...strategies.map((s) => line(s, (c) => c.gets.mean)),
          {
            label: 'goal',
            color: '#cf222e',
            dashed: true,
            points: DURATIONS_MS.filter((d) => d >= 5 * 60_000).map((d) => ({
              x: d,
              y: GET_SHARE * cellOf(cells, 'fixed-5s', d).gets.mean
            }))
          }
        ]
      }
    ],
    note: `${runs} jittered runs per point, virtual clock. Goal (dashed): lag p95 ≤ min(max(2 s, 25 % of the job), 10 s); from 5 min, GETs ≤ 55 % of fixed 5 s.`
  }
}

// ---------------------------------------------------------------------------------------------
// Feasibility arithmetic

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

export function feasibilityTable(f: Feasibility): string {
  return table(
    ['Job', 'fewest GETs, strict', 'fewest GETs, p95 slack', '55 % of fixed 5 s', 'default schedule'],
    f.rows.map((r) => [
      durationLabel(r.durationMs),
      String(r.strict),
      String(r.relaxed),
      r.limit.toFixed(1),
      r.measured.toFixed(1)
    ]),
    ['l', 'r', 'r', 'r', 'r']
  )
}

/** From which job duration 55 % of fixed 5 s's GETs can be met: by the bounds, and by the default schedule. */
export function breakEvenTable(f: Feasibility, defaultFromMs: number | undefined): string {
  return table(
    ['GETs ≤ 55 % of fixed 5 s', 'for jobs from'],
    [
      ['fewest GETs, strict', secondsText(f.strictFromMs)],
      ['fewest GETs, p95 slack', secondsText(f.relaxedFromMs)],
      ['default schedule', secondsText(defaultFromMs)]
    ],
    ['l', 'r']
  )
}

const secondsText = (ms: number | undefined): string =>
  ms === undefined ? 'never (up to 2 h)' : `${(ms / 1000).toFixed(0)} s (${(ms / 60_000).toFixed(1)} min)`

// ---------------------------------------------------------------------------------------------
// The document

export interface ReportInput {
  runs: number
  seed: number
  strategies: readonly Strategy[]
  cells: readonly Cell[]
  rateLimited: readonly Cell[]
  /** A create against a spent hourly budget, through the whole step. */
  window429: RateLimitRuns
  goals: readonly GoalCheck[]
  variants: readonly VariantRow[]
  /** The measurements of real processes and real time: start-up, its window, memory, context. */
  startup:
    | { result: StartupResult; summary: StartupSummary; window: readonly WindowResult[]; context: ContextTimes }
    | undefined
  distHash: string
  defaults: { initialMs: number; maxMs: number; growth: number; jitter: number }
}

export function renderDocument(input: ReportInput): string {
  const { runs, cells, goals } = input
  const f = feasibility(cells)
  const failedGoals = goals.filter((g) => !g.pass)
  const best = pickBest(input.variants)
  const d = input.defaults
  // Half the delays at the cap are jittered down, uniformly to (1 − jitter) × cap: mean (1 − jitter / 4) × cap.
  const meanCapS = ((1 - d.jitter / 4) * d.maxMs) / 1000

  const lines: string[] = [
    '# Benchmarks',
    '',
    '<!-- Generated by `npm run bench` (bench/index.ts): edit the bench, not this file. -->',
    '',
    `Generated by \`npm run bench\`: the polling schedule on a virtual clock (${runs} jittered runs per job duration, seed ${input.seed}, reproducible); then, in real time, the start-up of the built \`dist/index.js\` against the Agent API simulator, the window in which a cancel kills it without a summary, its peak memory with and without the re-run record, and the time \`context: auto\` adds before the create.`,
    '',
    '![Detection lag p95 and GET requests per job against the job duration, per polling strategy](benchmarks.svg)',
    '',
    '## Polling schedule',
    '',
    '### Method',
    '',
    `- The bench drives the action's own wait loop, \`waitForJob\` (src/agent-api/wait.ts), which asks \`nextPollDelay\` (src/agent-api/schedule.ts) for every delay. Its clock is virtual: \`sleep\` adds to the time and resolves at once, so a 60 min job takes microseconds.`,
    `- **default** is the action with its default inputs (\`poll-interval\` ${d.initialMs / 1000} s, \`max-poll-interval\` ${d.maxMs / 1000} s, read from action.yml; growth ${d.growth}, jitter ±${d.jitter * 100} % from src/agent-api/schedule.ts), after a create (first poll after the first delay, not at once).`,
    '- **fixed N s** is the same loop with `poll-interval` = `max-poll-interval` = N s and jitter off: a poll every N s, the first N s after the start.',
    '- The fake `getJob` answers `active` until the job ends, then `completed` with a pull request link (so the wait does not read it again for one). **Lag** = time of the first poll at or after the end − the end. **GETs** = `getJob` calls (mean per job).',
    '- Each run draws its job duration uniformly within ±min(15 s, 20 %) of the nominal one: jobs never last a round number of seconds, and a fixed poller’s lag depends only on where the end falls between two of its polls. From 2 min up, ±15 s spans a whole period of the 5, 10 and 30 s pollers, so their phase is uniform. All strategies meet the same jobs.',
    '- Percentiles are nearest-rank over the runs; the PRNG (mulberry32) is seeded per duration and strategy, so the tables are the same on every machine.',
    '',
    '### Detection lag and GET requests per job',
    '',
    lagTable(cells, input.strategies),
    '',
    `### With 429 answers (${RATE_LIMIT.share * 100} % of polls, Retry-After ${RATE_LIMIT.minS}–${RATE_LIMIT.maxS} s)`,
    '',
    `The fake \`getJob\` throws \`ApiError('rate-limited', …, 429, retryAfterMs)\` for ${RATE_LIMIT.share * 100} % of polls, with a Retry-After of a whole number of seconds drawn in [${RATE_LIMIT.minS}, ${RATE_LIMIT.maxS}]. Each Retry-After deadline is recorded; a poll before it would be counted in “Polls before Retry-After”. The fixed pollers run through the same loop, so they honour Retry-After too. GETs include the 429-answered ones (their mean count per job in brackets).`,
    '',
    rateLimitTable(input.rateLimited, input.strategies),
    '',
    '### A create during a spent hourly budget',
    '',
    `The whole step runs in-process (scripts/in-process.ts) on a virtual clock against the simulator with a budget of one use per rolling hour, spent by a create just before; its 429s carry no Retry-After, as the API documents none. The schedule before is \`nextRetryDelay\` without its rate-limit branch, on the same seeds. ${input.window429.runs} runs.`,
    '',
    rateLimitWindowTable(input.window429),
    '',
    '### Goals',
    '',
    goalTable(goals),
    '',
    failedGoals.length === 0
      ? 'Every goal is met.'
      : `${failedGoals.length} of ${goals.length} checks missed: ${failedGoals.map((g) => `${g.goal.startsWith('GETs') ? 'GET share' : 'lag'} at ${durationLabel(g.durationMs)}`).join(', ')}.`,
    '',
    '### Why “55 % of the GETs” is out of reach at 5 min',
    '',
    'The lag goal fixes how sparse polling may be. A job that ends just after a poll at time t waits the whole next interval, so for the goal to hold at every duration the interval after a poll at t can be at most min(max(2 s, 25 % of t), 10 s). Taking each interval as long as allowed gives the fewest polls (“strict”): 2, 4, 6, 8 s (the 2 s floor), then ×1.25 per poll (10, 12.5, 15.6, 19.5, 24.4, 30.5, 38.1, 47.7 s), then every 10 s — 11 polls to pass 38 s, where polling at the cap from the start would have made 4. Granting the p95 its 5 % (a lag spread evenly over [0, I] has its p95 at 0.95 I) stretches every interval by 1/0.95 (a 2.1 s floor, 26.3 % of t, a 10.53 s cap): “p95 slack”. Jitter cannot beat the cap either: with intervals of mean μ, jobs ending at random times wait more than 10 s with probability at least (μ − 10 s) / μ, which must stay ≤ 5 %, so μ ≤ 10.53 s.',
    '',
    feasibilityTable(f),
    '',
    breakEvenTable(f, input.variants[0]?.getGoalFromMs),
    '',
    `With a fixed 5 s poller making T/5 + 0.5 GETs, no schedule that meets the lag goal makes 55 % of its GETs for a job shorter than the p95-slack row. The default's capped delays average ${(1 - d.jitter / 4).toFixed(3)} × ${d.maxMs / 1000} s = ${meanCapS.toFixed(2)} s (jitter can only shorten a delay at the cap): towards long jobs its share tends to 5 / ${meanCapS.toFixed(2)} = ${pct(5 / meanCapS)}.`,
    '',
    '### Other parameters (exploration)',
    '',
    `The same formula with other constants, given to the real \`waitForJob\` as its schedule's \`growth\` and \`jitter\` (which \`nextPollDelay\` takes) and cap, on the same virtual clock as the tables above, without failures; the “default” row meets the same jobs with the same jitter as the table above, so its figures are the table's. “Worst lag p95 ÷ limit” is taken over 60 durations log-spaced from 5 s to 10 min plus the table's up to 10 min, ${DENSE_RUNS_FACTOR * runs} runs each, so a variant cannot pass by luck between rows (the worst of many noisy p95s still leans about 1 % high); past about 1 min every delay is at the cap and the lag's distribution no longer changes with the job's duration, so longer jobs would add time and nothing else. “≤ 55 % from” scans durations from 1 min to 60 min in steps of 10 s (${BREAK_EVEN_RUNS} runs each) for the shortest job from which the share stays ≤ 55 %.`,
    '',
    variantTable(input.variants),
    '',
    best
      ? `Meeting the lag goal at every sampled duration, **${best.variant.id}** reaches 55 % soonest (the “≤ 55 % from” column). A 10.5 s cap buys 2–3 points of GET share but leaves the worst lag p95 within about 1 % of the 10 s limit, inside the measurement’s noise, and cannot be written as a whole-second input; growth above 0.22 breaks the 25 % rule for short jobs once jitter adds its 10 %.`
      : 'No variant meets the lag goal at every sampled duration.',
    ''
  ]

  if (input.startup) {
    const { result, summary, window, context } = input.startup
    lines.push(
      '## Start-up',
      '',
      `\`dist/index.js\` (sha256 ${input.distHash}) spawned by the bench against the simulator, started in the bench’s process on 127.0.0.1. The simulator stamps each request with \`performance.now()\` on arrival, on the same clock as the spawn. Every round runs 4 kinds of process once each (the action’s run gives two rows), in rotating order, after one warm-up round; ${result.runs} rounds. The action runs with \`INPUT_*\` variables as the runner sets them (action.yml’s defaults, then the step’s inputs; \`wait: false\`: create, outputs, summary, exit) and only PATH/HOME from the environment.`,
      '',
      startupTable(result),
      '',
      budgetTable(summary),
      '',
      `Over a plain node process that makes one request, the action’s first request comes ${summary.overNodeRequestMs.toFixed(1)} ms later (medians). Without inputs the bundle loads and the step fails on \`api-key\` in ${summary.noInputsMs.toFixed(1)} ms, ${(summary.noInputsMs - summary.bareMs).toFixed(1)} ms over bare node: most of the start-up is loading the bundle.`,
      '',
      '### Start-up window: a cancel before the handlers',
      '',
      `The runner cancels a step with SIGINT, then SIGTERM. Until src/index.ts has installed its handlers (src/step/signals.ts, before the rest of the bundle loads), a signal kills the process outright: no outputs, no summary. The bench finds that window from outside: it spawns \`dist/index.js\` (its job runs 10 min in the simulator, so a handled signal always ends the step as cancelled) and sends SIGTERM at a delay after the spawn, in steps of ${WINDOW_STEP_MS} ms up to the first process that ends with a summary and exit code 1, then 1 ms at a time from the last one killed. A run’s window is the delay, as sent, of its earliest handled signal; after the first run, the search starts ${2 * WINDOW_STEP_MS} ms below the previous result (lower if that is already handled). The floor is the same search on an ES module whose first statement installs a handler: Node’s own start-up, which no action can shorten. The binaries take turns, ${window[0]?.windowMs.length ?? 0} runs each.`,
      '',
      windowTable(window),
      '',
      'The floor row is Node starting up: what the action’s window has beyond it is the bundle loading before its handlers.',
      '',
      '### Peak RSS',
      '',
      `Method: ${result.rssMethod}; spawn → exit is timed around it, and “last poll → exit” runs from the simulator’s arrival stamp of the run’s last poll (the one that saw the job end) to the exit. The job of the waited runs lasts 1.5 s in the simulator (a create, a poll after about 2 s, outputs, summary). Every waited run has the runner’s variables a re-run record needs (\`GITHUB_RUN_ID\`, one per run, \`GITHUB_RUN_ATTEMPT=1\`, \`GITHUB_JOB\`, \`GITHUB_ACTION\`, \`RUNNER_TEMP\`); only with the fake Actions cache service (simulator/cache.ts, through \`ACTIONS_CACHE_URL\` and \`ACTIONS_RUNTIME_TOKEN\`) present does the step save its record, through \`@actions/cache\`, loaded only then, while it waits; the bench checks that each of those runs committed one. The labels run adds \`labels: docs\` with \`GITHUB_API_URL\` pointing at the simulator, so \`@actions/github\` is loaded and Octokit's request gets a 404 (a warning, as for a refused token).`,
      '',
      rssTable(result),
      '',
      'The run with the cache service against the waited run without it is what saving the re-run record costs, in peak and in last poll → exit (a save still under way would hold the step). The `--liftoff-only` row (V8’s baseline WebAssembly compiler only) against the waited run is what V8’s optimizing compilation of WebAssembly adds to the peak; the only WebAssembly the action runs is undici’s HTTP parser (llhttp). The flag is a diagnostic here: a workflow cannot pass node flags to an action.',
      '',
      '### Bundle',
      '',
      'Copies of undici are counted by its `class Agent extends DispatcherBase` (one per copy, any major); “undici ≥ 6” by its `undici.error.UND_ERR` error symbols; Octokit by its `octokit-core.js` user agent. ncc puts a dynamic `import()` in a chunk file of its own, loaded only when it runs.',
      '',
      bundleTable(result),
      '',
      '## Context time',
      '',
      `What \`context: auto\` adds before the create, for a pushed tag: the step runs in-process (\`runInProcess\`, scripts/in-process.ts) on a virtual clock against the Agent API simulator, and reads GitHub through its real client (Octokit, from src/github.ts) from the GitHub API fake (simulator/github.ts), which answers every request after ${context.latencyMs} ms. The repository has tag v1.3.0 with a release and its notes, 30 earlier version tags and 120 commits since the previous one, v1.2.3 (merges and dependabot’s among them, which the context leaves out). The large one has the same tags among ${LARGE_TAGS.toLocaleString('en-US')} (an auto-released package’s fill the rest), 250 commits since v1.2.3 changing 531 files with their patches (the comparison lists 300) (source, tests, docs, a lockfile, images), and notes of 400 more lines. Times are real, from calling the step to the create’s arrival at the simulator; \`context: auto\` and \`context: none\` take turns, ${context.runs} runs each, after one of each to warm up. The fake runs in the bench’s process: building its answers is in the times too. The first run of the process also loads \`@actions/github\`, from node_modules rather than from the bundle’s chunk as the action does, so that row is an order of magnitude only.`,
      '',
      contextTable(context),
      '',
      contextSummary(context),
      '',
      contextBudgetTable(context),
      '',
      '## Machine',
      '',
      `${result.machine}. Timings on 2 shared, noisy cores: compare medians from the same run, not across runs.`,
      ''
    )
  } else {
    lines.push('## Start-up', '', 'Not measured in this run (`--skip-startup`).', '')
  }
  return lines.join('\n')
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
