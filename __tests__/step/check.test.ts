/**
 * `check`: a check run on the triggering commit, in-process through `main` against the simulator and
 * the fake GitHub on a virtual clock. Made in progress once the job exists, completed on every exit
 * path with the step's conclusion, found again by a re-run, and never the step's result.
 */
import { describe, expect, it } from '@jest/globals'
import { MemoryRecords } from '../../scripts/in-process.js'
import { APP, HEAD, RUN_URL, usePullRequest } from '../fixtures/pull-request.js'

describe('check run', () => {
  const KEY = 'mint_check_secret_key_0123456789'
  const PROJECT = 'proj-check'
  const { step, github, run, checks, checkRequests } = usePullRequest({
    key: KEY,
    project: PROJECT,
    prompt: 'Document this change',
    // Only the check: the link-back has its own scenarios (progress.test.ts).
    inputs: { check: 'Docs agent', 'link-back': 'none' },
    scenario: { runMs: 30_000 },
    pull: { sha: HEAD }
  })
  const virtual = step.virtual
  const sent = (route: 'check-create' | 'check-update') =>
    github()
      .requests.filter((r) => r.route === route)
      .map((r) => JSON.parse(r.body) as Record<string, unknown>)
  const cancelAt = (text: string, cancel: AbortController) => (_: string, message: string) => {
    if (message.startsWith(text)) cancel.abort()
  }

  it('goes on a merged pull request’s head in progress once the job exists, and ends success with its docs PR', async () => {
    const result = await run()
    expect(result.code).toBe(0)
    const job = result.outputs['job-id'] ?? ''
    const prLink = result.outputs['pr-link'] ?? ''
    const [check] = checks()
    expect(checks()).toHaveLength(1)
    expect(check).toMatchObject({
      name: 'Docs agent',
      head_sha: HEAD,
      external_id: 'docs-agent-action:5001:1',
      states: ['in_progress', 'success'],
      details_url: prLink
    })
    // Made in progress, with the job and the run (in the summary too: GitHub ignores details_url for the workflow token).
    const [made] = sent('check-create')
    expect(made).toMatchObject({
      name: 'Docs agent',
      head_sha: HEAD,
      status: 'in_progress',
      details_url: RUN_URL,
      output: { title: `Docs agent working on job ${job}` }
    })
    const summary = (made?.output as { summary: string }).summary
    expect(summary).toContain(`job \`${job}\``)
    expect(summary).toContain(`[workflow run](${RUN_URL})`)
    expect(summary).toMatch(/^\*\*Docs agent:\*\* working on the docs\./)
    // Completed: the docs PR in the title, the summary and details_url.
    expect(check?.output.title).toBe(`Docs pull request acme/docs#${result.outputs['pr-number'] ?? ''}`)
    expect(check?.output.summary).toContain(`[acme/docs#${result.outputs['pr-number'] ?? ''}](${prLink})`)
    expect(check?.output.summary).toMatch(
      new RegExp(
        `^\\*\\*Docs agent:\\*\\* docs pull request \\[acme/docs#\\d+\\]\\([^)]+\\)\\n\\njob \`${job}\` · status \`completed\` · \\[workflow run\\]`
      )
    )
    expect(checkRequests()).toEqual(['POST check-create', 'PATCH check-update'])
    expect(result.outputs['check-run-id']).toBe(String(check?.id))
    expect(result.events.filter((event) => event === 'output check-run-id').length).toBeGreaterThanOrEqual(1)
    expect(result.summary).toContain(
      `<tr><th align="left">Check</th><td><a href="https://github.com/acme/app/runs/${check?.id ?? ''}">Docs agent</a>: <code>success</code></td></tr>`
    )
    expect(result.at('info')).toContain("Check run 'Docs agent' completed: success.")
    expect(result.at('warning')).toEqual([])
    // Made long before the end: the summary did not wait for it.
    expect(result.at('debug').filter((line) => line.includes('still being made'))).toEqual([])
  })

  it.each<[string, Record<string, unknown>, Record<string, string>, string, number]>([
    ['completed without a docs PR', { pr: false }, {}, 'neutral', 0],
    ['completed without a docs PR, fail-on no-pr', { pr: false }, { 'fail-on': 'no-pr' }, 'failure', 1],
    ['the job failed', { finalStatus: 'failed', pr: false }, {}, 'failure', 1],
    [
      'the job failed, and fail-on lets it pass',
      { finalStatus: 'failed', pr: false },
      { 'fail-on': 'none' },
      'neutral',
      0
    ],
    ['the timeout ended the wait', { runMs: 600_000 }, { timeout: '1m' }, 'timed_out', 1],
    ['the timeout, and fail-on lets it pass', { runMs: 600_000 }, { timeout: '1m', 'fail-on': 'failed' }, 'neutral', 0],
    ['not waited for (wait: false)', {}, { wait: 'false' }, 'neutral', 0]
  ])('%s: %p', async (_, scenario, inputs, conclusion, code) => {
    virtual().sim.setScenario(scenario)
    const result = await run(inputs)
    expect(result.code).toBe(code)
    expect(checks().map((check) => check.states)).toEqual([['in_progress', conclusion]])
    expect(checks()[0]?.details_url).toBe(RUN_URL)
    expect(result.summary).toContain(`Docs agent</a>: <code>${conclusion}</code>`)
  })

  it('a thrown error: failure, with what happened and no secret in it', async () => {
    virtual().sim.failAlways('get', { kind: 'echoAuth', status: 400 })
    const result = await run()
    expect(result.code).toBe(1)
    const [check] = checks()
    expect(check?.states).toEqual(['in_progress', 'failure'])
    expect(check?.output.title).toBe('❌ Docs agent step failed')
    expect(check?.output.summary).toContain('What happened: `')
    expect(check?.output.summary).toContain('Bearer ***')
    expect(JSON.stringify(github().requests.map((r) => r.body))).not.toContain(KEY)
  })

  it('the runner’s cancel between the create and the first poll: cancelled', async () => {
    const cancel = new AbortController()
    const result = await run({}, { cancel, onLine: cancelAt('Job id:', cancel) })
    expect(result.code).toBe(1)
    expect(step.requests('get')).toHaveLength(0)
    expect(checks().map((check) => check.states)).toEqual([['in_progress', 'cancelled']])
    expect(checks()[0]?.output.title).toBe('🛑 Docs agent step cancelled')
    expect(checks()[0]?.output.summary).toContain(`job-id: ${result.outputs['job-id'] ?? ''}`)
    expect(result.outputs['check-run-id']).toBe(String(checks()[0]?.id))
  })

  it.each([
    ['a 502 after it was made', { kind: 'status' as const, status: 502, effect: true }],
    ['a connection lost after it was made', { kind: 'reset' as const, effect: true }]
  ])('a failed create after the check was made (%s): found by its external id and completed', async (_, fault) => {
    github().fail('check-create', fault)
    const result = await run()
    expect(result.code).toBe(0)
    expect(checks().map((check) => check.states)).toEqual([['in_progress', 'success']])
    expect(checkRequests()).toEqual(['POST check-create', 'GET check-runs', 'PATCH check-update'])
    expect(result.outputs['check-run-id']).toBe(String(checks()[0]?.id))
    expect(result.at('warning')).toEqual([])
  })

  it('a failed create that was not made: looked for once, one warning, the step unchanged', async () => {
    github().fail('check-create', { kind: 'status', status: 502 })
    const result = await run()
    expect(result.code).toBe(0)
    expect(result.outputs.status).toBe('completed')
    expect(checks()).toEqual([])
    expect(checkRequests()).toEqual(['POST check-create', 'GET check-runs'])
    expect(result.at('warning')).toEqual([
      "Could not create the check run 'Docs agent': GitHub did not answer, and it is not there."
    ])
  })

  it('a re-run of the workflow run makes a check of its own: the first one, completed, is final on GitHub', async () => {
    const records = new MemoryRecords(true)
    const cancel = step.cancelAtRequest('get', 2)
    const first = await run({}, { records, cancel })
    expect(first.code).toBe(1)
    expect(checks().map((check) => check.states)).toEqual([['in_progress', 'cancelled']])
    virtual().sim.onRequest = undefined
    github().requests.length = 0
    const again = await run({}, { records, attempt: '2' })
    expect(again.code).toBe(0)
    expect(again.at('info')).toContain(`Resuming job ${first.outputs['job-id'] ?? ''} from attempt 1`)
    expect(checks().map((check) => check.states)).toEqual([
      ['in_progress', 'cancelled'],
      ['in_progress', 'success']
    ])
    expect(checks().map((check) => check.external_id)).toEqual(['docs-agent-action:5001:1', 'docs-agent-action:5001:2'])
    expect(checkRequests()).toEqual(['GET check-runs', 'POST check-create', 'PATCH check-update'])
    expect(again.outputs['check-run-id']).toBe(String(checks()[1]?.id))
    // Another workflow run on the same commit has a check of its own.
    await run({}, { records, runId: '5002' })
    expect(checks()).toHaveLength(3)
  })

  it('wait: false, then a wait-only step of the same workflow run: the wait makes a check of its own', async () => {
    const start = await run({ wait: 'false' })
    const job = start.outputs['job-id'] ?? ''
    expect(checks().map((check) => check.states)).toEqual([['in_progress', 'neutral']])
    expect(checks()[0]?.output.summary).toContain(`a later step that waits for it (\`job-id: ${job}\` and no prompt)`)
    const waited = await run({ 'job-id': job, prompt: '' })
    expect(waited.code).toBe(0)
    expect(checks().map((check) => check.states)).toEqual([
      ['in_progress', 'neutral'],
      ['in_progress', 'success']
    ])
    expect(checks()[1]?.external_id).toBe('docs-agent-action:5001:1:wait')
    expect(waited.outputs['check-run-id']).toBe(String(checks()[1]?.id))
    expect(waited.outputs['check-run-id']).not.toBe(start.outputs['check-run-id'])
  })

  it.each([
    [
      '403',
      403,
      'create',
      /^Could not create the check run 'Docs agent' \(HTTP 403\): .*needs checks: write; the outputs are unchanged\.$/
    ],
    [
      '404',
      404,
      'update',
      /^Could not complete the check run 'Docs agent' \(HTTP 404\): Not Found.*; the outputs are unchanged\.$/
    ],
    [
      '422',
      422,
      'update',
      /^Could not complete the check run 'Docs agent' \(HTTP 422\): .*; the outputs are unchanged\.$/
    ]
  ])('GitHub answers %s: one warning, and the step and its outputs unchanged', async (_, status, route, warning) => {
    github().fail(route === 'create' ? 'check-create' : 'check-update', { kind: 'status', status })
    const result = await run()
    expect(result.code).toBe(0)
    expect(result.outputs).toMatchObject({ status: 'completed', 'timed-out': 'false' })
    expect(result.outputs['pr-link']).toMatch(/^https:/)
    expect(result.at('warning')).toEqual([expect.stringMatching(warning)])
    expect(result.at('warning')[0]?.includes('checks: write')).toBe(status === 403)
    expect(checkRequests()).toEqual(
      route === 'create' ? ['POST check-create'] : ['POST check-create', 'PATCH check-update']
    )
    if (route === 'create') {
      expect(result.outputs['check-run-id']).toBe('')
      expect(result.summary).toContain('<code>Docs agent</code>: no check run (see the log)')
    }
  })

  it('a docs PR known before a time-out: timed_out, its title the ending, its details the run', async () => {
    virtual().sim.setScenario({ runMs: 600_000, record: { prLink: 'https://github.com/acme/docs/pull/9' } })
    const result = await run({ timeout: '1m' })
    expect(result.code).toBe(1)
    const [check] = checks()
    expect(check?.states).toEqual(['in_progress', 'timed_out'])
    expect(check?.output.title).toBe('⏱️ Timed out waiting for the docs agent')
    expect(sent('check-update')[0]).toMatchObject({ details_url: RUN_URL })
  })

  it('no job, no check: a create the API refuses leaves no Check row', async () => {
    virtual().sim.fail('create', { kind: 'status', status: 400 })
    const result = await run()
    expect(result.code).toBe(1)
    expect(checkRequests()).toEqual([])
    expect(result.outputs['check-run-id']).toBe('')
    expect(result.summary).not.toContain('Check')
  })

  it('a wait-only step looks once for an earlier check left in progress, then makes its own', async () => {
    virtual().sim.addJob(PROJECT, { id: 'job_given', status: 'completed' })
    const result = await run({ 'job-id': 'job_given', prompt: '' })
    expect(result.code).toBe(0)
    expect(checkRequests()).toEqual(['GET check-runs', 'POST check-create', 'PATCH check-update'])
    expect(checks().map((check) => check.states)).toEqual([['in_progress', 'success']])
  })

  it('outside a workflow run (no run id): made without an external id, never looked for', async () => {
    const result = await run({}, { runId: '', attempt: '2' })
    expect(result.code).toBe(0)
    expect(checkRequests()).toEqual(['POST check-create', 'PATCH check-update'])
    expect(sent('check-create')[0]).not.toHaveProperty('external_id')
    expect(sent('check-create')[0]).not.toHaveProperty('details_url')
    // A create lost on the way cannot be found again without one: one warning.
    github().requests.length = 0
    github().fail('check-create', { kind: 'status', status: 502, effect: true })
    const lost = await run({}, { runId: '' })
    expect(checkRequests()).toEqual(['POST check-create'])
    expect(lost.at('warning')).toEqual([
      expect.stringMatching(/^Could not create the check run 'Docs agent' \(HTTP 502\)/)
    ])
  })

  it('makes none in a dry run, nor on an input error (nothing is sent)', async () => {
    const dry = await run({ 'dry-run': 'true' })
    expect(dry.at('notice')).toContain("Input 'check' is set, but this is a dry run: no check run is made.")
    const bad = await run({ check: `Docs\nagent` })
    expect(bad.code).toBe(1)
    expect(bad.at('error')).toEqual([
      "Input 'check': expected a check run's name on one line, at most 100 characters (such as Docs agent), or empty for none."
    ])
    const long = await run({ check: 'x'.repeat(101) })
    expect(long.code).toBe(1)
    expect(await run({ timeout: '10min' })).toMatchObject({ code: 1 })
    expect(checkRequests()).toEqual([])
    expect(step.requests('create')).toHaveLength(0)
  })

  it('makes none without a token, with one warning', async () => {
    const result = await run({ 'github-token': '' }, { event: 'push', payload: { commits: [] } })
    expect(result.code).toBe(0)
    expect(result.at('warning')).toEqual(["Input 'check' is set, but 'github-token' is empty: no check run is made."])
    expect(github().requests).toEqual([])
  })

  describe('the commit it goes on', () => {
    const comment = {
      action: 'created',
      issue: { number: 7, title: 'Add --dry-run', user: { login: 'mona' }, pull_request: { url: 'x' } },
      comment: { id: 900, body: '/docs Document the flag', user: { login: 'mona', type: 'User' } }
    }

    it('a comment on a pull request: its head, read from the pull request', async () => {
      const result = await run({ prompt: '' }, { event: 'issue_comment', payload: comment })
      expect(result.outputs.command).toBe('create')
      expect(checks().map((check) => [check.head_sha, check.states])).toEqual([[HEAD, ['in_progress', 'success']]])
      expect(
        github()
          .requests.filter((r) => r.route === 'pull')
          .map((r) => r.rawPath)
      ).toEqual(['/repos/acme/app/pulls/7'])
    })

    it.each([
      ['an annotated tag', { annotated: { message: 'v2' } }, ['GET ref', 'GET tag-object']],
      ['a lightweight tag', {}, ['GET ref']]
    ])('%s: the commit it points to', async (_, tag, reads) => {
      const [commit = ''] = github().addCommits(APP, [{ message: 'Release 2.0.0' }])
      github().addTag(APP, { name: 'v2.0.0', at: commit, ...tag })
      const env = {
        GITHUB_REF: 'refs/tags/v2.0.0',
        GITHUB_REF_TYPE: 'tag',
        GITHUB_REF_NAME: 'v2.0.0',
        GITHUB_SHA: 'f'.repeat(40)
      }
      const result = await run({ context: 'none' }, { event: 'push', payload: {}, env })
      expect(result.code).toBe(0)
      expect(checks().map((check) => check.head_sha)).toEqual([commit])
      expect(
        github()
          .requests.filter((r) => r.route === 'ref' || r.route === 'tag-object')
          .map((r) => `${r.method} ${r.route}`)
      ).toEqual(reads)
    })

    it('a push to a branch: GITHUB_SHA', async () => {
      const [commit = ''] = github().addCommits(APP, [{ message: 'Add export' }])
      const env = { GITHUB_REF: 'refs/heads/main', GITHUB_SHA: commit }
      await run({}, { event: 'push', payload: { commits: [] }, env })
      expect(checks().map((check) => check.head_sha)).toEqual([commit])
      expect(github().requests.filter((r) => r.route === 'ref' || r.route === 'pull')).toEqual([])
    })

    // GitHub: on workflow_run, GITHUB_SHA and GITHUB_REF are the default branch's last commit and ref
    // (docs.github.com/actions/reference/events-that-trigger-workflows#workflow_run); the commit
    // the triggering run was for is the payload's workflow_run.head_sha.
    it("workflow_run: the triggering run's head commit, not the default branch's", async () => {
      const [main = ''] = github().addCommits(APP, [{ message: 'Main moved on' }])
      const env = { GITHUB_REF: 'refs/heads/main', GITHUB_REF_NAME: 'main', GITHUB_SHA: main }
      const payload = {
        action: 'completed',
        workflow_run: { id: 77, event: 'pull_request', head_branch: 'dry', head_sha: HEAD, conclusion: 'success' }
      }
      const result = await run({}, { event: 'workflow_run', payload, env })
      expect(result.code).toBe(0)
      expect(checks().map((check) => check.head_sha)).toEqual([HEAD])
    })

    it('a tag GitHub cannot read: GITHUB_SHA', async () => {
      const [commit = ''] = github().addCommits(APP, [{ message: 'Release 3.0.0' }])
      const env = {
        GITHUB_REF: 'refs/tags/v3.0.0',
        GITHUB_REF_TYPE: 'tag',
        GITHUB_REF_NAME: 'v3.0.0',
        GITHUB_SHA: commit
      }
      await run({ context: 'none' }, { event: 'push', payload: {}, env })
      expect(checks().map((check) => check.head_sha)).toEqual([commit])
    })

    it('a push whose GITHUB_SHA GitHub does not know: one warning (422)', async () => {
      const env = { GITHUB_REF: 'refs/heads/main', GITHUB_SHA: 'e'.repeat(40) }
      const result = await run({}, { event: 'push', payload: { commits: [] }, env })
      expect(result.code).toBe(0)
      expect(result.at('warning')).toEqual([
        expect.stringMatching(
          /^Could not create the check run 'Docs agent' \(HTTP 422\): Invalid request\. No commit found for SHA/
        )
      ])
      expect(checks()).toEqual([])
    })

    it('no commit known (no GITHUB_SHA outside a pull request or tag): one warning, no request', async () => {
      const result = await run({}, { event: 'workflow_dispatch', payload: {} })
      expect(result.at('warning')).toEqual([
        "No check run 'Docs agent': the commit this run is for is not known (GITHUB_SHA is empty)."
      ])
      expect(checkRequests()).toEqual([])
    })
  })
})
