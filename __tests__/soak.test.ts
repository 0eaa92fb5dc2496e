/**
 * A fixed slice of the chaos soak (`npm run soak`): 40 seeded runs of the built action against the
 * simulator, covering every fault class, signals, re-runs and inputs left unset or empty, with every
 * invariant checked.
 * Each run is a fast-check property of its own seed; a failure shows fast-check's report of the run's
 * plan and violations with the command that replays it (`node build/scripts/soak.js --seed 7 --replay
 * <run> --path 0 --quick`), and `npm run soak -- --seed 7 --runs <run + 1> --quick` shrinks it to its
 * smallest failing plan.
 */
import { describe, expect, it } from '@jest/globals'
import { FAULT_CLASSES, soak, type SoakRun } from '../scripts/soak.js'

const SEED = 7
const RUNS = 40

describe('chaos soak slice', () => {
  let runs: SoakRun[] | undefined

  it(`holds every invariant over ${RUNS} runs (seed ${SEED})`, async () => {
    // No shrinking here: the runs stay within the test's time, and the replay shrinks.
    runs = await soak({
      seed: SEED,
      runs: RUNS,
      seconds: 90,
      concurrency: 4,
      quick: true,
      shrinkSeconds: 0,
      log: () => undefined
    })
    expect(runs).toHaveLength(RUNS)
    // fast-check's report of each failing run: its seed, path, plan and violations, and the replay command.
    expect(runs.flatMap((run) => run.failure ?? [])).toEqual([])
  }, 150_000)

  it('covers every fault class, signals and re-runs', () => {
    if (!runs) throw new Error('the slice did not run')
    const met = new Set(runs.flatMap((run) => run.faults))
    expect(FAULT_CLASSES.filter((cls) => !met.has(cls))).toEqual([])
    const attempts = runs.flatMap((run) => run.attempts)
    expect(attempts.filter((a) => a.signal?.sentAt !== undefined).length).toBeGreaterThanOrEqual(5)
    expect(runs.filter((run) => run.attempts.length > 1).length).toBeGreaterThanOrEqual(5)
    expect(attempts.filter((a) => a.resumed).length).toBeGreaterThanOrEqual(2)
    // Optional inputs left out, or given empty as a forwarding workflow does: their defaults hold.
    const ways = runs.flatMap((run) => Object.values(run.plan.defaulted))
    expect(ways.filter((how) => how === 'unset').length).toBeGreaterThanOrEqual(5)
    expect(ways.filter((how) => how === 'empty').length).toBeGreaterThanOrEqual(20)
  })
})
