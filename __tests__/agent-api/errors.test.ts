import { describe, expect, it } from '@jest/globals'
import { buildSync } from 'esbuild'
import { execFileSync } from 'node:child_process'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  ApiError,
  isSafeToRetryPost,
  isTransientForPoll,
  kindOfStatus,
  mayHaveTakenEffect,
  networkError,
  parseRetryAfter,
  type ApiErrorKind
} from '../../src/agent-api/errors.js'

describe('kindOfStatus', () => {
  it.each<[number, ApiErrorKind]>([
    [300, 'redirect'],
    [307, 'redirect'],
    [399, 'redirect'],
    [400, 'invalid'],
    [401, 'unauthorized'],
    [403, 'forbidden'],
    [404, 'not-found'],
    [409, 'invalid'],
    [429, 'rate-limited'],
    [499, 'invalid'],
    [500, 'server-error'],
    [502, 'server-error'],
    [503, 'unavailable'],
    [504, 'server-error'],
    [599, 'server-error']
  ])('%d is %s', (status, kind) => {
    expect(kindOfStatus(status)).toBe(kind)
  })
})

// Every kind, with what each policy says of it: a POST sent again, a poll tried again, a POST
// that may have acted. A kind added to the union without a row here fails the last test.
const POLICY: Record<ApiErrorKind, [postAgain: boolean, pollAgain: boolean, mayHaveActed: boolean]> = {
  unauthorized: [false, false, false],
  forbidden: [false, false, false],
  'not-found': [false, false, false],
  invalid: [false, false, false],
  'rate-limited': [true, true, false],
  unavailable: [true, true, false],
  'server-error': [false, true, true],
  'not-sent': [true, true, false],
  proxy: [true, true, false],
  tls: [false, false, false],
  'no-answer': [false, true, true],
  'bad-response': [false, true, true],
  redirect: [false, false, false]
}

describe('policies', () => {
  it.each(Object.entries(POLICY))('%s: sent again, polled again, may have acted: %j', (kind, [post, poll, acted]) => {
    const error = new ApiError(kind as ApiErrorKind, 'x', 502)
    expect([isSafeToRetryPost(error), isTransientForPoll(error), mayHaveTakenEffect(error)]).toEqual([
      post,
      poll,
      acted
    ])
  })

  it('a proxy that wants credentials (407) is neither sent again nor polled again', () => {
    const error = new ApiError('proxy', 'x', 407)
    expect([isSafeToRetryPost(error), isTransientForPoll(error)]).toEqual([false, false])
  })
})

describe('ApiError: Retry-After', () => {
  // None is documented: a 429's "no wait" (0, or a date already past) must not send the request at once.
  it("a 429's Retry-After that asks for no wait is none; any other is kept", () => {
    expect(new ApiError('rate-limited', 'x', 429, 0).retryAfterMs).toBeUndefined()
    expect(new ApiError('rate-limited', 'x', 429, 1).retryAfterMs).toBe(1)
    expect(new ApiError('rate-limited', 'x', 429).retryAfterMs).toBeUndefined()
    expect(new ApiError('unavailable', 'x', 503, 0).retryAfterMs).toBe(0)
  })
})

