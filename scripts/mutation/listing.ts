// The mutants on a change's src/ lines, listed before Stryker starts: the baseline cannot list them (their
// code is new), so Stryker's own instrumenter (the one its run uses, same version) places them, on the
// changed lines alone, as a `mutate` range does: a mutant counts when its whole location is inside one.
import { Instrumenter } from '@stryker-mutator/instrumenter'
import type { Position } from '../mutation-baseline.js'
import type { Reader } from './suites.js'

/** A mutant on a changed line, where the report would put it (lines and columns from 1). */
export interface Listed {
  file: string
  start: Position
  end: Position
  mutatorName: string
  replacement: string
}

const quiet = (): void => undefined
// The instrumenter logs through Stryker's logger; here only its warnings matter.
const logger = {
  trace: quiet,
  debug: quiet,
  info: quiet,
  warn: (message: string, ...args: unknown[]) => console.warn(message, ...args),
  error: (message: string, ...args: unknown[]) => console.error(message, ...args),
  fatal: (message: string, ...args: unknown[]) => console.error(message, ...args),
  isTraceEnabled: () => false,
  isDebugEnabled: () => false,
  isInfoEnabled: () => false,
  isWarnEnabled: () => true,
  isErrorEnabled: () => true,
  isFatalEnabled: () => true
}

/** The mutants Stryker places on `lines` (per file, [first, last] stretches, from 1) of the files as `read` gives them. */
export async function listMutants(
  read: Reader,
  lines: ReadonlyMap<string, ReadonlyArray<[number, number]>>
): Promise<Listed[]> {
  const files = [...lines].map(([name, stretches]) => ({
    name,
    content: read(name) ?? '',
    // Stryker's ranges count lines from 0 here, and end before the column: the whole last line is in.
    mutate: stretches.map(([first, last]) => ({
      start: { line: first - 1, column: 0 },
      end: { line: last - 1, column: Number.MAX_SAFE_INTEGER }
    }))
  }))
  if (files.length === 0) return []
  const { mutants } = await new Instrumenter(logger).instrument(files, {
    plugins: null,
    excludedMutations: [],
    ignorers: []
  })
  return mutants.map((mutant) => ({
    file: mutant.fileName,
    start: { line: mutant.location.start.line + 1, column: mutant.location.start.column + 1 },
    end: { line: mutant.location.end.line + 1, column: mutant.location.end.column + 1 },
    mutatorName: mutant.mutatorName,
    replacement: mutant.replacement
  }))
}
