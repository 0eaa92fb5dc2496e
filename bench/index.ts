// `npm run bench`: the polling schedule on a virtual clock, then the start-up of dist/index.js
// against the simulator; prints the tables and writes docs/benchmarks.md and docs/benchmarks.svg.
//
//   node build/bench/index.js [--runs 400] [--seed 20250601] [--startup-runs 20]
//                             [--skip-startup] [--no-write]
//
// Exit 1 when a poll came before its Retry-After or the bench itself fails; goals and budgets
// that are missed are reported (MISS), not turned into a failure: the numbers are the result.
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { format, resolveConfig } from 'prettier'
import { renderChart } from './chart.js'
import {
  bundleTable,
  budgetTable,
  chartSpec,
  feasibility,
  feasibilityTable,
  goalTable,
  lagTable,
  pickBest,
  rateLimitTable,
  renderDocument,
  rssTable,
  startupTable,
  variantTable
} from './report.js'
import {
  cellOf,
  checkGoals,
  DEFAULT_SCHEDULE,
  DEFAULT_VARIANT,
  DURATIONS_MS,
  explore,
  measure,
  RATE_LIMIT,
  STRATEGIES,
  VARIANTS
} from './schedule.js'
import { measureStartup, summarizeStartup } from './startup.js'

// build/bench/index.js → the repository root.
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')

function positiveInteger(name: string, value: string): number {
  if (!/^[1-9]\d*$/.test(value)) throw new Error(`--${name} expects a positive integer, got "${value}"`)
  return Number(value)
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '400' },
      seed: { type: 'string', default: '20250601' },
      'startup-runs': { type: 'string', default: '20' },
      'skip-startup': { type: 'boolean', default: false },
      'no-write': { type: 'boolean', default: false }
    }
  })
  const runs = positiveInteger('runs', values.runs)
  const seed = positiveInteger('seed', values.seed)
  const startupRuns = positiveInteger('startup-runs', values['startup-runs'])
  const options = { runs, seed }
  const out = (text = ''): boolean => process.stdout.write(`${text}\n`)
  const began = performance.now()

  out(`Polling schedule: ${runs} runs per duration, seed ${seed}, virtual clock`)
  out(
    `default = poll-interval ${DEFAULT_SCHEDULE.initialMs} ms, max-poll-interval ${DEFAULT_SCHEDULE.maxMs} ms (INPUT_DEFAULTS)\n`
  )
  const cells = await measure(STRATEGIES, options)
  out('Detection lag (s: median / p95 / max) and GET requests per job')
  out(lagTable(cells, STRATEGIES))

  const rateLimited = await measure(STRATEGIES, options, RATE_LIMIT)
  out(`\nWith 429 + Retry-After ${RATE_LIMIT.minS}-${RATE_LIMIT.maxS} s on ${RATE_LIMIT.share * 100} % of polls`)
  out(rateLimitTable(rateLimited, STRATEGIES))
  const early = rateLimited.reduce((sum, c) => sum + c.early, 0)

  const goals = checkGoals(cells)
  out('\nGoals of the default schedule')
  out(goalTable(goals))
  out('\nFewest GETs any schedule meeting the lag goal can make')
  out(feasibilityTable(feasibility(cells)))

  const fixed5 = new Map(DURATIONS_MS.map((d) => [d, cellOf(cells, 'fixed-5s', d).gets.mean]))
  const variants = explore(VARIANTS, fixed5, options)
  // The synchronous loop over the real nextPollDelay must reproduce waitForJob exactly at the defaults.
  const mirror = variants.find((v) => v.variant === DEFAULT_VARIANT)
  for (const d of DURATIONS_MS) {
    const real = cellOf(cells, 'default', d)
    const copy = mirror?.cells.find((c) => c.durationMs === d)
    if (!copy || copy.lagP95 !== real.lag.p95 || copy.gets !== real.gets.mean) {
      throw new Error(`the exploration loop does not reproduce waitForJob at ${d} ms`)
    }
  }
  out('\nOther parameters of the same formula (exploration)')
  out(variantTable(variants))
  const best = pickBest(variants)
  out(`Best meeting the lag goal everywhere: ${best?.variant.id ?? 'none'}`)
  out(`\nSchedule part: ${((performance.now() - began) / 1000).toFixed(1)} s`)

  let startup: Parameters<typeof renderDocument>[0]['startup']
  if (!values['skip-startup']) {
    out(`\nStart-up of dist/index.js: ${startupRuns} interleaved rounds…`)
    const result = await measureStartup({
      runs: startupRuns,
      root: ROOT,
      node: process.env.ACTION_NODE || process.execPath
    })
    const summary = summarizeStartup(result)
    startup = { result, summary }
    out(startupTable(result))
    out('')
    out(rssTable(result))
    out(`RSS method: ${result.rssMethod}`)
    out('')
    out(bundleTable(result))
    out('')
    out(budgetTable(summary))
    out(`\n${result.machine}`)
  }

  const distHash = createHash('sha256')
    .update(readFileSync(join(ROOT, 'dist', 'index.js')))
    .digest('hex')
    .slice(0, 12)
  if (!values['no-write'] && startup) {
    const docs = join(ROOT, 'docs')
    mkdirSync(docs, { recursive: true })
    writeFileSync(join(docs, 'benchmarks.svg'), renderChart(chartSpec(cells, STRATEGIES, runs)))
    const markdown = renderDocument({
      runs,
      seed,
      strategies: STRATEGIES,
      cells,
      rateLimited,
      goals,
      variants,
      startup,
      distHash,
      defaults: { ...DEFAULT_SCHEDULE, growth: DEFAULT_VARIANT.growth, jitter: DEFAULT_VARIANT.jitter }
    })
    const path = join(docs, 'benchmarks.md')
    const config = (await resolveConfig(path)) ?? {}
    writeFileSync(path, await format(markdown, { ...config, filepath: path }))
    out(`\nWrote docs/benchmarks.md and docs/benchmarks.svg`)
  } else if (!values['no-write']) {
    out('\nNot writing docs/ without the start-up part (--skip-startup).')
  }
  out(`Total: ${((performance.now() - began) / 1000).toFixed(1)} s`)

  if (early > 0) {
    process.stderr.write(`bench: ${early} polls came before their Retry-After\n`)
    process.exitCode = 1
  }
}

await main().catch((error: unknown) => {
  process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
  process.exitCode = 1
})
