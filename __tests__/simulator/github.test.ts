// The GitHub REST API fake over real HTTP on loopback, driven through the Octokit client the action uses.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import type { getOctokit as GetOctokit } from '@actions/github'
import { GitHubApiFake, type CommitSeed } from '../../simulator/github/index.js'
import { realTime } from '../../simulator/agent-api.js'
import { VirtualClock } from '../../simulator/virtual-clock.js'
import { allowDrift } from '../fixtures/openapi.js'

type Octokit = ReturnType<typeof GetOctokit>

const REPO = 'acme/app'
const owner = 'acme'
const repo = 'app'
const SHA = /^[0-9a-f]{40}$/

let fake: GitHubApiFake
let octokit: Octokit

async function client(url: string, token = 'tok'): Promise<Octokit> {
  const { getOctokit } = await import('@actions/github')
  return getOctokit(token, { baseUrl: url })
}

beforeAll(async () => {
  fake = await GitHubApiFake.start()
  octokit = await client(fake.url)
})
afterAll(async () => {
  await fake.close()
})
beforeEach(() => {
  fake.reset()
  fake.latencyMs = 0
  fake.time = realTime
})

/** Two commits, v1.2.0 (annotated) on the first, v1.3.0 (lightweight) on the second. */
function seedTags(): { first: string; second: string } {
  const [first = '', second = ''] = fake.addCommits(REPO, [{ message: 'feat: one' }, { message: 'fix: two' }])
  fake.addTag(REPO, { name: 'v1.2.0', at: first, annotated: { message: 'Release 1.2.0' } })
  fake.addTag(REPO, { name: 'v1.3.0', at: second })
  return { first, second }
}

