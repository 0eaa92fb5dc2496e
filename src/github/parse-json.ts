/**
 * GitHub's answers parsed as Octokit parses them, faster. Octokit gives every JSON body to
 * json-with-bigint, whose reviver visits each value so that an integer past 2^53 becomes a BigInt
 * (GitHub has begun to hand out such ids: octokit/request.js#797). Reading the compares of a
 * release of twelve packages, several hundred commits each, that reviver took a fifth of the CPU.
 * An integer past 2^53 has at least 16 digits, and in JSON a number follows `:`, `[` or `,`, or
 * starts the text: a body where no 16 digits follow one of those holds no such integer, and
 * JSON.parse reads it to the same values. Any other body (and every error answer) goes to
 * json-with-bigint as before.
 */
import type { Octokit } from '@octokit/core'
import { JSONParse } from 'json-with-bigint'

/** Reads each success answer's body itself: JSON when GitHub says so, else its text. */
export function parseJson(octokit: Pick<Octokit, 'hook'>): void {
  octokit.hook.wrap('request', async (request, options) => {
    // In place: the hooks inside this one are bound to this very object (before-after-hook), and
    // options given to `request` would not reach them.
    options.request = { ...options.request, parseSuccessResponseBody: false }
    const response = await request(options)
    // The body's stream; '' for a 204, a 205 or a HEAD, which Octokit answers without reading one.
    const body = response.data as ReadableStream | ''
    response.data = parseBody(await new Response(body).text(), String(response.headers['content-type']))
    return response
  })
}

/**
 * A body as Octokit reads it: JSON for a JSON type (its text when it does not parse), else the text
 * (Octokit gives a binary type as an ArrayBuffer; the step asks GitHub for none).
 */
export function parseBody(text: string, contentType: string): unknown {
  // The JSON types, as Octokit tells them apart.
  if (!/^application\/(scim\+)?json\s*(;|$)/i.test(contentType)) return text
  try {
    return mayHoldBigInteger(text) ? JSONParse(text) : (JSON.parse(text) as unknown)
  } catch {
    return text
  }
}

/** Whether a JSON text may hold an integer past 2^53: false means JSON.parse reads it exactly. */
export function mayHoldBigInteger(text: string): boolean {
  // 16 digits or more where a number starts.
  return /(^|[:[,])\s*-?\d{16}/.test(text)
}
