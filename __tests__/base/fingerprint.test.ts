import { describe, expect, it } from '@jest/globals'
import { createHash } from 'node:crypto'
import { fingerprint } from '../../src/base/fingerprint.js'

describe('fingerprint', () => {
  it('is the first 16 hex digits of the SHA-256 of the text', () => {
    expect(fingerprint('Document v2')).toBe(createHash('sha256').update('Document v2').digest('hex').slice(0, 16))
    expect(fingerprint('')).toBe('e3b0c44298fc1c14')
  })

  it('tells texts apart, and the same text alike', () => {
    expect(fingerprint('a')).toBe(fingerprint('a'))
    expect(fingerprint('a')).not.toBe(fingerprint('a '))
  })
})