describe('releases', () => {
  beforeEach(() => {
    fake.addRelease(REPO, { tag_name: 'v1.0.0', name: 'One', body: 'First' })
    fake.addRelease(REPO, { tag_name: 'v1.1.0', body: '## Changes' })
    fake.addRelease(REPO, { tag_name: 'v2.0.0-rc.1', prerelease: true })
    fake.addRelease(REPO, { tag_name: 'v2.0.0', draft: true })
  })

  it('finds a release by tag, with the fields GitHub sends', async () => {
    const { data, status, headers } = await octokit.rest.repos.getReleaseByTag({ owner, repo, tag: 'v1.1.0' })
    expect(status).toBe(200)
    expect(data).toMatchObject({
      tag_name: 'v1.1.0',
      name: null,
      body: '## Changes',
      draft: false,
      prerelease: false,
      html_url: 'https://github.com/acme/app/releases/tag/v1.1.0',
      author: { login: 'github-actions[bot]', type: 'Bot' },
      assets: []
    })
    expect(typeof data.id).toBe('number')
    expect(data.published_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
    expect(headers['content-type']).toBe('application/json; charset=utf-8')
    expect(headers['x-github-api-version-selected']).toBe('2022-11-28')
    expect(headers['x-ratelimit-remaining']).toMatch(/^\d+$/)
    expect(headers['x-ratelimit-limit']).toBe('5000')
  })

  it('does not find a draft or an unknown tag by tag, and knows no other repository', async () => {
    for (const tag of ['v2.0.0', 'v9.9.9']) {
      await expect(octokit.rest.repos.getReleaseByTag({ owner, repo, tag })).rejects.toMatchObject({
        status: 404,
        response: { data: { message: 'Not Found', documentation_url: expect.stringContaining('docs.github.com') } }
      })
    }
    await expect(octokit.rest.repos.getReleaseByTag({ owner, repo: 'other', tag: 'v1.0.0' })).rejects.toMatchObject({
      status: 404
    })
  })

  it('answers the latest published non-prerelease release', async () => {
    const { data } = await octokit.rest.repos.getLatestRelease({ owner, repo })
    expect(data.tag_name).toBe('v1.1.0')
  })

  it('lists releases newest first, a page at a time with a Link header', async () => {
    const first = await octokit.rest.repos.listReleases({ owner, repo, per_page: 3 })
    expect(first.data.map((r) => r.tag_name)).toEqual(['v2.0.0', 'v2.0.0-rc.1', 'v1.1.0'])
    expect(first.headers.link).toBe(
      `<${fake.url}/repos/acme/app/releases?per_page=3&page=2>; rel="next", ` +
        `<${fake.url}/repos/acme/app/releases?per_page=3&page=2>; rel="last"`
    )
    const second = await octokit.rest.repos.listReleases({ owner, repo, per_page: 3, page: 2 })
    expect(second.data.map((r) => r.tag_name)).toEqual(['v1.0.0'])
    expect(second.headers.link).toBe(
      `<${fake.url}/repos/acme/app/releases?per_page=3&page=1>; rel="prev", ` +
        `<${fake.url}/repos/acme/app/releases?per_page=3&page=1>; rel="first"`
    )
    const all = await octokit.paginate(octokit.rest.repos.listReleases, { owner, repo, per_page: 1 })
    expect(all.map((r) => r.tag_name)).toEqual(['v2.0.0', 'v2.0.0-rc.1', 'v1.1.0', 'v1.0.0'])
    // One page only: no Link header at all, as GitHub does.
    expect((await octokit.rest.repos.listReleases({ owner, repo })).headers.link).toBeUndefined()
  })
})

describe('tags and refs', () => {
  it('lists tags with the commit they point at, annotated ones dereferenced', async () => {
    const { first, second } = seedTags()
    const { data } = await octokit.rest.repos.listTags({ owner, repo })
    expect(data).toEqual([
      expect.objectContaining({ name: 'v1.3.0', commit: expect.objectContaining({ sha: second }) }),
      expect.objectContaining({ name: 'v1.2.0', commit: expect.objectContaining({ sha: first }) })
    ])
    expect(data[0]).toMatchObject({
      zipball_url: expect.stringContaining('/zipball/'),
      tarball_url: expect.stringContaining('/tarball/'),
      node_id: expect.any(String)
    })
  })

  it('lists every matching ref in one unpaginated array, by name', async () => {
    const [sha = ''] = fake.addCommits(REPO, [{ message: 'x' }])
    for (let i = 40; i >= 0; i--) fake.addTag(REPO, { name: `v0.${i}.0`, at: sha })
    seedTags()
    const { data, headers } = await octokit.rest.git.listMatchingRefs({ owner, repo, ref: 'tags' })
    expect(data).toHaveLength(43)
    expect(headers.link).toBeUndefined()
    expect(data.map((r) => r.ref)).toEqual([...data.map((r) => r.ref)].sort())
    expect(data.find((r) => r.ref === 'refs/tags/v1.2.0')).toMatchObject({
      node_id: expect.any(String),
      url: `${fake.url}/repos/acme/app/git/refs/tags/v1.2.0`,
      object: { type: 'tag', sha: expect.stringMatching(SHA), url: expect.stringContaining('/git/tags/') }
    })
    expect(data.find((r) => r.ref === 'refs/tags/v1.3.0')?.object.type).toBe('commit')

    const prefixed = await octokit.rest.git.listMatchingRefs({ owner, repo, ref: 'tags/v1.' })
    expect(prefixed.data.map((r) => r.ref)).toEqual(['refs/tags/v1.2.0', 'refs/tags/v1.3.0'])
    expect((await octokit.rest.git.listMatchingRefs({ owner, repo, ref: 'tags/nope' })).data).toEqual([])
  })

  it('cuts matching refs into pages with a Link header when asked to, which paginate follows', async () => {
    const [sha = ''] = fake.addCommits(REPO, [{ message: 'x' }])
    for (let i = 0; i < 25; i++) fake.addTag(REPO, { name: `v0.${i}.0`, at: sha })
    fake.matchingRefsPageSize = 10
    allowDrift(
      /matching-refs.*query parameter '(page|per_page)'/,
      'GitHub does not page matching-refs: a fake that may'
    )
    try {
      const first = await octokit.rest.git.listMatchingRefs({ owner, repo, ref: 'tags/v0' })
      expect(first.data).toHaveLength(10)
      expect(first.headers.link).toContain('rel="next"')
      const all = await octokit.paginate(octokit.rest.git.listMatchingRefs, { owner, repo, ref: 'tags/v0' })
      expect(all).toHaveLength(25)
      expect(new Set(all.map((r) => r.ref)).size).toBe(25)
    } finally {
      fake.matchingRefsPageSize = undefined
    }
  })

  it('serves a ref with `/` whether sent as %2F (as Octokit does) or raw', async () => {
    seedTags()
    await octokit.rest.git.listMatchingRefs({ owner, repo, ref: 'tags/v1.3' })
    await octokit.rest.git.getRef({ owner, repo, ref: 'tags/v1.3.0' })
    expect(fake.requests.map((r) => r.rawPath)).toEqual([
      '/repos/acme/app/git/matching-refs/tags%2Fv1.3',
      '/repos/acme/app/git/ref/tags%2Fv1.3.0'
    ])
    expect(fake.requests.map((r) => r.route)).toEqual(['matching-refs', 'ref'])

    const raw = await fetch(`${fake.url}/repos/acme/app/git/matching-refs/tags/v1.3`)
    expect(((await raw.json()) as { ref: string }[]).map((r) => r.ref)).toEqual(['refs/tags/v1.3.0'])
    const one = await fetch(`${fake.url}/repos/acme/app/git/ref/tags/v1.3.0`)
    expect(await one.json()).toMatchObject({ ref: 'refs/tags/v1.3.0', object: { type: 'commit' } })
  })

  it('gets one ref, or 404', async () => {
    const { first } = seedTags()
    const { data } = await octokit.rest.git.getRef({ owner, repo, ref: 'tags/v1.2.0' })
    expect(data).toMatchObject({ ref: 'refs/tags/v1.2.0', object: { type: 'tag' } })
    expect(data.object.sha).not.toBe(first)
    await expect(octokit.rest.git.getRef({ owner, repo, ref: 'tags/v1.2' })).rejects.toMatchObject({ status: 404 })
  })

  it('gets an annotated tag object through its ref, or 404', async () => {
    const { first, second } = seedTags()
    const ref = await octokit.rest.git.getRef({ owner, repo, ref: 'tags/v1.2.0' })
    const { data } = await octokit.rest.git.getTag({ owner, repo, tag_sha: ref.data.object.sha })
    expect(data).toMatchObject({
      sha: ref.data.object.sha,
      tag: 'v1.2.0',
      message: 'Release 1.2.0\n',
      object: { type: 'commit', sha: first },
      tagger: { name: expect.any(String), email: expect.any(String), date: expect.any(String) },
      verification: { verified: false }
    })
    await expect(octokit.rest.git.getTag({ owner, repo, tag_sha: second })).rejects.toMatchObject({ status: 404 })
  })

  it('refuses a tag on a commit the history does not have', () => {
    expect(() => fake.addTag(REPO, { name: 'v0', at: 'f'.repeat(40) })).toThrow(/not a commit/)
  })
})

describe('compare', () => {
  const seeds: CommitSeed[] = Array.from({ length: 300 }, (_, i) => ({
    message: `change ${i}`,
    ...(i % 10 === 3 ? { parents: 2 } : {}),
    ...(i % 10 === 5 ? { author: { login: 'dependabot[bot]' } } : {}),
    ...(i % 10 === 7 ? { author: null } : {})
  }))
  let base: string
  let shas: string[]

  beforeEach(() => {
    ;[base = ''] = fake.addCommits(REPO, [{ message: 'base' }])
    shas = fake.addCommits(REPO, seeds)
    fake.addTag(REPO, { name: 'v1.2.0', at: base, annotated: { message: '1.2.0' } })
    fake.addTag(REPO, { name: 'v1.3.0', at: shas.at(-1) ?? '' })
  })

  it('answers the first 250 commits after base, oldest first, with the full count', async () => {
    const { data, headers } = await octokit.rest.repos.compareCommitsWithBasehead({
      owner,
      repo,
      basehead: 'v1.2.0...v1.3.0'
    })
    expect(data).toMatchObject({
      status: 'ahead',
      ahead_by: 300,
      behind_by: 0,
      total_commits: 300,
      html_url: 'https://github.com/acme/app/compare/v1.2.0...v1.3.0',
      base_commit: { sha: base },
      files: []
    })
    expect(headers.link).toBeUndefined()
    expect(data.commits.map((c) => c.sha)).toEqual(shas.slice(0, 250))
    const [plain, , , merge, , bot, , anonymous] = data.commits
    expect(plain).toMatchObject({
      commit: { message: 'change 0', author: { name: 'octocat', email: expect.any(String), date: expect.any(String) } },
      author: { login: 'octocat', type: 'User' },
      parents: [{ sha: base }]
    })
    expect(merge?.parents.map((p) => p.sha)).toEqual([shas[2], expect.stringMatching(SHA)])
    expect(bot?.author).toMatchObject({ login: 'dependabot[bot]', type: 'Bot' })
    expect(anonymous?.author).toBeNull()
    expect(anonymous?.commit.author).toMatchObject({ name: expect.any(String), email: expect.any(String) })
  })

  it('pages through all commits with per_page and a Link header', async () => {
    const { data, headers } = await octokit.rest.repos.compareCommitsWithBasehead({
      owner,
      repo,
      basehead: 'v1.2.0...v1.3.0',
      per_page: 100,
      page: 3
    })
    expect(data.total_commits).toBe(300)
    expect(data.commits.map((c) => c.sha)).toEqual(shas.slice(200))
    expect(headers.link).toContain('page=2>; rel="prev"')
    expect(headers.link).toContain('page=1>; rel="first"')
    expect(headers.link).not.toContain('rel="next"')
  })

  it('takes shas and short shas, and tells behind and identical apart', async () => {
    const head = shas[9] ?? ''
    const ahead = await octokit.rest.repos.compareCommitsWithBasehead({
      owner,
      repo,
      basehead: `${base.slice(0, 7)}...${head}`
    })
    expect(ahead.data).toMatchObject({ status: 'ahead', ahead_by: 10, total_commits: 10 })
    const behind = await octokit.rest.repos.compareCommits({ owner, repo, base: 'v1.3.0', head: 'v1.2.0' })
    expect(behind.data).toMatchObject({ status: 'behind', ahead_by: 0, behind_by: 300, commits: [] })
    const same = await octokit.rest.repos.compareCommitsWithBasehead({ owner, repo, basehead: `${head}...${head}` })
    expect(same.data).toMatchObject({ status: 'identical', total_commits: 0 })
  })

  it("lists the files the range's commits change, one entry per file, patches joined; none left out without one", async () => {
    const [base = ''] = fake.addCommits(REPO, [
      { message: 'base', files: [{ filename: 'old.ts', status: 'added', additions: 1, deletions: 0, patch: '+old' }] }
    ])
    const [, head = ''] = fake.addCommits(REPO, [
      { message: 'one', files: [{ filename: 'a.ts', status: 'modified', additions: 1, deletions: 0, patch: '+one' }] },
      {
        message: 'two',
        files: [
          { filename: 'a.ts', status: 'modified', additions: 2, deletions: 1, patch: '+two' },
          { filename: 'logo.png', status: 'added', additions: 0, deletions: 0 }
        ]
      }
    ])
    const { data } = await octokit.rest.repos.compareCommitsWithBasehead({ owner, repo, basehead: `${base}...${head}` })
    expect(
      data.files?.map(({ filename, additions, deletions, patch }) => ({ filename, additions, deletions, patch }))
    ).toEqual([
      { filename: 'a.ts', additions: 3, deletions: 1, patch: '+one\n+two' },
      { filename: 'logo.png', additions: 0, deletions: 0, patch: undefined }
    ])
    expect(data.files?.[1]).not.toHaveProperty('patch')
  })

  it('answers 404 for an unknown base or head', async () => {
    for (const basehead of ['v0.0.1...v1.3.0', 'v1.2.0...deadbeefdeadbeef', 'v1.2.0']) {
      await expect(octokit.rest.repos.compareCommitsWithBasehead({ owner, repo, basehead })).rejects.toMatchObject({
        status: 404
      })
    }
  })
})

describe('pull requests', () => {
  const files = Array.from({ length: 45 }, (_, i) => ({
    filename: `docs/page-${i}.md`,
    status: 'modified' as const,
    additions: 2,
    deletions: 1,
    patch: '@@ -1 +1,2 @@\n-a\n+b\n+c'
  }))

  beforeEach(() => {
    fake.addPull(REPO, {
      number: 7,
      title: 'Docs for v1.3.0',
      body: 'Generated',
      head: { ref: 'docs/v1.3.0', sha: 'a'.repeat(40) },
      base: 'main',
      user: { login: 'mintlify[bot]' },
      files: [
        { filename: 'docs/new.md', status: 'renamed', additions: 0, deletions: 0, previous_filename: 'docs/old.md' },
        ...files
      ]
    })
  })

  it('gets the pull request', async () => {
    const { data } = await octokit.rest.pulls.get({ owner, repo, pull_number: 7 })
    expect(data).toMatchObject({
      number: 7,
      title: 'Docs for v1.3.0',
      body: 'Generated',
      html_url: 'https://github.com/acme/app/pull/7',
      state: 'open',
      merged: false,
      head: { ref: 'docs/v1.3.0', sha: 'a'.repeat(40) },
      base: { ref: 'main', sha: expect.stringMatching(SHA) },
      changed_files: 46,
      additions: 90,
      deletions: 45,
      user: { login: 'mintlify[bot]', type: 'Bot' }
    })
    await expect(octokit.rest.pulls.get({ owner, repo, pull_number: 8 })).rejects.toMatchObject({ status: 404 })
  })

  it('lists files 30 per page by default, with a Link header, and all through paginate', async () => {
    const first = await octokit.rest.pulls.listFiles({ owner, repo, pull_number: 7 })
    expect(first.data).toHaveLength(30)
    expect(first.headers.link).toBe(
      `<${fake.url}/repos/acme/app/pulls/7/files?page=2>; rel="next", ` +
        `<${fake.url}/repos/acme/app/pulls/7/files?page=2>; rel="last"`
    )
    expect(first.data[0]).toEqual({
      sha: expect.stringMatching(SHA),
      filename: 'docs/new.md',
      status: 'renamed',
      additions: 0,
      deletions: 0,
      changes: 0,
      previous_filename: 'docs/old.md',
      blob_url: `https://github.com/acme/app/blob/${'a'.repeat(40)}/docs/new.md`,
      raw_url: expect.any(String),
      contents_url: expect.any(String)
    })
    expect(first.data[1]).toMatchObject({ changes: 3, patch: '@@ -1 +1,2 @@\n-a\n+b\n+c' })
    const all = await octokit.paginate(octokit.rest.pulls.listFiles, { owner, repo, pull_number: 7, per_page: 100 })
    expect(all).toHaveLength(46)
  })

  it('lists at most 3000 files, though changed_files counts them all', async () => {
    fake.addPull(REPO, {
      number: 9,
      title: 'Huge',
      head: 'huge',
      base: 'main',
      files: Array.from({ length: 3050 }, (_, i) => ({
        filename: `f${i}`,
        status: 'added',
        additions: 1,
        deletions: 0
      }))
    })
    const all = await octokit.paginate(octokit.rest.pulls.listFiles, { owner, repo, pull_number: 9, per_page: 100 })
    expect(all).toHaveLength(3000)
    expect((await octokit.rest.pulls.get({ owner, repo, pull_number: 9 })).data.changed_files).toBe(3050)
  })
})

describe('the docs repository: pull requests by state', () => {
  const DOCS = 'acme/docs'
  const seed = (number: number, head: string): void =>
    fake.addPull(DOCS, { number, title: `Docs ${number}`, head, base: 'main', files: [] })

  it('lists open pull requests newest first, and closed or all on request', async () => {
    seed(1, 'one')
    seed(2, 'two')
    seed(3, 'three')
    fake.setPullState(DOCS, 2, 'merged')
    fake.setPullState(DOCS, 3, 'closed')
    const list = async (state?: 'open' | 'closed' | 'all', direction?: 'asc' | 'desc'): Promise<number[]> =>
      (await octokit.rest.pulls.list({ owner: 'acme', repo: 'docs', state, direction })).data.map((p) => p.number)
    expect(await list()).toEqual([1])
    expect(await list('closed')).toEqual([3, 2])
    expect(await list('all')).toEqual([3, 2, 1])
    expect(await list('all', 'asc')).toEqual([1, 2, 3])
    const pulls = (await octokit.rest.pulls.list({ owner: 'acme', repo: 'docs', state: 'all' })).data
    expect(pulls.map((p) => [p.number, p.state, p.head.ref, p.merged_at !== null])).toEqual([
      [3, 'closed', 'three', false],
      [2, 'closed', 'two', true],
      [1, 'open', 'one', false]
    ])
    fake.setPullState(DOCS, 3, 'open')
    expect(await list()).toEqual([3, 1])
    expect((await octokit.rest.pulls.get({ owner: 'acme', repo: 'docs', pull_number: 3 })).data).toMatchObject({
      state: 'open',
      merged: false,
      closed_at: null
    })
  })

  it('pages the list with a Link header', async () => {
    for (let n = 1; n <= 5; n++) seed(n, `b${n}`)
    const first = await octokit.rest.pulls.list({ owner: 'acme', repo: 'docs', per_page: 2 })
    expect(first.data.map((p) => p.number)).toEqual([5, 4])
    expect(first.headers.link).toContain('rel="next"')
    const all = await octokit.paginate(octokit.rest.pulls.list, { owner: 'acme', repo: 'docs', per_page: 2 })
    expect(all.map((p) => p.number)).toEqual([5, 4, 3, 2, 1])
  })

  it('refuses to change the state of a pull request it does not have', () => {
    expect(() => fake.setPullState(DOCS, 9, 'merged')).toThrow('no pull request #9 in acme/docs')
  })

  it('opens the docs pull request of each job the Agent API simulator creates, once linked', async () => {
    const { AgentApiSimulator } = await import('../../simulator/agent-api.js')
    const { linkDocsRepository } = await import('../../simulator/docs-repository.js')
    const sim = await AgentApiSimulator.start({ scenario: { runMs: 0 } })
    try {
      linkDocsRepository(sim, fake)
      const res = await fetch(`${sim.url}/v2/agent/p/job`, {
        method: 'POST',
        headers: { authorization: 'Bearer mint_x', 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: 'Document' })
      })
      const job = (await res.json()) as { id: string }
      const poll = await fetch(`${sim.url}/v2/agent/p/job/${job.id}`, { headers: { authorization: 'Bearer mint_x' } })
      const { prLink } = (await poll.json()) as { prLink: string }
      const number = Number(prLink.split('/').pop())
      const { data } = await octokit.rest.pulls.get({ owner: 'acme', repo: 'docs', pull_number: number })
      expect(data).toMatchObject({ state: 'open', head: { ref: `mintlify/${job.id}` }, html_url: prLink })
    } finally {
      await sim.close()
    }
  })
})

