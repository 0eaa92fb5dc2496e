// The mutants on a change's src/ lines, listed before Stryker starts: the baseline cannot list them (their
// code is new), so Stryker's own instrumenter (the one its run uses, same version) places them, on the
// changed lines alone, as a `mutate` range does: a mutant counts when its whole location is inside one.
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { ROOT } from '../action-metadata.js'
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

interface Placed {
  fileName: string
  mutatorName: string
  replacement: string
  /** Lines and columns from 0, as Stryker counts while it runs. */
  location: { start: Position; end: Position }
}

/** The mutants Stryker places on `lines` (per file, [first, last] stretches, from 1) of the files as `read` gives them. */
export function listMutants(read: Reader, lines: ReadonlyMap<string, ReadonlyArray<[number, number]>>): Listed[] {
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
  const output = execFileSync(process.execPath, [join(ROOT, 'scripts', 'mutation', 'list-mutants.mjs')], {
    input: JSON.stringify(files),
    encoding: 'utf8',
    stdio: ['pipe', 'pipe', 'inherit'],
    maxBuffer: 256 * 1024 * 1024
  })
  return (JSON.parse(output) as Placed[]).map((mutant) => ({
    file: mutant.fileName,
    start: { line: mutant.location.start.line + 1, column: mutant.location.start.column + 1 },
    end: { line: mutant.location.end.line + 1, column: mutant.location.end.column + 1 },
    mutatorName: mutant.mutatorName,
    replacement: mutant.replacement
  }))
}
