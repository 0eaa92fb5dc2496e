/**
 * The progress on GitHub while the job runs, in-process through `main` against the simulator and the
 * fake GitHub on a virtual clock: the link-back comment, the release notes' block and the docs pull
 * request's comment are written once the job exists, once for each change of its status or docs
 * pull request, and once more at the end; never once per poll.
 */
import { describe, expect, it } from '@jest/globals'
import { GITHUB_TOKEN, MemoryRecords } from '../../scripts/in-process.js'
import { GitHubClient } from '../../src/github/client.js'
import { commentBody, decodeMarker, markerKey } from '../../src/github/conversation/marker.js'
import { LinkBackThread } from '../../src/github/conversation/thread.js'
import { APP, DOCS, RUN_URL, usePullRequest } from '../fixtures/pull-request.js'

describe('progress', () => {
  const KEY = 'mint_progress_secret_key_0123456789'
  const PROJECT = 'proj-progress'
  const SEAL = { key: markerKey(KEY), repository: APP, number: 7 }
  const { step, github, run } = usePullRequest({
    key: KEY,
    project: PROJECT,
    prompt: 'Document this change',
    scenario: { runMs: 120_000 },
    repos: [DOCS],
    pull: { merged: true, payload: { html_url: 'https://github.com/acme/app/pull/7' } }
  })
  const virtual = step.virtual
  const comments = (repo = APP, number = 7) => github().commentsOf(repo, number)
  /** The bodies written into comments of `repo` (creates and updates), in order. */
  const written = (repo = APP) =>
    github()
      .requests.filter((r) => (r.route === 'comment-create' || r.route === 'comment-update') && r.repo === repo)
      .map((r) => (JSON.parse(r.body) as { body: string }).body)
  const text = (body: string | undefined) => body?.split('\n\n<!--')[0]

  it('writes the started state once the job exists, once per change, then the end: never once per poll', async () => {
    const result = await run()
    expect(result.code).toBe(0)
    const job = result.outputs['job-id'] ?? ''
    const number = result.outputs['pr-number'] ?? ''
    const docs = `[acme/docs#${number}](${result.outputs['pr-link'] ?? ''})`
    expect(step.requests('get').length).toBeGreaterThan(10)
    expect(result.at('debug').filter((line) => line.startsWith('Progress:'))).toEqual([
      `Progress: job ${job} active`,
      `Progress: job ${job} completed, docs pull request ${result.outputs['pr-link'] ?? ''}`
    ])
    expect(text(written()[0])).toBe(
      [
        '**Docs agent:** working on the docs.',
        `job \`${job}\` · status \`active\` · [workflow run](${RUN_URL})`,
        'Asked: pull request [acme/app#7](https://github.com/acme/app/pull/7) · started 2026-11-22 10:00:00 UTC.',
        'To ask for changes, comment `/docs <what to change>` here.'
      ].join('\n\n')
    )
    expect(text(written()[1])).toBe(
      [
        '**Docs agent:** working on the docs.',
        `job \`${job}\` · status \`completed\` · [workflow run](${RUN_URL})`,
        `Docs pull request: ${docs}`,
        'Asked: pull request [acme/app#7](https://github.com/acme/app/pull/7) · started 2026-11-22 10:00:00 UTC.',
        'To ask for changes, comment `/docs <what to change>` here.'
      ].join('\n\n')
    )
    expect(text(written()[2])).toBe(
      [
        `**Docs agent:** docs pull request ${docs}`,
        `job \`${job}\` · status \`completed\` · [workflow run](${RUN_URL})`,
        'Asked: pull request [acme/app#7](https://github.com/acme/app/pull/7) · started 2026-11-22 10:00:00 UTC.',
        'To ask for changes, comment `/docs <what to change>` here.'
      ].join('\n\n')
    )
    expect(written()).toHaveLength(3)
    // One comment, its marker naming the job from the first write on.
    expect(comments()).toHaveLength(1)
    expect(written().map((body) => decodeMarker(body, SEAL)?.job)).toEqual([job, job, job])
    expect(result.at('info').filter((line) => line.startsWith('Linked back'))).toEqual(['Linked back on acme/app#7.'])
  })

  it('a docs PR that appears after the job completed is one more change: four writes at most', async () => {
    virtual().sim.setScenario({ runMs: 20_000, prLinkLagMs: 3000 })
    const result = await run()
    expect(result.code).toBe(0)
    const job = result.outputs['job-id'] ?? ''
    // Told once the job exists, then once per change: polls that changed nothing tell nothing.
    expect(step.requests('get').length).toBeGreaterThan(5)
    expect(result.at('debug').filter((line) => line.startsWith('Progress:'))).toEqual([
      `Progress: job ${job} active`,
      `Progress: job ${job} completed`,
      `Progress: job ${job} completed, docs pull request ${result.outputs['pr-link'] ?? ''}`
    ])
    // On the virtual clock the job's changes come faster than GitHub's answers: writes asked for
    // while one is under way go out as one, so there may be fewer, never more.
    expect(written().length).toBeGreaterThanOrEqual(3)
    expect(written().length).toBeLessThanOrEqual(4)
    expect(written()[0]).toContain('status `active`')
    expect(written().at(-2)).toContain('Docs pull request: [acme/docs#')
    expect(written().at(-1)).toMatch(/^\*\*Docs agent:\*\* docs pull request \[acme\/docs#/)
  })

  it.each<[string, Record<string, unknown>, Record<string, string>, string[]]>([
    [
      'a failed job',
      { runMs: 20_000, finalStatus: 'failed', pr: false },
      {},
      [
        '**Docs agent:** no docs pull request: the job ended `failed`.',
        'What now: The Mintlify dashboard shows why. To try again, send a follow-up (`job-id: JOB` with a prompt) or start a new workflow run (re-running this one resumes the same job).'
      ]
    ],
    [
      'a timeout',
      { runMs: 600_000 },
      { timeout: '1m' },
      [
        '**Docs agent:** no docs pull request yet: the job is `active`.',
        "What now: It may still finish: wait for it with `job-id: JOB` and no prompt, or raise `timeout` (and the workflow job's `timeout-minutes`). Re-running this workflow job resumes it."
      ]
    ],
    ['no changes', { runMs: 20_000, pr: false }, {}, ['**Docs agent:** no docs changes were needed.']]
  ])('the end of %s says so, with what to do', async (_, scenario, inputs, lines) => {
    virtual().sim.setScenario(scenario)
    const result = await run(inputs)
    const job = result.outputs['job-id'] ?? ''
    const end = comments()[0]?.body ?? ''
    for (const line of lines) expect(end).toContain(line.replace('JOB', job))
    expect(written()).toHaveLength(scenario.finalStatus === 'failed' || scenario.pr === false ? 3 : 2)
  })

  it('an error while waiting: what happened, with no secret in it', async () => {
    virtual().sim.failAlways('get', { kind: 'echoAuth', status: 400 })
    const result = await run()
    expect(result.code).toBe(1)
    const end = comments()[0]?.body ?? ''
    expect(end).toContain('**Docs agent:** no docs pull request yet: the step ended before the job did (`active`).')
    expect(end).toMatch(/What happened: `Reading job job_\w+ failed: .*Bearer \*\*\*/)
    expect(JSON.stringify(github().requests.map((r) => r.body))).not.toContain(KEY)
  })

  it('the runner’s cancel between the create and the first poll: the comment says where the job stands', async () => {
    const cancel = new AbortController()
    const onLine = (_: string, message: string) => message.startsWith('Job id:') && cancel.abort()
    const result = await run({}, { cancel, onLine })
    expect(result.code).toBe(1)
    expect(step.requests('get')).toHaveLength(0)
    const job = result.outputs['job-id'] ?? ''
    expect(written()).toHaveLength(2)
    expect(written()[0]).toContain('**Docs agent:** working on the docs.')
    expect(text(comments()[0]?.body)).toContain(
      `**Docs agent:** no docs pull request yet: the job is \`active\`.\n\njob \`${job}\` · status \`active\``
    )
    expect(comments()[0]?.body).toContain(
      `What now: It may still finish: wait for it with \`job-id: ${job}\` and no prompt, or re-run this workflow job to resume it.`
    )
  })

  it('a re-run resumes the same comment, from the first read of the job on', async () => {
    const records = new MemoryRecords(true)
    const cancel = step.cancelAtRequest('get', 2)
    const first = await run({}, { records, cancel })
    expect(first.code).toBe(1)
    const [comment] = comments()
    expect(comment?.body).toContain('no docs pull request yet: the job is `active`.')
    virtual().sim.onRequest = undefined
    github().requests.length = 0
    const again = await run({}, { records, attempt: '2' })
    expect(again.code).toBe(0)
    expect(comments().map((c) => c.id)).toEqual([comment?.id])
    expect(written().map((body) => /^\*\*Docs agent:\*\* ([^\n]*)/.exec(body)?.[1])).toEqual([
      'working on the docs.',
      'working on the docs.',
      expect.stringMatching(/^docs pull request \[acme\/docs#/)
    ])
    expect(decodeMarker(comments()[0]?.body ?? '', SEAL)?.job).toBe(first.outputs['job-id'])
  })

  it('a write GitHub refuses later on: one warning, nothing more written, the outputs and the result unchanged', async () => {
    github().fail('comment-update', { kind: 'status', status: 403, message: 'Resource not accessible by integration' })
    const result = await run()
    expect(result.code).toBe(0)
    expect(result.outputs).toMatchObject({ status: 'completed', 'timed-out': 'false' })
    expect(result.outputs['pr-link']).toMatch(/^https:/)
    expect(result.at('warning')).toEqual([
      expect.stringMatching(/^Could not comment on acme\/app#7 \(HTTP 403\).*pull-requests: write/)
    ])
    expect(github().requests.filter((r) => r.route === 'comment-update')).toHaveLength(1)
    expect(comments()[0]?.body).toContain('working on the docs.')
  })

  it('wait: false writes the started state once, saying a later wait-only step updates it; that step does', async () => {
    const start = await run({ wait: 'false' })
    expect(start.code).toBe(0)
    const job = start.outputs['job-id'] ?? ''
    expect(written()).toHaveLength(1)
    const [comment] = comments()
    expect(comment?.body).toContain('**Docs agent:** working on the docs.')
    expect(comment?.body).toContain(
      `This step does not wait for the job: a later step that waits for it (\`job-id: ${job}\` and no prompt) on the same event updates this.`
    )
    const waited = await run({ 'job-id': job, prompt: '' })
    expect(waited.code).toBe(0)
    expect(comments().map((c) => c.id)).toEqual([comment?.id])
    expect(comments()[0]?.body).toMatch(/^\*\*Docs agent:\*\* docs pull request \[acme\/docs#/)
    expect(written()).toHaveLength(4)
  })

  describe('the release notes’ block', () => {
    const release = { action: 'published', release: { tag_name: 'v2.0.0', body: 'Notes' } }
    const inputs = { 'link-back': 'release', context: 'none' }
    const blocks = () =>
      github()
        .requests.filter((r) => r.route === 'release-update')
        .map(
          (r) =>
            /<!-- docs-agent-action:release:start -->\n(.*)\n<!--/.exec(
              (JSON.parse(r.body) as { body: string }).body
            )?.[1]
        )

    it('shows the job at work, then its docs pull request', async () => {
      github().addRelease(APP, { tag_name: 'v2.0.0', body: 'Notes' })
      const result = await run(inputs, { event: 'release', payload: release })
      expect(result.at('info').filter((line) => line.includes('release v2.0.0'))).toEqual([
        'Linked back in the notes of release v2.0.0.'
      ])
      const job = result.outputs['job-id'] ?? ''
      const number = result.outputs['pr-number'] ?? ''
      expect(blocks()).toEqual([
        `**Docs:** the docs agent is working on it. job \`${job}\` · [workflow run](${RUN_URL})`,
        `**Docs:** [acme/docs#${number}](https://github.com/acme/docs/pull/${number})`
      ])
      // The end changes nothing more: read, not written.
      expect(github().requests.filter((r) => r.route === 'release-by-tag')).toHaveLength(3)
      expect(comments()).toEqual([])
    })

    it('a tag without a release: said once, at the end; nothing edited', async () => {
      const result = await run(inputs, { event: 'release', payload: release })
      expect(result.code).toBe(0)
      expect(result.at('info').filter((line) => line.includes('v2.0.0'))).toEqual([
        'No release for v2.0.0: release notes not linked.'
      ])
      expect(github().requests.filter((r) => r.route === 'release-update')).toEqual([])
    })

    it('and the docs pull request’s comment says it came from the release, its tag as code', async () => {
      github().addRelease(APP, { tag_name: 'v2.0.0', body: 'Notes' })
      const result = await run({ ...inputs, 'link-back': 'release, docs-pr' }, { event: 'release', payload: release })
      const [comment] = github().commentsOf('acme/docs', Number(result.outputs['pr-number']))
      expect(comment?.body).toMatch(
        /^\*\*Docs agent:\*\* this pull request was opened for release `v2\.0\.0` of acme\/app\./
      )
    })

    it('a tag that holds a mention, a cross-reference and HTML (git takes them) is only text there', async () => {
      // Git refuses none of @ # / _ ` < > in a tag name (git check-ref-format).
      const tag = 'v2+@octocat+octo-org/private#1+_x_+`y`+<ins>z</ins>'
      github().addRelease(APP, { tag_name: tag, body: 'Notes' })
      const payload = { action: 'published', release: { tag_name: tag, body: 'Notes' } }
      const result = await run({ ...inputs, 'link-back': 'release, docs-pr' }, { event: 'release', payload })
      const [comment] = github().commentsOf('acme/docs', Number(result.outputs['pr-number']))
      expect(comment?.body.split('\n')[0]).toBe(
        "**Docs agent:** this pull request was opened for release `v2+@octocat+octo-org/private#1+_x_+'y'+<ins>z</ins>` of acme/app."
      )
    })

    it('and how a job without one ended', async () => {
      github().addRelease(APP, { tag_name: 'v2.0.0', body: 'Notes' })
      virtual().sim.setScenario({ runMs: 20_000, finalStatus: 'failed', pr: false })
      const result = await run(inputs, { event: 'release', payload: release })
      const job = result.outputs['job-id'] ?? ''
      expect(blocks().at(-1)).toBe(
        `**Docs:** no docs pull request: the job ended \`failed\`. job \`${job}\` · [workflow run](${RUN_URL})`
      )
    })
  })

  it('comments on the docs pull request once it is known, with the job’s state', async () => {
    const result = await run({ 'link-back': 'docs-pr' })
    const number = Number(result.outputs['pr-number'])
    const job = result.outputs['job-id'] ?? ''
    expect(result.at('info').filter((line) => line.startsWith('Linked back'))).toEqual([
      `Linked back on the docs pull request acme/docs#${number}.`
    ])
    expect(result.at('warning')).toEqual([])
    const seal = { key: markerKey(KEY), repository: 'acme/docs', number }
    expect(decodeMarker(github().commentsOf('acme/docs', number)[0]?.body ?? '', seal)?.job).toBe(job)
    expect(comments()).toEqual([])
    expect(written('acme/docs')).toHaveLength(1)
    expect(text(github().commentsOf('acme/docs', number)[0]?.body)).toBe(
      [
        '**Docs agent:** this pull request was opened for a workflow.',
        `job \`${job}\` · status \`completed\` · [workflow run](${RUN_URL})`,
        `To ask for changes, send a follow-up to job \`${job}\`.`
      ].join('\n\n')
    )
  })

  it('a docs pull request comment GitHub refuses: one warning naming the docs repository, nothing more', async () => {
    github().failAlways('comment-create', {
      kind: 'status',
      status: 403,
      message: 'Resource not accessible by integration'
    })
    virtual().sim.setScenario({ runMs: 20_000, prLinkLagMs: 3000 })
    const result = await run({ 'link-back': 'docs-pr' })
    github().failAlways('comment-create', null)
    expect(result.code).toBe(0)
    expect(result.at('warning')).toEqual([
      expect.stringMatching(
        /^Could not comment on acme\/docs#\d+ \(HTTP 403\).*needs pull-requests: write on acme\/docs;/
      )
    ])
    expect(github().requests.filter((r) => r.route === 'comment-create')).toHaveLength(1)
  })

  it('a job that names no repository: its docs pull request is not commented on (one warning)', async () => {
    virtual().sim.setScenario({ runMs: 20_000, record: { source: undefined } })
    const result = await run({ 'link-back': 'docs-pr' })
    expect(result.at('warning')).toEqual([
      `Not commenting on the docs pull request ${result.outputs['pr-link'] ?? ''}: the job names no repository to check it against.`
    ])
    expect(written('acme/docs')).toEqual([])
  })

  it('an error before a job: the comment says no job was started', async () => {
    virtual().sim.fail('create', { kind: 'status', status: 400 })
    const result = await run()
    expect(result.code).toBe(1)
    expect(written()).toHaveLength(1)
    expect(text(comments()[0]?.body)).toBe(
      `**Docs agent:** no job was started: see the workflow run.\n\n[workflow run](${RUN_URL})`
    )
    expect(result.at('warning')).toEqual([])
  })

  it('updates asked for together go out as one write, and a body the comment has is not written again', async () => {
    const client = new GitHubClient(GITHUB_TOKEN, github().url, { pace: { msPerSecond: 1 } })
    const me = client.conversation(APP).identity()
    const thread = new LinkBackThread(client.conversation(APP), APP, 7, () => me, markerKey(KEY))
    const first = thread.update(() => commentBody(['one'], { job: 'job_1' }, SEAL))
    const second = thread.update((previous, body) => `${body?.replace('one', 'two') ?? ''}${previous?.job ?? ''}`)
    await Promise.all([first, second])
    expect(
      github()
        .requests.filter((r) => r.method !== 'GET' && r.route !== 'graphql')
        .map((r) => r.route)
    ).toEqual(['comment-create'])
    expect(comments()[0]?.body).toMatch(/^two\n\n<!-- .* -->job_1$/)
    await thread.update((_, body) => body)
    await thread.update(() => undefined)
    expect(github().requests.filter((r) => r.route === 'comment-update')).toEqual([])
  })
})
