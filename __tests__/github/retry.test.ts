// GitHub's limits and passing faults (finding 10), through the action's GitHub client against the
// fake GitHub: reads are tried again on a 5xx, a lost connection and a rate limit; writes only on a
// rate limit, the one answer that says GitHub did nothing. A read's waits between tries run on the
// step's clock (a virtual one here); the throttling plugin's on real timers, a second of
// Retry-After being 1 ms here (the client's pace).
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { createServer as createTlsServer } from 'node:https'
import type { AddressInfo, Server } from 'node:net'
import { systemClock } from '../../src/base/clock.js'
import type { GitHubClient } from '../../src/github/client.js'
import { MAX_COMMENT_PAGES } from '../../src/github/conversation/api.js'
import { READ_WAITS_MS, recordTries, retryReads, throttleOptions } from '../../src/github/retry.js'
import { unreachable } from '../../src/github/unreachable.js'
import type { GitHubApiFake } from '../../simulator/github/index.js'
import { VirtualClock } from '../../simulator/virtual-clock.js'
import { realClock, REFUSED_PORT, testClient, useFakeGitHub } from '../fixtures/github.js'

const REPO = 'acme/app'
const PR = { owner: 'acme', repo: 'app', number: 7 }
let fake: GitHubApiFake
let github: GitHubClient
let clock: VirtualClock

useFakeGitHub(
  realClock,
  {
    token: 'tok',
    fresh: 'reset',
    each: (gh) => {
      gh.addRepo(REPO)
      gh.addPull(REPO, { number: 7, title: 'Docs', head: 'docs', base: 'main', files: [] })
      gh.setPermission(REPO, 'ada', 'write')
      clock = new VirtualClock()
      github = testClient('tok', gh.url, clock)
    }
  },
  (started) => (fake = started)
)

const read = (signal = AbortSignal.timeout(5000)): Promise<string> => github.permission(REPO, 'ada', signal)
const write = (): Promise<void> => github.addLabels(PR, ['docs'])
const sent = (route: string): number => fake.requests.filter((r) => r.route === route).length
const secondary = { message: 'You have exceeded a secondary rate limit.', headers: { 'retry-after': '3' } }
const resetIn = (s: number): string => String(Math.ceil(Date.now() / 1000) + s)

