/**
 * The built action (dist/index.js) as the runner runs it, for grouping: two merged pull requests,
 * each run on its own ref (refs/pull/41/merge, refs/pull/43/merge) in its own process, share one
 * docs pull request: one job, one follow-up, one comment listing both. Only what a process shows;
 * the rules are tested in-process (group.test.ts).
 */
import { describe, expect, it } from '@jest/globals'
import type { GitHubApiFake } from '../../simulator/github/index.js'
import { realTime, type AgentApiSimulator } from '../../simulator/agent-api.js'
import { linkDocsRepository } from '../../simulator/docs-repository.js'
import { FAKE_GITHUB_TOKEN, runAction, secretLeaks } from '../../scripts/run-action.js'
import { mergedPullRequestRun } from '../../scripts/merged-pull-request.js'
import { useFakeGitHub } from '../fixtures/github.js'
import { useSimulator } from '../fixtures/simulator.js'

const KEY = 'mint_e2e_group_key_0123456789'
let sim: AgentApiSimulator
let github: GitHubApiFake
useSimulator(KEY, { runMs: 300 }, (started) => (sim = started))
const fake = useFakeGitHub(
  () => realTime,
  {
    token: FAKE_GITHUB_TOKEN,
    repo: 'acme/app',
    fresh: 'none',
    seed: (gh) => {
      linkDocsRepository(sim, gh)
      gh.addRepo('acme/docs')
      for (const number of [41, 43])
        gh.addPull('acme/app', {
          number,
          title: `Change ${number}`,
          head: `b${number}`,
          base: 'main',
          files: [],
          merged: true
        })
      gh.setPermission('acme/app', 'mona', 'write')
    }
  },
  (started) => (github = started)
)

const merged = (number: number, runId: string) => {
  const run = mergedPullRequestRun({ repo: 'acme/app', number, head: `b${number}`, actor: 'mona', runId })
  return runAction(
    {
      'api-key': KEY,
      'project-id': 'proj-e2e-group',
      'base-url': sim.url,
      'poll-interval': '500ms',
      timeout: '30s',
      prompt: 'Document this change',
      group: 'merged-prs',
      'docs-repository': 'acme/docs'
    },
    { env: fake.env(run.env), files: run.files }
  )
}

describe('two grouped runs on different refs, as the runner runs them', () => {
  it('make one job and one docs pull request; the second adds to the first', async () => {
    const first = await merged(41, '9001')
    expect([first.code, first.stderr, first.outputs.grouped]).toEqual([0, '', 'false'])
    const second = await merged(43, '9002')
    expect([second.code, second.stderr, second.outputs.grouped]).toEqual([0, '', 'true'])
    expect(second.outputs['job-id']).toBe(first.outputs['job-id'])
    expect(second.outputs['pr-link']).toBe(first.outputs['pr-link'])
    expect(sim.requests.filter((r) => r.operation === 'create')).toHaveLength(1)
    expect(sim.requests.filter((r) => r.operation === 'message')).toHaveLength(1)
    const comments = github.commentsOf('acme/docs', Number(first.outputs['pr-number']))
    expect(comments).toHaveLength(1)
    expect(comments[0]?.body).toContain('Sources (2), oldest first:')
    expect(comments[0]?.body).toContain(
      '[workflow run](https://github.com/acme/app/actions/runs/9002) · added by a follow-up'
    )
    expect(second.summary).toContain('<code>merged-prs</code>: added to its open docs pull request')
    expect(secretLeaks(second, KEY)).toEqual([])
  })
})
