/**
 * The skip rules as a user relies on them, in-process through `main` against the Agent API
 * simulator and the fake GitHub on a virtual clock: each rule on each event it applies to, what a
 * skipped run does (nothing, exit 0, one line) and what it never skips.
 */
import { describe, expect, it } from '@jest/globals'
import type { GitHubApiFake, PullFileSeed, RecordedRequest } from '../../simulator/github/index.js'
import type { StepRun } from '../../scripts/in-process.js'
import { linkDocsRepository } from '../../simulator/docs-repository.js'
import { useFakeGitHub } from '../fixtures/github.js'
import { useStep } from '../fixtures/step.js'

describe('skip rules', () => {
  const KEY = 'mint_skip_rules_key_0123456789'
  const APP = 'acme/app'
  /** npm workspaces: cli, core and shim under packages/. */
  const WORKSPACE = 'acme/workspace'
  /** More packages than a release set describes. */
  const MANY = 'acme/many'
  /** Ranges of exactly 300 changed files, and of 299. */
  const FULL = 'acme/full'
  const EDGE = 'acme/edge'
  const DOCS = 'acme/docs'
  const IGNORE_CI = '.github/**\ntests/**'
  const step = useStep({ key: KEY, project: 'proj-skip', prompt: 'Document this change.', scenario: { runMs: 3000 } })
  let github: GitHubApiFake
  const fake = useFakeGitHub(step.clock, { repo: APP, fresh: 'requests', seed }, (started) => (github = started))
  const shas: Record<string, string> = {}

  const file = (filename: string): PullFileSeed => ({
    filename,
    status: 'modified',
    additions: 1,
    deletions: 1,
    patch: '@@ -1 +1 @@\n-a\n+b'
  })
  const commit = (repo: string, message: string, ...files: string[]): string =>
    github.addCommits(repo, [{ message, files: files.map(file) }])[0] ?? ''
  const tests = (count: number): string[] => Array.from({ length: count }, (_, i) => `tests/t${i}.test.ts`)

  function seed(): void {
    github.setPermission(APP, 'mona', 'write')
    github.addRepo(DOCS)
    github.addTag(APP, { name: 'v1.0.0', at: (shas.v100 = commit(APP, 'Initial', 'src/index.ts')) })
    commit(APP, 'ci: cache the build', '.github/workflows/ci.yml')
    github.addTag(APP, { name: 'v1.1.0', at: (shas.v110 = commit(APP, 'test: the parser', 'tests/parser.test.ts')) })
    github.addTag(APP, { name: 'v1.2.0', at: commit(APP, 'feat: export', 'src/export.ts', 'tests/export.test.ts') })
    const pull = (number: number, title: string, files: string[]) =>
      github.addPull(APP, { number, title, head: `b${number}`, base: 'main', files: files.map(file), merged: true })
    pull(21, 'Add the export command', ['src/export.ts'])
    pull(22, 'chore: bump deps [Docs Skip]', ['package.json'])
    pull(23, 'Many more tests', tests(250))
    pull(24, 'A very large change', tests(300))
    github.addRun(APP, { workflow: 'docs.yml', branch: 'main', event: 'schedule', headSha: shas.v100 })
    // A nightly workflow whose last successful run is on the commit a run is on: nothing new.
    github.addRun(APP, { workflow: 'nightly.yml', branch: 'main', event: 'schedule', headSha: shas.v110 })
    // A pull request of 150 files, 100 tests first, then 50 sources.
    pull(25, 'Tests, then sources', [...tests(100), ...Array.from({ length: 50 }, (_, i) => `src/m${String(i)}.ts`)])

    const [init = ''] = github.addCommits(WORKSPACE, [
      {
        message: 'Set up the workspace',
        contents: {
          'package.json': '{"name":"acme-workspace","private":true,"workspaces":["packages/*"]}',
          ...Object.fromEntries(
            ['cli', 'core', 'shim'].map((name) => [`packages/${name}/package.json`, `{"name":"@acme/${name}"}`])
          )
        }
      }
    ])
    for (const name of ['cli', 'core', 'shim']) github.addTag(WORKSPACE, { name: `@acme/${name}@1.0.0`, at: init })
    commit(WORKSPACE, 'core: stream large files', 'packages/core/src/stream.ts')
    const bump = ['cli', 'core'].flatMap((name) => [`packages/${name}/package.json`, `packages/${name}/CHANGELOG.md`])
    const head = commit(WORKSPACE, 'Version Packages', ...bump)
    for (const tag of ['@acme/cli@1.1.0', '@acme/core@1.1.0', '@acme/shim@1.0.1'])
      github.addTag(WORKSPACE, { name: tag, at: head })

    const packages = Array.from({ length: 21 }, (_, i) => `p${i}`)
    const first = commit(MANY, 'Initial', 'README.md')
    for (const name of packages) github.addTag(MANY, { name: `${name}@1.0.0`, at: first })
    const bumped = commit(MANY, 'Version Packages', 'CHANGELOG.md')
    for (const name of packages) github.addTag(MANY, { name: `${name}@1.0.1`, at: bumped })

    for (const [repo, count] of [
      [FULL, 300],
      [EDGE, 299]
    ] as const) {
      github.addTag(repo, { name: 'v1.0.0', at: commit(repo, 'Initial', 'src/index.ts') })
      github.addTag(repo, { name: 'v1.1.0', at: commit(repo, 'test: a suite', ...tests(count)) })
    }
  }

  /** A run, with the create and message requests it sent and the GitHub requests it made. */
  type Ran = StepRun & { sent: number; github: RecordedRequest[] }
  const sentSoFar = () => step.requests('create').length + step.requests('message').length
  let runId = 100
  const run = async (
    event: { name: string; ref?: string; payload?: unknown; repo?: string; env?: Record<string, string> },
    inputs: Record<string, string> = {}
  ): Promise<Ran> => {
    const ref = event.ref ?? ''
    const [sent, asked] = [sentSoFar(), github.requests.length]
    const result = await step.run(inputs, {
      env: fake.env({
        GITHUB_EVENT_NAME: event.name,
        GITHUB_REPOSITORY: event.repo ?? APP,
        GITHUB_ACTOR: 'mona',
        GITHUB_EVENT_PATH: '/event.json',
        GITHUB_RUN_ID: String(++runId),
        GITHUB_RUN_ATTEMPT: '1',
        ...(ref ? { GITHUB_REF: ref, GITHUB_REF_NAME: ref.replace(/^refs\/(heads|tags)\//, '') } : {}),
        ...(ref.startsWith('refs/tags/') ? { GITHUB_REF_TYPE: 'tag' } : {}),
        ...event.env
      }),
      files: { '/event.json': JSON.stringify(event.payload ?? {}) }
    })
    return { ...result, sent: sentSoFar() - sent, github: github.requests.slice(asked) }
  }
  const tagPush = (tag: string, repo = APP, payload: unknown = {}) => ({
    name: 'push',
    ref: `refs/tags/${tag}`,
    repo,
    payload
  })
  const merged = (number: number, title: string, extra: Record<string, unknown> = {}) => ({
    name: 'pull_request',
    ref: `refs/pull/${number}/merge`,
    payload: {
      action: 'closed',
      pull_request: {
        number,
        title,
        body: '',
        merged: true,
        user: { login: 'mona' },
        head: { ref: `b${number}`, repo: { full_name: APP } },
        base: { ref: 'main', repo: { full_name: APP } },
        html_url: `https://github.com/${APP}/pull/${number}`,
        labels: [],
        ...extra
      }
    }
  })
  const writes = (result: Ran) => result.github.filter((r) => r.method !== 'GET' && r.route !== 'graphql')
  const routes = (result: Ran) => result.github.map((r) => `${r.method} ${r.route}`)

  /** A skipped run: nothing sent or written, exit 0, its outputs, one notice, the summary. */
  function expectSkipped(result: Ran, reason: string): void {
    expect([result.code, result.outputs.skipped, result.outputs['skip-reason']]).toEqual([0, 'true', reason])
    expect([result.outputs['job-id'], result.outputs.prompt, result.sent, writes(result)]).toEqual(['', '', 0, []])
    expect(result.at('notice')).toEqual([`Skipped, no job started: ${reason}.`])
    expect(result.at('warning')).toEqual([])
    expect(result.summary).toContain('<h2>⏭️ Skipped: no docs job for this change</h2>')
    expect(result.summary).toContain(`<th align="left">Skip rules</th><td>skipped this run: ${reason}</td>`)
  }

  /** A run the rules let through: a job, and `skipped: false`. */
  function expectJob(result: Ran): void {
    expect([result.code, result.outputs.skipped, result.outputs['skip-reason'], result.sent]).toEqual([
      0,
      'false',
      '',
      1
    ])
  }

  // GitHub: "If there are no files changed, the workflow will not run" (workflow syntax, paths);
  // compare's `identical` is such a change, whole (docs.github.com/rest/commits/commits#compare-two-commits).
  describe('a change of no file is skipped under either rule', () => {
    it('a schedule with nothing new since its last successful run', async () => {
      const nightly = {
        name: 'schedule',
        ref: 'refs/heads/main',
        env: {
          GITHUB_SHA: shas.v110 ?? '',
          GITHUB_WORKFLOW_REF: `${APP}/.github/workflows/nightly.yml@refs/heads/main`
        }
      }
      const result = await run(nightly, { 'paths-ignore': IGNORE_CI, 'link-back': 'none' })
      expect([result.outputs.skipped, result.sent]).toEqual(['true', 0])
      expect(result.outputs['skip-reason']).toMatch(/no file/)
    })

    it('a release tag on the commit of the previous release', async () => {
      // Another component's tags, so that the other tests' ranges stay as they are.
      for (const name of ['site-1.0.0', 'site-1.0.1']) github.addTag(APP, { name, at: shas.v110 ?? '' })
      const result = await run(tagPush('site-1.0.1'), { paths: 'src/**', 'link-back': 'none' })
      expect([result.outputs.skipped, result.sent]).toEqual(['true', 0])
    })
  })

  it("a pull request's files are read past the event's count: a re-run's payload is the first attempt's", async () => {
    // The payload says 100 files; the pull request has 150 now, its sources past the 100th.
    const result = await run(merged(25, 'Tests, then sources', { changed_files: 100 }), {
      'paths-ignore': 'tests/**',
      'link-back': 'none'
    })
    expect([result.outputs.skipped, result.sent]).toEqual(['false', 1])
  })

  it('a wait-only step with a path rule says why the rule does not apply to it', async () => {
    const first = await run(merged(21, 'Add the export command'), { 'link-back': 'none', wait: 'false' })
    const waited = await run(merged(21, 'Add the export command', { labels: [{ name: 'skip-docs' }] }), {
      'job-id': first.outputs['job-id'] ?? '',
      prompt: '',
      'paths-ignore': IGNORE_CI,
      'link-back': 'none'
    })
    expect(waited.outputs.skipped).toBe('false')
    expect(waited.at('info')).toContain(
      'Skip rules: not skipped: a wait-only step is an explicit request, never skipped.'
    )
    expect(waited.summary).toContain('<th align="left">Skip rules</th>')
  })

  describe('skip-labels', () => {
    it('a merged pull request labelled Skip-Docs does nothing, and reads nothing for it from GitHub', async () => {
      const result = await run(
        merged(21, 'Add the export command', { labels: [{ name: 'bug' }, { name: 'Skip-Docs' }] })
      )
      expectSkipped(result, 'skip-labels: pull request #21 has the label Skip-Docs')
      // The gate's read of who triggered the run (pull_request comes from forks too), and nothing else.
      expect(routes(result)).toEqual(['GET collaborator-permission'])
    })

    it('a label of your own; none turns the rule off', async () => {
      const labelled = merged(21, 'Add the export command', { labels: [{ name: 'chore' }] })
      expectSkipped(
        await run(labelled, { 'skip-labels': 'chore' }),
        'skip-labels: pull request #21 has the label chore'
      )
      expectJob(await run(labelled, { 'skip-labels': 'none', 'link-back': 'none' }))
      expectJob(
        await run(merged(21, 'Add the export command', { labels: [{ name: 'skip-docs' }] }), {
          'skip-labels': 'chore',
          'link-back': 'none'
        })
      )
    })
  })

  it("release-tags: [] (changesets' publishedPackages when nothing was published) skips, before anything is read", async () => {
    const push = { name: 'push', ref: 'refs/heads/main', payload: { head_commit: { message: 'Version Packages' } } }
    const result = await run(push, { 'release-tags': '[]' })
    expectSkipped(result, 'release-tags is an empty list: nothing was released')
    expect(routes(result)).toEqual([])
    // Empty, the input is its default: the event's own context.
    expectJob(await run(push, { 'release-tags': '' }))
  })

  describe('markers', () => {
    it("in a pull request's title, any case", async () => {
      expectSkipped(
        await run(merged(22, 'chore: bump deps [Docs Skip]')),
        '[docs skip] in the title of pull request #22'
      )
    })

    it("in a branch push's head commit, not in a tag push's", async () => {
      const push = {
        name: 'push',
        ref: 'refs/heads/main',
        payload: { head_commit: { message: 'docs: fix a typo\n\n[NO DOCS]' }, commits: [] }
      }
      const result = await run(push)
      expectSkipped(result, '[no docs] in the message of the head commit of the push to main')
      expect(routes(result)).toEqual([])
      expectJob(await run(tagPush('v1.2.0', APP, { head_commit: { message: 'Release [skip docs]' } })))
    })
  })

  describe('paths-ignore and paths', () => {
    it('skips a release whose range touches only .github/** and tests/**, on the context’s own reads', async () => {
      const result = await run(tagPush('v1.1.0'), { 'paths-ignore': IGNORE_CI })
      expectSkipped(
        result,
        'paths-ignore matches every changed file of v1.0.0...v1.1.0: .github/workflows/ci.yml, tests/parser.test.ts'
      )
      // The same reads as a dry run without any rule: the decision costs no request of its own.
      expect(routes(result)).toEqual(routes(await run(tagPush('v1.1.0'), { 'dry-run': 'true' })))
    })

    it('documents the same project’s release that touches src/, and says why in the log and the summary', async () => {
      const result = await run(tagPush('v1.2.0'), { 'paths-ignore': IGNORE_CI, 'link-back': 'none' })
      expectJob(result)
      const why = 'paths-ignore leaves 1 of the 2 changed files of v1.1.0...v1.2.0: src/export.ts'
      expect(result.at('info')).toContain(`Skip rules: not skipped: ${why}.`)
      expect(result.summary).toContain(`<th align="left">Skip rules</th><td>not skipped: ${why}</td>`)
    })

    it('paths: skipped when no changed file matches, ! taking files back in order', async () => {
      const paths = 'src/**\n!src/**/*.test.ts'
      expectSkipped(
        await run(tagPush('v1.1.0'), { paths }),
        'paths matches none of the changed files of v1.0.0...v1.1.0: .github/workflows/ci.yml, tests/parser.test.ts'
      )
      expectJob(await run(tagPush('v1.2.0'), { paths }))
    })

    it("a branch push: its range, compared once (Actions' payload lists no files)", async () => {
      const push = {
        name: 'push',
        ref: 'refs/heads/main',
        payload: { before: shas.v100, after: shas.v110, head_commit: { message: 'test: the parser' }, commits: [] }
      }
      const result = await run(push, { 'paths-ignore': IGNORE_CI })
      const range = `${shas.v100?.slice(0, 12) ?? ''}...${shas.v110?.slice(0, 12) ?? ''}`
      expectSkipped(
        result,
        `paths-ignore matches every changed file of ${range}: .github/workflows/ci.yml, tests/parser.test.ts`
      )
      expect(routes(result)).toEqual(['GET compare'])
      // A new branch has no range: never skipped.
      const created = { ...push, payload: { ...push.payload, before: '0'.repeat(40) } }
      const fresh = await run(created, { 'paths-ignore': IGNORE_CI })
      expectJob(fresh)
      expect(fresh.summary).toContain(
        'not skipped: the changed files of the push to main may be incomplete (the event gives no range to compare: a new branch)'
      )
    })

    it("a pull request: every page of its files, up to GitHub's 3,000", async () => {
      const result = await run(merged(23, 'Many more tests', { changed_files: 250 }), {
        'paths-ignore': '**/*.test.ts'
      })
      expectSkipped(
        result,
        'paths-ignore matches every changed file of pull request #23: tests/t0.test.ts, tests/t1.test.ts, tests/t2.test.ts and 247 more'
      )
      expect(routes(result).filter((route) => route === 'GET pull-files')).toHaveLength(3)
    })
  })

  it('a grouped run leaves its group as it was: no follow-up, its docs pull request’s record untouched', async () => {
    linkDocsRepository(step.sim(), github)
    const group = { group: 'merged-prs', 'docs-repository': DOCS, 'link-back': 'none' }
    const first = await run(merged(21, 'Add the export command'), group)
    expectJob(first)
    const docsPull = Number(first.outputs['pr-number'])
    const record = github.commentsOf(DOCS, docsPull)
    expect(record).toHaveLength(1)
    const skipped = await run(merged(23, 'Many more tests', { changed_files: 250 }), {
      ...group,
      'paths-ignore': '**/*.test.ts'
    })
    expectSkipped(
      skipped,
      'paths-ignore matches every changed file of pull request #23: tests/t0.test.ts, tests/t1.test.ts, tests/t2.test.ts and 247 more'
    )
    expect(github.commentsOf(DOCS, docsPull)).toEqual(record)
    expect(skipped.outputs.grouped).toBe('false')
  })

  describe('the range since the last run', () => {
    const scheduled = (workflow: string) => ({
      name: 'schedule',
      ref: 'refs/heads/main',
      env: { GITHUB_SHA: shas.v110 ?? '', GITHUB_WORKFLOW_REF: `${APP}/.github/workflows/${workflow}@refs/heads/main` }
    })
    const short = (sha = '') => sha.slice(0, 12)

    it("a schedule: since the workflow's last successful run", async () => {
      expectSkipped(
        await run(scheduled('docs.yml'), { 'paths-ignore': IGNORE_CI }),
        `paths-ignore matches every changed file of ${short(shas.v100)}...${short(shas.v110)}: .github/workflows/ci.yml, tests/parser.test.ts`
      )
      const first = await run(scheduled('fresh.yml'), { 'paths-ignore': IGNORE_CI })
      expectJob(first)
      expect(first.at('info')).toContain(
        'Skip rules: not skipped: the changed files of a scheduled run of fresh.yml on main may be incomplete (it has no earlier successful run, so there is no range to add).'
      )
      github.fail('workflow-runs', { kind: 'status', status: 403 })
      const unread = await run(scheduled('docs.yml'), { 'paths-ignore': IGNORE_CI })
      expect(unread.at('info')).toContain(
        'Skip rules: not skipped: the changed files of a scheduled run of docs.yml on main may be incomplete (the changes since the last successful run could not be read).'
      )
    })

    it("a grouped push: since the group's last documented commit", async () => {
      linkDocsRepository(step.sim(), github)
      const group = { group: 'pushes', 'docs-repository': DOCS, 'link-back': 'none' }
      const pushAt = (sha = '') => ({
        name: 'push',
        ref: 'refs/heads/main',
        env: { GITHUB_SHA: sha },
        payload: { commits: [] }
      })
      expectJob(await run(pushAt(shas.v100), group))
      expectSkipped(
        await run(pushAt(shas.v110), { ...group, 'paths-ignore': IGNORE_CI }),
        `paths-ignore matches every changed file of ${short(shas.v100)}...${short(shas.v110)}: .github/workflows/ci.yml, tests/parser.test.ts`
      )
    })
  })

  describe('no range to judge, never skipped', () => {
    const why = async (event: Parameters<typeof run>[0], inputs: Record<string, string> = {}) => {
      const result = await run(event, { 'paths-ignore': '**', 'link-back': 'none', ...inputs })
      expectJob(result)
      return result.at('info').find((line) => line.startsWith('Skip rules:'))
    }

    it('a first release, a tag that is not a version, tags that could not be read', async () => {
      expect(await why(tagPush('v1.0.0'))).toBe(
        'Skip rules: not skipped: the changed files of v1.0.0 may be incomplete (no earlier version tag to compare with).'
      )
      github.addTag(APP, { name: 'nightly', at: shas.v110 ?? '' })
      expect(await why(tagPush('nightly'))).toBe(
        'Skip rules: not skipped: the changed files of nightly may be incomplete (not a version tag, so no previous release to compare with).'
      )
      github.failAlways('matching-refs', { kind: 'status', status: 403 })
      expect(await why(tagPush('v1.1.0'))).toBe(
        'Skip rules: not skipped: the changed files of v1.1.0 may be incomplete (its previous release could not be looked for).'
      )
      github.failAlways('matching-refs', null)
    })

    it('a push that rewrote its branch', async () => {
      const back = {
        name: 'push',
        ref: 'refs/heads/main',
        payload: { before: shas.v110, after: shas.v100, commits: [] }
      }
      const range = `${shas.v110?.slice(0, 12) ?? ''}...${shas.v100?.slice(0, 12) ?? ''}`
      expect(await why(back)).toBe(
        `Skip rules: not skipped: the changed files of ${range} may be incomplete (GitHub's compare says behind, not ahead).`
      )
    })

    it('a release set with a tag it cannot use, or past the 20 packages it describes', async () => {
      const push = { name: 'push', ref: 'refs/heads/main', repo: WORKSPACE, payload: { commits: [] } }
      expect(await why(push, { 'release-tags': '@acme/shim@1.0.1\n@acme/gone@9.9.9' })).toBe(
        'Skip rules: not skipped: the changed files of @acme/gone@9.9.9 may be incomplete (it could not be used, so its changes are unknown).'
      )
      const many = { ...push, repo: MANY }
      const tags = Array.from({ length: 21 }, (_, i) => `p${i}@1.0.1`).join('\n')
      expect(await why(many, { 'release-tags': tags })).toBe(
        'Skip rules: not skipped: the changed files of p20@1.0.1 may be incomplete (past the 20 packages described, it is not read).'
      )
    })
  })

  it('without a path rule, nothing more is read: one page of a pull request’s files, no compare of a push', async () => {
    const pulled = await run(merged(23, 'Many more tests', { changed_files: 250 }), { 'link-back': 'none' })
    expect(routes(pulled).filter((route) => route === 'GET pull-files')).toHaveLength(1)
    const push = { name: 'push', ref: 'refs/heads/main', payload: { before: shas.v100, after: shas.v110, commits: [] } }
    expect(routes(await run(push))).toEqual([])
  })

  describe('a monorepo', () => {
    const IGNORE_BUMPS = '**/package.json\n**/CHANGELOG.md'

    it("judges a package's release on its own files: a version bump alone is skipped", async () => {
      const result = await run(tagPush('@acme/cli@1.1.0', WORKSPACE), { 'paths-ignore': IGNORE_BUMPS })
      expectSkipped(
        result,
        'paths-ignore matches every changed file of packages/cli in @acme/cli@1.0.0...@acme/cli@1.1.0: packages/cli/package.json, packages/cli/CHANGELOG.md'
      )
      expectJob(await run(tagPush('@acme/core@1.1.0', WORKSPACE), { 'paths-ignore': IGNORE_BUMPS }))
    })

    it('skips a package release with no files of its own whenever a path rule is set', async () => {
      expectSkipped(
        await run(tagPush('@acme/shim@1.0.1', WORKSPACE), { paths: 'packages/**' }),
        'paths: packages/shim in @acme/shim@1.0.0...@acme/shim@1.0.1 changes no file'
      )
    })

    it('skips a release set only when every package would be', async () => {
      const push = { name: 'push', ref: 'refs/heads/main', repo: WORKSPACE, payload: { commits: [] } }
      const skipped = await run(push, {
        'release-tags': '@acme/cli@1.1.0\n@acme/shim@1.0.1',
        'paths-ignore': IGNORE_BUMPS
      })
      expectSkipped(
        skipped,
        'every package of the release set would be skipped: paths-ignore matches every changed file of packages/cli in @acme/cli@1.0.0...@acme/cli@1.1.0: packages/cli/package.json, packages/cli/CHANGELOG.md; paths-ignore: packages/shim in @acme/shim@1.0.0...@acme/shim@1.0.1 changes no file'
      )
      const kept = await run(push, {
        'release-tags': '@acme/cli@1.1.0\n@acme/core@1.1.0\n@acme/shim@1.0.1',
        'paths-ignore': IGNORE_BUMPS
      })
      expectJob(kept)
      expect(kept.at('info')).toContain(
        'Skip rules: not skipped: paths-ignore leaves 1 of the 3 changed files of packages/core in @acme/core@1.0.0...@acme/core@1.1.0: packages/core/src/stream.ts.'
      )
    })
  })

  describe('a list that may be incomplete never skips', () => {
    it("compare's 300 files: exactly 300 may be more; 299 are all", async () => {
      const full = await run(tagPush('v1.1.0', FULL), { 'paths-ignore': 'tests/**' })
      expectJob(full)
      expect(full.summary).toContain(
        "not skipped: the changed files of v1.0.0...v1.1.0 may be incomplete (GitHub's compare lists at most 300 files, with no total, and it listed 300)"
      )
      expectSkipped(
        await run(tagPush('v1.1.0', EDGE), { 'paths-ignore': 'tests/**' }),
        'paths-ignore matches every changed file of v1.0.0...v1.1.0: tests/t0.test.ts, tests/t1.test.ts, tests/t2.test.ts and 296 more'
      )
    })

    it("a pull request past GitHub's 3,000 files", async () => {
      const result = await run(merged(24, 'A very large change', { changed_files: 3500 }), {
        'paths-ignore': 'tests/**',
        'link-back': 'none'
      })
      expectJob(result)
      expect(result.at('info')).toContain(
        'Skip rules: not skipped: the changed files of pull request #24 may be incomplete (GitHub lists at most 3,000 files of a pull request, and it changes 3,500).'
      )
    })

    it('a failed read, and no token', async () => {
      github.fail(
        'compare',
        { kind: 'status', status: 500 },
        { kind: 'status', status: 500 },
        { kind: 'status', status: 500 },
        { kind: 'status', status: 500 }
      )
      const failed = await run(tagPush('v1.1.0'), { 'paths-ignore': IGNORE_CI })
      expectJob(failed)
      expect(failed.at('info')).toContain(
        'Skip rules: not skipped: the changed files of v1.0.0...v1.1.0 may be incomplete (they could not be read).'
      )
      github.failAlways('compare', null)
      const tokenless = await run(tagPush('v1.1.0'), { 'paths-ignore': IGNORE_CI, 'github-token': '' })
      expectJob(tokenless)
      expect(tokenless.at('info')).toContain(
        'Skip rules: not skipped: paths-ignore has no changed files to judge: github-token is empty.'
      )
    })
  })

  describe('explicit requests are never skipped', () => {
    it('a /docs command on a labelled pull request', async () => {
      const comment = {
        name: 'issue_comment',
        payload: {
          action: 'created',
          issue: {
            number: 21,
            title: 'Add the export command [skip docs]',
            body: '',
            user: { login: 'mona' },
            pull_request: { url: 'x' },
            labels: [{ name: 'skip-docs' }]
          },
          comment: { id: 901, body: '/docs cover the export command', user: { login: 'mona', type: 'User' } }
        }
      }
      const result = await run(comment, { prompt: '', 'link-back': 'none' })
      expectJob(result)
      expect(result.outputs.command).toBe('create')
    })

    it('workflow_dispatch, with the path rule’s row saying why', async () => {
      const result = await run({ name: 'workflow_dispatch', ref: 'refs/tags/v1.1.0' }, { 'paths-ignore': IGNORE_CI })
      expectJob(result)
      expect(result.summary).toContain('not skipped: a workflow_dispatch run is an explicit request, never skipped')
    })

    it('a follow-up to job-id, on a labelled pull request', async () => {
      const first = await run(merged(21, 'Add the export command'), { 'link-back': 'none' })
      const followUp = await run(
        merged(21, 'Add the export command [skip docs]', { labels: [{ name: 'skip-docs' }] }),
        {
          'job-id': first.outputs['job-id'] ?? '',
          prompt: 'Also the changelog.',
          'link-back': 'none'
        }
      )
      expect([followUp.code, followUp.outputs.skipped, step.requests('message').length]).toEqual([0, 'false', 1])
    })
  })

  it('a malformed pattern: one error naming the input, before any request', async () => {
    const result = await run(tagPush('v1.1.0'), { 'paths-ignore': '.github/**\nsrc/[abc' })
    expect(result.code).toBe(1)
    expect(result.at('error')).toEqual([
      "Input 'paths-ignore': \"src/[abc\" has a [ with no ] to close it; expected one of GitHub's filter patterns a line, as on.push.paths-ignore takes them: * (not /), ** (anything), ? and + after a character or [...], [a-z0-9] (letters, digits, ranges)."
    ])
    expect([routes(result), step.virtual().sim.requests, result.outputs.skipped]).toEqual([[], [], 'false'])
  })

  it('a dry run shows the decision and the files it was made on, and sends nothing', async () => {
    const result = await run(tagPush('v1.1.0'), { 'paths-ignore': IGNORE_CI, 'dry-run': 'true' })
    expect([result.code, result.outputs.skipped, result.sent]).toEqual([0, 'false', 0])
    expect(result.at('info')).toEqual(
      expect.arrayContaining([
        'Dry run: the skip rules would skip this run: paths-ignore matches every changed file of v1.0.0...v1.1.0: .github/workflows/ci.yml, tests/parser.test.ts.',
        'Dry run: the changed files of v1.0.0...v1.1.0 (2 paths; complete):',
        '│ .github/workflows/ci.yml',
        '│ tests/parser.test.ts'
      ])
    )
    expect(result.summary).toContain('<td>would skip this run: paths-ignore matches every changed file')
    expect(result.summary).toContain('<details open><summary>2 changed files the skip rules judged')
    expect(result.summary).toContain(
      'v1.0.0...v1.1.0: 2 paths\n  .github/workflows/ci.yml\n  tests/parser.test.ts</pre>'
    )
  })
})
