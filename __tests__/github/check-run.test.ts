// The check runs API as the action calls it, against the fake GitHub over loopback: what it sends,
// how it finds its own run among many by external_id (which GitHub does not filter on), and the
// commits a check goes on.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { GitHubApiFake } from '../../simulator/github/index.js'
import { GITHUB_TOKEN } from '../../scripts/in-process.js'
import { GitHubClient } from '../../src/github/client.js'
import { MAX_CHECK_PAGES, MAX_CHECK_SUMMARY_BYTES, type CheckRunApi } from '../../src/github/check-run.js'

const REPO = 'acme/app'

describe('check runs', () => {
  let github: GitHubApiFake
  let api: CheckRunApi
  let sha: string
  beforeAll(async () => {
    github = await GitHubApiFake.start({ token: GITHUB_TOKEN })
  })
  afterAll(async () => {
    await github.close()
  })
  beforeEach(() => {
    github.reset()
    sha = github.addCommits(REPO, [{ message: 'init' }])[0] ?? ''
    api = new GitHubClient(GITHUB_TOKEN, github.url, { pace: { msPerSecond: 1 } }).checkRuns(REPO)
  })
  const bodies = () => github.requests.filter((r) => r.method !== 'GET').map((r) => JSON.parse(r.body) as unknown)

  it('creates and updates with the fields given, and only those; the summary cut to GitHub’s limit', async () => {
    const made = await api.create(
      { name: 'Docs', headSha: sha, externalId: undefined, detailsUrl: undefined },
      { status: 'in_progress' },
      { title: 'Working', summary: 's' }
    )
    expect(made).toEqual({ id: expect.any(Number), url: `https://github.com/acme/app/runs/${made.id}` })
    await api.update(
      made.id,
      { status: 'completed', conclusion: 'success' },
      { title: 'Done', summary: 'é'.repeat(70_000) },
      'https://x/pull/1'
    )
    const [create, update] = bodies() as Record<string, unknown>[]
    expect(create).toEqual({
      name: 'Docs',
      head_sha: sha,
      status: 'in_progress',
      output: { title: 'Working', summary: 's' }
    })
    expect(update).toMatchObject({ status: 'completed', conclusion: 'success', details_url: 'https://x/pull/1' })
    const summary = (update?.output as { summary: string }).summary
    // GitHub counts the summary in UTF-8 bytes: 'é' is two, the ellipsis three.
    expect(Buffer.byteLength(summary, 'utf8')).toBe(MAX_CHECK_SUMMARY_BYTES)
    expect(summary.endsWith('…')).toBe(true)
    expect(github.checkRunsOf(REPO)[0]).toMatchObject({ status: 'completed', conclusion: 'success' })
  })

  it('lists the runs of the name, newest first, past the first page, with their external id and status', async () => {
    const { getOctokit } = await import('@actions/github')
    const octokit = getOctokit(GITHUB_TOKEN, { baseUrl: github.url })
    const make = async (external: string, name = 'Docs') =>
      (await octokit.rest.checks.create({ owner: 'acme', repo: 'app', name, head_sha: sha, external_id: external }))
        .data.id
    const older = await make('docs-agent-action:1')
    const newer = await make('docs-agent-action:1')
    for (let i = 0; i < 120; i++) await make(`other:${i}`)
    await make('docs-agent-action:2', 'Lint')
    github.requests.length = 0
    const listed = await api.list(sha, 'Docs')
    expect(listed).toHaveLength(122)
    expect(listed.filter((run) => run.externalId === 'docs-agent-action:1')).toEqual([
      {
        id: newer,
        url: expect.stringContaining(`/runs/${newer}`),
        externalId: 'docs-agent-action:1',
        completed: false
      },
      { id: older, url: expect.stringContaining(`/runs/${older}`), externalId: 'docs-agent-action:1', completed: false }
    ])
    expect(github.requests.map((r) => r.rawPath)).toEqual([
      `/repos/acme/app/commits/${sha}/check-runs?check_name=Docs&filter=all&per_page=100`,
      expect.stringContaining('page=2')
    ])
    expect((await api.list(sha, 'Docs')).some((run) => run.externalId === 'docs-agent-action:2')).toBe(false)
  })

  it(`reads at most ${MAX_CHECK_PAGES} pages`, async () => {
    const runs = MAX_CHECK_PAGES * 100 + 5
    for (let i = 0; i < runs; i++) github.addCheckRun(REPO, { name: 'Docs', head_sha: sha, external_id: `x${i}` })
    // The oldest, on the page past the last, is not looked at.
    expect((await api.list(sha, 'Docs')).some((run) => run.externalId === 'x0')).toBe(false)
    expect(github.requests.filter((r) => r.route === 'check-runs')).toHaveLength(MAX_CHECK_PAGES)
  })

  it('reads a pull request’s head, and the commit of a tag (through an annotated tag’s object)', async () => {
    github.addPull(REPO, { number: 7, title: 't', head: { ref: 'dry', sha: 'd'.repeat(40) }, base: 'main', files: [] })
    expect(await api.pullHead(7)).toBe('d'.repeat(40))
    github.addTag(REPO, { name: 'v1', at: sha })
    github.addTag(REPO, { name: 'v2', at: sha, annotated: { message: 'Two' } })
    expect(await api.tagCommit('v1')).toBe(sha)
    expect(await api.tagCommit('v2')).toBe(sha)
    await expect(api.tagCommit('v3')).rejects.toMatchObject({ status: 404 })
  })
})
