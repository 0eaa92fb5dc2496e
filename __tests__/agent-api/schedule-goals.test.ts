/**
 * The polling schedule's goals as `npm run bench` defines them (bench/schedule.ts), kept as a
 * regression test: seeded runs of the real `waitForJob` on a virtual clock, with the defaults of
 * action.yml and the constants of src/agent-api/schedule.ts. A change to either that breaks a goal fails
 * here; timings and memory are the bench's business, not this test's.
 */
import { describe, expect, it } from '@jest/globals'
import {
  DENSE_DURATIONS_MS,
  DURATIONS_MS,
  jobDuration,
  LAG_CAP_MS,
  lagLimitMs,
  runOnce,
  STRATEGIES,
  type RunResult,
  type Strategy
} from '../../bench/schedule.js'
import { deriveSeed, mean, seededRandom, summarize } from '../../bench/stats.js'

const SEED = 20250601
const MINUTE = 60_000
const strategy = (id: string): Strategy => STRATEGIES.find((s) => s.id === id) as Strategy

/**
 * GETs per job as a share of fixed 5 s polling, at most: what the default schedule makes today
 * (64.9, 58.1, 53.6 and 52.4 % in docs/benchmarks.md) with about 2 points of margin. The bench's
 * goal is 55 % from 5 min, out of reach below about 18 min (see its feasibility section): these
 * ceilings keep the schedule from spending more than it does now.
 */
const GET_SHARE_CEILINGS = new Map([
  [5 * MINUTE, 0.67],
  [10 * MINUTE, 0.6],
  [30 * MINUTE, 0.56],
  [60 * MINUTE, 0.55]
])

/** `runs` waits of `id` around `durationMs`, on the jobs and jitter the bench's `measure` draws. */
async function waits(id: string, durationMs: number, runs: number): Promise<RunResult[]> {
  const jobs = seededRandom(deriveSeed(SEED, 'job', durationMs))
  const jitter = seededRandom(deriveSeed(SEED, 'jitter', id, durationMs, ''))
  const results: RunResult[] = []
  for (let i = 0; i < runs; i++) results.push(await runOnce(strategy(id), jobDuration(durationMs, jobs()), jitter))
  return results
}

const label = (ms: number): string => `${(ms / 1000).toFixed(1)} s`

describe('the default polling schedule (the real wait loop, virtual clock, seeded)', () => {
  it('keeps the detection lag p95 within min(max(2 s, 25 % of the job), 10 s), between table rows too', async () => {
    // The bench's dense grid up to 2 min, where the delays grow, and the table's durations up to
    // 10 min: past about 1 min every delay is at the cap, so longer jobs lag alike.
    const durations = [
      ...DENSE_DURATIONS_MS.filter((d) => d <= 2 * MINUTE),
      ...DURATIONS_MS.filter((d) => d <= 10 * MINUTE)
    ]
    const over: string[] = []
    for (const durationMs of durations) {
      const p95 = summarize((await waits('default', durationMs, 300)).map((r) => r.lagMs)).p95
      const limit = Math.min(lagLimitMs(durationMs), LAG_CAP_MS)
      if (p95 > limit) over.push(`${label(durationMs)}: p95 ${p95.toFixed(0)} ms > ${limit.toFixed(0)} ms`)
    }
    expect(over).toEqual([])
  })

  it('makes no more GETs per job, against fixed 5 s polling, than it does today', async () => {
    const over: string[] = []
    for (const [durationMs, ceiling] of GET_SHARE_CEILINGS) {
      // A job's GET count varies little: 100 runs pin its mean well within the margin.
      const gets = async (id: string): Promise<number> => mean((await waits(id, durationMs, 100)).map((r) => r.gets))
      const share = (await gets('default')) / (await gets('fixed-5s'))
      if (share > ceiling)
        over.push(`${label(durationMs)}: ${(100 * share).toFixed(1)} % > ${(100 * ceiling).toFixed(0)} %`)
    }
    expect(over).toEqual([])
  })
})
