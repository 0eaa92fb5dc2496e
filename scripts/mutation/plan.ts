// What mutation testing on a change runs, decided before Stryker starts, within CI's time (change.ts):
// the mutants on the src/ lines changed since the baseline's commit (listed by Stryker's instrumenter),
// the newest commits' lines first and, past the budget, a sample seeded by the commit; then, in what they
// leave (a third of the time at least), a sample of at most MAX_RERUNS of the baseline's mutants whose
// verdict an edited test can alter: those it killed (a weaker test lets them live) and those it covered
// that lived (a stronger one may kill them). Each chosen mutant becomes a Stryker `mutate` range; only
// the test files that cover them run.
import {
  changedLines,
  costOf,
  COST,
  locate,
  MAX_RERUNS,
  mutantRange,
  overlaps,
  testsOf,
  within,
  type Candidate,
  type ChangePlan
} from './change.js'
import type { FileChange } from './diff.js'
import type { Listed } from './listing.js'
import { select } from './sample.js'
import { SUITES } from './suites.js'
import type { TestIndex, TouchedTests } from './touched-tests.js'
import type { IncrementalReport, MutantResult } from '../mutation-baseline.js'

export interface PlanInput {
  changes: FileChange[]
  report: IncrementalReport
  touched: TouchedTests & { index: TestIndex }
  /** The mutants on the changed lines (listing.ts). */
  listed: Listed[]
  /** The seconds the mutants may take. */
  seconds: number
  /** The sample's seed: the commit. */
  seed: string
  /** The changed lines' mutants in groups, the newest commit's first (recency.ts); asked only past the budget. */
  byRecency: (candidates: Candidate[]) => Candidate[][]
}

const oldPaths = (changes: FileChange[]): Map<string, string> =>
  new Map(changes.flatMap((change) => (change.newPath && change.oldPath ? [[change.newPath, change.oldPath]] : [])))

const byOldPath = (changes: FileChange[]): Map<string, FileChange> =>
  new Map(changes.flatMap((change) => (change.oldPath === undefined ? [] : [[change.oldPath, change]])))

/** The mutants on changed lines, each expected to take what its file's mutants' tests take (a new file's: a scenario's). */
function changedCandidates(input: PlanInput, unit: (id: string) => boolean): Candidate[] {
  const oldPathOf = oldPaths(input.changes)
  const costs = new Map<string, number>()
  const cost = (file: string): number => {
    if (!costs.has(file)) {
      const old = input.report.files[oldPathOf.get(file) ?? file]
      costs.set(file, old === undefined ? COST.scenario : costOf([...new Set(old.mutants.flatMap(testsOf))], unit))
    }
    return costs.get(file) ?? COST.scenario
  }
  return input.listed.map((listed) => ({ ...listed, cost: Math.max(cost(listed.file), COST.unit) }))
}

/** The baseline's mutants where they are now, as candidates: not those whose lines changed, nor any that spans one. */
function locatedCandidates(input: PlanInput, unit: (id: string) => boolean): Map<MutantResult, Candidate> {
  const moves = byOldPath(input.changes)
  const lines = changedLines(input.changes)
  const located = new Map<MutantResult, Candidate>()
  for (const [file, { mutants }] of Object.entries(input.report.files)) {
    for (const mutant of mutants) {
      const now = locate(moves, file, mutant)
      if (now === undefined || overlaps(lines.get(now.file), now.start, now.end)) continue
      const { mutatorName, replacement } = mutant
      located.set(mutant, { ...now, mutatorName, replacement, mutant, cost: costOf(testsOf(mutant), unit) })
    }
  }
  return located
}

/** What a candidate's range runs: itself and the candidates of its file nested in it. */
function nesting(candidates: Iterable<Candidate>): (candidate: Candidate) => Candidate[] {
  const byFile = new Map<string, Candidate[]>()
  for (const candidate of candidates) {
    const list = byFile.get(candidate.file) ?? []
    list.push(candidate)
    byFile.set(candidate.file, list)
  }
  const held = new Map<Candidate, Candidate[]>()
  return (candidate) => {
    if (!held.has(candidate)) {
      held.set(candidate, [
        candidate,
        ...(byFile.get(candidate.file) ?? []).filter((other) => within(candidate, other))
      ])
    }
    return held.get(candidate) ?? [candidate]
  }
}

