/**
 * Release context in repositories as they are: a monorepo of several tag schemes with thousands of
 * tags (made up, __tests__/fixtures/tags.ts), and scheduled runs. In-process, against the simulator
 * and the fake GitHub REST API on loopback, on a virtual clock.
 */
import { beforeEach, describe, expect, it } from '@jest/globals'
import type { GitHubApiFake } from '../../../simulator/github/index.js'
import { useFakeGitHub } from '../../fixtures/github.js'
import { allowDrift } from '../../fixtures/openapi.js'
import { useStep } from '../../fixtures/step.js'
import { monorepoTags, seedTags } from '../../fixtures/tags.js'

// One describe for the file: its hooks stay its own when the mutation suite runs the files together.
describe('release tags and scheduled runs', () => {
  const KEY = 'mint_release_tags_secret_0000'
  const REPO = 'acme/monorepo'
  const PROMPT = 'Document this release.'
  const TAGS = monorepoTags()
  const step = useStep({ key: KEY, project: 'proj', prompt: PROMPT, scenario: { runMs: 3000 } })
  const virtual = step.virtual
  let github: GitHubApiFake
  const fake = useFakeGitHub(
    step.clock,
    { repo: REPO, fresh: 'requests', seed: (started) => seedTags(started, REPO, TAGS) },
    (started) => (github = started)
  )
  beforeEach(() => {
    github.matchingRefsPageSize = undefined
  })

  const env = (extra: Record<string, string>) => fake.env(extra)
  const tagEnv = (tag: string) =>
    env({ GITHUB_EVENT_NAME: 'push', GITHUB_REF: `refs/tags/${tag}`, GITHUB_REF_TYPE: 'tag', GITHUB_REF_NAME: tag })
  const run = (runnerEnv: Record<string, string>, files: Record<string, string> = {}) =>
    step.run({}, { env: runnerEnv, files })
  const sent = () => virtual().sim.jobs('proj')[0]?.prompts[0] ?? ''
  /** The decoded paths of the requests to one route. */
  const paths = (route: string) =>
    github.requests.filter((r) => r.route === route).map((r) => decodeURIComponent(r.rawPath.split('?')[0] ?? ''))

  describe('the previous release is the highest lower version of the same component', () => {
    // tag pushed, its previous release, the tag prefixes read (narrowest first)
    it.each([
      ['v1.12.2', 'v1.12.1', ['v1']],
      ['v2.0.0', 'v1.12.2', ['v2', 'v']],
      ['v2.0.0-rc.10', 'v2.0.0-rc.9', ['v2']],
      ['v1.0.0', 'v0.9.0', ['v1', 'v']],
      ['@acme/cli@3.0.0-next.12', '@acme/cli@3.0.0-next.11', ['@acme/cli@3']],
      ['@acme/cli@3.0.0', '@acme/cli@2.9.9', ['@acme/cli@3', '@acme/cli@']],
      ['plugin-x@2.3.10', 'plugin-x@2.3.9', ['plugin-x@2']],
      ['acme-util-0.7.19', 'acme-util-0.7.18', ['acme-util-0']],
      ['acme-1.53.1', 'acme-1.53.0', ['acme-1']],
      ['tools/v0.23.0', 'tools/v0.22.1', ['tools/v0']],
      ['sdk/v1.2.0-pre.2', 'sdk/v1.2.0-pre.1', ['sdk/v1']],
      ['widget-8_21_0', 'widget-8_20_1', ['widget-8']],
      ['24.1b2', '24.1b1', ['24']],
      ['24.1rc1', '24.1b2', ['24']],
      ['24.1.0', '23.12.1', ['24', '']],
      ['@acme/icons@30.0.0', '@acme/icons@29.99.0', ['@acme/icons@30', '@acme/icons@']]
    ])('%s: %s', async (tag, previous, prefixes) => {
      const result = await run(tagEnv(tag))
      expect(result.code).toBe(0)
      const prompt = sent()
      expect(prompt).toContain(`\n- Previous release: ${previous}\n`)
      expect(paths('compare')).toEqual([`/repos/${REPO}/compare/${previous}...${tag}`])
      // '' (bare versions, a new major): every tag.
      expect(paths('matching-refs')).toEqual(
        prefixes.map((p) => `/repos/${REPO}/git/matching-refs/tags${p && `/${p}`}`)
      )
      // The change list and the patches are those of the range: the tag's own commit is the last.
      const tagged = TAGS.findIndex((t) => t.name === tag)
      const since = TAGS.findIndex((t) => t.name === previous)
      if (/^[\w-]+\/v\d/.test(tag)) {
        // A path tag names its directory: the range is counted, the commits touching it listed first.
        expect(prompt).toContain(`; 1 of the ${tagged - since} commits since ${previous} touches it\n`)
      } else expect(prompt).toContain(`### Changes since ${previous} (${tagged - since})\n`)
      expect(prompt).toMatch(new RegExp(`\\n- Change for ${tag.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'))
      expect(prompt).toContain(`+export const version = '${tag}'`)
      expect(result.at('warning')).toEqual([])
    })

    it('a component with no earlier version tag: said in one line, no range read', async () => {
      const result = await run(tagEnv('@acme/web@1.0.0'))
      expect(result.code).toBe(0)
      expect(sent()).toContain('\n- Previous release: none (no earlier version tag of @acme/web@)')
      expect(result.at('info')).toContainEqual(
        expect.stringMatching(/^Context: Tag @acme\/web@1\.0\.0: no earlier version tag of @acme\/web@ \(/)
      )
      expect(paths('compare')).toEqual([])
    })

    it('a tag that is not a version: its own ref is read (for its message), no previous release', async () => {
      const result = await run(tagEnv('nightly'))
      expect(result.code).toBe(0)
      expect(sent()).not.toContain('Previous release')
      expect(result.at('info')).toContainEqual(
        expect.stringMatching(/^Context: Tag nightly: not a version tag, so no previous release \(/)
      )
      expect(paths('matching-refs')).toEqual([`/repos/${REPO}/git/matching-refs/tags/nightly`])
    })

    it('a release event, from its payload, the same way', async () => {
      const payload = { release: { tag_name: 'tools/v0.23.0', name: 'tools v0.23.0', body: 'Tools notes' } }
      const result = await run(
        { ...tagEnv('tools/v0.23.0'), GITHUB_EVENT_NAME: 'release', GITHUB_EVENT_PATH: 'event.json' },
        { 'event.json': JSON.stringify(payload) }
      )
      expect(result.code).toBe(0)
      expect(sent()).toContain('> Tools notes')
      expect(sent()).toContain('\n- Previous release: tools/v0.22.1\n')
      // The commits of its directory: the previous release's newest, then the tag's.
      expect(github.requests.map((r) => r.route).sort()).toEqual(['commits', 'commits', 'compare', 'matching-refs'])
    })

    it('pages are followed when matching-refs answers in pages', async () => {
      github.matchingRefsPageSize = 100
      allowDrift(/matching-refs.*query parameter '(page|per_page)'/, 'GitHub does not page matching-refs today')
      const result = await run(tagEnv('@acme/icons@30.0.0'))
      expect(result.code).toBe(0)
      expect(sent()).toContain('\n- Previous release: @acme/icons@29.99.0\n')
      // One page for @acme/icons@30, then 3,001 tags of the component in 31 pages.
      expect(paths('matching-refs')).toHaveLength(1 + 31)
    })
  })

  describe('a scheduled or manual run: the changes since the last successful run', () => {
    /** Two commits on the tip of main (the fake has one linear history). */
    const commits = () =>
      github.addCommits(REPO, [
        {
          message: 'Add the export command (#501)',
          files: [
            {
              filename: 'src/export.ts',
              status: 'added',
              additions: 3,
              deletions: 0,
              patch: '@@ -0,0 +1,3 @@\n+export function exportAll() {\n+  return []\n+}'
            }
          ]
        },
        { message: 'Fix the flag (#502)' }
      ])

    const scheduledEnv = (sha: string, event = 'schedule') =>
      env({
        GITHUB_EVENT_NAME: event,
        GITHUB_REF: 'refs/heads/main',
        GITHUB_REF_NAME: 'main',
        GITHUB_SHA: sha,
        GITHUB_WORKFLOW_REF: `${REPO}/.github/workflows/docs.yml@refs/heads/main`
      })

    it('from the newest successful run of the same workflow, branch and event whose commit is in the history', async () => {
      const [before = ''] = github.addCommits(REPO, [{ message: 'Docs run base' }])
      github.addRun(REPO, { workflow: 'docs.yml', branch: 'main', event: 'schedule', headSha: before })
      const [added = '', tip = ''] = commits()
      // Not a base: failed, another branch, another event, another workflow, a commit force-pushed away.
      github.addRun(REPO, {
        workflow: 'docs.yml',
        branch: 'main',
        event: 'schedule',
        headSha: added,
        conclusion: 'failure'
      })
      github.addRun(REPO, { workflow: 'docs.yml', branch: 'next', event: 'schedule', headSha: added })
      github.addRun(REPO, { workflow: 'docs.yml', branch: 'main', event: 'push', headSha: added })
      github.addRun(REPO, { workflow: 'ci.yml', branch: 'main', event: 'schedule', headSha: added })
      github.addRun(REPO, { workflow: 'docs.yml', branch: 'main', event: 'schedule', headSha: 'f'.repeat(40) })
      const result = await run(scheduledEnv(tip))
      expect(result.code).toBe(0)
      const prompt = sent()
      expect(prompt).toContain('This request comes from a scheduled run of workflow docs.yml on main of acme/monorepo.')
      expect(prompt).toContain(`\n- Last successful run: https://github.com/${REPO}/actions/runs/`)
      expect(prompt).toContain(`commit ${before.slice(0, 12)})`)
      expect(prompt).toContain(
        '### Changes since the last successful run (2)\n\n- Add the export command (#501)\n- Fix the flag (#502)'
      )
      expect(prompt).toContain(
        '#### src/export.ts (added, +3 −0)\n\n```diff\n@@ -0,0 +1,3 @@\n+export function exportAll()'
      )
      expect(paths('workflow-runs')).toEqual([`/repos/${REPO}/actions/workflows/docs.yml/runs`])
      expect(github.requests.find((r) => r.route === 'workflow-runs')?.rawPath).toMatch(
        /[?&]branch=main&event=schedule&status=success&per_page=5$/
      )
      // The force-pushed run's commit is gone (404): the next run is the base.
      expect(paths('compare')).toEqual([
        `/repos/${REPO}/compare/${'f'.repeat(40)}...${tip}`,
        `/repos/${REPO}/compare/${before}...${tip}`
      ])
      expect(result.at('warning')).toEqual([])
      expect(result.at('info')).toContainEqual(
        expect.stringMatching(
          /^Context: A scheduled run of docs\.yml on main: 2 changes since the last successful run \(/
        )
      )
    })

    it('a first run: one line saying so, no range', async () => {
      const [tip = ''] = commits().slice(-1)
      const result = await run(scheduledEnv(tip, 'workflow_dispatch'))
      expect(result.code).toBe(0)
      expect(sent()).toContain(
        '\n- Last successful run: none (it has no earlier successful run, so there is no range to add)'
      )
      expect(sent()).not.toContain('###')
      expect(paths('compare')).toEqual([])
      expect(result.at('warning')).toEqual([])
    })

    it('runs whose commits are not in this history (behind it): no range', async () => {
      const [, tip = ''] = commits()
      const [later = ''] = github.addCommits(REPO, [{ message: 'later' }])
      github.addRun(REPO, { workflow: 'docs.yml', branch: 'main', event: 'workflow_dispatch', headSha: later })
      const result = await run(scheduledEnv(tip, 'workflow_dispatch'))
      expect(result.code).toBe(0)
      expect(sent()).toContain('no earlier successful run of it is in the history of this commit')
      expect(paths('compare')).toHaveLength(1)
    })

    it('without actions: read, one warning naming it; the job is created', async () => {
      github.fail('workflow-runs', { kind: 'status', status: 403, message: 'Resource not accessible by integration' })
      const [, tip = ''] = commits()
      const result = await run(scheduledEnv(tip))
      expect(result.code).toBe(0)
      expect(result.at('warning')).toEqual([
        "Context: could not read the successful runs of docs.yml (GitHub answered 403: Resource not accessible by integration); the job is created with what was read. The workflow's token (github-token) needs `actions: read` on this repository; set them under `permissions:`, or set context: none."
      ])
      expect(virtual().sim.requests.filter((r) => r.operation === 'create')).toHaveLength(1)
      expect(sent()).toContain('This request comes from a scheduled run of workflow docs.yml on main')
    })
  })
})
