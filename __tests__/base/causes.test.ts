import { describe, expect, it } from '@jest/globals'
import { causes, isTlsCode, socketError, tlsError } from '../../src/base/causes.js'

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

describe('socketError and tlsError', () => {
  it("find the socket's error under Octokit's 500 'fetch failed'", () => {
    const octokit = Object.assign(
      wrapped('fetch failed', wrapped('fetch failed', wrapped('read ECONNRESET', undefined, 'ECONNRESET'))),
      { status: 500 }
    )
    expect(socketError(octokit)).toEqual({ message: 'read ECONNRESET', code: 'ECONNRESET' })
    for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'ETIMEDOUT', 'UND_ERR_SOCKET', 'EAI_AGAIN'])
      expect(socketError(wrapped('x', wrapped('gone', undefined, code)))).toEqual({ message: 'gone', code })
    const tls = wrapped('x', wrapped('self-signed certificate', undefined, 'DEPTH_ZERO_SELF_SIGNED_CERT'))
    expect(tlsError(tls)).toEqual({ message: 'self-signed certificate', code: 'DEPTH_ZERO_SELF_SIGNED_CERT' })
    expect(socketError(tls)).toBeUndefined()
  })

  it('are undefined for an answer of the server, whatever its status, and for other codes', () => {
    const answer = Object.assign(new Error('Server Error'), { status: 500 })
    expect([socketError(answer), tlsError(answer)]).toEqual([undefined, undefined])
    expect(tlsError(wrapped('x', undefined, 'ECONNRESET'))).toBeUndefined()
    expect(socketError(wrapped('x', undefined, 'XECONNRESET'))).toBeUndefined()
    expect(socketError(wrapped('x', undefined, 'ECONNRESETX'))).toBeUndefined()
    expect(socketError('ECONNRESET')).toBeUndefined()
  })

  it.each([
    ['DEPTH_ZERO_SELF_SIGNED_CERT', true],
    ['SELF_SIGNED_CERT_IN_CHAIN', true],
    ['CERT_HAS_EXPIRED', true],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', true],
    ['UNABLE_TO_GET_ISSUER_CERT_LOCALLY', true],
    ['ERR_TLS_CERT_ALTNAME_INVALID', true],
    ['ERR_SSL_WRONG_VERSION_NUMBER', true],
    ['ECONNRESET', false],
    ['UNABLE_TO_CONNECT', false],
    ['XERR_TLS_', false],
    [undefined, false]
  ])('%s is a TLS code: %s', (code, tls) => {
    expect(isTlsCode(code)).toBe(tls)
  })
})
