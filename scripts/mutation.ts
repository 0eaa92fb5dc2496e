/**
 * Mutation testing on Node 24 (Stryker needs Node >= 22), in three modes:
 *
 *   node build/scripts/mutation.js change                 (npm run mutation:change, .ci/run, CI)
 *   node build/scripts/mutation.js full [stryker options]  (npm run mutation, weekly)
 *   node build/scripts/mutation.js update [stryker options] (npm run mutation:update)
 *
 * `change` runs the mutants of the src/ lines changed since the commit of the committed baseline
 * (stryker-baseline/), and the baseline's mutants an edited test decided, as many as fit in 3 minutes,
 * or `--bound <seconds>` (100 to 180; .ci/run gives what its steps left of its 5 minutes), a sample
 * past that, seeded by the commit, judged on what ran (scripts/mutation/plan.ts). `full` runs every mutant and, when it passes and mutates all of src/
 * (no options), writes the baseline at HEAD. `update` folds the changes since the baseline into it
 * with Stryker's incremental mode (scripts/mutation/update.ts): an update of the last full run.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT } from './action-metadata.js'
import {
  describeRecord,
  headCommit,
  readRecord,
  readReport,
  RECORD,
  scoreTrend,
  writeBaseline,
  type BaselineRecord,
  type IncrementalReport
} from './mutation-baseline.js'
import { parseBound, STOP_MS } from './mutation/change.js'
import { changesSince } from './mutation/diff.js'
import { prepareChange, type Prepared } from './mutation/prepare.js'
import { CHANGE_REPORTS, cleanUp, prepare, readVerdicts, runBounded, strykerCommand } from './mutation/stryker.js'
import { commitReader, CONFIGURATION, treeReader } from './mutation/suites.js'
import { touchedBy } from './mutation/touched-tests.js'
import { foldable } from './mutation/update.js'
import { judge, resultLine } from './mutation/verdict.js'

// Stryker's own working copy of the report, which it rewrites: never the committed one.
const WORKING = join(ROOT, 'reports', 'stryker-incremental.json')

function stryker(options: string[]): number {
  const [node, ...args] = strykerCommand(ROOT, ['run', ...options])
  return spawnSync(node, args, { cwd: ROOT, stdio: 'inherit' }).status ?? 1
}

/** The baseline's commit must be in this clone's history: a shallow clone has only its tip. */
function checkHistory(): boolean {
  const { commit } = readRecord(ROOT)
  if (spawnSync('git', ['cat-file', '-e', `${commit}^{commit}`], { cwd: ROOT }).status === 0) return true
  console.error(
    `The baseline's commit ${commit} is not in this clone's history: fetch it (in GitHub Actions, actions/checkout with fetch-depth: 0).`
  )
  return false
}

/** Runs Stryker on what the plan chose, until the deadline; its verdicts, however it ended. */
async function runChange(
  prepared: Prepared,
  started: number,
  boundMs: number
): Promise<{ status: number; mutants: number }> {
  rmSync(join(ROOT, CHANGE_REPORTS), { recursive: true, force: true })
  const config = prepare(ROOT, treeReader(ROOT), prepared.plan.ranges, prepared.plan.testFiles)
  try {
    const outcome = await runBounded(ROOT, strykerCommand(ROOT, ['run', config]), {
      deadline: started + boundMs - STOP_MS
    })
    if (outcome.kind === 'out of time') {
      console.log(
        `Stopped at ${String((boundMs - STOP_MS) / 1000)} s, the step's bound less the time to judge: judged on what ran.`
      )
      return { status: 0, mutants: outcome.mutants }
    }
    return outcome
  } finally {
    cleanUp(ROOT)
  }
}

async function change(boundMs: number): Promise<number> {
  // The bound counts from the process's start: loading the TypeScript compiler takes seconds under load.
  const started = Math.round(performance.timeOrigin)
  if (!checkHistory()) return 1
  const prepared = prepareChange(ROOT, started, Date.now, boundMs)
  const { record, changes, report, touched, plan, seed, decision } = prepared
  console.log(`Baseline: ${describeRecord(record)}.`)
  for (const note of touched.notes) console.log(`  ${note}`)
  for (const file of touched.configuration) {
    console.log(`  ${file}: configuration, not traced to tests (it can change any verdict); the full run measures it`)
  }
  console.log(decision.line)
  if (decision.kind === 'skip') return 0
  const { status, mutants } = await runChange(prepared, started, boundMs)
  // Stryker failed on its own (a test that fails without mutants, say): nothing to judge.
  if (status !== 0) return status
  const breakAt = (
    JSON.parse(readFileSync(join(ROOT, 'stryker.config.json'), 'utf8')) as { thresholds: { break: number } }
  ).thresholds.break
  const verdict = judge(readVerdicts(ROOT), plan.lines, changes, report, breakAt, plan.changed.all)
  const planned = mutants > 0 ? mutants : plan.changed.chosen.length + plan.reruns.chosen.length
  console.log(resultLine(verdict, plan, { seed, breakAt, planned, seconds: (Date.now() - started) / 1000 }))
  for (const line of verdict.weakened) console.error(`  weaker: ${line}`)
  return verdict.passed ? 0 : 1
}

