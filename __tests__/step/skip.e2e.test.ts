/**
 * The release example as a new user copies it, run by the built action (dist/index.js) as the
 * runner runs it: its `with:` read from examples/release-docs.yml, `paths-ignore` a block scalar
 * listing `.github/**` and `**\/*.test.ts`, its expressions given values. A release that touched
 * only CI and tests starts no job and writes nothing; the next, real one is documented. Only what a
 * process shows: the rules are tested in-process (skip.test.ts).
 */
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import type { GitHubApiFake } from '../../simulator/github/index.js'
import { annotations, FAKE_GITHUB_TOKEN, ROOT, runAction, secretLeaks } from '../../scripts/run-action.js'
import { useProcessGitHub } from '../fixtures/action-process.js'

const KEY = 'mint_e2e_skip_key_0123456789'
const REPO = 'acme/widgets'
const { sim, github, env } = useProcessGitHub({ key: KEY, repo: REPO, fresh: 'none', linked: true, data: seed })

function seed(gh: GitHubApiFake): void {
  const commit = (message: string, ...files: string[]): string =>
    gh.addCommits(REPO, [
      {
        message,
        files: files.map((filename) => ({
          filename,
          status: 'modified',
          additions: 2,
          deletions: 1,
          patch: '@@ -1 +1,2 @@'
        }))
      }
    ])[0] ?? ''
  gh.addTag(REPO, { name: 'v1.0.0', at: commit('Initial release', 'src/index.ts') })
  commit('ci: cache the build', '.github/workflows/ci.yml')
  gh.addTag(REPO, { name: 'v1.0.1', at: commit('test: cover the parser', 'src/parser.test.ts') })
  gh.addTag(REPO, {
    name: 'v1.1.0',
    at: commit('feat: the export command (#42)', 'src/export.ts', 'src/export.test.ts')
  })
  gh.addRelease(REPO, { tag_name: 'v1.1.0', body: 'Adds `widgets export`.' })
}

/** The example's inputs, its expressions as the runner would evaluate them here. */
function exampleInputs(): Record<string, string> {
  const workflow = parse(readFileSync(join(ROOT, 'examples', 'release-docs.yml'), 'utf8')) as {
    jobs: Record<string, { steps: { uses?: string; with?: Record<string, unknown> }[] }>
  }
  const step = Object.values(workflow.jobs)
    .flatMap((job) => job.steps)
    .find((s) => s.uses?.startsWith('docs-agent/docs-agent-action@'))
  const values: Record<string, string> = {
    'secrets.MINTLIFY_API_KEY': KEY,
    'vars.MINTLIFY_PROJECT_ID': 'proj-e2e-skip',
    'github.repository': REPO,
    'secrets.DOCS_REPO_TOKEN || github.token': FAKE_GITHUB_TOKEN,
    // A tag push: the dispatch's tag input is empty.
    'inputs.tag': ''
  }
  return Object.fromEntries(
    Object.entries(step?.with ?? {}).map(([name, value]) => [
      name,
      String(value).replace(/\$\{\{ (.+?) \}\}/g, (_, expression: string) => {
        const evaluated = values[expression]
        if (evaluated === undefined) throw new Error(`the example uses \${{ ${expression} }}: give it a value here`)
        return evaluated
      })
    ])
  )
}

const tagPush = (tag: string) =>
  runAction(
    // The simulator stands in for Mintlify's API; polls are quick for a test.
    { ...exampleInputs(), 'base-url': sim().url, 'poll-interval': '500ms' },
    {
      env: env({
        GITHUB_EVENT_NAME: 'push',
        GITHUB_REF: `refs/tags/${tag}`,
        GITHUB_REF_TYPE: 'tag',
        GITHUB_REF_NAME: tag,
        GITHUB_RUN_ID: '7001',
        GITHUB_RUN_ATTEMPT: '1'
      })
    }
  )

describe('the release example with paths-ignore, as a new user runs it', () => {
  it('takes paths-ignore from the example as a block scalar', () => {
    expect(exampleInputs()['paths-ignore']).toBe('.github/**\n**/*.test.ts\n')
  })

  it('skips a release that touched only CI and tests, then documents a real one', async () => {
    sim().setPreviews({ queuedMs: 50, buildMs: 100 })
    const ciOnly = await tagPush('v1.0.1')
    const reason =
      'paths-ignore matches every changed file of v1.0.0...v1.0.1: .github/workflows/ci.yml, src/parser.test.ts'
    expect([ciOnly.code, ciOnly.stderr]).toEqual([0, ''])
    expect(ciOnly.outputs).toMatchObject({ skipped: 'true', 'skip-reason': reason, 'job-id': '', prompt: '' })
    expect(annotations(ciOnly.stdout, 'notice')).toEqual([`Skipped, no job started: ${reason}.`])
    expect(ciOnly.summary).toContain('<h2>⏭️ Skipped: no docs job for this change</h2>')
    expect(sim().requests).toHaveLength(0)
    // The example's check is the one write: made completed as skipped, so a required check does not wait.
    expect(
      github()
        .requests.filter((r) => r.method !== 'GET')
        .map((r) => r.route)
    ).toEqual(['check-create'])
    expect(
      github()
        .checkRunsOf(REPO)
        .map((check) => check.states)
    ).toEqual([['skipped']])

    const real = await tagPush('v1.1.0')
    expect([real.code, real.stderr]).toEqual([0, ''])
    expect(real.outputs).toMatchObject({ skipped: 'false', 'skip-reason': '', status: 'completed' })
    expect(real.outputs.prompt).toContain(`A new release of ${REPO} is out.`)
    expect(real.outputs.prompt).toContain('- feat: the export command (#42)')
    expect(real.outputs['preview-url']).not.toBe('')
    expect(github().labelsOf('acme/docs', Number(real.outputs['pr-number']))).toEqual(['documentation', 'release'])
    expect(real.stdout).toContain(
      'Skip rules: not skipped: paths-ignore leaves 1 of the 2 changed files of v1.0.1...v1.1.0: src/export.ts'
    )
    expect(secretLeaks(real, KEY)).toEqual([])
  })
})
