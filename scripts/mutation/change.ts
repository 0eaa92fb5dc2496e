// What mutation testing on a change runs, decided before Stryker starts: the src/ lines changed since
// the baseline's commit, and the baseline's mutants whose verdict an edited test can alter (the ones
// it killed, and the ones it covered that lived). Both become Stryker `mutate` ranges; the test files
// that cover them are the only ones that run.
import type { FileChange } from './diff.js'
import { changesSince, movedLine, newLines } from './diff.js'
import { commitReader, mutated, treeReader } from './suites.js'
import { touchedBy, type TouchedTests, type TestIndex } from './touched-tests.js'
import {
  readRecord,
  readReport,
  type BaselineRecord,
  type IncrementalReport,
  type MutantResult,
  type Position
} from '../mutation-baseline.js'

/** CI's bound on the step, and the most mutants that fit in it on 2 shared cores (docs/development.md). */
export const BOUND_MS = 3 * 60_000
export const MAX_MUTANTS = 120

/** A mutant of the baseline that runs again, where it is now. */
export interface Rerun {
  file: string
  mutant: MutantResult
  start: Position
  end: Position
}

export interface ChangePlan {
  /** Per src/ file (path now), the changed lines as [first, last] stretches. */
  lines: Map<string, Array<[number, number]>>
  /** The baseline mutants that run again for the edited tests. */
  reruns: Rerun[]
  /** Stryker `mutate` patterns: `file:first-last` for lines, `file:line:column-line:column` for a mutant. */
  ranges: string[]
  /** The test files to run (paths now), or every one when some mutant's tests cannot be told. */
  testFiles: Set<string> | 'all'
}

const DETECTED_OR_LIVED = new Set(['Survived', 'Timeout'])

/** The baseline mutants whose verdict the touched tests decided or could change. */
export function mutantsOf(
  report: IncrementalReport,
  ids: ReadonlySet<string>
): Array<{ file: string; mutant: MutantResult }> {
  return Object.entries(report.files).flatMap(([file, { mutants }]) =>
    mutants
      .filter(
        (mutant) =>
          (mutant.killedBy ?? []).some((id) => ids.has(id)) ||
          (DETECTED_OR_LIVED.has(mutant.status) && (mutant.coveredBy ?? []).some((id) => ids.has(id)))
      )
      .map((mutant) => ({ file, mutant }))
  )
}

/** Where a baseline mutant of `file` is now; undefined when its file is gone or its lines changed. */
export function locate(
  changes: ReadonlyMap<string, FileChange>,
  file: string,
  mutant: MutantResult
): Rerun | undefined {
  const change = changes.get(file)
  if (change === undefined) return { file, mutant, ...mutant.location }
  if (change.newPath === undefined) return undefined
  const start = movedLine(change, mutant.location.start.line)
  const end = movedLine(change, mutant.location.end.line)
  if (start === undefined || end === undefined) return undefined
  return {
    file: change.newPath,
    mutant,
    start: { line: start, column: mutant.location.start.column },
    end: { line: end, column: mutant.location.end.column }
  }
}

/** Stryker's range for one mutant: its lines are 1-based, its columns 0-based (the report's are 1-based). */
export function mutantRange(rerun: Pick<Rerun, 'file' | 'start' | 'end'>): string {
  const { file, start, end } = rerun
  return `${file}:${String(start.line)}:${String(start.column - 1)}-${String(end.line)}:${String(end.column - 1)}`
}

export function inLines(lines: ReadonlyArray<[number, number]> | undefined, start: Position, end: Position): boolean {
  return (lines ?? []).some(([first, last]) => start.line >= first && end.line <= last)
}

