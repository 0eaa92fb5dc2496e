// Who caused the run (`author`), and what GitHub said when it refused the owner phase: read from
// the event, and from REST and GraphQL errors alike.
import { describe, expect, it } from '@jest/globals'
import { runAuthor } from '../../src/github/owner/author.js'
import { forbidden, refusalOf, said, type Refusal } from '../../src/github/owner/refusal.js'

describe('runAuthor', () => {
  const author = (event: string, payload: unknown, releaseSet = false, actor: string | undefined = 'ops') =>
    runAuthor(
      { GITHUB_EVENT_NAME: event, GITHUB_EVENT_PATH: '/e.json', GITHUB_ACTOR: actor },
      () => JSON.stringify(payload),
      releaseSet
    )
  const pr = (user: unknown) => ({ pull_request: { number: 1, user } })

  it.each(['pull_request', 'pull_request_target', 'pull_request_review', 'pull_request_review_comment'])(
    "%s: the pull request's author",
    (event) => {
      expect(author(event, pr({ login: 'dev' }))).toEqual({ login: 'dev', role: "the pull request's author" })
    }
  )

  it("release: the release's author", () => {
    expect(author('release', { release: { author: { login: 'rel' } } })).toEqual({
      login: 'rel',
      role: "the release's author"
    })
  })

  it("anything else, and any run with release-tags: the workflow run's actor", () => {
    const actor = { login: 'ops', role: "the workflow run's actor" }
    for (const event of ['push', 'workflow_dispatch', 'schedule', 'issue_comment', 'workflow_run', ''])
      expect(author(event, pr({ login: 'dev' }))).toEqual(actor)
    expect(author('pull_request', pr({ login: 'dev' }), true)).toEqual(actor)
    expect(author('release', { release: { author: { login: 'rel' } } }, true)).toEqual(actor)
  })

  it('no login when the event does not say', () => {
    for (const user of [undefined, null, 'dev', { login: 7 }, { login: '' }])
      expect(author('pull_request', pr(user)).login).toBeUndefined()
    expect(author('pull_request', {}).login).toBeUndefined()
    expect(author('release', { release: 'v1' }).login).toBeUndefined()
    expect(author('push', {}, false, '').login).toBeUndefined()
    expect(runAuthor({}, () => '{}', false)).toEqual({ login: undefined, role: "the workflow run's actor" })
  })
})

describe('refusalOf', () => {
  it('a REST refusal: the status, and GitHub’s words without the documentation link at their end', () => {
    const error = Object.assign(new Error('Validation Failed - https://docs.github.com/rest/pulls#x'), { status: 422 })
    expect(refusalOf(error)).toEqual({ status: 422, type: undefined, message: 'Validation Failed', lost: false })
    const inside = new Error('see https://docs.github.com/rest - https://docs.github.com/x and more')
    expect(refusalOf(inside).message).toBe('see https://docs.github.com/rest - https://docs.github.com/x and more')
    expect(refusalOf(Object.assign(new Error('x'), { status: '422' })).status).toBeUndefined()
  })

  it('a GraphQL error: each message, and the first error’s type', () => {
    const error = Object.assign(new Error('Request failed due to following response errors'), {
      errors: [
        'not a record',
        { type: 'UNPROCESSABLE', message: 'Pull request Auto merge is not allowed for this repository' },
        { message: 'second' },
        { message: 42 }
      ]
    })
    expect(refusalOf(error)).toEqual({
      status: undefined,
      type: 'UNPROCESSABLE',
      message: 'Pull request Auto merge is not allowed for this repository; second',
      lost: false
    })
    const untyped = Object.assign(new Error('whole'), { errors: [{ type: 7 }] })
    expect(refusalOf(untyped)).toEqual({ status: undefined, type: undefined, message: 'whole', lost: false })
  })

  it('a lost connection: the socket’s words', () => {
    const error = new Error('fetch failed', {
      cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })
    })
    expect(refusalOf(error)).toEqual({
      status: undefined,
      type: undefined,
      message: 'the connection failed: socket hang up',
      lost: true
    })
  })
})

describe('forbidden and said', () => {
  const refusal = (fields: Partial<Refusal>): Refusal => ({
    status: undefined,
    type: undefined,
    message: 'no',
    lost: false,
    ...fields
  })

  it('a 401, a 403 or GraphQL’s FORBIDDEN is a permission refusal; nothing else is', () => {
    expect([401, 403].map((status) => forbidden(refusal({ status })))).toEqual([true, true])
    expect(forbidden(refusal({ type: 'FORBIDDEN' }))).toBe(true)
    expect([404, 422, 405].map((status) => forbidden(refusal({ status })))).toEqual([false, false, false])
    expect(forbidden(refusal({ type: 'UNPROCESSABLE' }))).toBe(false)
  })

  it('names the status, or GitHub for GraphQL, and keeps the words inert and bounded', () => {
    expect(said(refusal({ status: 422, message: 'Validation Failed' }))).toBe('HTTP 422: Validation Failed')
    expect(said(refusal({ type: 'FORBIDDEN', message: 'Resource not accessible' }))).toBe(
      'GitHub: Resource not accessible'
    )
    expect(said(refusal({ message: 'the connection failed: reset', lost: true }))).toBe('the connection failed: reset')
    expect(said(refusal({ message: `a\nb${'x'.repeat(400)}` })).length).toBeLessThanOrEqual(301)
    expect(said(refusal({ message: 'a\nb' }))).not.toContain('\n')
  })
})
