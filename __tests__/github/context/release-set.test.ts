/**
 * `release-tags`: a monorepo's release workflow tells one job about every package it published.
 * In-process, against the simulator and the fake GitHub REST API on loopback, on a virtual clock.
 */
import { describe, expect, it } from '@jest/globals'
import type { GitHubApiFake } from '../../../simulator/github/index.js'
import { CONTEXT_BUDGET_CHARS } from '../../../src/github/context/budget.js'
import { MAX_PACKAGES } from '../../../src/github/context/release-set.js'
import { MAX_PROMPT_CHARS } from '../../../src/step/settings.js'
import { useFakeGitHub } from '../../fixtures/github.js'
import { useStep } from '../../fixtures/step.js'

// One describe for the file: its hooks stay its own when the mutation suite runs the files together.
describe('release sets', () => {
  const KEY = 'mint_release_set_secret_00000'
  const REPO = 'acme/monorepo'
  /** A single-package repository that changesets tags v + version. */
  const SINGLE = 'acme/single'
  /** Twelve packages of several hundred commits each. */
  const LARGE = 'acme/large'
  /** More packages than the cap. */
  const MANY = 'acme/many'
  /** npm workspaces: three packages with their manifests. */
  const WORKSPACE = 'acme/workspace'
  const PROMPT = 'Document what these packages changed.'
  const step = useStep({ key: KEY, project: 'proj', prompt: PROMPT, scenario: { runMs: 3000 } })
  const virtual = step.virtual
  let github: GitHubApiFake
  const fake = useFakeGitHub(step.clock, { fresh: 'requests', seed: seedRepositories }, (started) => (github = started))

  const commit = (repo: string, message: string, filename = 'README.md'): string =>
    github.addCommits(repo, [
      {
        message,
        files: [{ filename, status: 'modified', additions: 3, deletions: 1, patch: `@@ -1 +1,3 @@\n+${message}` }]
      }
    ])[0] ?? ''

  function seedRepositories(): void {
    github.addTag(REPO, { name: '@acme/cli@1.0.0', at: commit(REPO, 'cli: first release') })
    github.addTag(REPO, { name: '@acme/core@2.3.0', at: commit(REPO, 'core: 2.3') })
    github.addTag(REPO, { name: 'acme-docs@0.4.0', at: commit(REPO, 'docs: 0.4') })
    github.addTag(REPO, { name: '@acme/core@2.3.0-rc.1', at: commit(REPO, 'core: a pre-release') })
    commit(REPO, 'cli: add the export command (#51)', 'packages/cli/src/export.ts')
    commit(REPO, 'core: stream large files (#52)', 'packages/core/src/stream.ts')
    commit(REPO, 'docs: new theme (#53)', 'packages/docs/theme.css')
    const head = commit(REPO, 'Version Packages')
    for (const tag of ['@acme/cli@1.1.0', '@acme/core@2.4.0', 'acme-docs@0.5.0'])
      github.addTag(REPO, { name: tag, at: head })
    github.addRelease(REPO, { tag_name: '@acme/cli@1.1.0', body: '### Minor\n\n- The export command.' })
    github.addTag(REPO, { name: 'nightly', at: head })

    github.addTag(SINGLE, { name: 'v1.0.0', at: commit(SINGLE, 'Release 1.0.0') })
    github.addTag(SINGLE, { name: 'v1.1.0', at: commit(SINGLE, 'Add YAML config (#7)', 'src/config.ts') })

    for (let p = 0; p < 12; p++) github.addTag(LARGE, { name: `pkg-${p}@1.0.0`, at: commit(LARGE, `pkg-${p}: 1.0.0`) })
    for (let c = 0; c < 300; c++)
      for (let p = 0; p < 12; p++)
        commit(LARGE, `pkg-${p}: change ${c} of package ${p}`, `packages/pkg-${p}/src/file-${c}.ts`)
    const largeHead = commit(LARGE, 'Version Packages')
    for (let p = 0; p < 12; p++) github.addTag(LARGE, { name: `pkg-${p}@1.1.0`, at: largeHead })

    for (let p = 0; p < MAX_PACKAGES + 2; p++) github.addTag(MANY, { name: `m${p}@1.0.0`, at: commit(MANY, `m${p}`) })
    const manyHead = commit(MANY, 'Version Packages')
    for (let p = 0; p < MAX_PACKAGES + 2; p++) github.addTag(MANY, { name: `m${p}@1.0.1`, at: manyHead })

    const [init = ''] = github.addCommits(WORKSPACE, [
      {
        message: 'Set up the workspace',
        contents: Object.fromEntries(
          ['cli', 'core', 'shim'].map((name) => [`packages/${name}/package.json`, `{"name":"@acme/${name}"}`])
        )
      }
    ])
    for (const name of ['cli', 'core', 'shim']) github.addTag(WORKSPACE, { name: `@acme/${name}@1.0.0`, at: init })
    for (const name of ['cli', 'core', 'shim']) commit(WORKSPACE, `${name}: a change`, `packages/${name}/src/a.ts`)
    const workspaceHead = commit(WORKSPACE, 'Version Packages', 'CHANGELOG.md')
    for (const name of ['cli', 'core', 'shim'])
      github.addTag(WORKSPACE, { name: `@acme/${name}@1.1.0`, at: workspaceHead })
  }

  const pushEnv = (repo = REPO, extra: Record<string, string> = {}) =>
    fake.env({
      GITHUB_EVENT_NAME: 'push',
      GITHUB_REF: 'refs/heads/main',
      GITHUB_REF_NAME: 'main',
      GITHUB_REPOSITORY: repo,
      ...extra
    })
  const run = (releaseTags: string, env = pushEnv()) => step.run({ 'release-tags': releaseTags }, { env })
  const creates = () => step.requests('create')
  const sent = () => virtual().sim.jobs('proj')[0]?.prompts[0] ?? ''
  const paths = (route: string) =>
    github.requests.filter((r) => r.route === route).map((r) => decodeURIComponent(r.rawPath.split('?')[0] ?? ''))
  const compare = (repo: string, range: string) => `https://github.com/${repo}/compare/${range}`

  const THREE = '@acme/cli@1.1.0\n@acme/core@2.4.0, acme-docs@0.5.0'
  const TABLE = [
    '| Tag | Previous release | Changes | Compare |',
    '| --- | --- | --- | --- |',
    `| \`@acme/cli@1.1.0\` | \`@acme/cli@1.0.0\` | 6 | ${compare(REPO, '@acme/cli@1.0.0...@acme/cli@1.1.0')} |`,
    `| \`@acme/core@2.4.0\` | \`@acme/core@2.3.0\` | 5 | ${compare(REPO, '@acme/core@2.3.0...@acme/core@2.4.0')} |`,
    `| \`acme-docs@0.5.0\` | \`acme-docs@0.4.0\` | 4 | ${compare(REPO, 'acme-docs@0.4.0...acme-docs@0.5.0')} |`
  ].join('\n')

  it('a list of three tags of three components: one job, a table of the packages, then each one', async () => {
    const result = await run(THREE)
    expect(result.code).toBe(0)
    expect(creates()).toHaveLength(1)
    const prompt = sent()
    expect(prompt.startsWith(`${PROMPT}\n\n---\n\n## Context from GitHub\n\n`)).toBe(true)
    expect(prompt).toContain(`released 3 packages together.`)
    expect(prompt).toContain(`\n\n${TABLE}\n\n### \`@acme/cli@1.1.0\`\n\n- Release: @acme/cli@1.1.0 (`)
    for (const [tag, previous, subject, count] of [
      ['@acme/cli@1.1.0', '@acme/cli@1.0.0', 'cli: add the export command (#51)', 6],
      ['@acme/core@2.4.0', '@acme/core@2.3.0', 'core: stream large files (#52)', 5],
      ['acme-docs@0.5.0', 'acme-docs@0.4.0', 'docs: new theme (#53)', 4]
    ] as const) {
      const section = prompt.slice(prompt.indexOf(`### \`${tag}\``))
      expect(section).toContain(`\n- Previous release: ${previous}\n`)
      // The set's own "Version Packages" commit is not one of its changes.
      expect(section).toContain(`#### Changes since ${previous} (${count}; 1 release commit left out)\n`)
      expect(section).toContain(`\n- ${subject}\n`)
    }
    expect(prompt).not.toContain('\n- Version Packages')
    expect(prompt).toContain('#### Release notes\n\n> ### Minor\n>\n> - The export command.')
    expect(prompt).toContain('#### The change itself: patches, most useful files first')
    // One matching-refs request per component, none per major.
    expect(paths('matching-refs').sort()).toEqual(
      ['@acme/cli@', '@acme/core@', 'acme-docs@'].map((c) => `/repos/${REPO}/git/matching-refs/tags/${c}`)
    )
    expect(paths('compare')).toHaveLength(3)
    // One tree for the three packages, whose tags share a commit: none has a manifest here.
    expect(paths('tree')).toHaveLength(1)
    const told = 'Release set of 3 packages: @acme/cli@1.1.0, @acme/core@2.4.0, acme-docs@0.5.0'
    expect(result.at('info')).toContain(
      `Context: ${told} (${(prompt.length - PROMPT.length - 2).toLocaleString('en-US')} characters, 10 GitHub requests)`
    )
    expect(result.summary).toContain(told)
    expect(result.at('warning')).toEqual([])
  })

  it("three tags on one commit: one tree read, and each package's directory found in it", async () => {
    const result = await run('@acme/cli@1.1.0 @acme/core@1.1.0 @acme/shim@1.1.0', pushEnv(WORKSPACE))
    expect(result.code).toBe(0)
    expect(paths('tree')).toEqual([`/repos/${WORKSPACE}/git/trees/@acme/cli@1.1.0`])
    const prompt = sent()
    for (const name of ['cli', 'core', 'shim'])
      expect(prompt).toContain(
        `#### Changes to packages/${name} since @acme/${name}@1.0.0 (1)\n\n- ${name}: a change\n`
      )
    expect(result.at('warning')).toEqual([])
  })

  it('three tags on one commit whose one tree read fails: each tag named in the warning', async () => {
    github.fail('tree', { kind: 'status', status: 403, message: 'Resource not accessible by integration' })
    const result = await run('@acme/cli@1.1.0 @acme/core@1.1.0 @acme/shim@1.1.0', pushEnv(WORKSPACE))
    expect(result.code).toBe(0)
    expect(paths('tree')).toHaveLength(1)
    const [cli, core, shim] = ['cli', 'core', 'shim'].map(
      (name) => `the tree of @acme/${name}@1.1.0 (to find the package's directory)`
    )
    expect(result.at('warning')).toEqual([
      expect.stringContaining(
        `Context: could not read ${cli}, ${core} and ${shim} (GitHub answered 403: Resource not accessible by integration); `
      )
    ])
  })

  it("changesets' publishedPackages as is gives the same prompt", async () => {
    await run(THREE)
    const fromList = sent()
    const json = JSON.stringify([
      { name: '@acme/cli', version: '1.1.0' },
      { name: '@acme/core', version: '2.4.0' },
      { name: 'acme-docs', version: '0.5.0' }
    ])
    const result = await run(json)
    expect(result.code).toBe(0)
    expect(virtual().sim.jobs('proj').at(-1)?.prompts[0]).toBe(fromList)
  })

  it('a single package that changesets tags v + version: that tag, read after its own name', async () => {
    const result = await run('[{"name":"single","version":"1.1.0"}]', pushEnv(SINGLE))
    expect(result.code).toBe(0)
    expect(sent()).toContain(`| \`v1.1.0\` | \`v1.0.0\` | 1 | ${compare(SINGLE, 'v1.0.0...v1.1.0')} |`)
    expect(sent()).toContain('\n- Add YAML config (#7)')
    expect(paths('matching-refs')).toEqual([
      `/repos/${SINGLE}/git/matching-refs/tags/single@`,
      `/repos/${SINGLE}/git/matching-refs/tags/v`
    ])
    expect(result.at('warning')).toEqual([])
  })

  it('twelve packages of several hundred commits each: every one named with its previous release and changes, within budget', async () => {
    const tags = Array.from({ length: 12 }, (_, p) => `pkg-${p}@1.1.0`).join(' ')
    const result = await run(tags, pushEnv(LARGE))
    expect(result.code).toBe(0)
    const prompt = sent()
    expect(prompt.length).toBeLessThanOrEqual(MAX_PROMPT_CHARS)
    expect(prompt.length - PROMPT.length - 2).toBeLessThanOrEqual(CONTEXT_BUDGET_CHARS)
    expect(prompt.length - PROMPT.length - 2).toBeGreaterThan(CONTEXT_BUDGET_CHARS - 2_000)
    const sections = prompt.split('\n### ').slice(1)
    expect(sections).toHaveLength(12)
    for (let p = 0; p < 12; p++) {
      const section = sections[p] ?? ''
      expect(section.startsWith(`\`pkg-${p}@1.1.0\`\n`)).toBe(true)
      expect(section).toContain(`\n- Previous release: pkg-${p}@1.0.0\n`)
      expect(section).toContain(`\n- pkg-${p}: change 0 of package ${p}\n`)
      expect(section).toMatch(/\n- … and [\d,]+ more changes\n/)
      // A fair part each: the changes are the same size.
      expect(section.length).toBeGreaterThan(3_500)
    }
    expect(paths('matching-refs')).toHaveLength(12)
    expect(paths('compare')).toHaveLength(12)
  })

  it(`past ${MAX_PACKAGES} packages the rest are named only`, async () => {
    const tags = Array.from({ length: MAX_PACKAGES + 2 }, (_, p) => `m${p}@1.0.1`).join(',')
    const result = await run(tags, pushEnv(MANY))
    expect(result.code).toBe(0)
    const prompt = sent()
    expect(prompt).toContain(
      `\n\nAlso released, named only (past the ${MAX_PACKAGES} packages described here): \`m20@1.0.1\`, \`m21@1.0.1\`\n\n### \`m0@1.0.1\``
    )
    expect(prompt).not.toContain('### `m20@1.0.1`')
    expect(prompt).toContain('### `m19@1.0.1`')
    expect(prompt).toContain(`released ${MAX_PACKAGES + 2} packages together`)
    expect(paths('compare')).toHaveLength(MAX_PACKAGES)
    expect(result.at('info').join('\n')).toContain('Release set of 22 packages: m0@1.0.1, ')
    expect(result.at('info').join('\n')).toContain('m19@1.0.1, and 2 more named only (')
  })

  it('a missing tag and a tag that is not a version: one warning naming them; the others keep their context', async () => {
    const result = await run('@acme/cli@9.9.9 nightly @acme/core@2.4.0')
    expect(result.code).toBe(0)
    expect(result.at('warning')).toEqual([
      `Release tags: \`@acme/cli@9.9.9\` is not a tag of ${REPO}; \`nightly\` is not a version tag; the job is told about the others.`
    ])
    expect(sent()).toContain('\n- Previous release: @acme/core@2.3.0\n')
    expect(sent()).toContain('released 1 package together')
    expect(sent()).not.toContain('### `@acme/cli@9.9.9`')
  })

  it('changesets JSON naming a tag that exists under neither form: the warning names both', async () => {
    const result = await run('[{"name":"ghost","version":"1.0.0"},{"name":"@acme/cli","version":"1.1.0"}]')
    expect(result.code).toBe(0)
    expect(result.at('warning')).toEqual([
      `Release tags: \`ghost@1.0.0\` (nor \`v1.0.0\`) is not a tag of ${REPO}; the job is told about the others.`
    ])
    expect(sent()).toContain('### `@acme/cli@1.1.0`')
  })

  it('a component that cannot be read: its package is still named, the others keep their context', async () => {
    github.fail('matching-refs', { kind: 'status', status: 403, message: 'Resource not accessible by integration' })
    const result = await run('@acme/cli@1.1.0')
    expect(result.code).toBe(0)
    expect(result.at('warning')).toHaveLength(1)
    expect(result.at('warning')[0]).toContain(
      'Context: could not read the tags starting with @acme/cli@ (to find the previous release) (GitHub answered 403'
    )
    expect(sent()).toContain('| `@acme/cli@1.1.0` | — | — | — |')
    expect(sent()).toContain('> - The export command.')
  })

  it.each([['['], ['[{"name":"@acme/cli"}]'], ['[@acme/cli@1.1.0]']])(
    'malformed JSON %s: an input error naming release-tags, before any request',
    async (value) => {
      const result = await run(value)
      expect(result.code).toBe(1)
      expect(result.at('error').join('\n')).toContain(`Input 'release-tags': starts with "[" but is not a JSON array`)
      expect(github.requests).toEqual([])
      expect(virtual().sim.requests).toEqual([])
    }
  )

  it('release-tags empty on a tag push: the tag context as before', async () => {
    const result = await run(
      '',
      pushEnv(REPO, {
        GITHUB_REF: 'refs/tags/@acme/core@2.4.0',
        GITHUB_REF_TYPE: 'tag',
        GITHUB_REF_NAME: '@acme/core@2.4.0'
      })
    )
    expect(result.code).toBe(0)
    expect(sent()).toContain('This request comes from a GitHub Actions run for tag @acme/core@2.4.0 of acme/monorepo.')
    expect(sent()).toContain('\n- Previous release: @acme/core@2.3.0\n')
    expect(sent()).not.toContain('| Tag |')
  })

  it('on an event that carries no context (workflow_run), the release set all the same', async () => {
    // workflow_run is an event outsiders can set off: the actor's write access is checked first.
    github.setPermission(REPO, 'release-bot-owner', 'maintain')
    const result = await run(
      'acme-docs@0.5.0',
      pushEnv(REPO, { GITHUB_EVENT_NAME: 'workflow_run', GITHUB_REF: '', GITHUB_ACTOR: 'release-bot-owner' })
    )
    expect(result.code).toBe(0)
    expect(sent()).toContain(`| \`acme-docs@0.5.0\` | \`acme-docs@0.4.0\` | 4 |`)
  })
})