/** A baseline records the commit it was made from: the tree Stryker sees must be that commit's. */
function uncommitted(): string {
  return execFileSync(
    'git',
    ['status', '--porcelain', '--', 'src', '__tests__', 'simulator', 'scripts', 'action.yml', ...CONFIGURATION],
    { cwd: ROOT, encoding: 'utf8' }
  ).trim()
}

/** Where the weekly run's result says the score fell: an annotation and the job's summary on GitHub Actions. */
function tellTrend(previous: BaselineRecord | undefined, record: BaselineRecord): void {
  const { fell, line } = scoreTrend(previous, record)
  console.log(line)
  if (process.env.GITHUB_ACTIONS !== 'true') return
  if (fell) console.log(`::warning title=Mutation score fell::${line}`)
  const summary = process.env.GITHUB_STEP_SUMMARY
  if (summary) appendFileSync(summary, `${fell ? ':warning: ' : ''}${line}\n`)
}

function writeFrom(run: BaselineRecord['run']): number {
  const previous = existsSync(join(ROOT, RECORD)) ? readRecord(ROOT) : undefined
  const record = writeBaseline(
    ROOT,
    JSON.parse(readFileSync(WORKING, 'utf8')) as IncrementalReport,
    run,
    headCommit(ROOT),
    new Date()
  )
  console.log(`Baseline written: ${describeRecord(record)}. Commit stryker-baseline/.`)
  tellTrend(previous, record)
  return 0
}

function full(options: string[]): number {
  const dirty = options.length === 0 ? uncommitted() : ''
  if (dirty !== '') {
    console.error(
      `Commit first: the baseline records the commit it was made from, and these files differ from HEAD:\n${dirty}`
    )
    return 1
  }
  rmSync(WORKING, { force: true })
  const status = stryker(['--incremental', '--incrementalFile', WORKING, '--force', ...options])
  if (status !== 0) return status
  if (options.length > 0) {
    console.log('The baseline in stryker-baseline/ is kept: only a run without options refreshes it.')
    return 0
  }
  return writeFrom('full')
}

function update(options: string[]): number {
  const dirty = options.length === 0 ? uncommitted() : ''
  if (dirty !== '') {
    console.error(
      `Commit first: the baseline records the commit it was made from, and these files differ from HEAD:\n${dirty}`
    )
    return 1
  }
  if (!checkHistory()) return 1
  const record = readRecord(ROOT)
  const changes = changesSince(ROOT, record.commit)
  const report = readReport(ROOT)
  const touched = touchedBy(changes, report, treeReader(ROOT), commitReader(ROOT, record.commit))
  for (const note of touched.notes) console.log(`  ${note}`)
  const { report: start, dropped } = foldable(report, changes, touched.ids, touched.index, treeReader(ROOT))
  console.log(
    `Updating ${describeRecord(record)}: ${String(dropped)} tests changed, their mutants and those of changed code run again.`
  )
  mkdirSync(join(ROOT, 'reports'), { recursive: true })
  writeFileSync(WORKING, JSON.stringify(start))
  const status = stryker(['--incremental', '--incrementalFile', WORKING, ...options])
  if (status !== 0) return status
  if (options.length > 0) {
    console.log('The baseline in stryker-baseline/ is kept: only an update without options writes it.')
    return 0
  }
  return writeFrom('update')
}

async function main(mode: string | undefined, options: string[]): Promise<number> {
  const bound = mode === 'change' ? parseBound(options) : undefined
  if (bound !== undefined) return change(bound)
  if (mode === 'full') return full(options)
  if (mode === 'update') return update(options)
  console.error(
    `Usage: mutation.js change [--bound <seconds>] | full [stryker options] | update; got '${[mode ?? '', ...options].join(' ')}'`
  )
  return 2
}

process.exitCode = await main(process.argv[2], process.argv.slice(3))
