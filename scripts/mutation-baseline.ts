// The committed mutation baseline, in stryker-baseline/: Stryker's incremental report of the last
// run over all of src/ (every mutant with its verdict and the tests that cover and killed it) and
// its record, baseline.json: the commit the run was made from, its date and its score. CI's run on
// the change starts from that commit (scripts/mutation/change.ts).
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync, gzipSync } from 'node:zlib'

// Gzipped: the report holds every mutant with the tests that cover it, megabytes of JSON that
// compress twentyfold, and a refresh rewrites most of it.
export const REPORT = join('stryker-baseline', 'incremental.json.gz')
export const RECORD = join('stryker-baseline', 'baseline.json')

/** A position in Stryker's reports: both 1-based. */
export interface Position {
  line: number
  column: number
}

export interface MutantResult {
  id: string
  mutatorName: string
  replacement?: string
  status: string
  coveredBy?: string[]
  killedBy?: string[]
  location: { start: Position; end: Position }
}

export interface TestDefinition {
  id: string
  name: string
  location?: { start: Position }
}

/** Stryker's incremental report (mutation-testing-report-schema), as far as it is read here. */
export interface IncrementalReport {
  files: Record<string, { source: string; mutants: MutantResult[] }>
  testFiles?: Record<string, { source?: string; tests: TestDefinition[] }>
  [other: string]: unknown
}

export interface Counts {
  killed: number
  timeout: number
  survived: number
  noCoverage: number
  ignored: number
  errors: number
}

/** What baseline.json says. */
export interface BaselineRecord {
  /** The commit src/ and the tests were at. */
  commit: string
  /** The day the run ended (UTC), YYYY-MM-DD. */
  date: string
  /** `full`: every mutant run; `update`: the last full run with the changes since folded in. */
  run: 'full' | 'update'
  /** Percent detected (killed or timed out) of the mutants with a verdict (errors and ignored left out), as Stryker counts. */
  score: number
  mutants: Counts
  /** The full run an update starts from (for a full run, itself). */
  fullRun: { commit: string; date: string; score: number }
  /** What else to know about the run, such as that it was stopped before its end. */
  note?: string
}

export function readReport(root: string): IncrementalReport {
  return JSON.parse(gunzipSync(readFileSync(join(root, REPORT))).toString('utf8')) as IncrementalReport
}

export function readRecord(root: string): BaselineRecord {
  return JSON.parse(readFileSync(join(root, RECORD), 'utf8')) as BaselineRecord
}

/** Stryker's verdicts counted, and its mutation score: detected over detected, survived and uncovered. */
export function score(mutants: Iterable<{ status: string }>): { score: number; mutants: Counts } {
  const counts: Counts = { killed: 0, timeout: 0, survived: 0, noCoverage: 0, ignored: 0, errors: 0 }
  for (const { status } of mutants) {
    if (status === 'Killed') counts.killed++
    else if (status === 'Timeout') counts.timeout++
    else if (status === 'Survived') counts.survived++
    else if (status === 'NoCoverage') counts.noCoverage++
    else if (status === 'Ignored') counts.ignored++
    else counts.errors++
  }
  const detected = counts.killed + counts.timeout
  const valid = detected + counts.survived + counts.noCoverage
  return { score: valid === 0 ? 100 : Math.round((detected / valid) * 10000) / 100, mutants: counts }
}

export function headCommit(root: string): string {
  return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim()
}

/** Writes the report Stryker left and its record; an update keeps the full run it started from. */
export function writeBaseline(
  root: string,
  report: IncrementalReport,
  run: BaselineRecord['run'],
  commit: string,
  now: Date
): BaselineRecord {
  const { score: percent, mutants } = score(Object.values(report.files).flatMap((file) => file.mutants))
  const date = now.toISOString().slice(0, 10)
  const fullRun = run === 'full' ? { commit, date, score: percent } : readRecord(root).fullRun
  const record: BaselineRecord = { commit, date, run, score: percent, mutants, fullRun }
  writeFileSync(join(root, REPORT), gzipSync(JSON.stringify(report), { level: 9 }))
  writeFileSync(join(root, RECORD), `${JSON.stringify(record, null, 2)}\n`)
  return record
}

export function describeRecord(record: BaselineRecord): string {
  const { killed, timeout, survived, noCoverage } = record.mutants
  const counted = killed + timeout + survived + noCoverage
  const kind =
    record.run === 'full'
      ? 'full run'
      : `update of the full run of ${record.fullRun.date} (${String(record.fullRun.score)} %)`
  const note = record.note === undefined ? '' : ` (${record.note})`
  return `${record.commit.slice(0, 7)} (${record.date}, ${kind}): ${String(record.score)} % of ${String(counted)} mutants detected${note}`
}

/**
 * How the score moved from the previous committed baseline to a new one: the weekly full run's result
 * says when it fell, which a change's sample cannot see. `fell` when it is lower, by any amount.
 */
export function scoreTrend(previous: BaselineRecord | undefined, now: BaselineRecord): { fell: boolean; line: string } {
  if (previous === undefined) return { fell: false, line: `Score: ${String(now.score)} % (no previous baseline).` }
  const change = Math.round((now.score - previous.score) * 100) / 100
  const was = `${String(previous.score)} % at ${previous.commit.slice(0, 7)} (${previous.date}, ${previous.run === 'full' ? 'full run' : 'update'})`
  if (change < 0) {
    return {
      fell: true,
      line: `Score fell: ${String(now.score)} %, ${String(-change)} points under the previous baseline's ${was}.`
    }
  }
  return {
    fell: false,
    line: `Score: ${String(now.score)} %, ${change === 0 ? 'as' : `${String(change)} points over`} the previous baseline's ${was}.`
  }
}
