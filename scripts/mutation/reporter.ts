// A Stryker reporter plugin for the run on a change (appendPlugins in its configuration): each
// mutant's verdict appended to a file as Stryker reaches it, so that a run stopped at CI's time bound
// still has the verdicts it reached (Stryker writes its own reports only at the end). The plugin's
// shape is what @stryker-mutator/api's declareClassPlugin returns; Stryker loads it in its own process,
// whose folder is the repository's root.
import { appendFileSync } from 'node:fs'
import { isAbsolute, relative } from 'node:path'

/** The verdicts, one JSON object a line, as mutants of Stryker's report (lines and columns from 1). */
export const VERDICTS = 'reports/mutation-change/verdicts.ndjson'

interface Tested {
  fileName: string
  mutatorName: string
  replacement?: string
  status: string
  location: { start: { line: number; column: number }; end: { line: number; column: number } }
}

class VerdictsReporter {
  static readonly inject = [] as const

  onMutantTested(result: Readonly<Tested>): void {
    const { start, end } = result.location
    const file = isAbsolute(result.fileName) ? relative(process.cwd(), result.fileName) : result.fileName
    const line = {
      file: file.replaceAll('\\', '/'),
      mutatorName: result.mutatorName,
      replacement: result.replacement,
      status: result.status,
      // Stryker counts both from 0 while it runs, from 1 in its report.
      location: {
        start: { line: start.line + 1, column: start.column + 1 },
        end: { line: end.line + 1, column: end.column + 1 }
      }
    }
    appendFileSync(VERDICTS, `${JSON.stringify(line)}\n`)
  }
}

export const strykerPlugins = [{ kind: 'Reporter', name: 'change-verdicts', injectableClass: VerdictsReporter }]
