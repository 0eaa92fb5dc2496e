// Everything decided before Stryker starts for a change, from the committed baseline and the tree,
// and the line that says it: what runs, or why nothing does.
import { BOUND_MS, budgetSeconds, changedLines as changedLinesOf, type ChangePlan } from './change.js'
import { changesSince, type FileChange } from './diff.js'
import { listMutants } from './listing.js'
import { planChange } from './plan.js'
import { byRecency } from './recency.js'
import { commitReader, treeReader } from './suites.js'
import { touchedBy, type TestIndex, type TouchedTests } from './touched-tests.js'
import {
  headCommit,
  readRecord,
  readReport,
  type BaselineRecord,
  type IncrementalReport
} from '../mutation-baseline.js'

export type Decision = { kind: 'skip' | 'run'; line: string }

const count = (lines: ChangePlan['lines']): number =>
  [...lines.values()].flat().reduce((sum, [first, last]) => sum + last - first + 1, 0)

/** What the changed lines hold and what of it runs. */
export function changedPart(plan: ChangePlan, seed: string): string {
  const { all, chosen, sampled } = plan.changed
  if (plan.lines.size === 0) return 'no src/ line changed'
  const held = `${String(count(plan.lines))} changed src/ lines in ${String(plan.lines.size)} files hold ${String(all)} mutants`
  if (all === 0) return held
  if (!sampled) return `${held}, all of them run`
  return `${held}, ${String(chosen.length)} of them run (the newest commits' lines first, then a sample seeded by ${seed.slice(0, 7)})`
}

/** What the edited tests decided and what of it runs again. */
export function rerunPart(plan: ChangePlan, touched: number, seed: string): string {
  const { all, chosen, sampled } = plan.reruns
  if (touched === 0) return 'no test the mutation suites run changed'
  const decided = `the ${String(touched)} edited tests decided ${String(all)} of the baseline's mutants`
  if (all === 0) return `the ${String(touched)} edited tests decided none of the baseline's mutants`
  if (!sampled) return `${decided}, all of them run again`
  if (chosen.length === 0) return `${decided}, none of them fit after the changed lines' (the weekly run has them)`
  return `${decided}, ${String(chosen.length)} of them run again (a sample seeded by ${seed.slice(0, 7)})`
}

/** Skip when no mutant is to run, saying why; else run, saying what. */
export function decide(plan: ChangePlan, touched: number, since: string, seed: string): Decision {
  if (plan.ranges.length === 0) {
    const why =
      plan.lines.size === 0 && touched === 0
        ? 'no src/ line and no test the mutation suites run changed'
        : `${changedPart(plan, seed)}, and ${rerunPart(plan, touched, seed)}`
    return { kind: 'skip', line: `Mutation testing on the change: skipped: since ${since}, ${why}.` }
  }
  const files = plan.testFiles === 'all' ? 'every test file' : `${String(plan.testFiles.size)} test files`
  return {
    kind: 'run',
    line:
      `Mutation testing on the change since ${since}: ${changedPart(plan, seed)}; ${rerunPart(plan, touched, seed)}; ` +
      `tests from ${files}; the mutants should take about ${String(Math.round(plan.seconds))} s.`
  }
}

export interface Prepared {
  record: BaselineRecord
  changes: FileChange[]
  report: IncrementalReport
  touched: TouchedTests & { index: TestIndex }
  plan: ChangePlan
  seed: string
  decision: Decision
}

/**
 * Everything decided before Stryker starts, from the committed baseline and the tree at `root`;
 * `started` is when the step began, `boundMs` its bound.
 */
export function prepareChange(
  root: string,
  started: number,
  now: () => number = Date.now,
  boundMs = BOUND_MS
): Prepared {
  const record = readRecord(root)
  const changes = changesSince(root, record.commit)
  const report = readReport(root)
  const touched = touchedBy(changes, report, treeReader(root), commitReader(root, record.commit))
  const seed = headCommit(root)
  const plan = planChange({
    changes,
    report,
    touched,
    listed: listMutants(treeReader(root), changedLinesOf(changes)),
    seconds: budgetSeconds(now() - started, boundMs),
    seed,
    byRecency: (candidates) => byRecency(root, candidates)
  })
  const since = `${record.commit.slice(0, 7)} (${record.date})`
  return { record, changes, report, touched, plan, seed, decision: decide(plan, touched.ids.size, since, seed) }
}