describe('workflow runs', () => {
  it('lists the runs of a workflow newest first, filtered by branch, event and status, with the fields GitHub sends', async () => {
    const [a = '', b = ''] = fake.addCommits(REPO, [{ message: 'a' }, { message: 'b' }])
    fake.addRun(REPO, { workflow: 'docs.yml', branch: 'main', event: 'schedule', headSha: a })
    fake.addRun(REPO, { workflow: 'docs.yml', branch: 'main', event: 'schedule', headSha: b, conclusion: 'failure' })
    fake.addRun(REPO, { workflow: 'docs.yml', branch: 'main', event: 'schedule', headSha: b, conclusion: null })
    fake.addRun(REPO, { workflow: 'docs.yml', branch: 'main', event: 'schedule', headSha: b })
    fake.addRun(REPO, { workflow: 'docs.yml', branch: 'dev', event: 'schedule', headSha: b })
    fake.addRun(REPO, { workflow: 'docs.yml', branch: 'main', event: 'push', headSha: b })
    fake.addRun(REPO, { workflow: 'ci.yml', branch: 'main', event: 'schedule', headSha: b })
    const list = (extra: Record<string, string>) =>
      octokit.rest.actions.listWorkflowRuns({ owner, repo, workflow_id: 'docs.yml', ...extra })
    const { data } = await list({ branch: 'main', event: 'schedule', status: 'success' })
    expect(data.total_count).toBe(2)
    expect(data.workflow_runs.map((r) => r.head_sha)).toEqual([b, a])
    expect(data.workflow_runs[0]).toMatchObject({
      id: expect.any(Number),
      head_branch: 'main',
      event: 'schedule',
      status: 'completed',
      conclusion: 'success',
      html_url: expect.stringMatching(/^https:\/\/github\.com\/acme\/app\/actions\/runs\/\d+$/),
      created_at: expect.stringMatching(/Z$/)
    })
    expect((await list({})).data.total_count).toBe(6)
    expect((await list({ status: 'in_progress' })).data.workflow_runs.map((r) => r.conclusion)).toEqual([null])
  })
})