export function planChange(
  changes: FileChange[],
  report: IncrementalReport,
  touched: TouchedTests & { index: TestIndex }
): ChangePlan {
  const byOldPath = new Map(
    changes.flatMap((change) => (change.oldPath === undefined ? [] : [[change.oldPath, change]]))
  )
  const lines = new Map<string, Array<[number, number]>>()
  for (const change of changes) {
    if (change.newPath === undefined || !mutated(change.newPath)) continue
    const stretches = newLines(change)
    if (stretches.length > 0) lines.set(change.newPath, stretches)
  }
  const reruns = mutantsOf(report, touched.ids)
    .map(({ file, mutant }) => locate(byOldPath, file, mutant))
    .filter((rerun): rerun is Rerun => rerun !== undefined && !inLines(lines.get(rerun.file), rerun.start, rerun.end))
  const ranges = [
    ...[...lines].flatMap(([file, stretches]) =>
      stretches.map(([first, last]) => `${file}:${String(first)}-${String(last)}`)
    ),
    ...new Set(reruns.map(mutantRange))
  ]

  // The tests that cover what runs: of a changed file, whatever covered any of its mutants; of a
  // rerun, whatever covered a mutant inside its range (a range holds the mutants nested in it).
  const covering = new Set<string>()
  let unknown = false
  const oldPathOf = new Map(
    changes.flatMap((change) => (change.newPath && change.oldPath ? [[change.newPath, change.oldPath]] : []))
  )
  for (const file of lines.keys()) {
    const old = report.files[oldPathOf.get(file) ?? file]
    // A new file (or one without mutants before) has no coverage to go by.
    if (old === undefined) unknown = true
    for (const mutant of old?.mutants ?? [])
      for (const id of [...(mutant.coveredBy ?? []), ...(mutant.killedBy ?? [])]) covering.add(id)
  }
  for (const rerun of reruns) {
    const old = report.files[oldPathOf.get(rerun.file) ?? rerun.file]
    for (const mutant of old?.mutants ?? []) {
      const now = locate(byOldPath, oldPathOf.get(rerun.file) ?? rerun.file, mutant)
      const nested =
        now !== undefined &&
        (now.start.line > rerun.start.line ||
          (now.start.line === rerun.start.line && now.start.column >= rerun.start.column)) &&
        (now.end.line < rerun.end.line || (now.end.line === rerun.end.line && now.end.column <= rerun.end.column))
      if (nested) for (const id of [...(mutant.coveredBy ?? []), ...(mutant.killedBy ?? [])]) covering.add(id)
    }
  }
  const testFiles = new Set(touched.testFiles)
  for (const id of covering) {
    const files = touched.index.fileOf.get(id)
    if (files === undefined) unknown = true
    for (const file of files ?? []) {
      const change = byOldPath.get(file)
      if (change === undefined) testFiles.add(file)
      else if (change.newPath !== undefined) testFiles.add(change.newPath)
    }
  }
  return { lines, reruns, ranges, testFiles: unknown ? 'all' : testFiles }
}

export type Decision = { kind: 'skip' | 'too large' | 'run'; line: string }

export function tooLarge(what: string): string {
  return (
    `${what}: more than fits in CI's ${String(BOUND_MS / 60_000)} minutes. Refresh the baseline and commit stryker-baseline/: ` +
    '`npm run mutation` (every mutant, about 2 hours on 2 cores) or `npm run mutation:update` (this change folded into the last full run).'
  )
}

/** Skip when nothing runs, stop at once when the edited tests alone decide more mutants than fit, else run. */
export function decide(plan: ChangePlan, touched: number, since: string, maxMutants = MAX_MUTANTS): Decision {
  if (plan.ranges.length === 0) {
    const tests =
      touched === 0
        ? 'no src/ line and no test the mutation suites run changed'
        : `no src/ line changed, and the ${String(touched)} edited tests decided no mutant's verdict in the baseline`
    return { kind: 'skip', line: `Mutation testing on the change: skipped: since ${since}, ${tests}.` }
  }
  if (plan.reruns.length > maxMutants) {
    return {
      kind: 'too large',
      line: tooLarge(`${String(plan.reruns.length)} mutants to run again for the edited tests`)
    }
  }
  const lines = [...plan.lines.values()].flat().reduce((sum, [first, last]) => sum + last - first + 1, 0)
  const files = plan.testFiles === 'all' ? 'every test file' : `${String(plan.testFiles.size)} test files`
  return {
    kind: 'run',
    line:
      `Mutation testing on the change since ${since}: ${String(lines)} changed src/ lines in ${String(plan.lines.size)} files, ` +
      `${String(plan.reruns.length)} baseline mutants again for the edited tests; tests from ${files}.`
  }
}

export interface Prepared {
  record: BaselineRecord
  changes: FileChange[]
  report: IncrementalReport
  touched: TouchedTests & { index: TestIndex }
  plan: ChangePlan
  decision: Decision
}

/** Everything decided before Stryker starts, from the committed baseline and the tree at `root`. */
export function prepareChange(root: string, maxMutants = MAX_MUTANTS): Prepared {
  const record = readRecord(root)
  const changes = changesSince(root, record.commit)
  const report = readReport(root)
  const touched = touchedBy(changes, report, treeReader(root), commitReader(root, record.commit))
  const plan = planChange(changes, report, touched)
  const since = `${record.commit.slice(0, 7)} (${record.date})`
  return { record, changes, report, touched, plan, decision: decide(plan, touched.ids.size, since, maxMutants) }
}
