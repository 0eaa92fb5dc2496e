/**
 * Mutation testing on Node 24 (Stryker needs Node >= 22), in three modes:
 *
 *   node build/scripts/mutation.js change                 (npm run mutation:change, .ci/run, CI)
 *   node build/scripts/mutation.js full [stryker options]  (npm run mutation, weekly)
 *   node build/scripts/mutation.js update [stryker options] (npm run mutation:update)
 *
 * `change` runs the mutants of the src/ lines changed since the commit of the committed baseline
 * (stryker-baseline/), and the baseline's mutants an edited test covers, within 3 minutes
 * (scripts/mutation/change.ts). `full` runs every mutant and, when it passes and mutates all of src/
 * (no options), writes the baseline at HEAD. `update` folds the changes since the baseline into it
 * with Stryker's incremental mode (scripts/mutation/update.ts): an update of the last full run.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT } from './action-metadata.js'
import {
  describeRecord,
  headCommit,
  readRecord,
  readReport,
  writeBaseline,
  type BaselineRecord,
  type IncrementalReport
} from './mutation-baseline.js'
import { BOUND_MS, MAX_MUTANTS, prepareChange, tooLarge } from './mutation/change.js'
import { changesSince } from './mutation/diff.js'
import { CHANGE_REPORTS, cleanUp, prepare, runBounded, strykerCommand } from './mutation/stryker.js'
import { commitReader, CONFIGURATION, treeReader } from './mutation/suites.js'
import { touchedBy } from './mutation/touched-tests.js'
import { foldable } from './mutation/update.js'
import { judge } from './mutation/verdict.js'

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

async function change(): Promise<number> {
  const started = Date.now()
  if (!checkHistory()) return 1
  const { record, changes, report, touched, plan, decision } = prepareChange(ROOT)
  console.log(`Baseline: ${describeRecord(record)}.`)
  for (const note of touched.notes) console.log(`  ${note}`)
  for (const file of touched.configuration) {
    console.log(`  ${file}: configuration, not traced to tests (it can change any verdict); the full run measures it`)
  }
  if (decision.kind === 'skip') {
    console.log(decision.line)
    return 0
  }
  if (decision.kind === 'too large') {
    console.error(decision.line)
    return 1
  }
  console.log(decision.line)
  rmSync(join(ROOT, CHANGE_REPORTS), { recursive: true, force: true })
  const config = prepare(ROOT, treeReader(ROOT), plan.ranges, plan.testFiles)
  let outcome
  try {
    outcome = await runBounded(ROOT, strykerCommand(ROOT, ['run', config]), {
      deadline: started + BOUND_MS,
      maxMutants: MAX_MUTANTS
    })
  } finally {
    cleanUp(ROOT)
  }
  if (outcome.kind === 'too many') {
    console.error(tooLarge(`Stryker found ${String(outcome.mutants)} mutants in the ranges`))
    return 1
  }
  if (outcome.kind === 'out of time') {
    console.error(tooLarge(`Stopped after ${String(BOUND_MS / 1000)} s with ${String(outcome.mutants)} mutants`))
    return 1
  }
  if (outcome.status !== 0) return outcome.status
  const json = join(ROOT, CHANGE_REPORTS, 'mutation.json')
  const result = existsSync(json) ? (JSON.parse(readFileSync(json, 'utf8')) as IncrementalReport) : { files: {} }
  const breakAt = (
    JSON.parse(readFileSync(join(ROOT, 'stryker.config.json'), 'utf8')) as { thresholds: { break: number } }
  ).thresholds.break
  const verdict = judge(result, plan.lines, changes, report, breakAt)
  const { total, score } = verdict.changed
  console.log(
    `Mutation testing on the change: ${total === 0 ? 'no mutant on the changed lines' : `${String(score)} % of the ${String(total)} mutants on the changed lines detected (break at ${String(breakAt)} %)`}; ` +
      `${String(verdict.reran)} other mutants ran again, ${String(verdict.weakened.length)} of them detected in the baseline but not now; ` +
      `${String(Math.round((Date.now() - started) / 1000))} s.`
  )
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

function writeFrom(run: BaselineRecord['run']): number {
  const record = writeBaseline(
    ROOT,
    JSON.parse(readFileSync(WORKING, 'utf8')) as IncrementalReport,
    run,
    headCommit(ROOT),
    new Date()
  )
  console.log(`Baseline written: ${describeRecord(record)}. Commit stryker-baseline/.`)
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
  if (mode === 'change' && options.length === 0) return change()
  if (mode === 'full') return full(options)
  if (mode === 'update') return update(options)
  console.error(
    `Usage: mutation.js change | full [stryker options] | update; got '${[mode ?? '', ...options].join(' ')}'`
  )
  return 2
}

process.exitCode = await main(process.argv[2], process.argv.slice(3))
