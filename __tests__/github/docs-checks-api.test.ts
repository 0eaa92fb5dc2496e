// The reads of the docs pull request's checks, through the action's client against the fake GitHub
// over loopback: what each answer becomes (GitHub's nulls as empty text or no link), every page of
// a list read with the step's signal and counted, and annotations cut at what the step asks for.
import { describe, expect, it } from '@jest/globals'
import type { GitHubApiFake } from '../../simulator/github/index.js'
import type { CheckApp } from '../../simulator/github-objects.js'
import { GitHubClient } from '../../src/github/client.js'
import { RequestCount } from '../../src/github/requests.js'
import { realClock, useFakeGitHub } from '../fixtures/github.js'

const DOCS = 'acme/docs'
const pr = { owner: 'acme', repo: 'docs', number: 5 }
let fake: GitHubApiFake
let sha: string

describe('the docs pull request checks API', () => {
  useFakeGitHub(
    realClock,
    {
      token: 'tok',
      fresh: 'reset',
      each: (gh) => {
        sha = gh.addCommits(DOCS, [{ message: 'docs: x' }])[0] ?? ''
        gh.addPull(DOCS, { number: 5, title: 'Docs', head: { ref: 'docs/x', sha }, base: 'main', files: [] })
      }
    },
    (started) => (fake = started)
  )

  const api = (signal = (): AbortSignal => AbortSignal.timeout(5000), count?: RequestCount) =>
    new GitHubClient('tok', fake.url, { pace: { msPerSecond: 1 } }).docsChecks(pr, signal, count)

  it('reads the head, and a check run with no title, summary or link as empty text and no link', async () => {
    fake.addCheckRun(DOCS, { name: 'Vale', head_sha: sha, status: 'completed', conclusion: 'failure' })
    expect(await api().head()).toBe(sha)
    const [run] = await api().checkRuns(sha)
    expect(run).toMatchObject({ name: 'Vale', status: 'completed', conclusion: 'failure', title: '', summary: '' })
    expect(run?.annotations).toBe(0)
  })

  it("reads each app's check suite with its status: queued with no run, then as its runs go", async () => {
    const app: CheckApp = { id: 151_520, slug: 'mintlify', name: 'Mintlify', owner: { login: 'mintlify', id: 7 } }
    fake.addCheckSuite(DOCS, sha, app)
    expect(await api().checkSuites(sha)).toEqual([{ app: 'Mintlify', status: 'queued' }])
    const id = fake.addCheckRun(DOCS, { name: 'Vale', head_sha: sha, status: 'in_progress' }, app)
    fake.addCheckRun(DOCS, { name: 'Lint', head_sha: sha, status: 'completed', conclusion: 'success' })
    expect(await api().checkSuites(sha)).toEqual([
      { app: 'Mintlify', status: 'in_progress' },
      { app: 'GitHub Actions', status: 'completed' }
    ])
    fake.updateCheckRun(DOCS, id, { conclusion: 'failure' })
    expect((await api().checkSuites(sha))[0]).toEqual({ app: 'Mintlify', status: 'completed' })
  })

  it('reads a status with no description or target as empty text and no link', async () => {
    fake.addStatus(DOCS, sha, { state: 'failure', context: 'ci/links' })
    fake.addStatus(DOCS, sha, {
      state: 'success',
      context: 'ci/build',
      description: 'Built',
      target_url: 'https://ci.example/1'
    })
    const statuses = await api().statuses(sha)
    expect(statuses).toEqual(
      expect.arrayContaining([
        { context: 'ci/links', state: 'failure', description: '', url: undefined },
        { context: 'ci/build', state: 'success', description: 'Built', url: 'https://ci.example/1' }
      ])
    )
  })

  it('reads annotations over pages, no more than asked for, each with its path, line and message', async () => {
    const id = fake.addCheckRun(DOCS, { name: 'Vale', head_sha: sha, status: 'completed', conclusion: 'failure' })
    const many = Array.from({ length: 150 }, (_, i) => ({
      path: `docs/${String(i)}.mdx`,
      start_line: i,
      message: `m${String(i)}`
    }))
    fake.annotateCheckRun(id, many)
    const three = await api().annotations(id, 3)
    expect(three).toEqual([
      { path: 'docs/0.mdx', line: 0, message: 'm0' },
      { path: 'docs/1.mdx', line: 1, message: 'm1' },
      { path: 'docs/2.mdx', line: 2, message: 'm2' }
    ])
    const count = new RequestCount()
    expect(await api(undefined, count).annotations(id, 120)).toHaveLength(120)
    expect(count.sent).toBe(2)
  })

  it('reads 500 check runs and statuses; past that it fails rather than judge part (a run left unread could be failing)', async () => {
    const add = (from: number, to: number): void => {
      for (let i = from; i < to; i++) {
        fake.addCheckRun(DOCS, { name: `c${String(i)}`, head_sha: sha, status: 'completed', conclusion: 'success' })
        fake.addStatus(DOCS, sha, { state: 'success', context: `s${String(i)}` })
      }
    }
    add(0, 500)
    expect(await api().checkRuns(sha)).toHaveLength(500)
    expect(await api().statuses(sha)).toHaveLength(500)
    add(500, 501)
    await expect(api().checkRuns(sha)).rejects.toThrow(`more than 500 check runs on ${sha}: not judged`)
    await expect(api().statuses(sha)).rejects.toThrow(`more than 500 statuses on ${sha}: not judged`)
  })

  it('reads 500 check suites; past that it fails rather than judge part', async () => {
    const app = (id: number): CheckApp => ({
      id,
      slug: `app-${id}`,
      name: `App ${id}`,
      owner: { login: 'acme', id: 1 }
    })
    for (let i = 1; i <= 500; i++) fake.addCheckSuite(DOCS, sha, app(i))
    expect(await api().checkSuites(sha)).toHaveLength(500)
    fake.addCheckSuite(DOCS, sha, app(501))
    await expect(api().checkSuites(sha)).rejects.toThrow(`more than 500 check suites on ${sha}: not judged`)
  })

  it('carries the step’s signal: an aborted one sends nothing', async () => {
    const aborted = (): AbortSignal => AbortSignal.abort()
    await expect(api(aborted).checkRuns(sha)).rejects.toBeDefined()
    await expect(api(aborted).head()).rejects.toBeDefined()
    expect(fake.requests).toEqual([])
  })
})
