import { describe, expect, it } from '@jest/globals'
import { mapBounded } from '../../src/base/bounded.js'

describe('mapBounded', () => {
  it('runs at most `limit` tasks at once and keeps the order of the items', async () => {
    let running = 0
    let most = 0
    const started: number[] = []
    const results = await mapBounded([30, 10, 20, 5, 15], 2, async (ms) => {
      started.push(ms)
      running++
      most = Math.max(most, running)
      await new Promise((resolve) => setTimeout(resolve, ms))
      running--
      return ms * 2
    })
    expect(results).toEqual([60, 20, 40, 10, 30])
    expect(most).toBe(2)
    expect(started).toEqual([30, 10, 20, 5, 15])
  })

  it('starts every task at once under a larger limit, and none for no items', async () => {
    let running = 0
    let most = 0
    await mapBounded([1, 2, 3], 6, async () => {
      running++
      most = Math.max(most, running)
      await Promise.resolve()
      running--
    })
    expect(most).toBe(3)
    expect(await mapBounded([], 2, () => Promise.resolve(1))).toEqual([])
  })
})