describe('collaborator permission', () => {
  const permissionOf = (username: string) =>
    octokit.rest.repos.getCollaboratorPermissionLevel({ owner, repo, username })

  it('answers each role with its legacy permission, as GitHub does', async () => {
    const expected = [
      ['admin', 'admin'],
      ['maintain', 'write'],
      ['write', 'write'],
      ['triage', 'read'],
      ['read', 'read'],
      ['none', 'none']
    ] as const
    for (const [role] of expected) fake.setPermission(REPO, `user-${role}`, role)
    for (const [role, permission] of expected) {
      const { data, status } = await permissionOf(`user-${role}`)
      expect(status).toBe(200)
      expect(data).toMatchObject({ permission, role_name: role, user: { login: `user-${role}`, type: 'User' } })
    }
    expect(fake.requests.map((r) => [r.route, r.repo])).toEqual(expected.map(() => ['collaborator-permission', REPO]))
  })

  it('answers the flags of the user, maintain and triage included', async () => {
    fake.setPermission(REPO, 'mona', 'maintain')
    fake.setPermission(REPO, 'hubot', 'triage')
    expect((await permissionOf('mona')).data.user?.permissions).toEqual({
      admin: false,
      maintain: true,
      push: true,
      triage: true,
      pull: true
    })
    expect((await permissionOf('hubot')).data.user?.permissions).toEqual({
      admin: false,
      maintain: false,
      push: false,
      triage: true,
      pull: true
    })
  })

  it('answers a custom role by its name, with its base permission', async () => {
    fake.setPermission(REPO, 'editor', { role_name: 'docs-editor', permission: 'write' })
    expect((await permissionOf('editor')).data).toMatchObject({ permission: 'write', role_name: 'docs-editor' })
  })

  it('takes logins case-insensitively, and a bot login as it is', async () => {
    fake.setPermission(REPO, 'Mona', 'write')
    fake.setPermission(REPO, 'renovate[bot]', 'write')
    expect((await permissionOf('mona')).data).toMatchObject({ role_name: 'write', user: { login: 'Mona' } })
    expect((await permissionOf('renovate[bot]')).data).toMatchObject({ user: { login: 'renovate[bot]', type: 'Bot' } })
    expect(fake.requests[1]?.rawPath).toBe('/repos/acme/app/collaborators/renovate%5Bbot%5D/permission')
  })

  it('answers 404 for a login without a permission, and for an unknown repository', async () => {
    fake.setPermission(REPO, 'mona', 'admin')
    await expect(permissionOf('stranger')).rejects.toMatchObject({
      status: 404,
      response: { data: { message: 'Not Found', documentation_url: expect.stringContaining('collaborators') } }
    })
    await expect(
      octokit.rest.repos.getCollaboratorPermissionLevel({ owner, repo: 'other', username: 'mona' })
    ).rejects.toMatchObject({ status: 404 })
  })

  it('fails with 403 or 500 when told to, then answers', async () => {
    fake.setPermission(REPO, 'mona', 'write')
    fake.fail('collaborator-permission', {
      kind: 'status',
      status: 403,
      message: 'Resource not accessible by integration'
    })
    fake.failAlways('collaborator-permission', { kind: 'status', status: 500 })
    await expect(permissionOf('mona')).rejects.toMatchObject({
      status: 403,
      response: { data: { message: 'Resource not accessible by integration' } }
    })
    await expect(permissionOf('mona')).rejects.toMatchObject({ status: 500 })
    fake.failAlways('collaborator-permission', null)
    expect((await permissionOf('mona')).data.role_name).toBe('write')
  })

  it('forgets permissions on reset', async () => {
    fake.setPermission(REPO, 'mona', 'write')
    fake.reset()
    await expect(permissionOf('mona')).rejects.toMatchObject({ status: 404 })
  })
})

