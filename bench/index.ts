// `npm run bench`: the polling schedule on a virtual clock, then the start-up of dist/index.js
// against the simulator; prints the tables and writes docs/benchmarks.md and docs/benchmarks.svg.
//
//   node build/bench/index.js [--runs 400] [--seed 20250601] [--startup-runs 20]
//                             [--context-runs 20] [--skip-startup] [--no-write] [--release-set-only] [--package-only]
//                             [--rate-limit-runs 20] [--rate-limit-only] [--job-record-only] [--startup-only]
//
// --startup-runs also sets the runs of the start-up window search, per runtime; --skip-startup
// skips every measurement of real processes and real time (start-up, window, memory, context).
// --rate-limit-only runs only the first part (a create during a spent hourly budget) and writes nothing.
// --release-set-only measures only the context of a release set (release-tags), with --context-runs.
// --package-only measures only what a monorepo package's tag adds to the context, with --context-runs.
// --job-record-only measures only the report of a job record of up to 1 MiB.
// --startup-only measures only the start-up of dist/index.js (with --startup-runs), its memory and bundle.
//
// Exit 1 when a poll came before its Retry-After or the bench itself fails; goals and budgets
// that are missed are reported (MISS), not turned into a failure: the numbers are the result.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { format, resolveConfig } from 'prettier'
import { renderChart } from './chart.js'
import { renderDocument } from './document.js'
import { chartSpec } from './polling-chart.js'
import {
  bundleTable,
  budgetTable,
  contextBudgetTable,
  contextSummary,
  contextTable,
  feasibilityTable,
  goalTable,
  lagTable,
  rateLimitTable,
  rateLimitWindowTable,
  rssTable,
  startupTable,
  variantTable,
  windowTable
} from './report.js'
import {
  cellOf,
  checkGoals,
  DEFAULT_SCHEDULE,
  DEFAULT_VARIANT,
  DURATIONS_MS,
  explore,
  feasibility,
  measure,
  pickBest,
  RATE_LIMIT,
  STRATEGIES,
  VARIANTS
} from './schedule.js'
import { CONTEXT_LATENCY_MS, measureContext } from './context.js'
import { jobRecordSummary, measureJobRecord } from './job-record.js'
import { measureReleaseSet, RELEASE_SET_PACKAGES, releaseSetSummary } from './release-set.js'
import { measureStartup, summarizeStartup } from './startup.js'
import { measureWindow } from './window.js'
import { measureRateLimit } from './rate-limit.js'
import { measurePackageTag, packageSummary } from './package.js'

// build/bench/index.js → the repository root.
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')

function positiveInteger(name: string, value: string): number {
  if (!/^[1-9]\d*$/.test(value)) throw new Error(`--${name} expects a positive integer, got "${value}"`)
  return Number(value)
}

