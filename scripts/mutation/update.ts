// Folding a change into the baseline without a full run: Stryker's incremental mode over all of
// src/, starting from the baseline's report as the change leaves it. Stryker diffs src/ itself and
// runs the mutants whose code changed; but it diffs a test by its suite file, which an edit inside
// an imported test file does not change, so the tests the change touched are dropped from the report
// here (their mutants run again) and the others are moved to the lines they are on now.
import type { FileChange } from './diff.js'
import { movedLine } from './diff.js'
import { mutated, type Reader } from './suites.js'
import type { TestIndex } from './touched-tests.js'
import type { IncrementalReport, TestDefinition } from '../mutation-baseline.js'

export function foldable(
  report: IncrementalReport,
  changes: FileChange[],
  touched: ReadonlySet<string>,
  index: TestIndex,
  now: Reader
): { report: IncrementalReport; dropped: number } {
  const byOldPath = new Map(
    changes.flatMap((change) => (change.oldPath === undefined ? [] : [[change.oldPath, change]]))
  )
  // A moved source file keeps its results: Stryker diffs its old text against the new one.
  const files = Object.fromEntries(
    Object.entries(report.files).map(([file, entry]) => {
      const moved = byOldPath.get(file)?.newPath
      return [moved !== undefined && mutated(file) ? moved : file, entry]
    })
  )
  let dropped = 0
  const where = (test: TestDefinition): TestDefinition | undefined => {
    if (touched.has(test.id) || test.location === undefined) return undefined
    const change = byOldPath.get(index.fileOf.get(test.id)?.[0] ?? '')
    if (change === undefined) return test
    const line = change.newPath === undefined ? undefined : movedLine(change, test.location.start.line)
    return line === undefined ? undefined : { ...test, location: { start: { ...test.location.start, line } } }
  }
  const testFiles = Object.fromEntries(
    Object.entries(report.testFiles ?? {}).map(([suite, entry]) => {
      const tests = entry.tests.map(where).filter((test): test is TestDefinition => test !== undefined)
      dropped += entry.tests.length - tests.length
      // The suite as it is now: Stryker then takes the lines above as they are.
      return [suite, { ...entry, source: now(suite) ?? entry.source, tests }]
    })
  )
  return { report: { ...report, files, testFiles }, dropped }
}