describe('networkError: what happened on the wire', () => {
  const wrapped = (code: string, message = code) =>
    Object.assign(new Error('fetch failed'), { cause: Object.assign(new Error(message), { code }) })
  const wire = { sent: false, timedOut: false, timeoutMs: 12_345 }

  it('a failure before the request left is not-sent, whatever its code', () => {
    expect(networkError(wrapped('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:9'), wire)).toMatchObject({
      kind: 'not-sent',
      message: 'could not connect: fetch failed: connect ECONNREFUSED 127.0.0.1:9'
    })
    expect(networkError(wrapped('ECONNRESET', 'socket hang up'), wire)).toMatchObject({
      kind: 'not-sent',
      message: 'could not connect: fetch failed: socket hang up (ECONNRESET)'
    })
  })

  it('a failure after it left is no-answer', () => {
    expect(networkError(wrapped('ECONNRESET', 'read ECONNRESET'), { ...wire, sent: true })).toMatchObject({
      kind: 'no-answer',
      message: 'connection failed: fetch failed: read ECONNRESET'
    })
  })

  it('our own timer: no answer once sent, could not connect before', () => {
    const abort = Object.assign(new Error('This operation was aborted'), { name: 'AbortError' })
    expect(networkError(abort, { sent: true, timedOut: true, timeoutMs: 12_345 })).toMatchObject({
      kind: 'no-answer',
      message: 'no answer within 12.3s'
    })
    expect(networkError(abort, { sent: false, timedOut: true, timeoutMs: 2_000 })).toMatchObject({
      kind: 'not-sent',
      message: 'could not connect within 2s'
    })
  })

  it("a proxy's refusal, with its status, even though it surfaces as an abort", () => {
    const refused = Object.assign(new Error('Proxy response (407) !== 200 when HTTP Tunneling'), {
      name: 'AbortError',
      code: 'UND_ERR_ABORTED'
    })
    expect(networkError(refused, { ...wire, sent: false })).toMatchObject({
      kind: 'proxy',
      status: 407,
      message: 'the proxy refused to connect to the API (it answered 407)'
    })
  })

  it.each([
    'DEPTH_ZERO_SELF_SIGNED_CERT',
    'SELF_SIGNED_CERT_IN_CHAIN',
    'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
    'CERT_HAS_EXPIRED',
    'ERR_TLS_CERT_ALTNAME_INVALID',
    'ERR_SSL_WRONG_VERSION_NUMBER'
  ])('TLS: %s', (code) => {
    expect(networkError(wrapped(code, 'certificate trouble'), wire)).toMatchObject({
      kind: 'tls',
      message: `TLS failed: fetch failed: certificate trouble (${code})`
    })
  })

  it('calls a TLS failure after the request was sent one that may have reached the server', () => {
    const failed = networkError(wrapped('ERR_SSL_DECRYPTION_FAILED_OR_BAD_RECORD_MAC', 'bad record'), {
      ...wire,
      sent: true
    })
    expect(failed).toMatchObject({
      kind: 'no-answer',
      message:
        'TLS failed after the request was sent: fetch failed: bad record (ERR_SSL_DECRYPTION_FAILED_OR_BAD_RECORD_MAC)'
    })
    expect(mayHaveTakenEffect(failed)).toBe(true)
  })

  it('reads errors by shape, and copes with anything thrown', () => {
    const foreign = { message: 'self-signed certificate', code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }
    expect(networkError(foreign, wire).kind).toBe('tls')
    expect(networkError('weird', wire)).toMatchObject({ kind: 'not-sent', message: 'could not connect: weird' })
    expect(networkError(wrapped('EPIPE'), { ...wire, sent: true }).message).toBe(
      'connection failed: fetch failed: EPIPE'
    )
  })
})

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-21T12:00:00Z')
  it.each<[string | undefined, number | undefined]>([
    ['5', 5000],
    ['120', 120_000],
    [' 0 ', 0],
    ['Sat, 21 Nov 2026 12:00:30 GMT', 30_000],
    ['Sat, 21 Nov 2026 11:00:00 GMT', 0],
    ['Saturday, 21-Nov-26 12:00:30 GMT', 30_000],
    ['Sat Nov 21 12:00:30 2026', 30_000],
    ['Tue Dec  1 12:00:00 2026', 10 * 86_400_000],
    ['Sat Nox 21 12:00:30 2026', undefined],
    ['-1', undefined],
    ['1.5', undefined],
    ['5s', undefined],
    ['soon', undefined],
    ['', undefined],
    [undefined, undefined]
  ])('%j is %j ms', (value, ms) => {
    expect(parseRetryAfter(value, now)).toBe(ms)
  })

  // The asctime form names no zone but is GMT (RFC 9110 5.6.7), wherever the runner is. Jest cannot
  // change its own process's zone, so the parse runs in a child Node with TZ set, west and east of
  // GMT; its offset is checked too, so a Node that ignored TZ could not pass the test on a UTC machine.
  it.each(['America/New_York', 'Asia/Kolkata'])('reads the asctime form as GMT with TZ=%s', (zone) => {
    const source = fileURLToPath(new URL('../../src/agent-api/errors.ts', import.meta.url))
    const { outputFiles } = buildSync({
      stdin: {
        contents: `import { parseRetryAfter } from ${JSON.stringify(source)}
          const offset = new Date(Date.UTC(1994, 10, 6)).getTimezoneOffset()
          console.log(JSON.stringify([offset, parseRetryAfter('Sun Nov  6 08:49:37 1994', Date.UTC(1994, 10, 6, 8, 49, 7))]))`,
        resolveDir: dirname(source),
        loader: 'ts'
      },
      bundle: true,
      format: 'esm',
      platform: 'node',
      write: false
    })
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', outputFiles[0]?.text ?? ''], {
      env: { ...process.env, TZ: zone },
      encoding: 'utf8'
    })
    const [offset, ms] = JSON.parse(output) as [number, number]
    expect(offset).not.toBe(0)
    expect(ms).toBe(30_000)
  })
})