describe('labels', () => {
  it('adds labels, records them and answers every label of the issue', async () => {
    fake.addRepo(REPO)
    const { status, data } = await octokit.rest.issues.addLabels({
      owner,
      repo,
      issue_number: 12,
      labels: ['documentation', 'release']
    })
    expect(status).toBe(200)
    expect(data).toEqual([
      expect.objectContaining({ name: 'documentation', id: expect.any(Number), color: expect.any(String) }),
      expect.objectContaining({ name: 'release', default: false })
    ])
    const again = await octokit.rest.issues.addLabels({ owner, repo, issue_number: 12, labels: ['release', 'docs'] })
    expect(again.data.map((l) => l.name)).toEqual(['documentation', 'release', 'docs'])
    expect(fake.labelsOf(REPO, 12)).toEqual(['documentation', 'release', 'docs'])
    expect(fake.labelsOf(REPO, 13)).toEqual([])
    expect(fake.requests[0]).toMatchObject({
      method: 'POST',
      route: 'labels',
      repo: REPO,
      authorization: 'token tok',
      body: JSON.stringify({ labels: ['documentation', 'release'] }),
      answeredStatus: 200
    })
  })

  it('rejects a body without labels, and an unknown repository', async () => {
    fake.addRepo(REPO)
    const res = await fetch(`${fake.url}/repos/acme/app/issues/1/labels`, { method: 'POST', body: '{"labels":[]}' })
    expect(res.status).toBe(422)
    await expect(
      octokit.rest.issues.addLabels({ owner, repo: 'gone', issue_number: 1, labels: ['x'] })
    ).rejects.toMatchObject({ status: 404 })
  })

  it('refuses the whole request when a label name is over 50 characters (an emoji is one)', async () => {
    fake.addRepo(REPO)
    await expect(
      octokit.rest.issues.addLabels({ owner, repo, issue_number: 1, labels: ['docs', 'd'.repeat(51)] })
    ).rejects.toMatchObject({ status: 422 })
    expect(fake.labelsOf(REPO, 1)).toEqual([])
    await octokit.rest.issues.addLabels({ owner, repo, issue_number: 1, labels: ['📄'.repeat(50)] })
    expect(fake.labelsOf(REPO, 1)).toEqual(['📄'.repeat(50)])
  })
})

