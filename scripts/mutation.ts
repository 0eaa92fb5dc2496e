/**
 * Mutation testing on Node 24 (Stryker needs Node >= 22), in two modes:
 *
 *   node build/scripts/mutation.js full [stryker options]         (npm run mutation)
 *   node build/scripts/mutation.js incremental [stryker options]  (npm run mutation:ci, .ci/run)
 *
 * `full` runs every mutant and, when it passes and mutates all of src/ (no options), refreshes the
 * committed baseline in stryker-baseline/. `incremental` starts from that baseline and runs only
 * the mutants whose code changed or whose suite changed (scripts/mutation-baseline.ts); the score
 * is still over every mutant, and it breaks under `thresholds.break` all the same. Without a
 * baseline it runs everything.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync, gzipSync } from 'node:zlib'
import { ROOT } from './action-metadata.js'
import { changedSuites, suiteInputs, withoutTests, type SuiteInputs } from './mutation-baseline.js'

// Gzipped: the report holds every mutant with the tests that cover it, megabytes of JSON that
// compress twentyfold, and a refresh rewrites most of it.
const BASELINE = join(ROOT, 'stryker-baseline', 'incremental.json.gz')
const BASELINE_INPUTS = join(ROOT, 'stryker-baseline', 'suite-inputs.json')
// Stryker's own working copy of the report, which it rewrites: never the committed one.
const WORKING = join(ROOT, 'reports', 'stryker-incremental.json')

function node24(): string {
  const path = execFileSync('bash', [join(ROOT, 'scripts', 'node24.sh')], { encoding: 'utf8' }).trim()
  return path === '' ? process.execPath : path
}

function stryker(options: string[]): number {
  const args = [join(ROOT, 'node_modules/@stryker-mutator/core/bin/stryker.js'), 'run', ...options]
  const run = spawnSync(node24(), args, { cwd: ROOT, stdio: 'inherit' })
  return run.status ?? 1
}

/** Writes the report Stryker starts from: the baseline without the tests of the suites that changed. */
function prepareIncremental(): void {
  // Whatever an earlier local run left there has not been checked against the suites.
  rmSync(WORKING, { force: true })
  if (!existsSync(BASELINE) || !existsSync(BASELINE_INPUTS)) {
    console.log('No baseline in stryker-baseline/: every mutant runs (npm run mutation makes one).')
    return
  }
  const baseline = JSON.parse(readFileSync(BASELINE_INPUTS, 'utf8')) as SuiteInputs
  const changed = changedSuites(baseline, suiteInputs(ROOT))
  for (const [suite, files] of changed) {
    const shown = files.slice(0, 10).join(', ') + (files.length > 10 ? `, and ${String(files.length - 10)} more` : '')
    console.log(`${suite} changed since the baseline (${shown || 'new'}): the mutants its tests cover run again.`)
  }
  if (changed.size === 0) console.log('The suites are as in the baseline: only mutants in changed code run.')
  const report = JSON.parse(gunzipSync(readFileSync(BASELINE)).toString('utf8')) as Record<string, unknown>
  mkdirSync(join(ROOT, 'reports'), { recursive: true })
  writeFileSync(WORKING, JSON.stringify(withoutTests(report, changed.keys())))
}

function main(mode: string | undefined, options: string[]): number {
  const incremental = ['--incremental', '--incrementalFile', WORKING]
  if (mode === 'incremental') {
    prepareIncremental()
    return stryker([...incremental, ...options])
  }
  if (mode !== 'full') {
    console.error(`Usage: mutation.js full|incremental [stryker options]; got '${mode ?? ''}'`)
    return 2
  }
  const inputs = suiteInputs(ROOT)
  rmSync(WORKING, { force: true })
  const status = stryker([...incremental, '--force', ...options])
  if (status !== 0) return status
  if (options.length > 0) {
    console.log('The baseline in stryker-baseline/ is kept: only a run without options refreshes it.')
    return 0
  }
  mkdirSync(join(ROOT, 'stryker-baseline'), { recursive: true })
  writeFileSync(BASELINE, gzipSync(readFileSync(WORKING), { level: 9 }))
  writeFileSync(BASELINE_INPUTS, `${JSON.stringify(inputs, null, 2)}\n`)
  console.log('Baseline refreshed: commit stryker-baseline/ with the change it was run on.')
  return 0
}

process.exitCode = main(process.argv[2], process.argv.slice(3))
