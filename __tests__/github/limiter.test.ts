/**
 * The throttling plugin's scheduler yields to the event loop without a timer (github/limiter.ts):
 * Bottleneck's own yield is a `setTimeout(resolve, 0)`, which Node runs after at least 1 ms, some
 * twenty times a request.
 */
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals'
import limiter from 'bottleneck/light.js'
import { yieldWithoutTimers } from '../../src/github/limiter.js'

/** The zero-delay timers set while `work` runs. */
async function zeroTimers(work: () => Promise<unknown>): Promise<number> {
  const spy = jest.spyOn(globalThis, 'setTimeout')
  try {
    await work()
    return spy.mock.calls.filter(([, ms]) => !ms).length
  } finally {
    spy.mockRestore()
  }
}

/**
 * Until 20 ms pass with no zero-delay timer set: a test file run before this one in the same module
 * graph (a shard) may have left a limiter's job running (a read aborted rejects at once while its
 * job ends in the background, github/retry.ts), whose timers would be counted here.
 */
async function quiet(): Promise<void> {
  while ((await zeroTimers(() => new Promise((resolve) => setTimeout(resolve, 20)))) > 0);
}

describe('yieldWithoutTimers', () => {
  const limiters: InstanceType<typeof limiter>[] = []
  beforeEach(quiet)
  const schedule = async (): Promise<number> => {
    const one = new limiter({ maxConcurrent: 1 })
    limiters.push(one)
    return one.schedule(() => Promise.resolve(7))
  }
  afterEach(async () => {
    await Promise.all(limiters.splice(0).map((one) => one.disconnect()))
  })

  it('yields with setImmediate, not with a zero-delay timer', async () => {
    yieldWithoutTimers(limiter)
    const store = (new limiter() as unknown as { _store: { yieldLoop(t?: number): Promise<void> } })._store
    const immediate = jest.spyOn(globalThis, 'setImmediate')
    try {
      expect(await zeroTimers(() => store.yieldLoop())).toBe(0)
      expect(immediate).toHaveBeenCalled()
    } finally {
      immediate.mockRestore()
    }
  })

  it("leaves Bottleneck's scheduling of a job one zero-delay timer (its run's)", async () => {
    yieldWithoutTimers(limiter)
    yieldWithoutTimers(limiter)
    expect(await zeroTimers(schedule)).toBe(1)
    await expect(schedule()).resolves.toBe(7)
  })

  it('keeps a wait Bottleneck asks for a timer of that length', async () => {
    yieldWithoutTimers(limiter)
    const store = (new limiter() as unknown as { _store: { yieldLoop(t?: number): Promise<void> } })._store
    const spy = jest.spyOn(globalThis, 'setTimeout')
    try {
      await store.yieldLoop(5)
      expect(spy.mock.calls.map(([, ms]) => ms)).toEqual([5])
    } finally {
      spy.mockRestore()
    }
  })
})
