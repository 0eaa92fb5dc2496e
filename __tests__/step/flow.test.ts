/**
 * The step as a user relies on it, one scenario per behaviour, run in-process through `main`
 * against the simulator on a virtual clock: modes, endings, fail-on, labels, bad input, dry runs.
 */
import { describe, expect, it } from '@jest/globals'
import type { GitHubApiFake } from '../../simulator/github/index.js'
import { GITHUB_TOKEN } from '../../scripts/in-process.js'
import { PR_SETTLE_MS } from '../../src/agent-api/wait.js'
import { OUTPUT_NAMES } from '../../src/report/finish.js'
import { useFakeGitHub } from '../fixtures/github.js'
import { UNUSED_OUTPUTS } from '../fixtures/run-state.js'
import { useStep } from '../fixtures/step.js'

// One describe for the file: its hooks stay its own when the mutation suite runs the files together.
describe('flow', () => {
  const KEY = 'mint_flow_secret_key_0123456789'
  const PROJECT = 'proj-flow'
  const step = useStep({ key: KEY, project: PROJECT, prompt: 'Document release v1.2.3', scenario: { runMs: 30_000 } })
  const { virtual, requests } = step
  const run = (extra: Record<string, string> = {}, env: Record<string, string> = {}) => step.run(extra, { env })

  describe('create and wait', () => {
    it('completes with a pull request: outputs, log, summary and requests', async () => {
      const result = await run()
      expect(result.code).toBe(0)
      const [create] = requests('create')
      expect(requests('create')).toHaveLength(1)
      expect(create).toMatchObject({ method: 'POST', rawPath: `/v2/agent/${PROJECT}/job` })
      expect(JSON.parse(create?.body ?? '')).toEqual({ prompt: 'Document release v1.2.3' })
      expect(create?.headers).toMatchObject({
        authorization: `Bearer ${KEY}`,
        'content-type': 'application/json',
        accept: 'application/json',
        'user-agent': 'docs-agent-action/1'
      })
      // A 30 s job, first poll after 2 s, delays growing to the 10 s cap: noticed within a poll.
      const polls = requests('get')
      expect(polls.length).toBeGreaterThanOrEqual(5)
      expect(polls.length).toBeLessThanOrEqual(12)
      expect((polls[0]?.time ?? 0) - (create?.time ?? 0)).toBeGreaterThanOrEqual(1800)

      const [stored] = virtual().sim.jobs(PROJECT)
      const id = stored?.job.id ?? ''
      expect(result.outputs).toEqual({
        'job-id': id,
        status: 'completed',
        'pr-link': stored?.job.prLink,
        'pr-number': String(/\/pull\/(\d+)$/.exec(stored?.job.prLink ?? '')?.[1]),
        'pr-repository': 'acme/docs',
        'source-repository': 'https://github.com/acme/docs',
        'source-ref': 'main',
        model: 'sim-model-1',
        'created-at': stored?.job.createdAt,
        'archived-at': '',
        'timed-out': 'false',
        'not-permitted': 'false',
        job: JSON.stringify(stored?.job),
        prompt: 'Document release v1.2.3',
        ...UNUSED_OUTPUTS
      })
      expect(result.at('info')).toEqual(
        expect.arrayContaining([
          `Job id: ${id}`,
          `Job ${id} is active`,
          expect.stringMatching(`^Job ${id} is completed after 3\\ds$`)
        ])
      )
      expect(result.at('notice')).toEqual([`Docs pull request: ${stored?.job.prLink ?? ''}`])
      expect(result.at('error')).toEqual([])
      expect(result.summary).toContain('<h2>✅ Docs pull request ready</h2>')
      // The pull request leads, before any table.
      expect(result.summary.indexOf(`<a href="${stored?.job.prLink ?? ''}">acme/docs#`)).toBeLessThan(
        result.summary.indexOf('<table>')
      )
      expect(result.summary).toMatch(
        /<tr><th align="left">Status<\/th><td><code>completed<\/code>, after 3\ds and \d+ polls<\/td><\/tr>/
      )
      expect(result.summary).toContain('<pre>\nDocument release v1.2.3</pre>')
    })

    it('reads a completed job again before concluding there is no pull request, and finds a late link', async () => {
      virtual().sim.setScenario({ runMs: 5000, prLinkLagMs: 3000 })
      const result = await run()
      expect(result.code).toBe(0)
      expect(result.outputs['pr-link']).toMatch(/^https:\/\/github\.com\/acme\/docs\/pull\/\d+$/)
      expect(result.at('info')).toContainEqual(
        expect.stringMatching(/completed without a pull request link so far; reading it again$/)
      )
    })

    it('concludes "no pull request" only after reading again for at least 5 s, and fails only with fail-on: no-pr', async () => {
      virtual().sim.setScenario({ runMs: 5000, pr: false })
      const result = await run()
      expect(result.code).toBe(0)
      const completed = requests('get').filter((r) => r.time >= (requests('create')[0]?.time ?? 0) + 5000)
      expect(completed.length).toBeGreaterThanOrEqual(3)
      expect((completed.at(-1)?.time ?? 0) - (completed[0]?.time ?? 0)).toBeGreaterThanOrEqual(PR_SETTLE_MS)
      expect(result.outputs).toMatchObject({ status: 'completed', 'pr-link': '', 'pr-number': '' })
      expect(result.at('info')).toContainEqual(
        `Docs agent job ${result.outputs['job-id'] ?? ''} completed without a pull request (the agent changed no files).`
      )
      expect(result.summary).toContain('☑️ Docs agent finished: no changes')
      expect(result.summary).toContain('completed without changing any file')

      const strict = await run({ 'fail-on': 'failed, no-pr' })
      expect(strict.code).toBe(1)
      expect(strict.at('error')).toEqual([
        `Docs agent job ${strict.outputs['job-id'] ?? ''} completed without a pull request (the agent changed no files) (fail-on includes 'no-pr').`
      ])
    })

    it('reports a link that is not http(s) as unusable, never as "no files changed"', async () => {
      virtual().sim.setScenario({ runMs: 3000, prLink: 'javascript:alert(1)' })
      const result = await run()
      expect(result.code).toBe(0)
      expect(result.outputs['pr-link']).toBe('')
      expect(result.at('warning')).toEqual([
        `Docs agent job ${result.outputs['job-id'] ?? ''} completed with a pull request link that is not http(s) (javascript:), so it is not used.`
      ])
      expect(result.summary).toContain('⚠️ Docs agent finished: its pull request link is unusable')
      expect(result.summary).toContain('<code>javascript:</code>')
      expect(result.everything()).not.toContain('changed no files')
      expect(result.summary).not.toContain('href="javascript')
    })

    it.each(['failed', 'archived'] as const)(
      'fails the step when the job ends %s, naming the job and what to do',
      async (status) => {
        virtual().sim.setScenario({ runMs: 4000, finalStatus: status, pr: false })
        const result = await run()
        expect(result.code).toBe(1)
        const id = result.outputs['job-id'] ?? ''
        expect(id).toMatch(/^job_/)
        expect(result.outputs.status).toBe(status)
        expect(result.at('error')).toEqual([`Docs agent job ${id} ended ${status} (fail-on includes '${status}').`])
        if (status === 'archived') expect(result.outputs['archived-at']).not.toBe('')
        expect(result.summary).toContain(
          `No pull request:</strong> job <code>${id}</code> ended <code>${status}</code>.`
        )
        expect(result.summary).toContain(`<code>job-id: ${id}</code> with a prompt`)
        expect(result.summary).not.toContain('none yet')

        const tolerated = await run({ 'fail-on': 'none' })
        expect(tolerated.code).toBe(0)
        expect(tolerated.at('warning')).toEqual([
          expect.stringContaining(`ended ${status}; fail-on does not include it`)
        ])
      }
    )

    it('times out with the job id, timed-out output and how to resume', async () => {
      virtual().sim.setScenario({ runMs: 600_000 })
      const result = await run({ timeout: '1m' })
      expect(result.code).toBe(1)
      const id = result.outputs['job-id'] ?? ''
      expect(result.outputs).toMatchObject({ status: 'active', 'timed-out': 'true' })
      expect(result.at('error')).toEqual([
        `Timed out after 1m waiting for job ${id} (still active). Resume with job-id: ${id}.`
      ])
      // The last poll lands on the deadline, not after it.
      const last = requests('get').at(-1)
      expect((last?.time ?? 0) - (requests('create')[0]?.time ?? 0)).toBeLessThanOrEqual(60_000)
      expect(result.summary).toContain('⏱️ Timed out waiting for the docs agent')
      expect(result.summary).toContain(`<code>job-id: ${id}</code> and no prompt`)

      const tolerated = await run({ timeout: '30s', 'fail-on': 'failed' })
      expect(tolerated.code).toBe(0)
      expect(tolerated.outputs['timed-out']).toBe('true')
    })

    it('polls in fewer requests as the job runs longer, at most every max-poll-interval', async () => {
      virtual().sim.setScenario({ runMs: 600_000 })
      const result = await run({ timeout: '15m', 'poll-interval': '1s', 'max-poll-interval': '20s' })
      expect(result.code).toBe(0)
      const times = requests('get').map((r) => r.time)
      const gaps = times.slice(1).map((t, i) => t - (times[i] ?? 0))
      expect(Math.max(...gaps)).toBeLessThanOrEqual(20_000)
      expect(gaps[0]).toBeLessThan(2_000)
      expect(times.length).toBeLessThan(60)
    })
  })

  describe('existing jobs', () => {
    it('sends a follow-up with its id kept in one path segment, then waits for its result', async () => {
      virtual().sim.addJob(PROJECT, { id: 'job_existing/1', status: 'completed', prompt: 'first' })
      virtual().sim.setScenario({ runMs: 8000 })
      const result = await run({ 'job-id': 'job_existing/1', prompt: 'Also document the CLI' })
      expect(result.code).toBe(0)
      expect(requests('create')).toHaveLength(0)
      const [message] = requests('message')
      expect(message).toMatchObject({ method: 'POST', rawPath: `/v2/agent/${PROJECT}/job/job_existing%2F1/message` })
      expect(JSON.parse(message?.body ?? '')).toEqual({ prompt: 'Also document the CLI' })
      expect(
        virtual()
          .sim.jobs(PROJECT)
          .find((j) => j.job.id === 'job_existing/1')?.prompts
      ).toEqual(['first', 'Also document the CLI'])
      expect(result.outputs).toMatchObject({
        'job-id': 'job_existing/1',
        status: 'completed',
        prompt: 'Also document the CLI'
      })
      expect(result.summary).toContain('follow-up message')
      expect(result.summary).toContain('✅ Docs pull request ready')
    })

    it("waits for the follow-up's own result while the service still shows the previous one", async () => {
      const { sim } = virtual()
      sim.addJob(PROJECT, { id: 'job_stale', status: 'completed', prompt: 'first' })
      sim.setScenario({ runMs: 12_000, staleAfterMessageMs: 6000 })
      const result = await run({ 'job-id': 'job_stale', prompt: 'Then the API' })
      expect(result.code).toBe(0)
      const info = result.at('info')
      const held = info.indexOf(
        'Job job_stale still shows the result of the previous prompt; waiting for the follow-up to be taken up'
      )
      expect(held).toBeGreaterThan(-1)
      expect(info.indexOf('Job job_stale is active')).toBeGreaterThan(held)
      const message = requests('message')[0]?.time ?? 0
      expect((requests('get').at(-1)?.time ?? 0) - message).toBeGreaterThanOrEqual(12_000)
    })

    it('only waits when job-id comes without a prompt, polling at once', async () => {
      virtual().sim.addJob(PROJECT, { id: 'job_wait' })
      const started = virtual().clock.now()
      const result = await run({ 'job-id': 'job_wait', prompt: '' })
      expect(result.code).toBe(0)
      expect(virtual().sim.requests.every((r) => r.method === 'GET')).toBe(true)
      expect(virtual().sim.requests[0]).toMatchObject({ rawPath: `/v2/agent/${PROJECT}/job/job_wait`, time: started })
      expect(result.outputs).toMatchObject({ 'job-id': 'job_wait', status: 'completed', prompt: '' })
      expect(result.summary).toContain('wait only')
    })

    it('fails at once when the job to wait for does not exist (no grace: the id came from outside)', async () => {
      const result = await run({ 'job-id': 'job_missing', prompt: '' })
      expect(result.code).toBe(1)
      expect(virtual().sim.requests).toHaveLength(1)
      expect(result.at('error')).toEqual([
        expect.stringMatching(
          /^Reading job job_missing failed: job not found .*Check the 'job-id' input and that it belongs to project 'proj-flow'\.$/
        )
      ])
      expect(result.outputs['job-id']).toBe('job_missing')
      // The summary says so too, and never advises waiting on the same id again.
      expect(result.summary).toContain('job <code>job_missing</code> was not found.')
      expect(result.summary).toContain(
        `Project <code>proj-flow</code> has no job <code>job_missing</code>. Check <code>job-id</code> for a typo; that <code>project-id</code> is the project the job was created in; and, when an earlier step created it, that this step is given that step's <code>job-id</code> output. Waiting on this id again will not find it.`
      )
      expect(result.summary).not.toMatch(/may still be running|wait for it with/)
    })
  })

  describe('wait: false', () => {
    it('returns right after the create answer with the job still active', async () => {
      const result = await run({ wait: 'false' })
      expect(result.code).toBe(0)
      expect(virtual().sim.requests.map((r) => r.operation)).toEqual(['create'])
      expect(result.outputs).toMatchObject({ status: 'active', 'timed-out': 'false', 'pr-link': '' })
      expect(result.at('info')).toContainEqual(
        `Job ${result.outputs['job-id'] ?? ''} started; not waiting (wait: false).`
      )
      expect(result.summary).toContain('🚀 Docs agent job started')
      expect(result.summary).toContain('and no prompt')
    })

    it("does not report a follow-up's stale answer as its result", async () => {
      virtual().sim.addJob(PROJECT, { id: 'job_nw', status: 'completed' })
      virtual().sim.setScenario({ staleAfterMessageMs: 5000 })
      const result = await run({ 'job-id': 'job_nw', prompt: 'More', wait: 'false' })
      expect(result.code).toBe(0)
      expect(result.summary).toContain('🚀 Follow-up sent to the docs agent')
      expect(result.at('notice')).toEqual([])
    })

    it('with job-id alone reads the job once, and fail-on judges what it read', async () => {
      virtual().sim.addJob(PROJECT, { id: 'job_done', status: 'failed' })
      const result = await run({ 'job-id': 'job_done', prompt: '', wait: 'false' })
      expect(result.code).toBe(1)
      expect(virtual().sim.requests).toHaveLength(1)
      expect(result.at('error')).toEqual(["Docs agent job job_done ended failed (fail-on includes 'failed')."])
    })
  })

  describe('labels', () => {
    let github: GitHubApiFake
    const fake = useFakeGitHub(step.clock, { fresh: 'none' }, (started) => (github = started))
    const env = () => fake.env()

    it('labels the docs PR through the GitHub API with github-token', async () => {
      github.reset()
      github.addRepo('acme/docs')
      virtual().sim.setScenario({ runMs: 3000 })
      const result = await run({ labels: 'documentation,\n release , documentation' }, env())
      expect(result.code).toBe(0)
      const number = Number(result.outputs['pr-number'])
      expect(github.labelsOf('acme/docs', number)).toEqual(['documentation', 'release'])
      expect(github.requests).toHaveLength(1)
      expect(github.requests[0]).toMatchObject({ method: 'POST', rawPath: `/repos/acme/docs/issues/${number}/labels` })
      expect(result.at('info')).toContainEqual(`Labelled acme/docs#${number}: documentation, release`)
    })

    // A 422 is about the labels, not the token: no permission hint then.
    it.each([
      [
        403,
        'Resource not accessible by integration',
        /^Could not label acme\/docs#\d+ \(Resource not accessible by integration.*\)\. The 'docs-token' input \(github-token when not given\) needs 'pull-requests: write'/
      ],
      [
        422,
        'Validation Failed',
        /^Could not label acme\/docs#\d+: GitHub refused the labels \(Validation Failed.*\)\.$/
      ]
    ])('warns when GitHub refuses (%i), and keeps the outputs and the result', async (status, message, warning) => {
      github.reset()
      github.addRepo('acme/docs')
      github.fail('labels', { kind: 'status', status, message })
      virtual().sim.setScenario({ runMs: 3000 })
      const result = await run({ labels: 'documentation' }, env())
      expect(result.code).toBe(0)
      expect(result.outputs['pr-number']).toMatch(/^\d+$/)
      expect(result.at('warning')).toEqual([expect.stringMatching(warning)])
      expect(result.everything()).not.toContain(GITHUB_TOKEN)
    })

    it('makes no GitHub call without labels, without a PR, when the job failed, or for another host', async () => {
      github.reset()
      virtual().sim.setScenario({ runMs: 3000 })
      expect((await run({}, env())).code).toBe(0)
      virtual().sim.setScenario({ pr: false })
      expect((await run({ labels: 'documentation' }, env())).code).toBe(0)
      virtual().sim.setScenario({ pr: true, finalStatus: 'failed' })
      expect((await run({ labels: 'documentation' }, env())).code).toBe(1)
      virtual().sim.setScenario({
        finalStatus: 'completed',
        prLink: 'https://gitlab.example/acme/docs/-/merge_requests/4'
      })
      const other = await run({ labels: 'documentation' }, env())
      expect(other.at('warning')).toEqual([
        expect.stringMatching(/^Not labelling .* not a pull request on this GitHub server/)
      ])
      expect(github.requests).toEqual([])
    })

    describe("only the job's repository, on the runner's GitHub", () => {
      const refused = async (runner: Record<string, string>, reason: string) => {
        github.reset()
        github.addRepo('acme/docs')
        github.addRepo('evil/repo')
        const result = await run({ labels: 'documentation' }, { ...env(), ...runner })
        expect(result.code).toBe(0)
        expect(result.at('warning')).toEqual([`Not labelling ${result.outputs['pr-link'] ?? ''}: ${reason}.`])
        expect(github.requests).toEqual([])
        return result
      }

      it('a pull request in another repository: one warning, no request', async () => {
        virtual().sim.setScenario({ prLink: 'https://github.com/evil/repo/pull/3' })
        await refused({}, "it is not in the job's repository (https://github.com/acme/docs)")
      })

      it('a job that names no repository: one warning, no request', async () => {
        virtual().sim.setScenario({ record: { source: undefined } })
        await refused({}, 'the job names no repository to check it against')
      })

      it('a github.com pull request from a GitHub Enterprise runner: its token never goes there', async () => {
        virtual().sim.setScenario({})
        await refused(
          { GITHUB_SERVER_URL: 'https://ghes.example' },
          'it is on github.com, and the github-token is for ghes.example'
        )
      })

      it('a GitHub Enterprise pull request from a github.com runner: nor there', async () => {
        virtual().sim.setScenario({
          prLink: 'https://ghes.example/acme/docs/pull/4',
          record: { source: { repository: 'https://ghes.example/acme/docs', ref: 'main' } }
        })
        // The link is not this server's: not a pull request the action knows at all.
        await refused({}, 'it is not a pull request on this GitHub server')
      })

      it("labels on GitHub Enterprise when the pull request is in the job's repository there", async () => {
        github.reset()
        github.addRepo('acme/docs')
        virtual().sim.setScenario({
          prLink: 'https://ghes.example/Acme/Docs/pull/4',
          record: { source: { repository: 'https://ghes.example/acme/docs.git', ref: 'main' } }
        })
        const result = await run({ labels: 'documentation' }, { ...env(), GITHUB_SERVER_URL: 'https://ghes.example' })
        expect(result.at('warning')).toEqual([])
        expect(github.requests.map((r) => `${r.method} ${r.rawPath}`)).toEqual([
          'POST /repos/Acme/Docs/issues/4/labels'
        ])
        expect(github.labelsOf('acme/docs', 4)).toEqual(['documentation'])
      })
    })
  })

  describe('bad input', () => {
    it.each<[string, Record<string, string>, RegExp]>([
      ['missing api-key', { 'api-key': '' }, /^Input 'api-key': required/],
      ['missing project-id', { 'project-id': '' }, /^Input 'project-id': required/],
      ['no prompt and no job-id', { prompt: '' }, /^Input 'prompt': set 'prompt' or 'prompt-file'/],
      ['prompt and prompt-file', { 'prompt-file': 'p.md' }, /^Input 'prompt-file': set either/],
      [
        'unreadable prompt-file',
        { prompt: '', 'prompt-file': 'nope.md' },
        /^Input 'prompt-file': "nope.md" cannot be read \(ENOENT\): expected the path of a regular UTF-8 file inside the workspace/
      ],
      [
        'malformed timeout',
        { timeout: '10min' },
        /^Input 'timeout': "10min" is not a duration: expected seconds \(600\)/
      ],
      ['malformed poll-interval', { 'poll-interval': 'fast' }, /^Input 'poll-interval': "fast" is not a duration/],
      ['wait not a boolean', { wait: 'maybe' }, /^Input 'wait': "maybe" is not a boolean: expected true or false/],
      ['unknown fail-on value', { 'fail-on': 'failed,oops' }, /^Input 'fail-on': unknown outcome "oops"/],
      [
        'plain-http base-url',
        { 'base-url': 'http://api.example.com' },
        /^Input 'base-url': plain http:\/\/ would send the API key unencrypted/
      ],
      ['unknown context', { context: 'full' }, /^Input 'context': "full" is not one of auto, none\./],
      ['unknown on-rerun', { 'on-rerun': 'skip' }, /^Input 'on-rerun': "skip" is not one of resume, new\./],
      ['dry-run not a boolean', { 'dry-run': 'yes' }, /^Input 'dry-run': "yes" is not a boolean/]
    ])('%s fails before any request, naming the input, and still writes the outputs', async (_name, extra, message) => {
      const result = await run(extra)
      expect(result.code).toBe(1)
      expect(virtual().sim.requests).toHaveLength(0)
      expect(result.at('error')).toEqual([expect.stringMatching(message)])
      expect(result.outputs).toMatchObject({
        'job-id': '',
        status: '',
        'timed-out': 'false',
        'pr-link': '',
        prompt: ''
      })
      expect(Object.keys(result.outputs).sort()).toEqual([...OUTPUT_NAMES].sort())
      expect(result.summary).toContain('❌ Docs agent step failed')
      expect(result.everything()).not.toContain(KEY)
    })

    it('a wait-only step with bad input still gives its job-id to the output and the summary', async () => {
      const result = await run({ prompt: '', 'job-id': 'job-given-7', timeout: '7h' })
      expect(result.code).toBe(1)
      expect(virtual().sim.requests).toHaveLength(0)
      expect(result.at('error')).toEqual([
        `Input 'timeout': "7h" is longer than 6h, GitHub's limit for a job: expected at most 6h.`
      ])
      expect(result.outputs['job-id']).toBe('job-given-7')
      expect(result.summary).toContain('job-given-7')
    })

    it('takes poll-interval alone as the interval, raising the cap to match', async () => {
      virtual().sim.setScenario({ runMs: 100_000 })
      const result = await run({ 'poll-interval': '30s' })
      expect(result.code).toBe(0)
      const times = requests('get').map((r) => r.time)
      const gaps = times.slice(1).map((t, i) => t - (times[i] ?? 0))
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(27_000)
    })
  })

  describe('dry-run', () => {
    it('builds the prompt, shows it in the log and the summary, sends nothing and succeeds', async () => {
      const prompt = 'Line one\n::error::not a command\n\nLine four'
      const result = await run({ prompt, 'dry-run': 'true' })
      expect(result.code).toBe(0)
      expect(virtual().sim.requests).toHaveLength(0)
      expect(result.outputs).toMatchObject({ prompt, 'job-id': '', status: '' })
      expect(result.at('info')).toEqual(
        expect.arrayContaining(['│ Line one', '│ ::error::not a command', '│ ', '│ Line four'])
      )
      expect(result.at('notice')).toEqual(['Dry run: the prompt was built and nothing was sent (dry-run: true).'])
      expect(result.summary).toContain('🧪 Dry run: nothing was sent')
      expect(result.summary).toContain('Prompt that would be sent')
      expect(result.summary).toContain(
        '<details open><summary>Prompt that would be sent (42 characters)</summary><pre>\nLine one\n::error::not a command&#10;\nLine four</pre></details>'
      )
    })

    it('sends no follow-up and reads no job', async () => {
      const message = await run({ 'job-id': 'job_x', prompt: 'More', 'dry-run': 'true' })
      const waitOnly = await run({ 'job-id': 'job_x', prompt: '', 'dry-run': 'true' })
      expect([message.code, waitOnly.code]).toEqual([0, 0])
      expect(virtual().sim.requests).toHaveLength(0)
      expect(message.outputs.prompt).toBe('More')
    })
  })

  describe('secrets', () => {
    it('masks the key and the GitHub token before anything else, and never shows them', async () => {
      virtual().sim.fail('create', { kind: 'echoAuth', status: 400 })
      const result = await run({ 'api-key': `  ${KEY}\n`, 'github-token': 'ghp_user_token_0000' })
      expect(result.code).toBe(1)
      expect(requests('create')[0]?.headers.authorization).toBe(`Bearer ${KEY}`)
      expect(result.events.slice(0, 2)).toEqual([`secret ${KEY}`, 'secret ghp_user_token_0000'])
      expect(result.at('error')).toEqual([expect.stringContaining('bad key Bearer ***')])
      expect(result.everything()).not.toContain(KEY)
    })

    it('keeps the key out of outputs, the log and the summary when a job record carries it', async () => {
      virtual().sim.setScenario({ runMs: 3000, record: { model: `model-${KEY}` } })
      const result = await run()
      expect(result.code).toBe(0)
      expect(result.outputs.model).toBe('model-***')
      expect(result.everything()).not.toContain(KEY)
    })

    it('keeps a token with characters HTML escapes out of the summary, where it is written escaped', async () => {
      const token = 'ghp_a&b<c>"d_0000'
      virtual().sim.setScenario({ runMs: 3000, record: { model: `model-${token}` } })
      const result = await run({ 'github-token': token })
      expect(result.code).toBe(0)
      expect(result.summary).toContain('<code>model-***</code>')
      expect(result.summary).not.toContain('ghp_a&amp;b&lt;c&gt;&quot;d_0000')
    })
  })
})