describe('the conversation', () => {
  it('lists, creates, updates and deletes issue comments, written as the token identity', async () => {
    fake.addRepo(REPO)
    const theirs = fake.addComment(REPO, 7, { body: 'Nice', user: { login: 'mona' } })
    const { data: created, status } = await octokit.rest.issues.createComment({
      owner,
      repo,
      issue_number: 7,
      body: 'Mine'
    })
    expect(status).toBe(201)
    expect(created).toMatchObject({ body: 'Mine', user: { login: 'github-actions[bot]', type: 'Bot' } })
    expect(created.id).toBeGreaterThan(theirs)
    await octokit.rest.issues.updateComment({ owner, repo, comment_id: created.id, body: 'Mine, edited' })
    const { data: listed } = await octokit.rest.issues.listComments({ owner, repo, issue_number: 7 })
    expect(listed.map((c) => [c.id, c.body, c.user?.login])).toEqual([
      [theirs, 'Nice', 'mona'],
      [created.id, 'Mine, edited', 'github-actions[bot]']
    ])
    // Someone else's comment cannot be edited with this token, as GitHub answers.
    await expect(
      octokit.rest.issues.updateComment({ owner, repo, comment_id: theirs, body: 'x' })
    ).rejects.toMatchObject({
      status: 403
    })
    const { status: deleted } = await octokit.rest.issues.deleteComment({ owner, repo, comment_id: created.id })
    expect(deleted).toBe(204)
    expect(fake.commentsOf(REPO, 7)).toEqual([{ id: theirs, body: 'Nice', author: 'mona' }])
    await expect(octokit.rest.issues.deleteComment({ owner, repo, comment_id: created.id })).rejects.toMatchObject({
      status: 404
    })
    expect(fake.commentsOf(REPO, 8)).toEqual([])
  })

  it('pages comments 100 at a time', async () => {
    for (let i = 0; i < 130; i++) fake.addComment(REPO, 7, { body: `c${i}`, user: { login: 'mona' } })
    const all = await octokit.paginate(octokit.rest.issues.listComments, {
      owner,
      repo,
      issue_number: 7,
      per_page: 100
    })
    expect(all).toHaveLength(130)
    expect(fake.requests.filter((r) => r.route === 'comments')).toHaveLength(2)
  })

  it('records reactions on issue comments and review comments', async () => {
    fake.addRepo(REPO)
    await octokit.rest.reactions.createForIssueComment({ owner, repo, comment_id: 5, content: 'eyes' })
    await octokit.rest.reactions.createForPullRequestReviewComment({ owner, repo, comment_id: 6, content: '+1' })
    expect(fake.reactionsOf(REPO, 5)).toEqual([{ on: 'issue', content: 'eyes', user: 'github-actions[bot]' }])
    expect(fake.reactionsOf(REPO, 6)).toEqual([{ on: 'review', content: '+1', user: 'github-actions[bot]' }])
  })

  it('updates a release body', async () => {
    fake.addRelease(REPO, { tag_name: 'v1', body: 'Old' })
    const { data } = await octokit.rest.repos.getReleaseByTag({ owner, repo, tag: 'v1' })
    await octokit.rest.repos.updateRelease({ owner, repo, release_id: data.id, body: 'New' })
    expect(fake.releaseBody(REPO, 'v1')).toBe('New')
    await expect(octokit.rest.repos.updateRelease({ owner, repo, release_id: 1, body: 'x' })).rejects.toMatchObject({
      status: 404
    })
    await expect(
      octokit.rest.repos.updateRelease({ owner, repo, release_id: data.id, body: 'n'.repeat(125_001) })
    ).rejects.toMatchObject({ status: 422, message: expect.stringContaining('body is too long (maximum is 125000') })
    await octokit.rest.repos.updateRelease({ owner, repo, release_id: data.id, body: 'n'.repeat(125_000) })
    expect(fake.releaseBody(REPO, 'v1')).toHaveLength(125_000)
  })

  it('tells the identity: /user for a personal token, 403 and GraphQL viewer for an installation token', async () => {
    await expect(octokit.rest.users.getAuthenticated()).rejects.toMatchObject({
      status: 403,
      message: expect.stringContaining('Resource not accessible by integration')
    })
    expect(await octokit.graphql('query { viewer { login __typename } }')).toEqual({
      viewer: { login: 'github-actions', __typename: 'Bot' }
    })
    fake.identity = { login: 'mona', kind: 'user' }
    expect((await octokit.rest.users.getAuthenticated()).data.login).toBe('mona')
    expect(await octokit.graphql('query { viewer { login __typename } }')).toEqual({
      viewer: { login: 'mona', __typename: 'User' }
    })
    fake.identity = { login: 'github-actions[bot]', kind: 'installation' }
  })

  it('refuses a comment body over 65,536 characters (code points), as GitHub does, on create and update', async () => {
    fake.addRepo(REPO)
    const long = '😀'.repeat(65_537)
    await expect(octokit.rest.issues.createComment({ owner, repo, issue_number: 7, body: long })).rejects.toMatchObject(
      {
        status: 422,
        message: expect.stringContaining('Body is too long (maximum is 65536 characters)')
      }
    )
    // 65,536 code points are 131,072 UTF-16 units: GitHub counts the former.
    const { data } = await octokit.rest.issues.createComment({ owner, repo, issue_number: 7, body: long.slice(2) })
    await expect(
      octokit.rest.issues.updateComment({ owner, repo, comment_id: data.id, body: long })
    ).rejects.toMatchObject({ status: 422 })
    expect(fake.commentsOf(REPO, 7)).toHaveLength(1)
  })

  it('refuses a comment create with a queued 403', async () => {
    fake.addRepo(REPO)
    fake.fail('comment-create', { kind: 'status', status: 403, message: 'Resource not accessible by integration' })
    await expect(octokit.rest.issues.createComment({ owner, repo, issue_number: 7, body: 'x' })).rejects.toMatchObject({
      status: 403
    })
    expect(fake.commentsOf(REPO, 7)).toEqual([])
    await octokit.rest.issues.createComment({ owner, repo, issue_number: 7, body: 'x' })
    expect(fake.commentsOf(REPO, 7)).toHaveLength(1)
  })
})

