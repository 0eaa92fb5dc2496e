// The verdict on a change's mutation run. The mutants on changed lines are the change's own: they
// must be detected at the break threshold (stryker.config.json, 85 %). The others ran because an
// edited test covered them (or sit inside one that did): their code is as it was, so the bar is the
// baseline's verdict, and a mutant the baseline detected that now lives is a test that got weaker.
import { inLines, locate } from './change.js'
import type { FileChange } from './diff.js'
import { score, type Counts, type IncrementalReport, type MutantResult, type Position } from '../mutation-baseline.js'

const DETECTED = new Set(['Killed', 'Timeout'])
const UNDETECTED = new Set(['Survived', 'NoCoverage'])

export interface ChangeVerdict {
  /** The mutants on changed lines. */
  changed: { score: number; mutants: Counts; total: number }
  /** The other mutants that ran, and those the baseline detected that now live. */
  reran: number
  weakened: string[]
  passed: boolean
}

const key = (
  file: string,
  mutant: Pick<MutantResult, 'mutatorName' | 'replacement'>,
  start: Position,
  end: Position
): string =>
  `${file}:${String(start.line)}:${String(start.column)}-${String(end.line)}:${String(end.column)} ${mutant.mutatorName} ${mutant.replacement ?? ''}`

export function judge(
  result: { files: Record<string, { mutants: MutantResult[] }> },
  lines: ReadonlyMap<string, ReadonlyArray<[number, number]>>,
  changes: FileChange[],
  baseline: IncrementalReport,
  breakAt: number
): ChangeVerdict {
  const byOldPath = new Map(
    changes.flatMap((change) => (change.oldPath === undefined ? [] : [[change.oldPath, change]]))
  )
  const before = new Map<string, string>()
  for (const [file, { mutants }] of Object.entries(baseline.files)) {
    for (const mutant of mutants) {
      const now = locate(byOldPath, file, mutant)
      if (now) before.set(key(now.file, mutant, now.start, now.end), mutant.status)
    }
  }
  const changed: MutantResult[] = []
  const weakened: string[] = []
  let reran = 0
  for (const [file, { mutants }] of Object.entries(result.files)) {
    for (const mutant of mutants) {
      const { start, end } = mutant.location
      if (inLines(lines.get(file), start, end)) {
        changed.push(mutant)
        continue
      }
      reran++
      const was = before.get(key(file, mutant, start, end))
      if (was !== undefined && DETECTED.has(was) && UNDETECTED.has(mutant.status)) {
        weakened.push(
          `${file}:${String(start.line)}:${String(start.column)} ${mutant.mutatorName} (${was} in the baseline, ${mutant.status} now)`
        )
      }
    }
  }
  const judged = score(changed)
  const { killed, timeout, survived, noCoverage } = judged.mutants
  const total = killed + timeout + survived + noCoverage
  return {
    changed: { ...judged, total },
    reran,
    weakened,
    passed: (total === 0 || judged.score >= breakAt) && weakened.length === 0
  }
}
