import { describe, expect, it } from '@jest/globals'
import {
  ApiError,
  isSafeToRetryPost,
  isTransientForPoll,
  kindOfNetworkError,
  kindOfStatus,
  mayHaveTakenEffect,
  parseRetryAfter,
  type ApiErrorKind
} from '../src/errors.js'

describe('classification', () => {
  it.each<[number, ApiErrorKind]>([
    [400, 'invalid'],
    [401, 'unauthorized'],
    [403, 'forbidden'],
    [404, 'not-found'],
    [409, 'invalid'],
    [429, 'rate-limited'],
    [500, 'server-error'],
    [502, 'server-error'],
    [503, 'unavailable'],
    [504, 'server-error'],
    [307, 'redirect']
  ])('%d is %s', (status, kind) => {
    expect(kindOfStatus(status)).toBe(kind)
  })

  it('retries a POST only when the server certainly did not act', () => {
    const safe = (kind: ApiErrorKind) => isSafeToRetryPost(new ApiError(kind, ''))
    expect((['rate-limited', 'unavailable', 'not-sent'] as const).every(safe)).toBe(true)
    expect(
      (['server-error', 'no-answer', 'bad-response', 'invalid', 'unauthorized', 'redirect'] as const).some(safe)
    ).toBe(false)
    expect(mayHaveTakenEffect(new ApiError('server-error', ''))).toBe(true)
    expect(mayHaveTakenEffect(new ApiError('rate-limited', ''))).toBe(false)
  })

  it('retries every transient poll failure, and no permanent one', () => {
    const transient = (kind: ApiErrorKind) => isTransientForPoll(new ApiError(kind, ''))
    expect(
      (['rate-limited', 'unavailable', 'server-error', 'not-sent', 'no-answer', 'bad-response'] as const).every(
        transient
      )
    ).toBe(true)
    expect((['unauthorized', 'forbidden', 'not-found', 'invalid', 'redirect'] as const).some(transient)).toBe(false)
  })

  it('tells errors before sending from errors after', () => {
    const wrapped = (code: string) =>
      Object.assign(new Error('fetch failed'), { cause: Object.assign(new Error(code), { code }) })
    expect(kindOfNetworkError(wrapped('ECONNREFUSED'))).toBe('not-sent')
    expect(kindOfNetworkError(wrapped('ENOTFOUND'))).toBe('not-sent')
    expect(kindOfNetworkError(wrapped('EAI_AGAIN'))).toBe('not-sent')
    expect(kindOfNetworkError(Object.assign(new Error('x'), { code: 'UND_ERR_CONNECT_TIMEOUT' }))).toBe('not-sent')
    expect(kindOfNetworkError(wrapped('ECONNRESET'))).toBe('no-answer')
    expect(kindOfNetworkError(Object.assign(new Error('x'), { code: 'UND_ERR_SOCKET' }))).toBe('no-answer')
    expect(kindOfNetworkError('weird')).toBe('no-answer')
  })
})

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-21T12:00:00Z')
  it.each<[string | undefined, number | undefined]>([
    ['5', 5000],
    [' 0 ', 0],
    ['Sat, 21 Nov 2026 12:00:30 GMT', 30_000],
    ['Sat, 21 Nov 2026 11:00:00 GMT', 0],
    ['-1', undefined],
    ['1.5', undefined],
    ['soon', undefined],
    ['', undefined],
    [undefined, undefined]
  ])('%j is %j ms', (value, ms) => {
    expect(parseRetryAfter(value, now)).toBe(ms)
  })
})
