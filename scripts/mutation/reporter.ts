// A Stryker reporter plugin for the run on a change (appendPlugins in its configuration): each
// mutant's verdict appended to a file as Stryker reaches it, so that a run stopped at CI's time bound
// still has the verdicts it reached (Stryker writes its own reports only at the end). The plugin's
// shape is what @stryker-mutator/api's declareClassPlugin returns; Stryker loads it in its own process,
// whose folder is the repository's root.
import { appendFileSync } from 'node:fs'
import { isAbsolute, relative } from 'node:path'

/** The verdicts, one JSON object a line, as mutants of Stryker's report (lines and columns from 1). */
export const VERDICTS = 'reports/mutation-change/verdicts.ndjson'

export interface Tested {
  fileName: string
  mutatorName: string
  replacement?: string
  status: string
  location: { start: { line: number; column: number }; end: { line: number; column: number } }
}

/**
 * A verdict's line: the mutant as Stryker's report has it. Stryker gives reporters its report's
 * location (lines and columns from 1): @stryker-mutator/core's MutationTestReportHelper converts each
 * mutant's with toSchemaLocation before onMutantTested (reporters/mutation-test-report-helper.js).
 */
export function verdictLine(result: Readonly<Tested>, cwd: string): string {
  const file = isAbsolute(result.fileName) ? relative(cwd, result.fileName) : result.fileName
  const { start, end } = result.location
  return JSON.stringify({
    file: file.replaceAll('\\', '/'),
    mutatorName: result.mutatorName,
    replacement: result.replacement,
    status: result.status,
    location: { start: { line: start.line, column: start.column }, end: { line: end.line, column: end.column } }
  })
}

class VerdictsReporter {
  static readonly inject = [] as const

  onMutantTested(result: Readonly<Tested>): void {
    appendFileSync(VERDICTS, `${verdictLine(result, process.cwd())}\n`)
  }
}

export const strykerPlugins = [{ kind: 'Reporter', name: 'change-verdicts', injectableClass: VerdictsReporter }]
