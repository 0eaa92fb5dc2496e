// What mutation testing on a change runs, decided before Stryker starts: the src/ lines changed since
// the baseline's commit, and the baseline's mutants whose verdict an edited test can alter: the ones
// it killed (a weaker test lets them live), then, as far as they fit, those it covered that lived (a
// stronger one may kill them). Both become Stryker `mutate` ranges; the test files that cover them
// are the only ones that run.
import type { FileChange } from './diff.js'
import { changesSince, movedLine, newLines } from './diff.js'
import { commitReader, mutated, SUITES, treeReader } from './suites.js'
import { touchedBy, type TouchedTests, type TestIndex } from './touched-tests.js'
import {
  readRecord,
  readReport,
  type BaselineRecord,
  type IncrementalReport,
  type MutantResult,
  type Position
} from '../mutation-baseline.js'

/**
 * CI's bound on the step, and the most mutants that fit in it on 2 shared cores: Stryker takes 35 to
 * 50 s to start and run the tests once, then 1 to 2 s a mutant of the scenarios' code (one that lives
 * runs every test that covers it), a few hundred ms one a unit test kills (docs/development.md).
 */
export const BOUND_MS = 3 * 60_000
export const MAX_MUTANTS = 80
/**
 * A mutant an edited test covered that lived can only do better, and the gate does not wait for it:
 * it runs while the run stays within half the bound, and only when unit tests alone cover it (it
 * runs every test that covers it, and a scenario takes seconds).
 */
export const ROOM_FOR_COVERED = MAX_MUTANTS / 2

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
  /** Those the edited tests covered that lived, left out: scenarios cover them, or more than fit. */
  leftOut: number
  /** What the ranges hold: the baseline's mutants in them (a range holds those nested in it), one a changed line. */
  weight: number
  /** Stryker `mutate` patterns: `file:first-last` for lines, `file:line:column-line:column` for a mutant. */
  ranges: string[]
  /** The test files to run (paths now), or every one when some mutant's tests cannot be told. */
  testFiles: Set<string> | 'all'
}

/**
 * The baseline mutants whose verdict the touched tests decided (`killed`), and those they covered
 * that lived (`covered`): what a stronger test may now kill. Of these, `cheap` are those only the
 * tests `quick` says are quick cover.
 */
export function mutantsOf(
  report: IncrementalReport,
  ids: ReadonlySet<string>,
  quick: (id: string) => boolean = () => true
): Record<'killed' | 'covered' | 'cheap', Array<{ file: string; mutant: MutantResult }>> {
  const all = Object.entries(report.files).flatMap(([file, { mutants }]) => mutants.map((mutant) => ({ file, mutant })))
  const covered = all.filter(
    ({ mutant }) => mutant.status === 'Survived' && (mutant.coveredBy ?? []).some((id) => ids.has(id))
  )
  return {
    killed: all.filter(({ mutant }) => (mutant.killedBy ?? []).some((id) => ids.has(id))),
    covered,
    cheap: covered.filter(({ mutant }) => (mutant.coveredBy ?? []).every(quick))
  }
}