describe('routing and auth', () => {
  it('answers 404 Not Found to anything else', async () => {
    fake.addRepo(REPO)
    allowDrift(/the fake has no route for it/, 'the fake serves what the action asks, not all GitHub has')
    for (const [method, path] of [
      ['GET', '/repos/acme/app/issues'],
      ['DELETE', '/repos/acme/app/releases'],
      ['GET', '/users/octocat'],
      ['GET', '/repos/acme/app/pulls/x']
    ] as const) {
      const res = await fetch(`${fake.url}${path}`, { method })
      expect(res.status).toBe(404)
      expect(await res.json()).toMatchObject({ message: 'Not Found', documentation_url: expect.any(String) })
    }
    expect(fake.requests.map((r) => r.route)).toEqual(['unknown', 'unknown', 'unknown', 'unknown'])
  })

  it('takes the owner and name case-insensitively, as GitHub does', async () => {
    seedTags()
    const { data } = await octokit.rest.repos.listTags({ owner: 'ACME', repo: 'App' })
    expect(data).toHaveLength(2)
  })

  it('with a token, answers 401 Bad credentials to any other', async () => {
    const guarded = await GitHubApiFake.start({ token: 'secret' })
    try {
      guarded.addRepo(REPO)
      guarded.addRelease(REPO, { tag_name: 'v1' })
      const wrong = await client(guarded.url, 'wrong')
      await expect(wrong.rest.repos.getReleaseByTag({ owner, repo, tag: 'v1' })).rejects.toMatchObject({
        status: 401,
        response: { data: { message: 'Bad credentials' } }
      })
      const right = await client(guarded.url, 'secret')
      expect((await right.rest.repos.getReleaseByTag({ owner, repo, tag: 'v1' })).status).toBe(200)
      const bearer = await fetch(`${guarded.url}/repos/acme/app/releases`, {
        headers: { authorization: 'Bearer secret' }
      })
      expect(bearer.status).toBe(200)
      expect((await fetch(`${guarded.url}/repos/acme/app/releases`)).status).toBe(401)
    } finally {
      await guarded.close()
    }
  })
})

