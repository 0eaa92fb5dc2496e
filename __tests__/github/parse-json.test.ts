// src/github/parse-json.ts: GitHub's answers read to the same values as Octokit's json-with-bigint
// reads them (an integer past 2^53 a BigInt: octokit/request.js#797), JSON.parse where no such
// integer can be.
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { mayHoldBigInteger, parseBody, parseJson } from '../../src/github/parse-json.js'

const JSON_TYPE = 'application/json; charset=utf-8'
const BEYOND_DOUBLE = 2n ** 53n

/** JSON values with integers of every size among them, as GitHub may send them. */
const values = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.jsonValue({ maxDepth: 0 }),
    fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
    fc.array(tie('value'), { maxLength: 5 }),
    // Keys that Object.prototype has not: json-with-bigint's reviver (Node 22 and later) throws on a
    // `toString` that is not a function, and Octokit's read is then the text; the fallback keeps that.
    fc.dictionary(
      fc.string({ maxLength: 8 }).filter((key) => !(key in Object.prototype)),
      tie('value'),
      { maxKeys: 5 }
    )
  )
})).value

/**
 * `value` as JSON, each BigInt written as its digits (json-with-bigint's own JSONStringify throws on
 * a bare BigInt on Node 20). The marker is a character fast-check's strings never hold.
 */
const written = (value: unknown, indent?: number): string =>
  JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? `\u0000${item}` : item), indent).replace(
    /"\\u0000(-?\d+)"/g,
    '$1'
  )

/** An integer past 2^53, either sign. */
const beyond = fc.oneof(
  fc.bigInt({ min: BEYOND_DOUBLE, max: 2n ** 70n }),
  fc.bigInt({ min: -(2n ** 70n), max: -BEYOND_DOUBLE })
)

/** Any JSON value with such an integer in it: alone, in an array or in an object. */
const withBeyond = fc
  .tuple(values, beyond, fc.constantFrom('alone', 'array', 'object'))
  .map(([value, big, where]) => (where === 'alone' ? big : where === 'array' ? [value, big] : { value, id: big }))

/**
 * What a JSON text written from `value` means to Octokit: a number written as an integer past 2^53
 * is that integer as a BigInt, any other a number (-0 written as 0).
 */
function meant(value: unknown): unknown {
  if (typeof value === 'bigint' || typeof value === 'number') {
    const digits = written(value)
    return /^-?\d+$/.test(digits) && !Number.isSafeInteger(Number(digits)) ? BigInt(digits) : Number(digits)
  }
  if (Array.isArray(value)) return value.map(meant)
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, meant(v)]))
  return value
}

describe('parseBody', () => {
  it('reads any JSON body to what it means, compact or indented: an integer past 2^53 a BigInt', () => {
    fc.assert(
      fc.property(values, fc.constantFrom(undefined, 2), (value, indent) => {
        expect(parseBody(written(value, indent), JSON_TYPE)).toEqual(meant(value))
      })
    )
  })

  // Where no integer past 2^53 can be: json-with-bigint's reviver would have thrown on it.
  it('reads a body with a key named toString', () => {
    expect(parseBody('[{"toString":false}]', JSON_TYPE)).toEqual([{ toString: false }])
  })

  it('sends every body with an integer past 2^53 to json-with-bigint', () => {
    fc.assert(
      fc.property(withBeyond, fc.constantFrom(undefined, 2), (value, indent) => {
        expect(mayHoldBigInteger(written(value, indent))).toBe(true)
      })
    )
  })

  it('keeps a webhook delivery id of 19 digits exact, with or without spaces', () => {
    expect(parseBody('{"id":3804004623172239366}', JSON_TYPE)).toEqual({ id: 3804004623172239366n })
    expect(parseBody('[ -3804004623172239366 ]', JSON_TYPE)).toEqual([-3804004623172239366n])
    expect(parseBody('3804004623172239366', JSON_TYPE)).toBe(3804004623172239366n)
  })

  it('reads with JSON.parse a body whose long digits are only inside strings', () => {
    expect(mayHoldBigInteger('{"sha":"1234567890123456789abcdef","id":42,"n":[1,2]}')).toBe(false)
    expect(mayHoldBigInteger('{"total": 900719925474099}')).toBe(false)
    expect(mayHoldBigInteger('{"total": 9007199254740993}')).toBe(true)
  })

  it('reads a JSON type as JSON, and anything else as its text, as Octokit does', () => {
    expect(parseBody('{"a":1}', 'application/json')).toEqual({ a: 1 })
    expect(parseBody('{"a":1}', 'Application/SCIM+JSON; charset=utf-8')).toEqual({ a: 1 })
    expect(parseBody('{"a":1}', 'text/plain')).toBe('{"a":1}')
    expect(parseBody('{"a":1}', 'application/jsonp')).toBe('{"a":1}')
    expect(parseBody('{"a":1}', 'text/x-application/json')).toBe('{"a":1}')
    expect(parseBody('<html>proxy</html>', JSON_TYPE)).toBe('<html>proxy</html>')
  })
})

describe('parseJson', () => {
  /** The action's Octokit (@actions/github) whose fetch answers `body` as `type` and records each request. */
  async function octokitAnswering(body: string, type: string, status = 200) {
    const { getOctokit } = await import('@actions/github')
    const asked: string[] = []
    const fetch = (url: string): Promise<Response> => {
      asked.push(url)
      return Promise.resolve(new Response(status === 204 ? null : body, { status, headers: { 'content-type': type } }))
    }
    const octokit = getOctokit('tok', { baseUrl: 'https://api.example.test', request: { fetch } })
    parseJson(octokit)
    return { octokit, asked }
  }

  it("takes over Octokit's parse: JSON with its large ids exact", async () => {
    const { octokit, asked } = await octokitAnswering('{"id":3804004623172239366,"n":[1,2]}', JSON_TYPE)
    const answer = await octokit.request('GET /repos/{owner}/{repo}/hooks/deliveries', { owner: 'o', repo: 'r' })
    expect(answer.data).toEqual({ id: 3804004623172239366n, n: [1, 2] })
    expect(asked).toEqual(['https://api.example.test/repos/o/r/hooks/deliveries'])
  })

  it("is the one that reads the body: a binary type comes back as text, where Octokit's would be an ArrayBuffer", async () => {
    const { octokit } = await octokitAnswering('abc', 'application/octet-stream')
    await expect(octokit.request('GET /x')).resolves.toMatchObject({ data: 'abc' })
  })

  it("leaves a 204 as Octokit makes it, with data ''", async () => {
    const { octokit } = await octokitAnswering('', JSON_TYPE, 204)
    await expect(octokit.request('DELETE /x')).resolves.toMatchObject({ status: 204, data: '' })
  })

  it('leaves an error answer to Octokit: its message read from the JSON body', async () => {
    const { octokit } = await octokitAnswering('{"message":"Not Found"}', JSON_TYPE, 404)
    await expect(octokit.request('GET /x')).rejects.toMatchObject({
      status: 404,
      message: expect.stringContaining('Not Found')
    })
  })
})
