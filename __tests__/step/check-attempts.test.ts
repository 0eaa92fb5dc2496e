/**
 * `check` across attempts of a workflow run, in-process through `main` against the simulator and
 * the fake GitHub on a virtual clock. GitHub never changes a completed check run (GitHub staff;
 * simulator/check-runs.ts ignores a PATCH of one), so each attempt makes its own, an earlier
 * attempt's left in progress is completed as cancelled, the final PATCH is sent once more after a
 * 5xx, the warnings name the real cause, and a run nobody permitted completes its check as skipped.
 */
import { describe, expect, it } from '@jest/globals'
import type { GitHubApiFake } from '../../simulator/github/index.js'
import { MemoryRecords } from '../../scripts/in-process.js'
import { useFakeGitHub } from '../fixtures/github.js'
import { useStep } from '../fixtures/step.js'

describe('check run per attempt', () => {
  const APP = 'acme/app'
  const HEAD = `${'c0ffee'.repeat(6)}0000`
  const step = useStep({
    key: 'mint_check_attempts_key_0123456789',
    project: 'proj-check-attempts',
    prompt: 'Document this change',
    inputs: { check: 'Docs agent', 'link-back': 'none' },
    scenario: { runMs: 30_000 }
  })
  const virtual = step.virtual
  let github: GitHubApiFake
  const fake = useFakeGitHub(
    step.clock,
    {
      repo: APP,
      fresh: 'reset',
      each: (gh) => {
        gh.addPull(APP, { number: 7, title: 'Add --dry-run', head: { ref: 'dry', sha: HEAD }, base: 'main', files: [] })
        gh.setPermission(APP, 'mona', 'write')
      }
    },
    (started) => (github = started)
  )
  const side = (ref: string, sha?: string) => ({ ref, ...(sha ? { sha } : {}), repo: { full_name: APP } })
  const merged = {
    action: 'closed',
    pull_request: {
      number: 7,
      title: 'Add --dry-run',
      user: { login: 'mona' },
      head: side('dry', HEAD),
      base: side('main')
    }
  }
  const run = (
    inputs: Record<string, string> = {},
    options: { attempt?: string; records?: MemoryRecords; event?: string; payload?: unknown; actor?: string } = {}
  ) =>
    step.run(inputs, {
      env: fake.env({
        GITHUB_EVENT_NAME: options.event ?? 'pull_request',
        GITHUB_ACTOR: options.actor ?? 'mona',
        GITHUB_EVENT_PATH: '/event.json',
        GITHUB_RUN_ID: '5001',
        GITHUB_RUN_ATTEMPT: options.attempt ?? '1'
      }),
      files: { '/event.json': JSON.stringify(options.payload ?? merged) },
      records: options.records
    })
  const checks = () => github.checkRunsOf(APP)
  const asked = () => github.requests.filter((r) => r.route.startsWith('check')).map((r) => `${r.method} ${r.route}`)

  it('a re-run after a timed-out check makes its own and completes it; the first stays timed_out', async () => {
    virtual().sim.setScenario({ runMs: 90_000 })
    const records = new MemoryRecords(true)
    const first = await run({ timeout: '1m' }, { records })
    expect(first.code).toBe(1)
    expect(checks().map((check) => check.states)).toEqual([['in_progress', 'timed_out']])
    github.requests.length = 0
    const again = await run({}, { records, attempt: '2' })
    expect(again.code).toBe(0)
    expect(again.outputs['job-id']).toBe(first.outputs['job-id'])
    expect(checks().map((check) => [check.external_id, check.conclusion])).toEqual([
      ['docs-agent-action:5001:1', 'timed_out'],
      ['docs-agent-action:5001:2', 'success']
    ])
    // The completed check is never sent a PATCH: GitHub would keep it as it is.
    const patched = github.requests.filter((r) => r.route === 'check-update').map((r) => r.rawPath)
    expect(patched).toEqual([`/repos/${APP}/check-runs/${checks()[1]?.id ?? ''}`])
    expect(again.outputs['check-run-id']).toBe(String(checks()[1]?.id))
    expect(again.summary).toContain(`/runs/${checks()[1]?.id ?? ''}">Docs agent</a>: <code>success</code>`)
    expect(again.at('info')).toContain("Check run 'Docs agent' completed: success.")
    expect(again.at('warning')).toEqual([])
  })

  it('an earlier attempt’s check left in progress (a killed attempt) is completed as cancelled, superseded', async () => {
    const killed = github.addCheckRun(APP, {
      name: 'Docs agent',
      head_sha: HEAD,
      status: 'in_progress',
      external_id: 'docs-agent-action:5001:1'
    })
    // Another workflow run's, and another attempt's already completed: neither is touched.
    github.addCheckRun(APP, {
      name: 'Docs agent',
      head_sha: HEAD,
      status: 'in_progress',
      external_id: 'docs-agent-action:4999:1'
    })
    const result = await run({}, { attempt: '2' })
    expect(result.code).toBe(0)
    expect(asked()).toEqual(['GET check-runs', 'PATCH check-update', 'POST check-create', 'PATCH check-update'])
    const [superseded, other, own] = checks()
    expect(superseded).toMatchObject({ id: killed, states: ['in_progress', 'cancelled'] })
    expect(superseded?.output.title).toBe('Cancelled: superseded by attempt 2')
    expect(superseded?.output.summary).toContain('superseded by attempt 2 of the workflow run')
    expect(other?.status).toBe('in_progress')
    expect(own).toMatchObject({ external_id: 'docs-agent-action:5001:2', states: ['in_progress', 'success'] })
    expect(result.at('info')).toContain(
      "Check run 'Docs agent' of an earlier attempt completed: cancelled, superseded by attempt 2."
    )
  })

  it('a lost create finds only its own attempt’s check, never an earlier attempt’s', async () => {
    github.addCheckRun(APP, {
      name: 'Docs agent',
      head_sha: HEAD,
      status: 'in_progress',
      external_id: 'docs-agent-action:5001'
    })
    github.fail('check-create', { kind: 'status', status: 502, effect: true })
    const result = await run({}, { attempt: '3' })
    expect(result.code).toBe(0)
    expect(checks().map((check) => [check.external_id, check.states])).toEqual([
      ['docs-agent-action:5001', ['in_progress', 'cancelled']],
      ['docs-agent-action:5001:3', ['in_progress', 'success']]
    ])
    expect(result.outputs['check-run-id']).toBe(String(checks()[1]?.id))
  })

  it.each([
    ['a 502', { kind: 'status' as const, status: 502 }],
    ['a lost connection', { kind: 'reset' as const }]
  ])('the final PATCH after %s is sent once more: it sets a fixed state', async (_, fault) => {
    github.fail('check-update', fault)
    const result = await run()
    expect(result.code).toBe(0)
    expect(asked()).toEqual(['POST check-create', 'PATCH check-update', 'PATCH check-update'])
    expect(checks().map((check) => check.states)).toEqual([['in_progress', 'success']])
    expect(result.at('warning')).toEqual([])
  })

  it('a final PATCH that fails twice with a 5xx: one warning naming GitHub, not checks: write', async () => {
    github.fail('check-update', { kind: 'status', status: 503 }, { kind: 'status', status: 503 })
    const result = await run()
    expect(result.code).toBe(0)
    expect(result.at('warning')).toEqual([
      expect.stringMatching(
        /^Could not complete the check run 'Docs agent' \(HTTP 503\): GitHub failed .*not a missing permission/
      )
    ])
    expect(result.at('warning')[0]).not.toContain('checks: write')
  })

  it('a 403 for a personal access token says check runs need the workflow’s or an App’s token', async () => {
    github.fail('check-create', {
      kind: 'status',
      status: 403,
      message: 'Resource not accessible by personal access token'
    })
    const result = await run()
    expect(result.code).toBe(0)
    expect(result.at('warning')).toEqual([
      expect.stringContaining(
        "Check runs need the workflow's token (github.token) or a GitHub App's token: a personal access token cannot make them"
      )
    ])
    expect(result.at('warning')[0]).not.toContain('checks: write')
  })

  it('a pull request’s head GitHub will not read: one warning naming pull-requests: read', async () => {
    github.fail('pull', { kind: 'status', status: 403, message: 'Resource not accessible by integration' })
    const comment = {
      action: 'created',
      issue: { number: 7, pull_request: { url: `https://api.github.com/repos/${APP}/pulls/7` } },
      comment: { id: 1, body: 'hello', user: { login: 'mona' } }
    }
    const result = await run({}, { event: 'issue_comment', payload: comment })
    expect(checks()).toEqual([])
    expect(result.at('warning')).toEqual([
      expect.stringMatching(
        /^Could not read the commit for the check run 'Docs agent' \(HTTP 403\).*needs pull-requests: read/
      )
    ])
  })

  it('a run nobody permitted completes its check as skipped, with why: a required check never waits', async () => {
    const result = await run({}, { event: 'pull_request_target', actor: 'rita' })
    expect(result.outputs['not-permitted']).toBe('true')
    expect(step.requests('create')).toHaveLength(0)
    expect(asked()).toEqual(['POST check-create'])
    const [check] = checks()
    expect(check).toMatchObject({ head_sha: HEAD, states: ['skipped'] })
    expect(check?.output.summary).toMatch(/^\*\*Docs agent:\*\* skipped, no job started: `.*rita/)
    expect(result.outputs['check-run-id']).toBe(String(check?.id))
  })
})
