// GitHub reads as GitHub may answer them, through the action's client against the fake over
// loopback: a page that never answers ends on its read's signal (allPages carries it to every page,
// Octokit's paginate did not), so does an answer whose body stops halfway (the client reads bodies
// itself: parse-json.ts), and a GraphQL query is a read, tried again after a 5xx, with no fallback
// identity on a 5xx.
import { describe, expect, it } from '@jest/globals'
import type { GitHubApiFake } from '../../simulator/github/index.js'
import { GitHubClient } from '../../src/github/client.js'
import { realClock, testClient, useFakeGitHub } from '../fixtures/github.js'

const DOCS = 'acme/docs'
const APP = 'acme/app'
let fake: GitHubApiFake

useFakeGitHub(
  realClock,
  {
    token: 'tok',
    fresh: 'reset',
    each: (gh) => {
      gh.addRepo(APP)
      gh.addPull(DOCS, {
        number: 5,
        title: 'Docs',
        head: { ref: 'docs/x', sha: 'c'.repeat(40) },
        base: 'main',
        files: []
      })
    }
  },
  (started) => (fake = started)
)

describe('a paginated read', () => {
  it('whose second page never answers ends on its signal, not on undici’s 300 s', async () => {
    const events = fake.ownerOf(DOCS, 5).events
    for (let i = 0; i < 150; i++) events.push({ event: 'assigned', assignee: `u${i}` })
    fake.fail('issue-events', { kind: 'delay', ms: 0 }, { kind: 'hang' })
    const pr = { owner: 'acme', repo: 'docs', number: 5 }
    const api = new GitHubClient('tok', fake.url, { pace: { msPerSecond: 1 } }).owner(pr, () =>
      AbortSignal.timeout(2000)
    )
    await expect(api.asked()).rejects.toMatchObject({ name: 'TimeoutError' })
    expect(fake.requests.filter((r) => r.route === 'issue-events').map((r) => r.rawPath)).toEqual([
      expect.not.stringContaining('page=2'),
      expect.stringContaining('page=2')
    ])
  })
})

describe('an answer', () => {
  it('whose body stops halfway ends on its read’s signal, not on undici’s 300 s', async () => {
    fake.setPermission(APP, 'mona', 'write')
    fake.fail('collaborator-permission', { kind: 'stall' })
    const github = new GitHubClient('tok', fake.url, { pace: { msPerSecond: 1 } })
    await expect(github.permission(APP, 'mona', AbortSignal.timeout(500))).rejects.toMatchObject({
      name: 'TimeoutError'
    })
    expect(fake.requests.map((r) => [r.route, r.fault, r.answeredStatus])).toEqual([
      ['collaborator-permission', 'stall', 200]
    ])
    // Nor is the connection left to undici's 300 s: the read's fetch closed it.
    const [stalled] = fake.requests
    const until = Date.now() + 2000
    while (stalled?.endedAt === undefined && Date.now() < until) await new Promise((r) => setTimeout(r, 10))
    expect(stalled?.endedAt).toBeDefined()
    // The next answer is whole, and read.
    expect(await github.permission(APP, 'mona', AbortSignal.timeout(2000))).toBe('write')
  })
})

describe('GraphQL', () => {
  const identity = () => testClient('tok', fake.url).conversation(APP).identity()
  const asked = () => fake.requests.map((r) => `${r.method} ${r.route}`)

  it('a query answered 502 is tried again, like a REST read', async () => {
    fake.identity = { login: 'docs-app[bot]', kind: 'installation' }
    fake.fail('graphql', { kind: 'status', status: 502 })
    expect(await identity()).toBe('docs-app[bot]')
    expect(asked()).toEqual(['GET user', 'POST graphql', 'POST graphql'])
  })

  it('the identity is the workflow bot only when GitHub says the token cannot read it, never on a 5xx', async () => {
    fake.identity = { login: 'docs-app[bot]', kind: 'installation' }
    fake.failAlways('graphql', { kind: 'status', status: 503 })
    await expect(identity()).rejects.toMatchObject({ status: 503 })
    expect(asked().filter((line) => line === 'POST graphql')).toHaveLength(4)
    fake.failAlways('graphql', null)
    fake.failAlways('user', { kind: 'status', status: 502 })
    await expect(identity()).rejects.toMatchObject({ status: 502 })
    fake.failAlways('user', null)
    fake.fail('graphql', { kind: 'status', status: 403, message: 'Resource not accessible by integration' })
    expect(await identity()).toBe('github-actions[bot]')
  })
})
