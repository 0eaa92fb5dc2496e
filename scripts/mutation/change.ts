// Mutation testing on a change: CI's time bound, what a mutant is expected to take, and where the
// baseline's mutants are after the change (plan.ts decides what runs, verdict.ts judges it).
import type { FileChange } from './diff.js'
import { movedLine, newLines } from './diff.js'
import { mutated } from './suites.js'
import type { MutantResult, Position } from '../mutation-baseline.js'

/**
 * CI's bound on the step, at most: Stryker is stopped STOP_MS before it, to read its verdicts and
 * print them. `.ci/run` gives it less when the steps before it left less of its 5 minutes.
 */
export const BOUND_MS = 3 * 60_000
export const STOP_MS = 10_000
/**
 * The shortest bound worth a run: Stryker's start (35 to 50 s), the stop and room for a few mutants
 * (.ci/run gave 75 s once: nothing ran). On a slow machine the steps before it leave less, and the
 * gate is a sample either way: the weekly full run has the rest.
 */
export const MIN_BOUND_MS = 100_000
/**
 * What the mutants may take, in seconds, on 2 shared cores: the bound, less Stryker's start (35 to 50 s
 * to instrument and run the chosen tests once) and room for a loaded machine. A mutant a scenario
 * covers takes 1 to 2 s (2 s on a loaded machine, as measured) (while it lives it runs every test that covers it), one unit tests alone cover
 * a few hundred ms (docs/development.md).
 */
export const START_S = 50
export const SLACK_S = 20
export const COST = { scenario: 2, unit: 0.3, uncovered: 0.05 }
/** The most mutants an edited test decided that run (issue 41). */
export const MAX_RERUNS = 150

/** A mutant of the baseline where it is now. */
export interface Rerun {
  file: string
  mutant: MutantResult
  start: Position
  end: Position
}

/** A mutant that may run: where it is now (lines and columns from 1), and the seconds it is expected to take. */
export interface Candidate {
  file: string
  start: Position
  end: Position
  mutatorName: string
  replacement?: string
  /** The baseline's mutant, when its lines are unchanged. */
  mutant?: MutantResult
  cost: number
}

/** Of one kind of mutant, how many there are, and those chosen to run. */
export interface Part {
  all: number
  chosen: Candidate[]
  /** A sample: not all of them fitted. */
  sampled: boolean
}

export interface ChangePlan {
  /** Per src/ file (path now), the changed lines as [first, last] stretches. */
  lines: Map<string, Array<[number, number]>>
  /** The mutants on the changed lines. */
  changed: Part
  /** The baseline's mutants the edited tests decided (killed, or covered while they lived). */
  reruns: Part
  /** Stryker `mutate` patterns, `file:line:column-line:column`, one a chosen mutant. */
  ranges: string[]
  /** The test files to run (paths now), or every one when some mutant's tests cannot be told. */
  testFiles: Set<string> | 'all'
  /** What the chosen mutants are expected to take. */
  seconds: number
}

/** The seconds the mutants may take when preparing took `elapsedMs` of the bound. */
export function budgetSeconds(elapsedMs: number, boundMs = BOUND_MS): number {
  return Math.max(0, (boundMs - STOP_MS - elapsedMs) / 1000 - START_S - SLACK_S)
}

/** The bound of `--bound <seconds>`, between MIN_BOUND_MS and BOUND_MS; BOUND_MS without it. */
export function parseBound(options: readonly string[]): number | undefined {
  if (options.length === 0) return BOUND_MS
  const [flag, value] = options
  const seconds = Number(value)
  if (flag !== '--bound' || options.length !== 2 || !Number.isInteger(seconds)) return undefined
  return Math.min(BOUND_MS, Math.max(MIN_BOUND_MS, seconds * 1000))
}

/** Whether `inner` lies inside `outer`, as Stryker takes a mutant to be inside a `mutate` range. */
export const within = (outer: Pick<Rerun, 'start' | 'end'>, inner: Pick<Rerun, 'start' | 'end'>): boolean =>
  (inner.start.line > outer.start.line ||
    (inner.start.line === outer.start.line && inner.start.column >= outer.start.column)) &&
  (inner.end.line < outer.end.line || (inner.end.line === outer.end.line && inner.end.column <= outer.end.column))

/** Where a baseline mutant of `file` is now; undefined when its file is gone or its first or last line changed. */
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

/** Whether a span shares a line with a changed stretch: its code is not the baseline's. */
export function overlaps(lines: ReadonlyArray<[number, number]> | undefined, start: Position, end: Position): boolean {
  return (lines ?? []).some(([first, last]) => start.line <= last && end.line >= first)
}

export const testsOf = (mutant: MutantResult): string[] => [...(mutant.coveredBy ?? []), ...(mutant.killedBy ?? [])]

/** What a mutant is expected to take, by the tests that cover it in the baseline (`unit` tells a unit test). */
export function costOf(tests: readonly string[], unit: (id: string) => boolean): number {
  if (tests.length === 0) return COST.uncovered
  return tests.every(unit) ? COST.unit : COST.scenario
}

/** The change's src/ lines, per file now: files Stryker mutates only. */
export function changedLines(changes: FileChange[]): Map<string, Array<[number, number]>> {
  const lines = new Map<string, Array<[number, number]>>()
  for (const change of changes) {
    if (change.newPath === undefined || !mutated(change.newPath)) continue
    const stretches = newLines(change)
    if (stretches.length > 0) lines.set(change.newPath, stretches)
  }
  return lines
}
