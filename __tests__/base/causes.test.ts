import { describe, expect, it } from '@jest/globals'
import { causes, connectionFailure } from '../../src/base/causes.js'

const wrapped = (message: string, cause?: unknown, code?: string): Error =>
  Object.assign(new Error(message, { cause }), code === undefined ? {} : { code })

describe('causes', () => {
  it('reads an error and what it wraps, at most five deep, codes kept', () => {
    const chain = wrapped('a', wrapped('b', wrapped('c', undefined, 'ECONNRESET')))
    expect(causes(chain)).toEqual([
      { message: 'a', code: undefined },
      { message: 'b', code: undefined },
      { message: 'c', code: 'ECONNRESET' }
    ])
    let deep: unknown = undefined
    for (let i = 7; i > 0; i--) deep = wrapped(String(i), deep)
    expect(causes(deep).map((c) => c.message)).toEqual(['1', '2', '3', '4', '5'])
    expect(causes({ message: 'shaped', code: 7 })).toEqual([{ message: 'shaped', code: undefined }])
  })

  it('is the text of what is not an error', () => {
    expect(causes('boom')).toEqual([{ message: 'boom', code: undefined }])
    expect(causes(null)).toEqual([{ message: 'null', code: undefined }])
  })
})

describe('connectionFailure', () => {
  it("names the socket's error under Octokit's 500 'fetch failed'", () => {
    const octokit = Object.assign(
      wrapped('fetch failed', wrapped('fetch failed', wrapped('read ECONNRESET', undefined, 'ECONNRESET'))),
      {
        status: 500
      }
    )
    expect(connectionFailure(octokit)).toBe('the connection failed: read ECONNRESET')
    for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'ETIMEDOUT', 'UND_ERR_SOCKET', 'EAI_AGAIN'])
      expect(connectionFailure(wrapped('x', wrapped('gone', undefined, code)))).toBe('the connection failed: gone')
  })

  it('is undefined for an answer of the server, whatever its status, and for other codes', () => {
    expect(connectionFailure(Object.assign(new Error('Server Error'), { status: 500 }))).toBeUndefined()
    expect(connectionFailure(wrapped('x', wrapped('y', undefined, 'ERR_TLS_CERT_ALTNAME_INVALID')))).toBeUndefined()
    expect(connectionFailure(wrapped('x', undefined, 'XECONNRESET'))).toBeUndefined()
    expect(connectionFailure(wrapped('x', undefined, 'ECONNRESETX'))).toBeUndefined()
    expect(connectionFailure('ECONNRESET')).toBeUndefined()
  })
})
