/**
 * The built action (dist/index.js) as a new user runs it: a merged pull request by @dev, with
 * `reviewers: author` and `merge: auto`, in a docs repository whose checks are still running.
 * Only what a process shows; the rules are tested in-process (owner.test.ts, owner-merge.test.ts).
 */
import { describe, expect, it } from '@jest/globals'
import type { GitHubApiFake } from '../../simulator/github/index.js'
import { realTime, type AgentApiSimulator } from '../../simulator/agent-api.js'
import { linkDocsRepository } from '../../simulator/docs-repository.js'
import { FAKE_GITHUB_TOKEN, runAction, secretLeaks } from '../../scripts/run-action.js'
import { mergedPullRequestRun } from '../../scripts/merged-pull-request.js'
import { useFakeGitHub } from '../fixtures/github.js'
import { useSimulator } from '../fixtures/simulator.js'

const KEY = 'mint_e2e_owner_key_0123456789'
let sim: AgentApiSimulator
let github: GitHubApiFake
useSimulator(KEY, { runMs: 300 }, (started) => (sim = started))
const fake = useFakeGitHub(
  () => realTime,
  {
    token: FAKE_GITHUB_TOKEN,
    repo: 'acme/app',
    fresh: 'reset',
    each: (gh) => {
      linkDocsRepository(sim, gh)
      gh.addRepo('acme/docs')
      gh.addPull('acme/app', { number: 41, title: 'Change 41', head: 'b41', base: 'main', files: [], merged: true })
      gh.setPermission('acme/app', 'dev', 'write')
      gh.setPermission('acme/docs', 'dev', 'write')
      gh.setMergeRules('acme/docs', { requiredChecks: true })
    }
  },
  (started) => (github = started)
)

describe('the docs pull request has an owner, as the runner runs the action', () => {
  it('a merged pull request by @dev with reviewers: author and merge: auto asks @dev to review and turns auto-merge on', async () => {
    const run = mergedPullRequestRun({ repo: 'acme/app', number: 41, head: 'b41', actor: 'dev', runId: '9101' })
    const result = await runAction(
      {
        'api-key': KEY,
        'project-id': 'proj-e2e-owner',
        'base-url': sim.url,
        'poll-interval': '500ms',
        timeout: '30s',
        prompt: 'Document this change',
        reviewers: 'author',
        merge: 'auto'
      },
      { env: fake.env(run.env), files: run.files }
    )
    expect([result.code, result.stderr]).toEqual([0, ''])
    const number = Number(result.outputs['pr-number'])
    expect(github.ownerOf('acme/docs', number).reviewers).toEqual(['dev'])
    expect(github.ownerOf('acme/docs', number).autoMerge).toEqual({ method: 'SQUASH' })
    expect(result.outputs).toMatchObject({ reviewers: 'dev', merge: 'auto-merge', assignees: '' })
    expect(result.summary).toContain('<tr><th align="left">Reviewers</th><td>@dev</td></tr>')
    expect(result.summary).toContain(
      '<tr><th align="left">Merge</th><td>auto-merge on (squash): it merges once its required checks and reviews pass</td></tr>'
    )
    expect(github.commentsOf('acme/app', 41)[0]?.body).toContain('Review requested from @dev.')
    expect(secretLeaks(result, KEY)).toEqual([])
  })
})
