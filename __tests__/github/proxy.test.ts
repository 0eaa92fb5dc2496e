/**
 * A self-hosted runner behind a proxy, in-process through `main`: GitHub's host resolves only
 * through the proxy (a `.test` name, which no DNS answers), as on a runner with no direct route
 * out. Every GitHub request, the context's reads, the link-back, a `/docs` command's reads and
 * writes, goes through @actions/github's proxy-aware fetch, which reads HTTP(S)_PROXY when it is
 * first loaded (so the variables are set in this file before anything loads it).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import type { GitHubApiFake } from '../../simulator/github/index.js'
import { startProxy, type Proxy } from '../fixtures/proxy.js'
import { useFakeGitHub } from '../fixtures/github.js'
import { useStep } from '../fixtures/step.js'

describe('GitHub reachable only through a proxy', () => {
  const APP = 'acme/app'
  const HOST = 'github.proxy.test'
  const step = useStep({ key: 'mint_proxy_key_0123456789', project: 'proj-proxy', scenario: { runMs: 3000 } })
  let github: GitHubApiFake
  let proxy: Proxy
  let apiUrl: string
  const saved = { ...process.env }
  const fake = useFakeGitHub(step.clock, { repo: APP, fresh: 'reset' }, (started) => (github = started))
  beforeAll(async () => {
    proxy = await startProxy({ [HOST]: github.url })
    apiUrl = `http://${HOST}:${new URL(github.url).port}`
    // As the runner sets them: for the whole process. The Agent API simulator is on loopback.
    Object.assign(process.env, {
      GITHUB_API_URL: apiUrl,
      HTTP_PROXY: proxy.url,
      HTTPS_PROXY: proxy.url,
      NO_PROXY: '127.0.0.1,localhost'
    })
  })
  afterAll(async () => {
    for (const name of ['GITHUB_API_URL', 'HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY']) {
      if (saved[name] === undefined) Reflect.deleteProperty(process.env, name)
      else process.env[name] = saved[name]
    }
    await proxy.close()
  })
  beforeEach(() => {
    github.addRepo(APP)
    github.addPull(APP, { number: 7, title: 'Add --dry-run', head: 'dry', base: 'main', files: [], merged: true })
    github.setPermission(APP, 'mona', 'write')
    proxy.seen.length = 0
  })
  const side = (ref: string) => ({ ref, repo: { full_name: APP } })
  const pull = {
    number: 7,
    title: 'Add --dry-run',
    body: 'Adds a flag.',
    user: { login: 'mona' },
    head: side('dry'),
    base: side('main')
  }
  const run = (event: string, payload: unknown, inputs: Record<string, string> = {}) =>
    step.run(inputs, {
      env: fake.env({
        GITHUB_API_URL: apiUrl,
        GITHUB_EVENT_NAME: event,
        GITHUB_ACTOR: 'mona',
        GITHUB_EVENT_PATH: '/event.json',
        GITHUB_RUN_ID: '5001',
        GITHUB_RUN_ATTEMPT: '1'
      }),
      files: { '/event.json': JSON.stringify(payload) }
    })

  it('reads the context, links back and carries out a /docs command, every request through the proxy', async () => {
    const first = await run(
      'pull_request',
      { action: 'closed', pull_request: pull },
      { prompt: 'Document this change' }
    )
    expect(first.code).toBe(0)
    expect(first.at('warning')).toEqual([])
    expect(first.at('info')).toContain('Linked back on acme/app#7.')
    expect(github.requests.map((r) => r.route)).toEqual(expect.arrayContaining(['pull-files', 'comment-create']))
    github.requests.length = 0
    const command = {
      action: 'created',
      issue: { number: 7, title: 'Add --dry-run', user: { login: 'mona' }, pull_request: { url: 'x' } },
      comment: { id: 900, body: '/docs Also mention the default.', user: { login: 'mona', type: 'User' } }
    }
    const followUp = await run('issue_comment', command)
    expect(followUp.code).toBe(0)
    expect(followUp.outputs).toMatchObject({ command: 'follow-up', 'job-id': first.outputs['job-id'] })
    expect(followUp.at('warning')).toEqual([])
    expect(github.requests.map((r) => `${r.method} ${r.route}`)).toEqual(
      expect.arrayContaining(['GET user', 'POST graphql', 'GET comments', 'POST reaction', 'PATCH comment-update'])
    )
    // Nothing reached GitHub but through the proxy.
    expect(proxy.seen.length).toBeGreaterThan(0)
    expect(proxy.seen.every((line) => line.includes(HOST))).toBe(true)
  })
})
