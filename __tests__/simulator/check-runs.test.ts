// The GitHub fake's check runs over real HTTP on loopback, driven through the Octokit client the action uses.
import { beforeAll, describe, expect, it } from '@jest/globals'
import type { GitHubApiFake } from '../../simulator/github/index.js'
import { MAX_OUTPUT_BYTES } from '../../simulator/check-runs.js'
import { octokitOn, realClock, useFakeGitHub, type Octokit } from '../fixtures/github.js'
import { allowDrift } from '../fixtures/openapi.js'

const REPO = 'acme/app'
const owner = 'acme'
const repo = 'app'

let fake: GitHubApiFake
let octokit: Octokit
let sha: string

useFakeGitHub(
  realClock,
  {
    token: null,
    fresh: 'reset',
    each: (gh) => {
      sha = gh.addCommits(REPO, [{ message: 'init' }])[0] ?? ''
    }
  },
  (started) => (fake = started)
)
beforeAll(async () => {
  octokit = await octokitOn(fake.url)
})

const status = async (request: Promise<unknown>): Promise<{ status: number; message: string }> => {
  const error = (await request.then(
    () => undefined,
    (e: unknown) => e
  )) as { status: number; message: string } | undefined
  return { status: error?.status ?? 0, message: error?.message ?? '' }
}

describe('check runs', () => {
  it('are created on a commit, updated in place, and read back with the fields GitHub sends', async () => {
    const created = await octokit.rest.checks.create({
      owner,
      repo,
      name: 'Docs',
      head_sha: sha,
      status: 'in_progress',
      external_id: 'docs-agent-action:9001',
      details_url: 'https://github.com/acme/app/actions/runs/9001',
      output: { title: 'Working', summary: 'Job `job_1`' }
    })
    expect(created.status).toBe(201)
    expect(created.data).toMatchObject({
      name: 'Docs',
      head_sha: sha,
      status: 'in_progress',
      conclusion: null,
      external_id: 'docs-agent-action:9001',
      details_url: 'https://github.com/acme/app/actions/runs/9001',
      html_url: `https://github.com/acme/app/runs/${created.data.id}`,
      output: { title: 'Working', summary: 'Job `job_1`', text: null, annotations_count: 0 },
      completed_at: null
    })
    const updated = await octokit.rest.checks.update({
      owner,
      repo,
      check_run_id: created.data.id,
      conclusion: 'success',
      details_url: 'https://github.com/acme/docs/pull/3',
      output: { title: 'Docs pull request acme/docs#3', summary: 'Done' }
    })
    expect(updated.data).toMatchObject({ status: 'completed', conclusion: 'success', output: { summary: 'Done' } })
    expect(updated.data.completed_at).toEqual(expect.stringMatching(/Z$/))
    expect(fake.checkRunsOf(REPO, sha).map((run) => run.states)).toEqual([['in_progress', 'success']])
  })

  it('go on the head of a pull request too, which is not in the history', async () => {
    fake.addPull(REPO, { number: 7, title: 'x', head: { ref: 'feat', sha: 'f'.repeat(40) }, base: 'main', files: [] })
    const created = await octokit.rest.checks.create({ owner, repo, name: 'Docs', head_sha: 'f'.repeat(40) })
    expect(created.data.status).toBe('queued')
    expect(fake.checkRunsOf(REPO, 'f'.repeat(40))).toHaveLength(1)
  })

  it('refuse what GitHub refuses, with a 422', async () => {
    const create = (extra: Record<string, unknown>) =>
      status(
        octokit.request('POST /repos/{owner}/{repo}/check-runs', { owner, repo, name: 'Docs', head_sha: sha, ...extra })
      )
    expect(await create({ head_sha: 'a'.repeat(40) })).toMatchObject({
      status: 422,
      message: expect.stringContaining(`No commit found for SHA: ${'a'.repeat(40)}`)
    })
    expect((await create({ name: '' })).status).toBe(422)
    expect((await create({ status: 'done' })).status).toBe(422)
    expect((await create({ conclusion: 'great' })).status).toBe(422)
    expect((await create({ status: 'completed' })).message).toContain('Conclusion is required')
    expect((await create({ output: { title: 'x' } })).message).toContain('title and a summary')
    expect((await create({ output: { title: 'x', summary: 'y'.repeat(MAX_OUTPUT_BYTES + 1) } })).message).toContain(
      'summary exceeds a maximum bytesize of 65535'
    )
    // Bytes, not characters: 'é' is two in UTF-8.
    expect((await create({ output: { title: 'x', summary: 'é'.repeat(40_000) } })).message).toContain('bytesize')
    expect(await create({ output: { title: 'x', summary: 'y'.repeat(MAX_OUTPUT_BYTES) } })).toEqual({
      status: 0,
      message: ''
    })
    expect(
      (await status(octokit.rest.checks.update({ owner, repo, check_run_id: 1, conclusion: 'success' }))).status
    ).toBe(404)
    expect(fake.checkRunsOf(REPO)).toHaveLength(1)
  })

  it('never change once completed: a PATCH answers 200 with the run as it was (GitHub staff: completed is final)', async () => {
    const { data } = await octokit.rest.checks.create({
      owner,
      repo,
      name: 'Docs',
      head_sha: sha,
      conclusion: 'timed_out',
      output: { title: 'Timed out', summary: 'Job `job_1`' }
    })
    const again = await octokit.rest.checks.update({
      owner,
      repo,
      check_run_id: data.id,
      status: 'in_progress',
      output: { title: 'Working', summary: 'again' }
    })
    expect(again.status).toBe(200)
    expect(again.data).toMatchObject({ status: 'completed', conclusion: 'timed_out', output: { title: 'Timed out' } })
    await octokit.rest.checks.update({ owner, repo, check_run_id: data.id, conclusion: 'success' })
    expect(fake.checkRunsOf(REPO, sha).map((run) => [run.conclusion, run.states])).toEqual([
      ['timed_out', ['timed_out']]
    ])
  })

  it('are listed for a commit, newest first: the latest of each name unless filter=all; no external_id filter', async () => {
    const make = async (name: string, external: string) =>
      (await octokit.rest.checks.create({ owner, repo, name, head_sha: sha, external_id: external })).data.id
    const a = await make('Docs', 'run-1')
    const b = await make('Docs', 'run-2')
    const c = await make('Lint', 'run-1')
    const list = async (query: Record<string, unknown>) =>
      (await octokit.rest.checks.listForRef({ owner, repo, ref: sha, ...query })).data
    expect((await list({})).check_runs.map((run) => run.id)).toEqual([c, b])
    expect((await list({ filter: 'all' })).check_runs.map((run) => run.id)).toEqual([c, b, a])
    expect((await list({ filter: 'all', check_name: 'Docs' })).check_runs.map((run) => run.external_id)).toEqual([
      'run-2',
      'run-1'
    ])
    // GitHub has no external_id filter: the query is ignored, as GitHub ignores unknown ones.
    allowDrift(/query parameter 'external_id' is not one GitHub declares/, 'a filter GitHub does not have')
    expect((await list({ filter: 'all', external_id: 'run-1' })).total_count).toBe(3)
    await octokit.rest.checks.update({ owner, repo, check_run_id: b, conclusion: 'neutral' })
    expect((await list({ filter: 'all', status: 'completed' })).check_runs.map((run) => run.id)).toEqual([b])
    expect((await list({ per_page: 1, filter: 'all' })).check_runs.map((run) => run.id)).toEqual([c])
    // The ref may be a tag of the commit.
    fake.addTag(REPO, { name: 'v1', at: sha })
    expect((await list({ ref: 'v1', filter: 'all' })).total_count).toBe(3)
    expect((await status(octokit.rest.checks.listForRef({ owner, repo, ref: 'b'.repeat(40) }))).status).toBe(422)
  })

  it('a fault with effect makes the run, then answers the error', async () => {
    fake.fail('check-create', { kind: 'status', status: 502, effect: true })
    expect((await status(octokit.rest.checks.create({ owner, repo, name: 'Docs', head_sha: sha }))).status).toBe(502)
    expect(fake.checkRunsOf(REPO)).toHaveLength(1)
    fake.fail('check-create', { kind: 'status', status: 403 })
    expect((await status(octokit.rest.checks.create({ owner, repo, name: 'Docs', head_sha: sha }))).status).toBe(403)
    expect(fake.checkRunsOf(REPO)).toHaveLength(1)
    const routes = fake.requests.map((r) => `${r.method} ${r.route}`)
    expect(routes).toEqual(['POST check-create', 'POST check-create'])
  })
})