const within = (outer: Pick<Rerun, 'start' | 'end'>, inner: Pick<Rerun, 'start' | 'end'>): boolean =>
  (inner.start.line > outer.start.line ||
    (inner.start.line === outer.start.line && inner.start.column >= outer.start.column)) &&
  (inner.end.line < outer.end.line || (inner.end.line === outer.end.line && inner.end.column <= outer.end.column))

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
  touched: TouchedTests & { index: TestIndex },
  room = ROOM_FOR_COVERED
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
  const oldPathOf = new Map(
    changes.flatMap((change) => (change.newPath && change.oldPath ? [[change.newPath, change.oldPath]] : []))
  )
  // The baseline's mutants where they are now, by file: what a rerun's range holds.
  const located = new Map<string, Rerun[]>()
  const at = (file: string): Rerun[] => {
    if (!located.has(file)) {
      const old = oldPathOf.get(file) ?? file
      const mutants = report.files[old]?.mutants ?? []
      located.set(
        file,
        mutants.map((mutant) => locate(byOldPath, old, mutant)).filter((rerun): rerun is Rerun => rerun !== undefined)
      )
    }
    return located.get(file) ?? []
  }
  const held = (rerun: Rerun): Rerun[] => at(rerun.file).filter((mutant) => within(rerun, mutant))
  const changedLines = [...lines.values()].flat().reduce((sum, [first, last]) => sum + last - first + 1, 0)
  // The unit suites' tests take milliseconds; a scenario, seconds.
  const units = new Set(touched.index.bySuite.get(SUITES[0] ?? '') ?? [])
  const { killed, covered, cheap } = mutantsOf(report, touched.ids, (id) => units.has(id))
  const place = (found: Array<{ file: string; mutant: MutantResult }>): Rerun[] =>
    found
      .map(({ file, mutant }) => locate(byOldPath, file, mutant))
      .filter((rerun): rerun is Rerun => rerun !== undefined && !inLines(lines.get(rerun.file), rerun.start, rerun.end))
  const reruns = place(killed)
  const holding = new Set(reruns.flatMap(held))
  const quickly = new Set(cheap.map(({ mutant }) => mutant))
  let leftOut = 0
  for (const rerun of place(covered)) {
    const more = held(rerun).filter((mutant) => !holding.has(mutant))
    if (!quickly.has(rerun.mutant) || changedLines + holding.size + more.length > room) {
      leftOut++
      continue
    }
    reruns.push(rerun)
    for (const mutant of more) holding.add(mutant)
  }
  const ranges = [
    ...[...lines].flatMap(([file, stretches]) =>
      stretches.map(([first, last]) => `${file}:${String(first)}-${String(last)}`)
    ),
    ...new Set(reruns.map(mutantRange))
  ]

  // The tests that cover what runs: of a changed file, whatever covered any of its mutants; of a
  // rerun, whatever covered a mutant inside its range.
  const covering = new Set<string>()
  let unknown = false
  for (const file of lines.keys()) {
    const old = report.files[oldPathOf.get(file) ?? file]
    // A new file (or one without mutants before) has no coverage to go by.
    if (old === undefined) unknown = true
    for (const mutant of old?.mutants ?? [])
      for (const id of [...(mutant.coveredBy ?? []), ...(mutant.killedBy ?? [])]) covering.add(id)
  }
  for (const { mutant } of holding)
    for (const id of [...(mutant.coveredBy ?? []), ...(mutant.killedBy ?? [])]) covering.add(id)
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
  return { lines, reruns, leftOut, weight: changedLines + holding.size, ranges, testFiles: unknown ? 'all' : testFiles }
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
  if (plan.weight > maxMutants) {
    return { kind: 'too large', line: tooLarge(`About ${String(plan.weight)} mutants to run`) }
  }
  const lines = [...plan.lines.values()].flat().reduce((sum, [first, last]) => sum + last - first + 1, 0)
  const files = plan.testFiles === 'all' ? 'every test file' : `${String(plan.testFiles.size)} test files`
  const left =
    plan.leftOut === 0
      ? ''
      : ` ${String(plan.leftOut)} more that they covered and that lived ${plan.leftOut === 1 ? 'is' : 'are'} left to \`npm run mutation:update\` or the full run (scenarios cover them, or more than fit).`
  return {
    kind: 'run',
    line:
      `Mutation testing on the change since ${since}: ${String(lines)} changed src/ lines in ${String(plan.lines.size)} files, ` +
      `${String(plan.reruns.length)} baseline mutants again for the edited tests, about ${String(plan.weight)} mutants in all; ` +
      `tests from ${files}.${left}`
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
export function prepareChange(root: string): Prepared {
  const record = readRecord(root)
  const changes = changesSince(root, record.commit)
  const report = readReport(root)
  const touched = touchedBy(changes, report, treeReader(root), commitReader(root, record.commit))
  const plan = planChange(changes, report, touched)
  const since = `${record.commit.slice(0, 7)} (${record.date})`
  return { record, changes, report, touched, plan, decision: decide(plan, touched.ids.size, since) }
}
