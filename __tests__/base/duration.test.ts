import { describe, expect, it } from '@jest/globals'
import { formatDuration, parseDuration } from '../../src/base/duration.js'

describe('parseDuration', () => {
  it.each([
    ['600', 600_000],
    ['500ms', 500],
    ['90s', 90_000],
    ['15m', 900_000],
    ['1h', 3_600_000],
    ['1h30m', 5_400_000],
    ['1m30s', 90_000],
    [' 2M ', 120_000],
    ['1h0m5s250ms', 3_605_250]
  ])('reads %j as %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms)
  })

  it.each(['', 'abc', '10 m', '1.5s', '-5', '5d', '30m1h', '1m1m', 'm', '10sms'])('refuses %j', (text) => {
    expect(parseDuration(text)).toBeUndefined()
  })
})

describe('formatDuration', () => {
  it.each([
    [250, '250ms'],
    [1000, '1s'],
    [61_000, '1m 1s'],
    [3_600_000, '1h'],
    [5_430_000, '1h 30m 30s']
  ])('renders %d ms as %j', (ms, text) => {
    expect(formatDuration(ms)).toBe(text)
  })
})
