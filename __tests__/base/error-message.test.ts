import { describe, expect, it } from '@jest/globals'
import { errorMessage } from '../../src/base/error-message.js'

describe('errorMessage', () => {
  it.each<[unknown, string]>([
    [new Error('boom'), 'boom'],
    [{ message: 'from another realm' }, 'from another realm'],
    ['plain', 'plain'],
    [{ code: 1 }, '{"code":1}'],
    [undefined, 'undefined'],
    [42, '42']
  ])('%j gives %j', (error, message) => {
    expect(errorMessage(error)).toBe(message)
  })

  it('copes with what JSON cannot hold', () => {
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    expect(errorMessage(cyclic)).toBe('[object Object]')
  })
})
