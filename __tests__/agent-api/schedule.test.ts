import { describe, expect, it } from '@jest/globals'
import {
  GROWTH,
  JITTER,
  RATE_LIMIT_RETRY,
  RETRY,
  nextPollDelay,
  nextRetryDelay,
  type PollSchedule
} from '../../src/agent-api/schedule.js'

const defaults: PollSchedule = { initialMs: 2000, maxMs: 10_000 }
const HOUR = 3_600_000

/** Poll times (ms) on a virtual clock until `untilMs`, with a random source. */
function pollTimes(untilMs: number, random: () => number, schedule = defaults): number[] {
  const times: number[] = []
  let now = 0
  for (;;) {
    const delay = nextPollDelay({ elapsedMs: now, remainingMs: HOUR - now, failures: 0, random: random() }, schedule)
    if (delay === undefined) throw new Error('no delay')
    now += delay
    times.push(now)
    if (now >= untilMs) return times
  }
}

describe('nextPollDelay', () => {
  const at = (elapsedMs: number, random = 0.5, extra: Partial<Parameters<typeof nextPollDelay>[0]> = {}) =>
    nextPollDelay({ elapsedMs, remainingMs: HOUR, failures: 0, random, ...extra }, defaults)

  it('starts at the first delay and grows with the time waited, up to the cap', () => {
    const delays = [0, 4000, 8000, 12_000, 20_000, 40_000, 60_000, 600_000].map((t) => at(t))
    expect(delays[0]).toBe(2000)
    for (let i = 1; i < delays.length; i++) expect(delays[i]).toBeGreaterThanOrEqual(delays[i - 1] as number)
    expect(at(20_000)).toBe(GROWTH * 20_000)
    expect(at(600_000)).toBe(10_000)
  })

  it('keeps jitter within its bounds and never above the cap', () => {
    for (const elapsed of [0, 10_000, 30_000, 100_000]) {
      for (const random of [0, 0.25, 0.999]) {
        const base = Math.min(10_000, Math.max(2000, GROWTH * elapsed))
        const delay = at(elapsed, random) as number
        expect(delay).toBeGreaterThanOrEqual(base * (1 - JITTER))
        expect(delay).toBeLessThanOrEqual(Math.min(10_000, base * (1 + JITTER)))
      }
    }
  })

  it('spreads runs: different random draws give different delays', () => {
    expect(at(8000, 0.1)).not.toBe(at(8000, 0.9))
  })

  it('backs off on failed polls, doubling within the cap', () => {
    const failed = (failures: number) => at(0, 0.5, { failures })
    expect([failed(1), failed(2), failed(3), failed(9)]).toEqual([4000, 8000, 10_000, 10_000])
  })

  it('never polls before Retry-After', () => {
    expect(at(0, 0.999, { retryAfterMs: 25_000 })).toBe(25_000)
    expect(at(100_000, 0.999, { retryAfterMs: 1000 })).toBeGreaterThan(1000)
  })

  it('clamps to the deadline, and gives up when Retry-After is beyond it', () => {
    expect(at(600_000, 0.5, { remainingMs: 3000 })).toBe(3000)
    expect(at(0, 0.5, { remainingMs: 0 })).toBe(0)
    expect(at(0, 0.5, { remainingMs: 5000, retryAfterMs: 6000 })).toBeUndefined()
  })

  it('with any jitter, notices a 20 s job within 5 s and 10 polls', () => {
    const draws: (() => number)[] = [() => 0, () => 0.999_999]
    for (let run = 0; run < 500; run++) draws.push(Math.random)
    for (const random of draws) {
      const times = pollTimes(20_000, random)
      expect(times.length).toBeLessThanOrEqual(10)
      expect((times.at(-1) as number) - 20_000).toBeLessThanOrEqual(5000)
    }
  })
})

describe('nextRetryDelay', () => {
  it('uses Retry-After when it fits in the time left', () => {
    expect(nextRetryDelay({ attempt: 1, remainingMs: 60_000, retryAfterMs: 7000, random: 0.5 })).toBe(7000)
    expect(nextRetryDelay({ attempt: 1, remainingMs: 6000, retryAfterMs: 7000, random: 0.5 })).toBeUndefined()
  })

  it('backs off exponentially with full jitter, capped', () => {
    expect(nextRetryDelay({ attempt: 1, remainingMs: HOUR, random: 0.999 })).toBeLessThan(RETRY.baseMs)
    expect(nextRetryDelay({ attempt: 3, remainingMs: HOUR, random: 0.5 })).toBe(0.5 * 4 * RETRY.baseMs)
    expect(nextRetryDelay({ attempt: 4, remainingMs: HOUR, random: 0 })).toBe(0)
  })

  it('stops after the attempt budget', () => {
    expect(nextRetryDelay({ attempt: RETRY.attempts, remainingMs: HOUR, random: 0.5 })).toBeUndefined()
  })
})

describe('nextRetryDelay after a 429 without Retry-After', () => {
  const limited = (attempt: number, random: number, remainingMs = 2 * HOUR) =>
    nextRetryDelay({ attempt, remainingMs, rateLimited: true, random })

  it('starts at tens of seconds and doubles to a cap of minutes', () => {
    expect(RATE_LIMIT_RETRY).toEqual({ baseMs: 20_000, maxMs: 300_000, jitter: 0.25 })
    expect([1, 2, 3, 4, 5, 6].map((attempt) => limited(attempt, 0))).toEqual([
      20_000, 40_000, 80_000, 160_000, 300_000, 300_000
    ])
  })

  it('jitters down by up to a quarter, never over the cap', () => {
    expect(limited(1, 0.5)).toBe(17_500)
    expect(limited(1, 0.999_999)).toBeCloseTo(15_000, 0)
    expect(limited(9, 0.5)).toBe(262_500)
  })

  it('has no attempt budget: only the time left ends it', () => {
    expect(limited(RETRY.attempts, 0)).toBe(300_000)
    expect(limited(40, 0)).toBe(300_000)
    expect(limited(1, 0, 20_001)).toBe(20_000)
    expect(limited(1, 0, 20_000)).toBeUndefined()
  })

  it('keeps Retry-After and its attempt budget when the 429 carries one', () => {
    expect(nextRetryDelay({ attempt: 1, remainingMs: HOUR, rateLimited: true, retryAfterMs: 7000, random: 0 })).toBe(
      7000
    )
    expect(
      nextRetryDelay({ attempt: RETRY.attempts, remainingMs: HOUR, rateLimited: true, retryAfterMs: 7000, random: 0 })
    ).toBeUndefined()
  })

  it('leaves other failures (503, not sent) on the short backoff', () => {
    expect(nextRetryDelay({ attempt: 1, remainingMs: HOUR, rateLimited: false, random: 0.5 })).toBe(500)
    expect(
      nextRetryDelay({ attempt: RETRY.attempts, remainingMs: HOUR, rateLimited: false, random: 0 })
    ).toBeUndefined()
  })
})