describe('a read', () => {
  it('answered 502 then 200 succeeds with two requests', async () => {
    fake.fail('collaborator-permission', { kind: 'status', status: 502 })
    expect(await read()).toBe('write')
    expect(sent('collaborator-permission')).toBe(2)
  })

  it('whose connection is lost is sent again', async () => {
    fake.fail('collaborator-permission', { kind: 'reset' })
    expect(await read()).toBe('write')
    expect(sent('collaborator-permission')).toBe(2)
  })

  it('answered 5xx every time gives up after three retries, 1, 2 and 4 s apart: within a 10 s budget, on its own failure', async () => {
    fake.failAlways('collaborator-permission', { kind: 'status', status: 503 })
    const started = clock.now()
    await expect(read(clock.timeout(10_000))).rejects.toMatchObject({ status: 503 })
    expect(sent('collaborator-permission')).toBe(4)
    expect(clock.now() - started).toBe(7000)
    expect(READ_WAITS_MS).toEqual([1000, 2000, 4000])
  })

  it('whose budget ends in a wait ends then, on its last failure, not on the time', async () => {
    fake.failAlways('collaborator-permission', { kind: 'status', status: 502 })
    await expect(read(clock.timeout(2500))).rejects.toMatchObject({ status: 502 })
    // Tries at 0 and 1 s; the budget ends 0.5 s into the 2 s wait.
    expect(sent('collaborator-permission')).toBe(2)
  })

  /** A server that counts its connections, on a port of its own. */
  const counting = async (server: Server): Promise<{ url: string; connections: () => number }> => {
    let connections = 0
    server.on('connection', () => connections++)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    return { url: `127.0.0.1:${port}`, connections: () => connections }
  }
  const close = (server: Server): Promise<unknown> => new Promise((resolve) => server.close(resolve))

  it('refused on every try ends on the refusal after the three waits, the host named', async () => {
    const url = `127.0.0.1:${String(REFUSED_PORT)}`
    const started = clock.now()
    const failure: unknown = await testClient('tok', `http://${url}`, clock)
      .permission(REPO, 'ada', clock.timeout(10_000))
      .catch((error: unknown) => error)
    expect(unreachable(failure)).toBe(`could not reach GitHub at ${url}: connect ECONNREFUSED ${url}`)
    expect(clock.now() - started).toBe(7000)
  })

  it('whose connection is reset on every try is sent four times, then ends on the reset', async () => {
    fake.failAlways('collaborator-permission', { kind: 'reset' })
    const failure: unknown = await read(clock.timeout(10_000)).catch((error: unknown) => error)
    expect(sent('collaborator-permission')).toBe(4)
    expect(unreachable(failure)).toMatch(
      /^could not reach GitHub at 127\.0\.0\.1:\d+: .*(ECONNRESET|other side closed)/
    )
  })

  it('failing TLS is not tried again: the next try would meet the same certificate', async () => {
    const fixture = (name: string): Buffer => readFileSync(new URL(`../fixtures/${name}`, import.meta.url))
    const tls = createTlsServer({ key: fixture('self-signed.key'), cert: fixture('self-signed.crt') })
    const { url, connections } = await counting(tls)
    try {
      const failure: unknown = await testClient('tok', `https://${url}`, clock)
        .permission(REPO, 'ada', clock.timeout(10_000))
        .catch((error: unknown) => error)
      expect(unreachable(failure)).toMatch(new RegExp(`^could not reach GitHub at ${url}: .*certificate`))
      expect(connections()).toBe(1)
    } finally {
      await close(tls)
    }
  })

  it('answered a client error is not sent again', async () => {
    fake.fail('collaborator-permission', { kind: 'status', status: 409 })
    await expect(read()).rejects.toMatchObject({ status: 409 })
    expect(sent('collaborator-permission')).toBe(1)
  })

  it('whose time is up is not sent again', async () => {
    fake.fail('collaborator-permission', { kind: 'hang' })
    const controller = new AbortController()
    const reading = read(controller.signal)
    // Aborted once the request is on the wire (a timer could fire before, under load).
    while (sent('collaborator-permission') < 1) await new Promise((resolve) => setImmediate(resolve))
    controller.abort()
    await expect(reading).rejects.toThrow()
    expect(sent('collaborator-permission')).toBe(1)
  })

  it('answered 403 with the primary rate limit spent is retried after the reset', async () => {
    const headers = { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': resetIn(2) }
    fake.fail('collaborator-permission', { kind: 'status', status: 403, message: 'API rate limit exceeded', headers })
    expect(await read()).toBe('write')
    expect(sent('collaborator-permission')).toBe(2)
  })

  it('answered 429 for the secondary rate limit is retried after Retry-After', async () => {
    fake.fail('collaborator-permission', { kind: 'status', status: 429, ...secondary })
    expect(await read()).toBe('write')
    expect(sent('collaborator-permission')).toBe(2)
  })

  it('whose time runs out while the throttling plugin waits out a rate limit ends on the rate limit, and is not sent again', async () => {
    // The client's own Octokit, its time cut at the moment the plugin decides to wait (Retry-After 60 s,
    // past a 10 s budget; the fallback when GitHub sends none): GitHub answered, so it is no time-out.
    const { getOctokit, throttling, limiter } = await import('../../src/github/octokit.js')
    const controller = new AbortController()
    const { throttle } = throttleOptions({ msPerSecond: 1 }, limiter)
    const handler = throttle?.onSecondaryRateLimit
    if (!throttle || !handler) throw new Error('throttleOptions gives no secondary-limit handler')
    // The plugin's types say void; the handler answers whether to wait and try again.
    type Decide = (retryAfter: number, options: object, octokit: unknown, retryCount: number) => boolean
    const decide = handler as unknown as Decide
    const onSecondaryRateLimit: Decide = (...args) => {
      const waits = decide(...args)
      controller.abort(new DOMException('The operation timed out.', 'TimeoutError'))
      return waits
    }
    const options = { baseUrl: fake.url, throttle: { ...throttle, onSecondaryRateLimit } } as Parameters<
      typeof getOctokit
    >[1]
    const octokit = getOctokit('tok', options, recordTries, throttling)
    retryReads(octokit, clock)
    fake.fail('collaborator-permission', {
      kind: 'status',
      status: 429,
      ...secondary,
      headers: { 'retry-after': '60' }
    })
    const reading = octokit.rest.repos.getCollaboratorPermissionLevel({
      owner: 'acme',
      repo: 'app',
      username: 'ada',
      request: { signal: controller.signal }
    })
    await expect(reading).rejects.toMatchObject({
      status: 429,
      message: expect.stringContaining('secondary rate limit')
    })
    // The plugin's retry, due 60 ms later, goes nowhere with the signal aborted.
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(sent('collaborator-permission')).toBe(1)
  })

  it('whose time runs out while a retry after a rate limit is on its way ends on the time: that try may have taken effect', async () => {
    fake.fail(
      'collaborator-permission',
      { kind: 'status', status: 429, ...secondary, headers: { 'retry-after': '1' } },
      { kind: 'hang' }
    )
    const controller = new AbortController()
    const reading = read(controller.signal)
    while (sent('collaborator-permission') < 2) await new Promise((resolve) => setImmediate(resolve))
    controller.abort(new DOMException('The operation timed out.', 'TimeoutError'))
    await expect(reading).rejects.toMatchObject({ name: 'TimeoutError' })
  })

  it('is not retried for a rate limit whose wait is over a minute, nor more than twice', async () => {
    fake.fail('collaborator-permission', {
      kind: 'status',
      status: 429,
      ...secondary,
      headers: { 'retry-after': '61' }
    })
    await expect(read()).rejects.toMatchObject({ status: 429 })
    expect(sent('collaborator-permission')).toBe(1)
    fake.failAlways('collaborator-permission', { kind: 'status', status: 429, ...secondary })
    await expect(read()).rejects.toMatchObject({ status: 429 })
    expect(sent('collaborator-permission')).toBe(1 + 3)
  })
})

describe('a group read (the docs pull requests and their comments)', () => {
  it('answered 502 once still succeeds', async () => {
    fake.fail('pulls', { kind: 'status', status: 502 })
    expect(await github.openPulls(REPO, AbortSignal.timeout(5000))).toEqual([
      expect.objectContaining({ number: 7, head: 'docs' })
    ])
    expect(sent('pulls')).toBe(2)
  })

  it('answered a rate limit once still succeeds', async () => {
    fake.addComment(REPO, 7, { body: 'hello', user: { login: 'mona' } })
    fake.fail('comments', { kind: 'status', status: 429, ...secondary })
    expect(await github.conversation(REPO).listComments(7)).toEqual([
      expect.objectContaining({ body: 'hello', author: 'mona' })
    ])
    expect(sent('comments')).toBe(2)
  })

  it('whose signal fires in the wait between tries fails then, on its last failure, and is not sent again', async () => {
    // Real seconds of waiting: the read must end on the abort, not when the wait is over.
    let sleeping = (): void => undefined
    const waiting = new Promise<void>((resolve) => (sleeping = resolve))
    const slow = testClient('tok', fake.url, {
      ...systemClock,
      sleep: (ms, signal) => {
        sleeping()
        return systemClock.sleep(ms, signal)
      }
    })
    fake.failAlways('pulls', { kind: 'status', status: 503 })
    const controller = new AbortController()
    let settled = false
    const reading = slow.openPulls(REPO, controller.signal).finally(() => (settled = true))
    await waiting
    controller.abort(new Error('the step is out of time'))
    await new Promise((resolve) => setImmediate(resolve))
    expect(settled).toBe(true)
    await expect(reading).rejects.toMatchObject({ status: 503 })
    await new Promise((resolve) => setTimeout(resolve, 400))
    expect(sent('pulls')).toBe(1)
  })
})

describe('a write', () => {
  it('answered 502 is not sent again', async () => {
    fake.fail('labels', { kind: 'status', status: 502 })
    await expect(write()).rejects.toMatchObject({ status: 502 })
    expect(sent('labels')).toBe(1)
  })

  it('whose connection is lost is not sent again, though the client library calls it a 500', async () => {
    fake.fail('labels', { kind: 'reset' })
    await expect(write()).rejects.toMatchObject({ status: 500 })
    expect(sent('labels')).toBe(1)
  })

  it('answered 429 with Retry-After is sent once more, and takes effect once', async () => {
    fake.fail('labels', { kind: 'status', status: 429, ...secondary })
    await write()
    expect(sent('labels')).toBe(2)
    expect(fake.requests.filter((r) => r.route === 'labels').map((r) => r.answeredStatus)).toEqual([429, 200])
  })
})

describe('the comment listing', () => {
  const addComments = (count: number): void => {
    for (let i = 0; i < count; i++) fake.addComment(REPO, 7, { body: `c${i}`, user: { login: 'mona' } })
  }

  it(`reads every page up to ${MAX_COMMENT_PAGES} of 100, each comment cut to what is used`, async () => {
    addComments(MAX_COMMENT_PAGES * 100)
    const all = await github.conversation(REPO).listComments(7)
    expect(all).toHaveLength(MAX_COMMENT_PAGES * 100)
    expect(Object.keys(all[0] ?? {}).sort()).toEqual(['author', 'body', 'id'])
    expect(all.at(-1)).toMatchObject({ body: `c${MAX_COMMENT_PAGES * 100 - 1}`, author: 'mona' })
  })

  it('fails, rather than answer part of the thread, past that', async () => {
    addComments(MAX_COMMENT_PAGES * 100 + 1)
    await expect(github.conversation(REPO).listComments(7)).rejects.toThrow(
      `pull request #7 has more than ${MAX_COMMENT_PAGES * 100} comments: not read`
    )
    expect(sent('comments')).toBe(MAX_COMMENT_PAGES + 1)
  })
})