/** The test files that cover what runs (paths now), and the new test files; every one when some test cannot be told. */
function testFilesFor(running: Candidate[], input: PlanInput): Set<string> | 'all' {
  const { report, touched } = input
  const oldPathOf = oldPaths(input.changes)
  const moves = byOldPath(input.changes)
  const now = (file: string): string | undefined => (moves.has(file) ? moves.get(file)?.newPath : file)
  const ids = new Set<string>()
  const newCode = new Set<string>()
  let unknown = false
  for (const candidate of running) {
    if (candidate.mutant !== undefined) {
      for (const id of testsOf(candidate.mutant)) ids.add(id)
      continue
    }
    // New code: whatever covered its file's mutants; a new file (or one without mutants before) has
    // no coverage to go by.
    if (newCode.has(candidate.file)) continue
    newCode.add(candidate.file)
    const old = report.files[oldPathOf.get(candidate.file) ?? candidate.file]
    if (old === undefined) unknown = true
    for (const id of (old?.mutants ?? []).flatMap(testsOf)) ids.add(id)
  }
  const tests = new Set<string>()
  for (const id of ids) {
    const found = touched.index.fileOf.get(id)
    if (found === undefined) unknown = true
    for (const file of found ?? []) {
      const moved = now(file)
      if (moved !== undefined) tests.add(moved)
    }
  }
  const known = new Set([...touched.index.byFile.keys()].map(now))
  for (const file of touched.testFiles) if (!known.has(file)) tests.add(file)
  return unknown ? 'all' : tests
}

/** One range a place: those nested in another range that runs add nothing (it holds them). */
function outermost(running: Candidate[]): Candidate[] {
  const places = [...new Map(running.map((candidate) => [mutantRange(candidate), candidate])).values()]
  return places.filter(
    (candidate) =>
      !places.some((other) => other !== candidate && other.file === candidate.file && within(other, candidate))
  )
}

/**
 * The share of the time the changed lines leave to the mutants edited tests decided (or what those can
 * use, if less): the baseline's commit lags behind main, so every change holds changed lines, and
 * without it a test refactor's mutants would never run. The reruns get all the changed lines leave.
 */
export const RERUN_SHARE = 1 / 3

/** The seconds a sample of at most MAX_RERUNS of `decided` is expected to take, at their mean cost. */
function rerunSeconds(decided: ReadonlySet<Candidate>): number {
  const total = [...decided].reduce((sum, candidate) => sum + candidate.cost, 0)
  return decided.size === 0 ? 0 : (total / decided.size) * Math.min(decided.size, MAX_RERUNS)
}

export function planChange(input: PlanInput): ChangePlan {
  const { touched, seconds, seed } = input
  const units = new Set(touched.index.bySuite.get(SUITES[0] ?? '') ?? [])
  const unit = (id: string): boolean => units.has(id)
  const cost = (candidate: Candidate): number => candidate.cost
  const onLines = changedCandidates(input, unit)
  const total = onLines.reduce((sum, candidate) => sum + candidate.cost, 0)
  const located = locatedCandidates(input, unit)
  const decided = new Set(mutantsOf(input.report, touched.ids).flatMap((mutant) => located.get(mutant) ?? []))
  const kept = Math.min(seconds * RERUN_SHARE, rerunSeconds(decided))
  const groups = total <= seconds - kept ? [onLines] : input.byRecency(onLines)
  const changed = select(groups, { seconds: seconds - kept, count: Infinity, cost, brings: nesting(onLines), seed })
  const reruns = select([[...decided]], {
    seconds: seconds - changed.seconds,
    count: MAX_RERUNS,
    cost,
    brings: nesting(located.values()),
    seed
  })
  const running = [...changed.chosen, ...reruns.chosen]
  return {
    lines: changedLines(input.changes),
    changed: { all: onLines.length, chosen: [...changed.chosen], sampled: changed.sampled },
    reruns: { all: decided.size, chosen: [...reruns.chosen].filter((c) => decided.has(c)), sampled: reruns.sampled },
    ranges: outermost(running).map(mutantRange),
    testFiles: testFilesFor(running, input),
    seconds: changed.seconds + reruns.seconds
  }
}

/** The baseline's mutants the touched tests killed, and those they covered that lived. */
export function mutantsOf(report: IncrementalReport, ids: ReadonlySet<string>): MutantResult[] {
  return Object.values(report.files).flatMap(({ mutants }) =>
    mutants.filter(
      (mutant) =>
        (mutant.killedBy ?? []).some((id) => ids.has(id)) ||
        (mutant.status === 'Survived' && (mutant.coveredBy ?? []).some((id) => ids.has(id)))
    )
  )
}
