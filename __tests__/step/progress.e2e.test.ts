/**
 * The built action (dist/index.js) as the runner runs it, as a new user tries `check` and the
 * progress: a merged pull request's run, in its own process against the fake GitHub and the
 * simulator in real time. Only what a process shows; the rules are tested in-process
 * (progress.test.ts, check.test.ts).
 */
import { describe, expect, it } from '@jest/globals'
import { setTimeout as sleep } from 'node:timers/promises'
import type { GitHubApiFake } from '../../simulator/github/index.js'
import { realTime, type AgentApiSimulator } from '../../simulator/agent-api.js'
import { FAKE_GITHUB_TOKEN, runAction, secretLeaks } from '../../scripts/run-action.js'
import { mergedPullRequestRun } from '../../scripts/merged-pull-request.js'
import { useFakeGitHub } from '../fixtures/github.js'
import { useSimulator } from '../fixtures/simulator.js'

const KEY = 'mint_e2e_progress_key_0123456789'
const APP = 'acme/app'
const HEAD = 'feed'.repeat(10)
let sim: AgentApiSimulator
let github: GitHubApiFake
useSimulator(KEY, { runMs: 3000 }, (started) => (sim = started))
const fake = useFakeGitHub(
  () => realTime,
  {
    token: FAKE_GITHUB_TOKEN,
    repo: APP,
    fresh: 'reset',
    each: (gh) => {
      gh.addRepo('acme/docs')
      gh.addPull(APP, {
        number: 41,
        title: 'Change 41',
        head: { ref: 'b41', sha: HEAD },
        base: 'main',
        files: [],
        merged: true
      })
      gh.setPermission(APP, 'mona', 'write')
    }
  },
  (started) => (github = started)
)

describe('a merged pull request, as the runner runs it', () => {
  it('has its comment while the job is active, updated in place at the end, and one completed check run on its head', async () => {
    const run = mergedPullRequestRun({
      repo: APP,
      number: 41,
      head: 'b41',
      headSha: HEAD,
      actor: 'mona',
      runId: '9001'
    })
    let during: { comments: { id: number; body: string }[]; job: string | undefined; check: string[] } | undefined
    const result = await runAction(
      {
        'api-key': KEY,
        'project-id': 'proj-e2e-progress',
        'base-url': sim.url,
        'poll-interval': '500ms',
        timeout: '30s',
        prompt: 'Document this change',
        check: 'Docs agent'
      },
      {
        env: fake.env(run.env),
        files: run.files,
        // Once the job exists: the comment as soon as it is there, and the job's status then.
        onOutput: {
          text: 'is active',
          then: () =>
            void (async () => {
              while (github.commentsOf(APP, 41).length === 0 || github.checkRunsOf(APP).length === 0) await sleep(10)
              during = {
                comments: github.commentsOf(APP, 41),
                job: sim.jobs('proj-e2e-progress').at(-1)?.job.status,
                check: github.checkRunsOf(APP)[0]?.states ?? []
              }
            })()
        }
      }
    )
    expect([result.code, result.stderr]).toEqual([0, ''])
    expect(during?.job).toBe('active')
    expect(during?.comments).toHaveLength(1)
    expect(during?.comments[0]?.body).toMatch(
      /^\*\*Docs agent:\*\* working on the docs\.\n\njob `job_\w+` · status `active`/
    )
    expect(during?.check).toEqual(['in_progress'])
    const after = github.commentsOf(APP, 41)
    expect(after.map((c) => c.id)).toEqual([during?.comments[0]?.id])
    expect(after[0]?.body).toContain(
      `**Docs agent:** docs pull request [acme/docs#${result.outputs['pr-number'] ?? ''}](${result.outputs['pr-link'] ?? ''})`
    )
    const checks = github.checkRunsOf(APP)
    expect(checks.map((check) => [check.head_sha, check.status, check.conclusion])).toEqual([
      [HEAD, 'completed', 'success']
    ])
    expect(result.outputs['check-run-id']).toBe(String(checks[0]?.id))
    expect(result.summary).toContain(`>Docs agent</a>: <code>success</code>`)
    expect(secretLeaks(result, KEY)).toEqual([])
  })
})