describe('faults', () => {
  beforeEach(() => {
    seedTags()
  })

  it('answers a queued status once, with its headers over the defaults', async () => {
    fake.fail('tags', {
      kind: 'status',
      status: 403,
      message: 'API rate limit exceeded for installation ID 1.',
      headers: { 'X-RateLimit-Remaining': '0' }
    })
    await expect(octokit.rest.repos.listTags({ owner, repo })).rejects.toMatchObject({
      status: 403,
      response: {
        headers: expect.objectContaining({ 'x-ratelimit-remaining': '0', 'x-ratelimit-limit': '5000' }),
        data: { message: 'API rate limit exceeded for installation ID 1.' }
      }
    })
    expect((await octokit.rest.repos.listTags({ owner, repo })).status).toBe(200)
    expect(fake.requests.map((r) => [r.fault, r.answeredStatus])).toEqual([
      ['status', 403],
      [undefined, 200]
    ])
  })

  it('consumes queued faults in order before the standing one, until that is lifted', async () => {
    fake.fail('matching-refs', { kind: 'status', status: 500 }, { kind: 'status', status: 502 })
    fake.failAlways('matching-refs', { kind: 'status', status: 404 })
    const statuses: number[] = []
    for (let i = 0; i < 4; i++) {
      try {
        await octokit.rest.git.listMatchingRefs({ owner, repo, ref: 'tags' })
        statuses.push(200)
      } catch (error) {
        statuses.push((error as { status: number }).status)
      }
      if (i === 2) fake.failAlways('matching-refs', null)
    }
    expect(statuses).toEqual([500, 502, 404, 200])
    // Other routes are untouched.
    expect(fake.requests.every((r) => r.route === 'matching-refs')).toBe(true)
  })

  it('delays an answer', async () => {
    const clock = new VirtualClock()
    fake.time = clock
    fake.fail('ref', { kind: 'delay', ms: 200 })
    const started = clock.now()
    const { data } = await octokit.rest.git.getRef({ owner, repo, ref: 'tags/v1.3.0' })
    expect(clock.now() - started).toBe(200)
    expect(data.ref).toBe('refs/tags/v1.3.0')
  })

  it('hangs until the client gives up', async () => {
    const clock = new VirtualClock()
    fake.time = clock
    fake.fail('tag-object', { kind: 'hang' })
    const started = clock.now()
    await expect(
      octokit.rest.git.getTag({ owner, repo, tag_sha: 'f'.repeat(40), request: { signal: clock.timeout(300) } })
    ).rejects.toThrow()
    // Nothing but the client's time limit moved the clock: the fake held the request until then.
    expect(clock.now() - started).toBe(300)
    expect(fake.requests[0]).toMatchObject({ route: 'tag-object', fault: 'hang' })
    expect(fake.requests[0]?.answeredStatus).toBeUndefined()
  })

  it('resets the connection', async () => {
    fake.fail('compare', { kind: 'reset' })
    await expect(
      octokit.rest.repos.compareCommitsWithBasehead({ owner, repo, basehead: 'v1.2.0...v1.3.0' })
    ).rejects.toThrow()
    expect(fake.requests[0]).toMatchObject({ route: 'compare', fault: 'reset' })
    expect(fake.requests[0]?.answeredStatus).toBeUndefined()
    const { data } = await octokit.rest.repos.compareCommitsWithBasehead({ owner, repo, basehead: 'v1.2.0...v1.3.0' })
    expect(data.total_commits).toBe(1)
  })

  it('delays every answer by latencyMs', async () => {
    const clock = new VirtualClock()
    fake.time = clock
    fake.latencyMs = 100
    const started = clock.now()
    for (let i = 0; i < 3; i++) await octokit.rest.repos.listTags({ owner, repo })
    expect(clock.now() - started).toBe(300)
    expect(fake.requests.map((r) => r.time - started)).toEqual([0, 100, 200])
  })

  it('takes latencyMs as a start option too', async () => {
    const clock = new VirtualClock()
    const slow = await GitHubApiFake.start({ latencyMs: 150, time: clock })
    try {
      slow.addRepo(REPO)
      const started = clock.now()
      expect((await fetch(`${slow.url}/repos/acme/app/releases`)).status).toBe(200)
      expect(clock.now() - started).toBe(150)
    } finally {
      await slow.close()
    }
  })

  it('waits latency and delays on the clock it is given: a virtual clock moves, real time does not wait', async () => {
    const clock = new VirtualClock()
    fake.time = clock
    fake.latencyMs = 5_000
    fake.fail('releases', { kind: 'delay', ms: 60_000 })
    const started = clock.now()
    await octokit.rest.repos.listTags({ owner, repo })
    expect(clock.now() - started).toBe(5_000)
    await octokit.rest.repos.listReleases({ owner, repo })
    expect(clock.now() - started).toBe(70_000)
  })

  it('forgets data, log and faults on reset', async () => {
    fake.failAlways('tags', { kind: 'status', status: 500 })
    fake.fail('releases', { kind: 'hang' })
    fake.reset()
    expect(fake.requests).toEqual([])
    await expect(octokit.rest.repos.listTags({ owner, repo })).rejects.toMatchObject({ status: 404 })
    fake.addRepo(REPO)
    expect((await octokit.rest.repos.listTags({ owner, repo })).data).toEqual([])
    expect((await octokit.rest.repos.listReleases({ owner, repo })).data).toEqual([])
  })
})

describe('close', () => {
  it('ends hanging and delayed requests at once', async () => {
    const closing = await GitHubApiFake.start()
    closing.addRepo(REPO)
    closing.failAlways('pull', { kind: 'hang' })
    closing.fail('releases', { kind: 'delay', ms: 600_000 })
    const gh = await client(closing.url)
    const hanging = gh.rest.pulls.get({ owner, repo, pull_number: 1 })
    const delayed = gh.rest.repos.listReleases({ owner, repo })
    const hangingFailed = expect(hanging).rejects.toThrow()
    const delayedFailed = expect(delayed).rejects.toThrow()
    while (closing.requests.length < 2) await new Promise((resolve) => setTimeout(resolve, 10))
    // On real time: a close that waited would take the 10 min delay, or forever for the hang.
    await closing.close()
    await hangingFailed
    await delayedFailed
    expect(closing.requests.map((r) => r.answeredStatus)).toEqual([undefined, undefined])
    await closing.close() // a second close is harmless
  })
})
