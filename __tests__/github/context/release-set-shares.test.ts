import { describe, expect, it } from '@jest/globals'
import { PACKAGE_FLOOR_CHARS, shares } from '../../../src/github/context/release-set.js'

describe('shares of a release set', () => {
  it('gives each package the floor, then the rest by size of change', () => {
    // 1,500 each, then 7,000 left: 1 : 6 by weight.
    expect(shares([20_000, 20_000], [10, 60], 10_000)).toEqual([2_500, 7_500])
  })

  it('a package that needs less leaves its part to the others', () => {
    expect(shares([800, 2_000, 50_000], [100, 100, 100], 12_000)).toEqual([800, 2_000, 9_200])
  })

  it('a small change still gets the floor, and no change counts as 1', () => {
    expect(shares([9_000, 50_000], [0, 999], 13_000)).toEqual([PACKAGE_FLOOR_CHARS + 10, 11_490])
  })

  it('the floor shrinks to an equal part when the room is small', () => {
    expect(shares([5_000, 5_000, 5_000], [1, 1, 1], 3_000)).toEqual([1_000, 1_000, 1_000])
    expect(shares([], [], 3_000)).toEqual([])
  })

  it('never gives more than the room', () => {
    const parts = shares([7_000, 6_000, 9_000, 4_000], [3, 1, 7, 2], 17_333)
    expect(parts.reduce((sum, part) => sum + part, 0)).toBeLessThanOrEqual(17_333)
    expect(parts.reduce((sum, part) => sum + part, 0)).toBeGreaterThan(17_333 - 4)
  })
})
