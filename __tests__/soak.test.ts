/**
 * A fixed slice of the chaos soak (`npm run soak`): 40 seeded runs of the built action against the
 * simulator, covering every fault class, signals, re-runs and inputs left unset or empty, with every
 * invariant checked.
 * Each run is a fast-check property of its own seed; a failure names the violations' seeds, and
 * `node build/scripts/soak.js --seed 7 --replay <run> --quick` replays that run with its full log
 * and `npm run soak -- --seed 7 --runs <run + 1> --quick` shrinks it to its smallest failing plan.
 */
import { describe, expect, it } from '@jest/globals'
import { FAULT_CLASSES, formatReport, soak, type SoakReport } from '../scripts/soak.js'

const SEED = 7
const RUNS = 40

describe('chaos soak slice', () => {
  let report: SoakReport | undefined

  it(`holds every invariant over ${RUNS} runs (seed ${SEED})`, async () => {
    // No shrinking here: the runs stay within the test's time, and the replay shrinks.
    report = await soak({
      seed: SEED,
      runs: RUNS,
      seconds: 90,
      concurrency: 4,
      quick: true,
      shrinkSeconds: 0,
      log: () => undefined
    })
    expect(report.runs).toHaveLength(RUNS)
    expect(
      report.violations.map((v) => `seed ${v.seed} attempt ${v.attempt ?? '-'}: invariant ${v.invariant}: ${v.what}`)
    ).toEqual([])
  }, 150_000)

  it('covers every fault class, signals and re-runs', () => {
    if (!report) throw new Error('the slice did not run')
    const met = new Set(report.runs.flatMap((r) => r.faults))
    // The table rides along so that a failure shows what the slice did meet.
    const table = formatReport(report)
    expect({ missing: FAULT_CLASSES.filter((cls) => !met.has(cls)), table }).toEqual({ missing: [], table })
    const attempts = report.runs.flatMap((r) => r.attempts)
    expect(attempts.filter((a) => a.signal?.sent).length).toBeGreaterThanOrEqual(5)
    expect(report.runs.filter((r) => r.attempts.length > 1).length).toBeGreaterThanOrEqual(5)
    expect(attempts.filter((a) => a.resumed).length).toBeGreaterThanOrEqual(2)
    // Optional inputs left out, or given empty as a forwarding workflow does: their defaults hold.
    const ways = report.runs.flatMap((r) => Object.values(r.plan.defaulted))
    expect(ways.filter((how) => how === 'unset').length).toBeGreaterThanOrEqual(5)
    expect(ways.filter((how) => how === 'empty').length).toBeGreaterThanOrEqual(20)
  })
})
