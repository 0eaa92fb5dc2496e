/**
 * `check` on a skipped run, in-process through `main` against the simulator and the fake GitHub on a
 * virtual clock: a skip rule that matched makes the check run completed as `skipped` in one write,
 * so a required check never waits for a job that does not start.
 */
import { describe, expect, it } from '@jest/globals'
import type { GitHubApiFake } from '../../simulator/github/index.js'
import { useFakeGitHub } from '../fixtures/github.js'
import { useStep } from '../fixtures/step.js'

describe('check run of a skipped run', () => {
  const APP = 'acme/app'
  const HEAD = `${'c0ffee'.repeat(6)}0000`
  const RUN_URL = 'https://github.com/acme/app/actions/runs/5001'
  const step = useStep({
    key: 'mint_check_skipped_key_0123456789',
    project: 'proj-check-skipped',
    prompt: 'Document this change',
    inputs: { check: 'Docs agent', 'link-back': 'none' }
  })
  let github: GitHubApiFake
  const fake = useFakeGitHub(
    step.clock,
    {
      repo: APP,
      fresh: 'reset',
      each: (gh) => {
        gh.addPull(APP, { number: 7, title: 'Bump', head: { ref: 'bump', sha: HEAD }, base: 'main', files: [] })
        gh.setPermission(APP, 'mona', 'write')
      }
    },
    (started) => (github = started)
  )
  // A merged pull request that carries a skip label (compared without case).
  const labelled = {
    action: 'closed',
    pull_request: {
      number: 7,
      title: 'Bump',
      user: { login: 'mona' },
      labels: [{ name: 'Skip-Docs' }],
      head: { ref: 'bump', sha: HEAD, repo: { full_name: APP } },
      base: { ref: 'main', repo: { full_name: APP } }
    }
  }
  const run = (options: { payload: unknown; attempt?: string; inputs?: Record<string, string> }) =>
    step.run(options.inputs ?? {}, {
      env: fake.env({
        GITHUB_EVENT_NAME: 'pull_request',
        GITHUB_ACTOR: 'mona',
        GITHUB_EVENT_PATH: '/event.json',
        GITHUB_RUN_ID: '5001',
        GITHUB_RUN_ATTEMPT: options.attempt ?? '1'
      }),
      files: { '/event.json': JSON.stringify(options.payload) }
    })
  const checks = () => github.checkRunsOf(APP)
  const asked = () => github.requests.filter((r) => r.route.startsWith('check')).map((r) => `${r.method} ${r.route}`)
  const virtual = step.virtual

  it('makes its check completed as skipped in one write, with why, and writes nothing else', async () => {
    const result = await run({ payload: labelled })
    expect(result.code).toBe(0)
    expect(result.outputs.skipped).toBe('true')
    expect(result.outputs['job-id']).toBe('')
    expect(virtual().sim.requests.filter((request) => request.operation === 'create')).toHaveLength(0)
    expect(github.requests.filter((r) => r.method !== 'GET').map((r) => r.route)).toEqual(['check-create'])
    const [made] = github.requests
      .filter((r) => r.route === 'check-create')
      .map((r) => JSON.parse(r.body) as Record<string, unknown>)
    expect(made).toMatchObject({ name: 'Docs agent', head_sha: HEAD, status: 'completed', conclusion: 'skipped' })
    const [check] = checks()
    expect(check).toMatchObject({ states: ['skipped'], details_url: RUN_URL })
    expect(check?.output.title).toBe('⏭️ Skipped: no docs job for this change')
    expect(check?.output.summary).toMatch(
      /^\*\*Docs agent:\*\* skipped, no job started: `skip-labels: pull request #7 has the label Skip-Docs`\./
    )
    expect(result.outputs['check-run-id']).toBe(String(check?.id))
    expect(result.summary).toContain(`Docs agent</a>: <code>skipped</code>`)
    expect(result.at('info')).toContain("Check run 'Docs agent' completed: skipped.")
    expect(result.at('warning')).toEqual([])
  })

  it('a re-run makes a check of its own, completed as skipped: the first is final on GitHub', async () => {
    const first = await run({ payload: labelled })
    github.requests.length = 0
    const again = await run({ payload: labelled, attempt: '2' })
    expect(again.outputs.skipped).toBe('true')
    expect(asked()).toEqual(['GET check-runs', 'POST check-create'])
    expect(checks().map((check) => check.states)).toEqual([['skipped'], ['skipped']])
    expect(again.outputs['check-run-id']).not.toBe(first.outputs['check-run-id'])
  })

  it('a create whose answer is lost: one warning that it may be there; the step still skips', async () => {
    github.fail('check-create', { kind: 'status', status: 502 })
    const result = await run({ payload: labelled })
    expect(result.code).toBe(0)
    expect(result.outputs.skipped).toBe('true')
    expect(result.at('warning')).toEqual([
      "Could not create the check run 'Docs agent': GitHub did not answer; it may be there."
    ])
  })

  it('a create GitHub refuses: one warning naming checks: write', async () => {
    github.fail('check-create', { kind: 'status', status: 403, message: 'Resource not accessible by integration' })
    const result = await run({ payload: labelled })
    expect(result.code).toBe(0)
    expect(result.at('warning')).toHaveLength(1)
    expect(result.at('warning')[0]).toMatch(/^Could not create the check run 'Docs agent'.*checks: write/)
  })

  it('a dry run shows the decision and makes no check: nothing is sent', async () => {
    const result = await run({ payload: labelled, inputs: { 'dry-run': 'true' } })
    expect(result.code).toBe(0)
    expect(asked()).toEqual([])
    expect(result.outputs['check-run-id']).toBe('')
  })
})