/** `v24.1.0` → `24.1.0`. */
const nodeVersion = (node: string): string => execFileSync(node, ['--version'], { encoding: 'utf8' }).trim().slice(1)

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '400' },
      seed: { type: 'string', default: '20250601' },
      'startup-runs': { type: 'string', default: '20' },
      'context-runs': { type: 'string', default: '20' },
      'skip-startup': { type: 'boolean', default: false },
      'release-set-only': { type: 'boolean', default: false },
      'package-only': { type: 'boolean', default: false },
      'job-record-only': { type: 'boolean', default: false },
      'startup-only': { type: 'boolean', default: false },
      'no-write': { type: 'boolean', default: false },
      'rate-limit-only': { type: 'boolean', default: false },
      'rate-limit-runs': { type: 'string', default: '20' }
    }
  })
  const runs = positiveInteger('runs', values.runs)
  const seed = positiveInteger('seed', values.seed)
  const startupRuns = positiveInteger('startup-runs', values['startup-runs'])
  const contextRuns = positiveInteger('context-runs', values['context-runs'])
  const options = { runs, seed }
  const out = (text = ''): boolean => process.stdout.write(`${text}\n`)
  const began = performance.now()
  const releaseSet = async (): Promise<void> => {
    out(`\nRelease set: ${RELEASE_SET_PACKAGES} packages, ${contextRuns} runs…`)
    out(releaseSetSummary(await measureReleaseSet({ runs: contextRuns })))
  }
  if (values['release-set-only']) {
    await releaseSet()
    return
  }
  const packageTag = async (): Promise<void> => {
    out(`\nPackage tag: ${contextRuns} runs…`)
    out(packageSummary(await measurePackageTag({ runs: contextRuns })))
  }
  if (values['package-only']) {
    await packageTag()
    return
  }
  const jobRecord = async (): Promise<void> => {
    out('\nThe report of a large job record…')
    out(jobRecordSummary(await measureJobRecord({ runs: 9 })))
  }
  if (values['job-record-only']) {
    await jobRecord()
    return
  }
  const node = process.env.ACTION_NODE || process.execPath
  const startupPart = async () => {
    out(`\nStart-up of dist/index.js: ${startupRuns} interleaved rounds…`)
    const result = await measureStartup({ runs: startupRuns, root: ROOT, node })
    const summary = summarizeStartup(result)
    out(startupTable(result))
    out('')
    out(rssTable(result))
    out(`RSS method: ${result.rssMethod}`)
    out('')
    out(bundleTable(result))
    out('')
    out(budgetTable(summary))
    return { result, summary }
  }
  if (values['startup-only']) {
    const { result } = await startupPart()
    out(`\n${result.machine}`)
    out(`Start-up part: ${((performance.now() - began) / 1000).toFixed(1)} s`)
    return
  }

  const limitRuns = positiveInteger('rate-limit-runs', values['rate-limit-runs'])
  out(`A create during a spent hourly budget (429, no Retry-After): ${limitRuns} runs, virtual clock`)
  const window429 = await measureRateLimit({ runs: limitRuns, seed })
  out(rateLimitWindowTable(window429))
  out(`Rate-limit part: ${((performance.now() - began) / 1000).toFixed(1)} s\n`)
  if (values['rate-limit-only']) return

  out(`Polling schedule: ${runs} runs per duration, seed ${seed}, virtual clock`)
  out(
    `default = poll-interval ${DEFAULT_SCHEDULE.initialMs} ms, max-poll-interval ${DEFAULT_SCHEDULE.maxMs} ms (action.yml)\n`
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
  const variants = await explore(VARIANTS, fixed5, options)
  out('\nOther parameters of the same formula (exploration)')
  out(variantTable(variants))
  const best = pickBest(variants)
  out(`Best meeting the lag goal everywhere: ${best?.variant.id ?? 'none'}`)
  out(`\nSchedule part: ${((performance.now() - began) / 1000).toFixed(1)} s`)

  let startup: Parameters<typeof renderDocument>[0]['startup'] | undefined
  if (!values['skip-startup']) {
    const { result, summary } = await startupPart()

    // The action's runtime first, then the Node running the bench when it is another.
    const runtimes = [...new Set([node, process.execPath])].map((path) => ({ path, version: nodeVersion(path) }))
    out(`\nStart-up window: SIGTERM after the spawn, ${startupRuns} runs per runtime…`)
    const window = await measureWindow({ root: ROOT, nodes: runtimes, runs: startupRuns })
    out(windowTable(window))

    out(`\nContext time: context auto and none, ${contextRuns} runs each, GitHub latency ${CONTEXT_LATENCY_MS} ms…`)
    const context = await measureContext({ runs: contextRuns })
    out(contextTable(context))
    out(contextSummary(context))
    out(contextBudgetTable(context))
    await releaseSet()
    await packageTag()
    await jobRecord()
    out(`\n${result.machine}`)
    startup = { result, summary, window, context }
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
      window429,
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
