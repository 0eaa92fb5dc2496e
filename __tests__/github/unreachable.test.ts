import { describe, expect, it } from '@jest/globals'
import { unreachable } from '../../src/github/unreachable.js'

/** A failed fetch as Octokit reports it: a 500 over fetch's TypeError over the socket's error, with the request. */
const failed = (
  message: string,
  code: string,
  url: unknown = 'https://api.github.com/repos/acme/app/releases'
): Error =>
  Object.assign(new Error(message), {
    status: 500,
    request: { method: 'GET', url },
    cause: Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error(message), { code }) })
  })

describe('unreachable', () => {
  it("names the host the request went to and the socket's own words", () => {
    expect(unreachable(failed('connect ECONNREFUSED 140.82.112.6:443', 'ECONNREFUSED'))).toBe(
      'could not reach GitHub at api.github.com: connect ECONNREFUSED 140.82.112.6:443'
    )
    expect(
      unreachable(failed('getaddrinfo ENOTFOUND ghe.example', 'ENOTFOUND', 'http://ghe.example:8080/api/v3/x'))
    ).toBe('could not reach GitHub at ghe.example:8080: getaddrinfo ENOTFOUND ghe.example')
  })

  it('adds the code when the words leave it out, a TLS failure included', () => {
    expect(unreachable(failed('other side closed', 'UND_ERR_SOCKET'))).toBe(
      'could not reach GitHub at api.github.com: other side closed (UND_ERR_SOCKET)'
    )
    expect(unreachable(failed('self-signed certificate', 'DEPTH_ZERO_SELF_SIGNED_CERT'))).toBe(
      'could not reach GitHub at api.github.com: self-signed certificate (DEPTH_ZERO_SELF_SIGNED_CERT)'
    )
    expect(unreachable(failed('', 'ECONNRESET'))).toBe('could not reach GitHub at api.github.com: (ECONNRESET)')
  })

  it('leaves the host out when the request does not say it', () => {
    expect(unreachable(failed('read ECONNRESET', 'ECONNRESET', null))).toBe('could not reach GitHub: read ECONNRESET')
    expect(unreachable(failed('read ECONNRESET', 'ECONNRESET', 'not a url'))).toBe(
      'could not reach GitHub: read ECONNRESET'
    )
    expect(unreachable(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }))).toBe(
      'could not reach GitHub: read ECONNRESET'
    )
  })

  it('keeps the cause on one line, and short', () => {
    expect(unreachable(failed(`line one\nline two ${'x'.repeat(300)}`, 'ECONNRESET'))).toMatch(
      /^could not reach GitHub at api\.github\.com: line one line two x+…$/
    )
  })

  it('is undefined for an answer of GitHub, whatever its status', () => {
    const answer = Object.assign(new Error('Server Error'), {
      status: 500,
      request: { url: 'https://api.github.com/x' }
    })
    expect(unreachable(answer)).toBeUndefined()
    expect(unreachable(Object.assign(new Error('Forbidden'), { status: 403 }))).toBeUndefined()
    expect(unreachable(undefined)).toBeUndefined()
  })
})