describe('check suites', () => {
  const vale = { id: 151_520, slug: 'mintlify', name: 'Mintlify', owner: { login: 'mintlify', id: 7 } }
  const suites = async (query: Record<string, unknown> = {}) =>
    (await octokit.rest.checks.listSuitesForRef({ owner, repo, ref: sha, ...query })).data

  it("one per app on a commit, made at the push; its status, conclusion and runs' count follow its runs", async () => {
    fake.addCheckSuite(REPO, sha, vale)
    expect(
      (await suites()).check_suites.map((s) => [s.app?.slug, s.status, s.conclusion, s.latest_check_runs_count])
    ).toEqual([['mintlify', 'queued', null, 0]])
    const a = fake.addCheckRun(REPO, { name: 'Vale', head_sha: sha, status: 'in_progress' }, vale)
    const b = fake.addCheckRun(REPO, { name: 'Deploy', head_sha: sha }, vale)
    // A run of an app with no suite on the commit gets one (GitHub Actions, the workflow token's).
    await octokit.rest.checks.create({
      owner,
      repo,
      name: 'Docs',
      head_sha: sha,
      status: 'completed',
      conclusion: 'success'
    })
    const listed = await suites()
    expect(listed.check_suites.map((s) => [s.app?.slug, s.status, s.conclusion, s.latest_check_runs_count])).toEqual([
      ['mintlify', 'in_progress', null, 2],
      ['github-actions', 'completed', 'success', 1]
    ])
    const [run] = (await octokit.rest.checks.listForRef({ owner, repo, ref: sha, check_name: 'Vale' })).data.check_runs
    expect(run?.check_suite?.id).toBe(listed.check_suites[0]?.id)
    expect(run?.app?.slug).toBe('mintlify')
    fake.updateCheckRun(REPO, a, { conclusion: 'timed_out' })
    fake.updateCheckRun(REPO, b, { conclusion: 'success' })
    expect((await suites()).check_suites[0]).toMatchObject({ status: 'completed', conclusion: 'timed_out' })
    // GitHub's filters: the app's id, a run's name; an unknown commit is 422, as for its check runs.
    expect((await suites({ app_id: vale.id })).check_suites.map((s) => s.app?.slug)).toEqual(['mintlify'])
    expect((await suites({ check_name: 'Docs' })).check_suites.map((s) => s.app?.slug)).toEqual(['github-actions'])
    expect((await status(octokit.rest.checks.listSuitesForRef({ owner, repo, ref: 'b'.repeat(40) }))).status).toBe(422)
  })
})
