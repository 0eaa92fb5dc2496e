/**
 * Grouping as a user relies on it, in-process through `main` against the Agent API simulator and
 * the fake GitHub on a virtual clock: runs of one group share one open docs pull request, across
 * refs and events; what ends a group; refusals; copies; unreadable state; ranges of pushes.
 */
import { describe, expect, it } from '@jest/globals'
import { GITHUB_TOKEN, MemoryRecords, type StepRun } from '../../scripts/in-process.js'
import { eventOf } from '../fixtures/github.js'
import { APP, DOCS, usePullRequest } from '../fixtures/pull-request.js'

const KEY = 'mint_group_key_0123456789abcdef'
const PROJECT = 'proj-group'
const GROUP = { group: 'merged-prs', 'docs-repository': DOCS, prompt: 'Document this change' }

describe('one docs pull request for a group of runs', () => {
  const { step, github, env } = usePullRequest({
    key: KEY,
    project: PROJECT,
    inputs: GROUP,
    scenario: { runMs: 3000 },
    installation: true,
    repos: [APP, DOCS],
    changes: true,
    docs: true
  })
  const virtual = step.virtual

  let runId = 7000
  const pullEvent = (number: number) => ({
    event: 'pull_request',
    ref: `refs/pull/${number}/merge`,
    payload: {
      action: 'closed',
      pull_request: {
        number,
        title: `Change ${number}`,
        body: 'Body',
        merged: true,
        user: { login: 'mona' },
        head: { ref: `b${number}`, repo: { full_name: APP } },
        base: { ref: 'main', repo: { full_name: APP } },
        html_url: `https://github.com/${APP}/pull/${number}`
      }
    }
  })
  const run = (
    trigger: { event: string; ref: string; payload: unknown; sha?: string },
    inputs: Record<string, string> = {},
    options: { records?: MemoryRecords; rerun?: boolean } = {}
  ): Promise<StepRun> => {
    const event = eventOf(trigger.event, trigger.payload)
    return step.run(inputs, {
      env: env({
        ...event.env,
        GITHUB_REF: trigger.ref,
        GITHUB_REF_NAME: trigger.ref.replace(/^refs\/(heads|tags)\//, ''),
        ...(trigger.ref.startsWith('refs/tags/') ? { GITHUB_REF_TYPE: 'tag' } : {}),
        ...(trigger.sha ? { GITHUB_SHA: trigger.sha } : {}),
        GITHUB_ACTOR: 'mona',
        // "Re-run jobs": the same run, its next attempt.
        GITHUB_RUN_ID: String(options.rerun ? runId : ++runId),
        GITHUB_RUN_ATTEMPT: options.rerun ? '2' : '1'
      }),
      files: event.files,
      records: options.records
    })
  }
  const agent = (op: 'create' | 'message') => step.requests(op)
  const docsComments = (number: string | undefined) => github().commentsOf(DOCS, Number(number))
  // mona's `/docs` comment `id` on her merged pull request #41.
  const docsCommand = (id: number) => ({
    event: 'issue_comment',
    ref: 'refs/heads/main',
    payload: {
      action: 'created',
      issue: { number: 41, title: 'Change 41', body: '', user: { login: 'mona' }, pull_request: { url: 'x' } },
      comment: { id, body: '/docs fix the example', user: { login: 'mona', type: 'User' } }
    }
  })
  const groupComment = (number: string | undefined) =>
    docsComments(number).find((c) => c.body.includes('docs-agent-action:group'))?.body ?? ''

  it('three merged pull requests on three refs make one job, two follow-ups and one docs pull request listing all three', async () => {
    const first = await run(pullEvent(41))
    expect([first.code, first.outputs.grouped]).toEqual([0, 'false'])
    const github1 = github().requests.map((r) => `${r.method} ${r.route} ${r.repo ?? ''}`)
    github().requests.length = 0
    const second = await run(pullEvent(43))
    const github2 = github().requests.map((r) => `${r.method} ${r.route} ${r.repo ?? ''}`)
    // Its pull request's comment shows the group's job from the moment the run targets it, before
    // the follow-up is answered (no status read yet), and with the group's docs pull request.
    const [targeted] = github()
      .requests.filter((r) => r.route === 'comment-create' && r.repo === 'acme/app')
      .map((r) => (JSON.parse(r.body) as { body: string }).body)
    expect(targeted).toContain(`job \`${first.outputs['job-id'] ?? ''}\` · [workflow run]`)
    // Once for the job (its answer adds nothing), then for its change.
    expect(second.at('debug').filter((line) => line.startsWith('Progress:'))).toEqual([
      `Progress: job ${first.outputs['job-id'] ?? ''} unknown`,
      expect.stringMatching(/ completed, docs pull request https:/)
    ])
    expect(targeted).toContain(
      `This change was added to the open docs pull request [acme/docs#${first.outputs['pr-number'] ?? ''}]`
    )
    const third = await run(pullEvent(45))
    expect([second.code, third.code]).toEqual([0, 0])
    expect([second.outputs.grouped, third.outputs.grouped]).toEqual(['true', 'true'])
    expect(new Set([first, second, third].map((r) => r.outputs['job-id'])).size).toBe(1)
    expect(new Set([first, second, third].map((r) => r.outputs['pr-link'])).size).toBe(1)
    expect([agent('create').length, agent('message').length]).toEqual([1, 2])
    // Each repository's requests in order (the pull request's progress goes on beside the group's record).
    const of = (requests: string[], repo: string) =>
      requests.filter((r) => / pulls? |comment/.test(r) && r.endsWith(repo))
    // The first run: no group PR yet (one list of open PRs, then the new PR's comments), then its comment,
    // then the list again.
    expect(of(github1, 'acme/docs')).toEqual([
      'GET pulls acme/docs',
      'GET comments acme/docs',
      'POST comment-create acme/docs',
      // Another open pull request of the group (a run at the same time)? None: its own is not read.
      'GET pulls acme/docs'
    ])
    // Its pull request's comment: the started state, the job's change, the end (each update reads
    // the comment again: another run may have written it since).
    expect(of(github1, 'acme/app')).toEqual([
      'GET comments acme/app',
      'POST comment-create acme/app',
      'GET comments acme/app',
      'GET comments acme/app',
      'PATCH comment-update acme/app',
      'GET comments acme/app',
      'PATCH comment-update acme/app'
    ])
    // A grouped run: the list, the group PR's comments; after the wait, its comments again (another
    // run of the group may have written the record meanwhile), the update in place, then the pull request.
    expect(of(github2, 'acme/docs')).toEqual([
      'GET pulls acme/docs',
      'GET comments acme/docs',
      'GET comments acme/docs',
      'PATCH comment-update acme/docs',
      // Still open after the follow-up?
      'GET pull acme/docs'
    ])
    expect(of(github2, 'acme/app')).toEqual([
      'GET comments acme/app',
      'POST comment-create acme/app',
      'GET comments acme/app',
      'GET comments acme/app',
      'PATCH comment-update acme/app',
      'GET comments acme/app',
      'PATCH comment-update acme/app'
    ])
    const number = first.outputs['pr-number']
    expect(docsComments(number)).toHaveLength(1)
    const body = groupComment(number)
    expect(body).toContain('Sources (3), oldest first:')
    for (const n of [41, 43, 45])
      expect(body).toContain(`pull request [acme/app#${n}](https://github.com/acme/app/pull/${n})`)
    expect(body).toContain('· started the job')
    expect(body.match(/added by a follow-up/g)).toHaveLength(2)
    // The follow-up carries what a new job would get, after one line saying where it goes.
    const [, followUp] = virtual().sim.jobs(PROJECT)[0]?.prompts ?? []
    expect(followUp).toMatch(
      new RegExp(
        `^This request adds to the open docs pull request acme/docs#${number} \\(https://github.com/acme/docs/pull/${number}\\)`
      )
    )
    expect(followUp).toContain('Document this change')
    expect(followUp).toContain('#43')
    expect(second.summary).toContain('<code>merged-prs</code>: added to its open docs pull request')
    // The Branch row is the group's docs pull request's head branch, as read from GitHub.
    const job = first.outputs['job-id'] ?? ''
    expect(second.summary).toContain(`<tr><th align="left">Branch</th><td><code>mintlify/${job}</code></td></tr>`)
    expect(first.summary).toContain('<code>merged-prs</code>: started a new job for it')
    // The triggering pull request's comment says its change was added.
    expect(github().commentsOf(APP, 43)[0]?.body).toContain(
      `This change was added to the open docs pull request [acme/docs#${number}](https://github.com/acme/docs/pull/${number}) of group \`merged-prs\`.`
    )
  })

  it('adds a release, run on its tag, to the same open docs pull request', async () => {
    const first = await run(pullEvent(41))
    const release = await run({
      event: 'release',
      ref: 'refs/tags/v1.2.0',
      payload: {
        action: 'published',
        release: {
          tag_name: 'v1.2.0',
          name: 'v1.2.0',
          body: 'Notes',
          html_url: 'https://github.com/acme/app/releases/tag/v1.2.0'
        }
      }
    })
    expect(release.outputs.grouped).toBe('true')
    expect(release.outputs['job-id']).toBe(first.outputs['job-id'])
    expect(groupComment(first.outputs['pr-number'])).toContain(
      'release [v1.2.0](https://github.com/acme/app/releases/tag/v1.2.0)'
    )
  })

  it.each(['merged', 'closed'] as const)('starts a new job once the docs pull request is %s', async (state) => {
    const first = await run(pullEvent(41))
    github().setPullState(DOCS, Number(first.outputs['pr-number']), state)
    const second = await run(pullEvent(43))
    expect(second.outputs.grouped).toBe('false')
    expect(second.outputs['job-id']).not.toBe(first.outputs['job-id'])
    expect([agent('create').length, agent('message').length]).toEqual([2, 0])
    expect(second.at('info').join('\n')).toContain(
      "Group merged-prs: no open pull request of acme/docs carries the group's record (0 open pull requests read, 1 GitHub request): a new job."
    )
  })

  it.each(['merged', 'closed'] as const)(
    'warns when the docs pull request is %s while the follow-up is being done, and the next run starts a new job',
    async (state) => {
      const first = await run(pullEvent(41))
      const number = Number(first.outputs['pr-number'])
      const sim = virtual().sim
      const agentPush = sim.onJobMessaged
      // A person merges (or closes) the docs pull request while the agent works on the follow-up.
      sim.onJobMessaged = (job) => {
        agentPush?.(job)
        github().setPullState(DOCS, number, state)
      }
      github().requests.length = 0
      const second = await run(pullEvent(43))
      sim.onJobMessaged = agentPush
      // The follow-up did go to the group's job: the outputs say so, and the warning says where its work may be.
      expect([second.code, second.outputs.grouped, second.outputs['pr-number']]).toEqual([0, 'true', String(number)])
      expect(second.at('warning')).toEqual([
        `Group merged-prs: acme/docs#${number} was ${state} while this run's follow-up was on its way or being done: what the agent did for it may be on that pull request's branch only, not in an open pull request. The next run of the group starts a new job and a new docs pull request.`
      ])
      const reads = github().requests.filter((r) => r.repo === DOCS && r.route === 'pull')
      expect(reads.map((r) => r.rawPath)).toEqual([`/repos/${DOCS}/pulls/${number}`])
      const third = await run(pullEvent(45))
      expect([third.outputs.grouped, agent('create').length]).toEqual(['false', 2])
    }
  )

  it("warns when the group's docs pull request may be older than the 30 newest open ones, whose comments alone are read", async () => {
    const first = await run(pullEvent(41))
    // A busy docs repository: 30 pull requests opened since (dependency updates, other groups).
    for (let n = 0; n < 30; n++)
      github().addPull(DOCS, { number: 500 + n, title: `Bump ${n}`, head: `bump-${n}`, base: 'main', files: [] })
    const second = await run(pullEvent(43))
    expect(second.outputs.grouped).toBe('false')
    expect(second.outputs['pr-number']).not.toBe(first.outputs['pr-number'])
    expect(second.at('warning')).toEqual([
      "Group merged-prs: acme/docs has at least 1 open pull request older than the 30 newest whose comments were not read; the group's docs pull request may be among those not read, and a new one is being opened. Merge or close the group's older docs pull requests, or the docs repository's stale ones."
    ])
  })

  it('starts a new job after a job that failed without a pull request, and follows up one that failed after a follow-up while its pull request stays open', async () => {
    virtual().sim.setScenario({ finalStatus: 'failed', pr: false })
    const failed = await run(pullEvent(41), { 'fail-on': 'none' })
    expect(failed.at('info').join('\n')).toContain('the job has no docs pull request yet, so the group keeps no record')
    virtual().sim.setScenario({ finalStatus: 'completed', pr: true })
    const first = await run(pullEvent(41))
    expect(first.outputs.grouped).toBe('false')
    virtual().sim.setScenario({ finalStatus: 'failed' })
    const failing = await run(pullEvent(43), { 'fail-on': 'none' })
    expect([failing.outputs.grouped, failing.outputs.status]).toEqual(['true', 'failed'])
    virtual().sim.setScenario({ finalStatus: 'completed' })
    const next = await run(pullEvent(45))
    expect([next.outputs.grouped, next.outputs['job-id']]).toEqual(['true', first.outputs['job-id']])
  })

  it('turns a refused follow-up into one warning and one new job, and the old pull request says it was superseded', async () => {
    const first = await run(pullEvent(41))
    virtual().sim.refuseFollowUpsToCompleted = true
    const second = await run(pullEvent(43))
    expect([second.code, second.outputs.grouped]).toEqual([0, 'false'])
    expect(second.at('warning')).toEqual([expect.stringContaining(`refused the follow-up (`) as unknown as string])
    expect([agent('create').length, agent('message').length]).toEqual([2, 1])
    // The new job got the full prompt, without the line about the old pull request.
    const created = virtual().sim.jobs(PROJECT)[1]?.prompts[0] ?? ''
    expect(created.startsWith('Document this change')).toBe(true)
    const oldNumber = first.outputs['pr-number']
    const newNumber = second.outputs['pr-number']
    expect(newNumber).not.toBe(oldNumber)
    expect(groupComment(oldNumber)).toContain(`**Superseded** by acme/docs#${newNumber ?? ''}`)
    virtual().sim.refuseFollowUpsToCompleted = false
    const third = await run(pullEvent(45))
    expect([third.outputs.grouped, third.outputs['job-id']]).toEqual(['true', second.outputs['job-id']])
  })

  it('two first runs at once: whichever records second warns once, and the older docs pull request says it was superseded by the newer', async () => {
    // A workflow without `concurrency:`: neither run finds a record, each starts a job.
    const both = await Promise.all([run(pullEvent(41)), run(pullEvent(43))])
    expect(both.map((r) => [r.code, r.outputs.grouped])).toEqual([
      [0, 'false'],
      [0, 'false']
    ])
    const [older = 0, newer = 0] = both.map((r) => Number(r.outputs['pr-number'])).sort((a, b) => a - b)
    expect(older).not.toBe(newer)
    // Whichever records second says so, once; when both record at the same moment, both do.
    const warnings = both.flatMap((r) => r.at('warning'))
    expect(both.map((r) => r.at('warning').length).sort()).toEqual(warnings.length === 1 ? [0, 1] : [1, 1])
    expect(warnings[0]).toEqual(
      expect.stringMatching(
        new RegExp(
          `^Group merged-prs: another open docs pull request, acme/docs#(${older}|${newer}), carries the group's record besides this run's new acme/docs#(${older}|${newer}): two runs of the group ran at once \\(or this run's lookup could not read it\\)\\. acme/docs#${older} now says it was superseded by #${newer}, .* Give the job a \`concurrency:\` group of its own with cancel-in-progress: false and queue: max`
        )
      )
    )
    expect(groupComment(String(older))).toContain(`**Superseded** by acme/docs#${newer}`)
    expect(groupComment(String(newer))).not.toContain('Superseded')
    const third = await run(pullEvent(45))
    expect([third.outputs.grouped, third.outputs['pr-number']]).toEqual(['true', String(newer)])
  })

  it('never creates after a follow-up that may have taken effect', async () => {
    await run(pullEvent(41))
    virtual().sim.fail('message', { kind: 'status', status: 502, effect: true })
    const second = await run(pullEvent(43))
    expect(second.code).toBe(1)
    expect(second.outputs.grouped).toBe('true')
    expect([agent('create').length, agent('message').length]).toEqual([1, 1])
  })

  it("ignores a copy of the group's record written by anyone else, with a warning, and starts a new job", async () => {
    const first = await run(pullEvent(41))
    const number = Number(first.outputs['pr-number'])
    const original = github().commentsOf(DOCS, number)[0]
    const copy = original?.body ?? ''
    // Mallory removes nothing, but pastes the record on a newer pull request of hers.
    github().addPull(DOCS, {
      number: 900,
      title: 'Mine',
      head: 'mine',
      base: 'main',
      files: [],
      user: { login: 'mallory' }
    })
    github().addComment(DOCS, 900, { body: copy, user: { login: 'mallory' } })
    const second = await run(pullEvent(43))
    // The pasted copy is not followed; the real record on the older pull request still is.
    expect(second.outputs.grouped).toBe('true')
    expect(second.outputs['pr-number']).toBe(String(number))
    // With the action's own comment gone, only her copy on the group's pull request is left.
    await github_delete(number)
    github().addComment(DOCS, number, { body: copy, user: { login: 'mallory' } })
    const third = await run(pullEvent(45))
    expect(third.outputs.grouped).toBe('false')
    expect(third.at('warning').join('\n')).toContain(`ignored a copy of the record by mallory on acme/docs#${number}`)
  })

  async function github_delete(number: number): Promise<void> {
    const own = github()
      .commentsOf(DOCS, number)
      .find((c) => c.author === 'github-actions[bot]')
    const res = await fetch(`${github().url}/repos/${DOCS}/issues/comments/${own?.id ?? 0}`, {
      method: 'DELETE',
      headers: { authorization: `token ${GITHUB_TOKEN}` }
    })
    expect(res.status).toBe(204)
  }

  it('without a docs token: one warning and a new job', async () => {
    await run(pullEvent(41))
    // A release run: a pull_request run without a token could not read its actor's permission, and starts nothing.
    const release = {
      tag_name: 'v1.2.0',
      name: 'v1.2.0',
      body: 'Notes',
      html_url: `https://github.com/${APP}/releases/tag/v1.2.0`
    }
    const second = await run(
      { event: 'release', ref: 'refs/tags/v1.2.0', payload: { action: 'published', release } },
      { 'github-token': '' }
    )
    expect(second.outputs.grouped).toBe('false')
    expect(second.at('warning').filter((line) => line.startsWith('Group'))).toEqual([
      "Group merged-prs: no token (docs-token, github-token) to read acme/docs, so the state of the group's docs pull request is unknown: a new job is started."
    ])
    expect(agent('message')).toHaveLength(0)
  })

  it('retries a read of the docs pull requests that failed with a 5xx; one that keeps failing is one warning and a new job', async () => {
    await run(pullEvent(41))
    github().fail('pulls', { kind: 'status', status: 502 })
    github().requests.length = 0
    const retried = await run(pullEvent(43))
    expect(retried.outputs.grouped).toBe('true')
    // The requests of the lookup, the retry among them: the list twice, then the group's pull request's
    // comments; then, before the record is written, its comments again.
    const lookup = github().requests.filter(
      (r) => r.repo === DOCS && r.method === 'GET' && /^(pulls|comments)$/.test(r.route)
    )
    expect(lookup.map((r) => r.route)).toEqual(['pulls', 'pulls', 'comments', 'comments'])
    expect(retried.at('info')).toContainEqual(
      expect.stringMatching(/^Group merged-prs: adding to .* \(3 GitHub requests\)\.$/)
    )
    github().failAlways('pulls', { kind: 'status', status: 500 })
    const failing = await run(pullEvent(45))
    github().failAlways('pulls', null)
    expect(failing.outputs.grouped).toBe('false')
    expect(failing.at('warning')).toEqual([
      expect.stringMatching(
        /could not read the open pull requests of acme\/docs \(HTTP 500.* The 'docs-token' input \(github-token when not given\) needs pull-requests: read on acme\/docs\.$/
      ) as unknown as string
    ])
    // The lookup's list and its 3 retries; then, after the new job's record, the same for another open pull request of the group.
    expect(github().requests.filter((r) => r.route === 'pulls' && r.answeredStatus === 500)).toHaveLength(2 * (1 + 3))
    expect([agent('create').length, agent('message').length]).toEqual([2, 1])
  })

  it("brings a cancelled pending push run's commits to the next grouped run", async () => {
    const [a = ''] = github().addCommits(APP, [{ message: 'feat: first push' }])
    const push = (sha: string, message: string) => ({
      event: 'push',
      ref: 'refs/heads/main',
      sha,
      payload: {
        compare: `https://github.com/acme/app/compare/x...${sha}`,
        commits: [{ id: sha, message, author: { username: 'mona' } }]
      }
    })
    const first = await run(push(a, 'feat: first push'))
    expect(first.outputs.grouped).toBe('false')
    // A second push's run was cancelled while pending; a third push's run goes ahead.
    const [, c = ''] = github().addCommits(APP, [
      { message: 'feat: the cancelled run' },
      { message: 'fix: the third push' }
    ])
    const third = await run(push(c, 'fix: the third push'))
    expect(third.outputs.grouped).toBe('true')
    const followUp = virtual().sim.jobs(PROJECT)[0]?.prompts[1] ?? ''
    expect(followUp).toContain(`changes since the group's last documented commit (${a.slice(0, 12)})`)
    expect(followUp).toContain('- feat: the cancelled run\n- fix: the third push')
    expect(groupComment(first.outputs['pr-number'])).toContain(`push [main @ ${c.slice(0, 7)}]`)
  })

  it('checks the inputs before any request', async () => {
    const missing = await run(pullEvent(41), { 'docs-repository': '' })
    const withJob = await run(pullEvent(41), { 'job-id': 'job_1' })
    expect([missing.code, withJob.code]).toEqual([1, 1])
    expect(missing.at('error')[0]).toContain("Input 'group': needs 'docs-repository'")
    expect(withJob.at('error')[0]).toContain("Input 'group': cannot be combined with 'job-id'")
    expect(virtual().sim.requests).toHaveLength(0)
    expect(github().requests).toHaveLength(0)
  })

  it('lets a /docs command keep its own target', async () => {
    const first = await run(pullEvent(41))
    github().requests.length = 0
    const command = await run(docsCommand(901), { prompt: '' })
    expect(command.outputs.command).toBe('follow-up')
    expect(command.outputs['job-id']).toBe(first.outputs['job-id'])
    expect(github().requests.filter((r) => r.route === 'pulls')).toHaveLength(0)
    expect(command.outputs.grouped).toBe('false')
  })

  it("a /docs command with link-back docs-pr leaves the group's comment, and the group goes on in it", async () => {
    const linkBack = { 'link-back': 'pull-request docs-pr' }
    const first = await run(pullEvent(41), linkBack)
    const number = first.outputs['pr-number']
    const before = docsComments(number).map((c) => c.body)
    expect(before.join('\n')).toContain('docs-agent-action:group')
    const command = await run(docsCommand(902), { prompt: '', ...linkBack })
    expect(command.outputs.command).toBe('follow-up')
    expect(docsComments(number).map((c) => c.body)).toEqual(before)
    const third = await run(pullEvent(43), linkBack)
    expect([agent('create').length, third.outputs.grouped, third.outputs['pr-number']]).toEqual([1, 'true', number])
  })

  it('says in a dry run which of the two it would do, and sends nothing', async () => {
    const dryFirst = await run(pullEvent(41), { 'dry-run': 'true' })
    expect(dryFirst.at('info')).toContain('Dry run: would start a new job for group merged-prs.')
    const first = await run(pullEvent(41))
    const dry = await run(pullEvent(43), { 'dry-run': 'true' })
    expect(dry.at('info')).toContain(
      `Dry run: would add to acme/docs#${first.outputs['pr-number'] ?? ''} with a follow-up to job ${first.outputs['job-id'] ?? ''}.`
    )
    expect(dry.summary).toContain('would add to its open docs pull request')
    expect(dry.outputs.grouped).toBe('false')
    expect(agent('message')).toHaveLength(0)
  })

  it('with link-back: docs-pr, the docs pull request gets one comment from the action, not two', async () => {
    const first = await run(pullEvent(41), { 'link-back': 'pull-request docs-pr' })
    await run(pullEvent(43), { 'link-back': 'pull-request docs-pr' })
    expect(docsComments(first.outputs['pr-number'])).toHaveLength(1)
  })

  it('a re-run of a grouped follow-up resumes it: the message is not sent again, and the outputs report the same job, grouped, with its prompt', async () => {
    const first = await run(pullEvent(41))
    const records = new MemoryRecords()
    const second = await run(pullEvent(43), {}, { records })
    expect(second.outputs.grouped).toBe('true')
    expect(records.keys).toHaveLength(1)
    const again = await run(pullEvent(43), {}, { records, rerun: true })
    expect(again.code).toBe(0)
    expect(again.at('warning')).toEqual([])
    expect(again.at('info')).toContain(`Resuming job ${second.outputs['job-id'] ?? ''} from attempt 1`)
    expect([agent('create').length, agent('message').length]).toEqual([1, 1])
    expect(again.outputs['job-id']).toBe(first.outputs['job-id'])
    expect(again.outputs['pr-link']).toBe(first.outputs['pr-link'])
    expect(again.outputs.grouped).toBe('true')
    expect(again.outputs.prompt).toMatch(/^This request adds to the open docs pull request acme\/docs#/)
    expect(again.outputs.prompt).toBe(second.outputs.prompt)
    expect(again.summary).toContain('<code>merged-prs</code>: added to its open docs pull request')
    // The group was looked up again for that, quietly: no line says a follow-up is being added.
    expect(again.at('info').join('\n')).not.toContain('adding to its open docs pull request')
  })

  it('a re-run of the grouped run that started the job resumes it as a created one, with its prompt', async () => {
    const records = new MemoryRecords()
    const first = await run(pullEvent(41), {}, { records })
    const again = await run(pullEvent(41), {}, { records, rerun: true })
    expect(again.at('info')).toContain(`Resuming job ${first.outputs['job-id'] ?? ''} from attempt 1`)
    expect([agent('create').length, agent('message').length]).toEqual([1, 0])
    expect(again.outputs.grouped).toBe('false')
    expect(again.outputs.prompt).toBe(first.outputs.prompt)
    expect(again.summary).toContain('<code>merged-prs</code>: started a new job for it')
  })
})
