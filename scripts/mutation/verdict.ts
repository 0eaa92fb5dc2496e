// The verdict on a change's mutation run, on what ran (a mutant with no verdict when the time was up
// is not counted). The mutants on changed lines are the change's own: they must be detected at the
// break threshold (stryker.config.json, 85 %). The others ran because an edited test decided them (or
// sit inside one that did): their code is as it was, so the bar is the baseline's verdict, and a
// mutant the baseline detected that now lives is a test that got weaker.
import { inLines, locate, type ChangePlan, type Part } from './change.js'
import type { FileChange } from './diff.js'
import { score, type Counts, type IncrementalReport, type MutantResult, type Position } from '../mutation-baseline.js'

const DETECTED = new Set(['Killed', 'Timeout'])
const UNDETECTED = new Set(['Survived', 'NoCoverage'])

export interface ChangeVerdict {
  /**
   * The mutants on changed lines; `upper`, for a part of them (a sample, or a run the time cut
   * short), the highest score the change may have at 95 % confidence (Wilson's bound).
   */
  changed: { score: number; mutants: Counts; total: number; upper?: number }
  /** The other mutants that ran (with a verdict that counts), and those the baseline detected that now live. */
  reran: number
  weakened: string[]
  /** Those that ran with no verdict that counts: static ones Stryker ignores, and errors. */
  ignored: number
  passed: boolean
}

const key = (
  file: string,
  mutant: Pick<MutantResult, 'mutatorName' | 'replacement'>,
  start: Position,
  end: Position
): string =>
  `${file}:${String(start.line)}:${String(start.column)}-${String(end.line)}:${String(end.column)} ${mutant.mutatorName} ${mutant.replacement ?? ''}`

/**
 * The upper end of the one-sided 95 % Wilson interval of `detected` in `total`, in percent: the
 * most a change's score may be when a random part of its mutants scored detected/total. A sample
 * fails the gate only when even that is under the threshold, so that the same change does not pass
 * on one commit's seed and fail on the next.
 */
export function wilsonUpper(detected: number, total: number): number {
  if (total === 0) return 100
  const z = 1.645
  const p = detected / total
  const centre = p + (z * z) / (2 * total)
  const spread = z * Math.sqrt((p * (1 - p)) / total + (z * z) / (4 * total * total))
  return Math.round((1000 * (centre + spread)) / (1 + (z * z) / total)) / 10
}

export function judge(
  result: { files: Record<string, { mutants: MutantResult[] }> },
  lines: ReadonlyMap<string, ReadonlyArray<[number, number]>>,
  changes: FileChange[],
  baseline: IncrementalReport,
  breakAt: number,
  /** Of the changed lines' mutants, how many there are in all (more than ran: a sample, or cut short). */
  all = 0
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
  let ignored = 0
  for (const [file, { mutants }] of Object.entries(result.files)) {
    for (const mutant of mutants) {
      const { start, end } = mutant.location
      if (!DETECTED.has(mutant.status) && !UNDETECTED.has(mutant.status)) {
        ignored++
        continue
      }
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
  const upper = all > total ? wilsonUpper(killed + timeout, total) : undefined
  return {
    changed: { ...judged, total, ...(upper === undefined ? {} : { upper }) },
    reran,
    weakened,
    ignored,
    passed: (total === 0 || (upper ?? judged.score) >= breakAt) && weakened.length === 0
  }
}

/** What the sample was, for the result line. */
function sampleOf(part: Part, where: string, seed: string): string {
  return part.sampled
    ? `a sample of ${String(part.chosen.length)} of ${String(part.all)} ${where}, seeded by ${seed.slice(0, 7)}`
    : `all ${String(part.all)} ${where}`
}

/** The changed lines' part of the result line. */
function changedResult(
  verdict: ChangeVerdict,
  plan: Pick<ChangePlan, 'lines' | 'changed'>,
  seed: string,
  breakAt: number
): string {
  const { total, score } = verdict.changed
  if (plan.lines.size === 0) return 'no src/ line changed'
  if (plan.changed.all === 0) return 'no mutant on the changed lines'
  const sample = sampleOf(plan.changed, 'on the changed lines', seed)
  if (total === 0) return `no mutant on the changed lines had a verdict (${sample})`
  const bound =
    verdict.changed.upper === undefined
      ? ''
      : `; at most ${String(verdict.changed.upper)} % over all of them, at 95 % confidence, the figure judged`
  return `${String(score)} % of ${String(total)} mutants detected (${sample}${bound}; break at ${String(breakAt)} %)`
}

/** The result line: the score on what ran, the sample's size, what had no verdict, the time. */
export function resultLine(
  verdict: ChangeVerdict,
  plan: Pick<ChangePlan, 'lines' | 'changed' | 'reruns'>,
  run: { seed: string; breakAt: number; planned: number; seconds: number }
): string {
  const changed = changedResult(verdict, plan, run.seed, run.breakAt)
  const reran =
    plan.reruns.all === 0
      ? ''
      : plan.reruns.chosen.length === 0
        ? `; none of the ${String(plan.reruns.all)} mutants the edited tests decided in the baseline fitted after the changed lines' (the weekly run has them)`
        : `; ${String(verdict.reran)} mutants ran again for the edited tests (${sampleOf(plan.reruns, 'they decided in the baseline', run.seed)}), ${String(verdict.weakened.length)} of them detected in the baseline but not now`
  const missing = Math.max(0, run.planned - verdict.changed.total - verdict.reran - verdict.ignored)
  const late =
    missing === 0
      ? ''
      : `; ${String(missing)} ${missing === 1 ? 'mutant' : 'mutants'} had no verdict when the time was up, not counted against the score`
  return `Mutation testing on the change: ${changed}${reran}${late}; ${String(Math.round(run.seconds))} s.`
}
