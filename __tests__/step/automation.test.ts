/**
 * `automation`, in-process through `main` against the simulator and the fake GitHub on a virtual
 * clock: the trigger takes the create's place, the run's job is followed as any job (or, when the
 * Agent API cannot read it, the step ends with one notice), the trigger is never sent twice, and
 * a re-run resumes the same run and job.
 */
import { describe, expect, it } from '@jest/globals'
import { inputDefaults, readAction } from '../../scripts/action-metadata.js'
import { MemoryRecords } from '../../scripts/in-process.js'
import { NOT_FOUND_GRACE_MS } from '../../src/agent-api/wait.js'
import { initialState } from '../../src/report/state.js'
import { fingerprint } from '../../src/base/fingerprint.js'
import { openRecord, type RecordedStep, type RunIdentity } from '../../src/rerun/record.js'
import { renderLinkBack } from '../../src/step/tracking/link-back-text.js'
import { parseSettings } from '../../src/step/settings.js'
import { HIDDEN, KEY, PROJECT, READABLE, RUNS_PAGE, useAutomation } from '../fixtures/automation.js'

// One describe for the file: its hooks stay its own when the mutation suite runs the files together.
describe('automation', () => {
  const { step, virtual, github, env, run, triggers, runs } = useAutomation()

  describe('a run whose job can be read', () => {
    it('is triggered instead of a job, and its job waited for and labelled: outputs, log, summary', async () => {
      const result = await run({ labels: 'documentation, automation' })
      expect(result.code).toBe(0)
      const [queued] = runs()
      const [job] = virtual().sim.jobs(PROJECT)
      expect(result.outputs).toMatchObject({
        'automation-run-id': queued?.instanceId,
        'job-id': queued?.jobId,
        status: 'completed',
        'pr-link': job?.job.prLink,
        prompt: ''
      })
      expect(step.requests('create')).toEqual([])
      expect(triggers()).toHaveLength(1)
      expect(triggers()[0]).toMatchObject({ method: 'POST', rawPath: `/v1/workflow/${PROJECT}/${READABLE}/trigger` })
      expect(triggers()[0]?.body).toBe('')
      const number = Number(result.outputs['pr-number'])
      expect(github().labelsOf('acme/docs', number)).toEqual(['documentation', 'automation'])
      expect(result.at('info')).toEqual(
        expect.arrayContaining([
          `Triggering automation ${READABLE} of project ${PROJECT}`,
          `Automation run: ${queued?.instanceId ?? ''}`,
          `Job id: ${queued?.jobId ?? ''}`,
          `Labelled acme/docs#${number}: documentation, automation`
        ])
      )
      expect(result.at('notice')).toEqual([`Docs pull request: ${job?.job.prLink ?? ''}`])
      // Set as soon as known, before the wait: a step killed then still leaves it behind.
      expect(result.events.indexOf('output automation-run-id')).toBeLessThan(
        result.events.indexOf(`info Job id: ${queued?.jobId ?? ''}`)
      )
      expect(result.summary).toContain('✅ Docs pull request ready')
      expect(result.summary).toContain(
        `<tr><th align="left">Automation</th><td><code>${READABLE}</code>, run <code>${queued?.instanceId ?? ''}</code></td></tr>`
      )
      expect(result.summary).toContain('<tr><th align="left">Request</th><td>automation trigger</td></tr>')
      expect(result.summary).not.toContain('What now')
      // The first read waits the first poll interval, as after a create.
      expect(step.requests('get')[0]?.time).toBeGreaterThan(triggers()[0]?.time ?? Infinity)
    })

    it("a read of its job that fails otherwise than 404 is the step's error, as for a job", async () => {
      virtual().sim.failAlways('get', { kind: 'status', status: 401 })
      const result = await run()
      expect(result.code).toBe(1)
      expect(result.at('error')).toEqual([
        expect.stringMatching(
          new RegExp(`^Reading job ${runs()[0]?.jobId ?? ''} failed: the Agent API refused the key \\(401\\)`)
        )
      ])
      expect(result.at('notice')).toEqual([])
    })

    it('on a release, links its docs pull request in the release notes', async () => {
      github().addRelease('acme/app', { tag_name: 'v3.0.0', body: 'Notes' })
      const payload = { action: 'published', release: { tag_name: 'v3.0.0', body: 'Notes' } }
      const result = await step.run(
        { 'link-back': 'release' },
        {
          env: env({ GITHUB_EVENT_NAME: 'release', GITHUB_EVENT_PATH: 'e.json' }),
          files: { 'e.json': JSON.stringify(payload) }
        }
      )
      expect(result.code).toBe(0)
      expect(github().releaseBody('acme/app', 'v3.0.0')).toContain(
        `**Docs:** [acme/docs#${result.outputs['pr-number'] ?? ''}]`
      )
    })

    it('ends as any job does: fail-on, a time-out', async () => {
      virtual().sim.setScenario({ finalStatus: 'failed', pr: false })
      const failed = await run()
      expect(failed.code).toBe(1)
      expect(failed.at('error')).toEqual([
        `Docs agent job ${runs()[0]?.jobId ?? ''} ended failed (fail-on includes 'failed').`
      ])
      virtual().sim.setScenario({ runMs: 3_600_000 })
      const timedOut = await run({ timeout: '2m' })
      expect(timedOut.code).toBe(1)
      expect(timedOut.outputs).toMatchObject({
        status: 'active',
        'timed-out': 'true',
        'automation-run-id': runs()[1]?.instanceId
      })
    })

    it('wait: false returns once the run is queued, with both ids', async () => {
      const result = await run({ wait: 'false' })
      expect(result.code).toBe(0)
      const [queued] = runs()
      expect(result.outputs).toMatchObject({
        'automation-run-id': queued?.instanceId,
        'job-id': queued?.jobId,
        status: ''
      })
      expect(step.requests('get')).toEqual([])
      expect(result.at('info')).toContainEqual(
        `Automation ${READABLE}: run ${queued?.instanceId ?? ''} queued (job ${queued?.jobId ?? ''}); not waiting (wait: false).`
      )
      const [runId, jobId] = [queued?.instanceId ?? '', queued?.jobId ?? '']
      expect(result.summary).toContain('<h2>🚀 Automation run queued</h2>')
      expect(result.summary).toContain(
        `<p><strong>Automation run queued:</strong> run <code>${runId}</code> of automation <code>${READABLE}</code>, job <code>${jobId}</code>; this step did not wait for it.</p>`
      )
      expect(result.summary).toContain(
        `<p><strong>What now:</strong> In a later step, wait for its job with <code>job-id: ${jobId}</code> and no prompt; if the Agent API cannot read that job, follow run <code>${runId}</code> on ${RUNS_PAGE}.</p>`
      )
    })

    it('a 202 with the three ids is success as well', async () => {
      virtual().sim.setAutomations({ status: 202 })
      const result = await run()
      expect(result.code).toBe(0)
      expect(result.outputs.status).toBe('completed')
    })
  })

  describe('an answer that names the job but not the run', () => {
    // The answer's schema requires none of its ids (mintlify/docs openapi.json, the trigger's 202):
    // a job the answer names is a job created, never lost.
    it('is followed as any run: its job id in the outputs, the log and the summary; a re-run resumes it', async () => {
      virtual().sim.setAutomations({ omits: ['instanceId'] })
      const records = new MemoryRecords()
      const first = await step.run({}, { env: env(attempt(1)), records })
      const jobId = runs()[0]?.jobId ?? ''
      expect(first.code).toBe(0)
      expect(first.outputs).toMatchObject({ 'job-id': jobId, 'automation-run-id': '', status: 'completed' })
      expect(first.at('info')).toContainEqual(`Job id: ${jobId}`)
      expect(first.at('error')).toEqual([])
      expect(first.summary).toContain('✅ Docs pull request ready')
      expect(first.summary).toContain(`<tr><th align="left">Automation</th><td><code>${READABLE}</code></td></tr>`)
      const second = await step.run({}, { env: env(attempt(2)), records })
      expect(triggers()).toHaveLength(1)
      expect(second.code).toBe(0)
      expect(second.outputs['job-id']).toBe(jobId)
      expect(second.at('info')).toContainEqual(`Resuming the run of automation ${READABLE} from attempt 1`)
    })

    it('not waited for, or its job not readable: the texts name the job, and no empty run', async () => {
      virtual().sim.setAutomations({ omits: ['instanceId'] })
      const started = await run({ wait: 'false' })
      const startedJob = runs()[0]?.jobId ?? ''
      expect(started.outputs).toMatchObject({ 'job-id': startedJob, 'automation-run-id': '' })
      expect(started.at('info')).toContainEqual(
        `Automation ${READABLE}: a run queued (job ${startedJob}); not waiting (wait: false).`
      )
      expect(started.summary).toContain(
        `<strong>Automation run queued:</strong> a run of automation <code>${READABLE}</code>, job <code>${startedJob}</code>; this step did not wait for it.`
      )
      expect(started.summary).toContain(`the Agent API cannot read that job, follow the run on ${RUNS_PAGE}.`)
      const hidden = await run({ automation: HIDDEN })
      const hiddenJob = runs()[1]?.jobId ?? ''
      expect(hidden.code).toBe(0)
      expect(hidden.at('notice')).toEqual([
        `Automation ${HIDDEN}: a run was queued, and its job ${hiddenJob} cannot be followed through the Agent API (it reads as not found). Follow the run on ${RUNS_PAGE}.`
      ])
      expect(hidden.summary).toContain(
        `<strong>Automation run queued:</strong> a run of automation <code>${HIDDEN}</code>. Its job <code>${hiddenJob}</code> cannot be followed`
      )
      expect(hidden.summary).toContain(`<strong>What now:</strong> Follow the run on ${RUNS_PAGE}`)
      expect(started.everything() + hidden.everything()).not.toMatch(/run <code><\/code>|run {2}|run ``/)
    })
  })

  describe('a run whose job cannot be read', () => {
    it('ends successfully, status empty, with one notice naming the run and the Automation Runs page', async () => {
      const result = await run({ automation: HIDDEN, 'fail-on': 'failed, archived, timed-out, no-pr' })
      expect(result.code).toBe(0)
      const [queued] = runs()
      const runId = queued?.instanceId ?? ''
      const jobId = queued?.jobId ?? ''
      expect(result.outputs).toMatchObject({
        'automation-run-id': runId,
        'job-id': jobId,
        status: '',
        'timed-out': 'false'
      })
      expect(result.at('notice')).toEqual([
        `Automation ${HIDDEN}: run ${runId} was queued, and its job ${jobId} cannot be followed through the Agent API (it reads as not found). Follow the run on ${RUNS_PAGE}.`
      ])
      expect(result.at('warning')).toEqual([])
      expect(result.at('error')).toEqual([])
      // Read through the usual grace, then given up on.
      const gets = step.requests('get')
      expect(gets.length).toBeGreaterThan(1)
      expect((gets.at(-1)?.time ?? 0) - (triggers()[0]?.time ?? 0)).toBeGreaterThanOrEqual(NOT_FOUND_GRACE_MS)
      expect(result.summary).toContain('<h2>🚀 Automation run queued</h2>')
      expect(result.summary).toContain(
        `<strong>Automation run queued:</strong> run <code>${runId}</code> of automation <code>${HIDDEN}</code>. Its job <code>${jobId}</code> cannot be followed through the Agent API (it reads as not found): ${RUNS_PAGE} shows its progress and its pull request.`
      )
      expect(result.summary).toContain(`<strong>What now:</strong> Follow run <code>${runId}</code> on ${RUNS_PAGE}`)
    })

    it('is said so in the link-back comment, which offers no follow-up', () => {
      const defaults = inputDefaults(readAction(), 'tok')
      const settings = parseSettings({
        get: (name) => ({ ...defaults, 'api-key': 'k', 'project-id': 'p', automation: HIDDEN })[name] ?? '',
        readFile: () => ''
      })
      const state = {
        ...initialState(0, 'bgjob_1'),
        outcome: 'queued' as const,
        automation: { id: HIDDEN, run: 'run_1' }
      }
      const lines = renderLinkBack({ state, settings }, { serverUrl: undefined, runUrl: undefined })
      expect(lines).toEqual([
        "**Docs agent:** no docs pull request yet: the automation's run is queued; the Automation Runs page of the Mintlify dashboard follows it.",
        '',
        `automation \`${HIDDEN}\`, run \`run_1\` · job \`bgjob_1\``,
        '',
        "What now: Follow run `run_1` on the Automation Runs page of the Mintlify dashboard: it lists the run's pull request once the agent opens one. Re-running this workflow job does not trigger the automation again."
      ])
      const refused = { ...initialState(0, undefined), outcome: 'error' as const, automation: { id: HIDDEN } }
      expect(renderLinkBack({ state: refused, settings }, { serverUrl: undefined, runUrl: undefined })).toEqual([
        '**Docs agent:** no job was started: see the workflow run.',
        '',
        `automation \`${HIDDEN}\``
      ])
      const done = { ...state, outcome: 'completed' as const }
      expect(renderLinkBack({ state: done, settings }, { serverUrl: undefined, runUrl: undefined }).at(-1)).toBe(
        'To ask for changes, comment `/docs <what to change>` here.'
      )
    })
  })

  describe('input errors, before any request', () => {
    it.each([
      [
        'prompt',
        { prompt: 'Document it' },
        "the automation's prompt is stored in Mintlify, and its trigger takes no body"
      ],
      ['prompt-file', { 'prompt-file': 'p.md' }, "the automation's prompt is stored in Mintlify"],
      ['job-id', { 'job-id': 'job_1' }, 'a trigger queues a run of its own'],
      ['group', { group: 'docs', 'docs-repository': 'acme/docs' }, "an automation groups its runs' pull requests"],
      ['release-tags', { 'release-tags': 'v1.0.0' }, 'the trigger takes no context']
    ])('%s with automation', async (input, inputs, why) => {
      const result = await run(inputs)
      expect(result.code).toBe(1)
      expect(result.at('error')).toEqual([expect.stringContaining(`Input '${input}': not with 'automation': ${why}`)])
      expect(virtual().sim.requests).toEqual([])
    })

    it('an ID that is not one word', async () => {
      const result = await run({ automation: 'nightly docs' })
      expect(result.at('error')).toEqual([
        `Input 'automation': "nightly docs" is not an automation ID: expected the automation's ID from its settings panel on the dashboard's Automations page (one word, at most 200 characters).`
      ])
      expect(virtual().sim.requests).toEqual([])
    })
  })

  describe('refusals', () => {
    // The trigger's 400, as Mintlify's OpenAPI document gives it (mintlify/docs openapi.json): "The
    // automation ID is malformed, the automation is not active, or the automation is not configured
    // with a custom schedule."
    const refused400 = (automation: string, error: string) =>
      `Triggering automation ${automation} failed (answered 400: ${error}): Mintlify triggers only an active automation whose trigger is a custom schedule. On the dashboard's Automations page, check that it is active and that its trigger is a custom schedule, and that 'automation' holds the ID from its settings panel; or start a job with a prompt instead.`

    it('400 on a paused automation: its advice covers the causes Mintlify documents, not only the schedule', async () => {
      virtual().sim.fail('trigger', { kind: 'status', status: 400, body: '{"error":"Automation is not active"}' })
      const result = await run()
      expect(result.code).toBe(1)
      expect(result.at('error')).toEqual([refused400(READABLE, 'Automation is not active')])
      expect(triggers()).toHaveLength(1)
    })

    it('400: only a custom schedule can be triggered, and how to change it', async () => {
      const result = await run({ automation: 'auto-on-push' })
      expect(result.code).toBe(1)
      expect(result.at('error')).toEqual([
        refused400('auto-on-push', 'Only automations with a custom schedule trigger can be triggered')
      ])
      expect(triggers()).toHaveLength(1)
      expect(result.outputs).toMatchObject({ 'automation-run-id': '', 'job-id': '' })
      expect(result.summary).toContain('<strong>No pull request:</strong> no job was started.')
      expect(result.summary).toContain('<tr><th align="left">Automation</th><td><code>auto-on-push</code></td></tr>')
    })

    it('another 4xx is told as the server put it', async () => {
      virtual().sim.fail('trigger', { kind: 'status', status: 409, body: '{"error":"A run is in progress"}' })
      const result = await run()
      expect(result.at('error')).toEqual(['Triggering the automation failed: answered 409: A run is in progress.'])
    })

    it('404: names the automation and the project', async () => {
      const result = await run({ automation: 'auto-gone' })
      expect(result.at('error')).toEqual([
        "Triggering automation auto-gone failed: project 'proj-auto' has no automation 'auto-gone' (answered 404: Automation not found). Check the 'automation' input (the ID in the automation's settings panel on the dashboard's Automations page) and 'project-id'."
      ])
    })

    it('401 and 403 are worded as for jobs', async () => {
      virtual().sim.fail('trigger', { kind: 'status', status: 401 })
      const wrongKey = await run()
      // The hint's `mint_…` is redacted as the start of the key: the same for jobs (faults.test.ts).
      expect(wrongKey.at('error')).toEqual([
        expect.stringMatching(
          /^Triggering the automation failed: the Agent API refused the key \(401\)\. The key may have expired/
        )
      ])
      virtual().sim.fail('trigger', { kind: 'status', status: 403 })
      const forbidden = await run()
      expect(forbidden.at('error')).toEqual([
        "Triggering the automation failed: the Agent API forbade it (403). A key with an IP allow-list is answered 403 from any other address, and a GitHub-hosted runner's address changes: use a key without one, or a runner whose fixed address is on it. Check too that the key in 'api-key' belongs to project 'proj-auto' and has the write scope."
      ])
      expect(triggers()).toHaveLength(2)
    })
  })

  describe('the limit: 10 triggers per 10 seconds', () => {
    it('a 429 waits Retry-After, or 10 s, and the trigger is sent again', async () => {
      virtual().sim.fail(
        'trigger',
        { kind: 'status', status: 429, headers: { 'retry-after': '12' } },
        { kind: 'status', status: 429 }
      )
      const result = await run()
      expect(result.code).toBe(0)
      const times = triggers().map((r) => r.time)
      expect([(times[1] ?? 0) - (times[0] ?? 0), (times[2] ?? 0) - (times[1] ?? 0)]).toEqual([12_000, 10_000])
      expect(result.at('info')).toEqual(
        expect.arrayContaining([
          'The trigger request was not accepted (answered 429: Simulated HTTP 429); attempt 2 of 3 in 12s',
          'The trigger request was not accepted (answered 429: Simulated HTTP 429); attempt 3 of 3 in 10s'
        ])
      )
      expect(runs()).toHaveLength(1)
    })

    it('three requests at most, then an error naming the limit; none past timeout', async () => {
      virtual().sim.setAutomations({ perWindow: 0 })
      // Three requests whatever the timeout: a longer one would not have sent a fourth, so the error
      // does not advise raising it.
      const limited = await run({ timeout: '6h' })
      expect(limited.code).toBe(1)
      expect(triggers()).toHaveLength(3)
      expect(limited.at('error')).toEqual([
        'Triggering automation auto-readable-job failed: rate limited (answered 429: Rate limit exceeded; 3 attempts over 20s); no run was queued. Mintlify allows 10 automation triggers per 10 seconds per organization, shared with the update trigger: spread the runs out (a concurrency: group runs them one at a time).'
      ])
      const short = await run({ timeout: '10s' })
      expect(triggers()).toHaveLength(4)
      expect(short.at('error')).toEqual([
        "Triggering automation auto-readable-job failed: rate limited (answered 429: Rate limit exceeded; waiting 10s for it would pass timeout); no run was queued. Mintlify allows 10 automation triggers per 10 seconds per organization, shared with the update trigger: spread the runs out (a concurrency: group runs them one at a time), or raise 'timeout' so the step waits longer for the limit."
      ])
    })
  })

  describe('never sent twice', () => {
    it.each([
      ['a 503', { kind: 'status' as const, status: 503, effect: true }, 'answered 503: Simulated HTTP 503'],
      ['a 500', { kind: 'status' as const, status: 500, effect: true }, 'answered 500: Simulated HTTP 500'],
      ['a 502 before it acted', { kind: 'status' as const, status: 502 }, 'answered 502: Simulated HTTP 502'],
      ['a lost connection', { kind: 'reset' as const, effect: true }, 'connection failed'],
      ['no answer (time-out)', { kind: 'hang' as const }, 'no answer within 30s'],
      [
        'an answer without jobId',
        { kind: 'body' as const, body: '{"schemaId":"a","instanceId":"run_x"}' },
        'answered without jobId'
      ],
      [
        'an answer without any id',
        { kind: 'body' as const, body: '{"schemaId":"a"}', status: 202 },
        'answered without instanceId or jobId'
      ]
    ])('after %s: one error saying the run may have been queued, and where to check', async (_name, fault, detail) => {
      const records = new MemoryRecords()
      virtual().sim.fail('trigger', fault)
      const result = await step.run({}, { env: env(attempt(1)), records })
      expect(result.code).toBe(1)
      expect(triggers()).toHaveLength(1)
      expect(result.at('error')).toEqual([
        expect.stringMatching(
          new RegExp(
            `^Triggering automation auto-readable-job failed after the request was sent \\(.*${detail}.*\\): the automation run may have been queued\\. It was not sent again: a trigger is not idempotent, and a second run costs credits and opens a second pull request\\. Check ${RUNS_PAGE} before running this step again\\.$`
          )
        )
      ])
      expect(result.summary).toContain(
        `<strong>No run id:</strong> the trigger of automation <code>${READABLE}</code> may have queued a run, but its answer was lost.`
      )
      expect(result.summary).toContain(`<strong>What now:</strong> Look on ${RUNS_PAGE} for a run of automation`)
      // The re-run record says so: a re-run sends nothing.
      expect(opened(records)).toEqual([
        expect.objectContaining({ record: expect.objectContaining({ mayHaveActed: true, jobId: undefined }) })
      ])
    })

    it("a job's create keeps its own rule: a 503 there certainly did nothing", async () => {
      virtual().sim.failAlways('create', { kind: 'status', status: 503 })
      const result = await run({ automation: '', prompt: 'Document it', timeout: '5s' })
      expect(result.code).toBe(1)
      expect(result.summary).toContain('<strong>No pull request:</strong> no job was started.')
    })

    it('a cancel while the trigger is in flight says the run may have been queued', async () => {
      const cancel = new AbortController()
      virtual().sim.fail('trigger', { kind: 'hang' })
      virtual().sim.onRequest = () => cancel.abort()
      const result = await step.run({}, { env: env(), cancel })
      expect(result.code).toBe(1)
      expect(result.at('error')).toEqual([
        `Cancelled while the trigger request was in flight: the automation run may have been queued. Check ${RUNS_PAGE}.`
      ])
    })
  })

  it('dry run: sends nothing and says what would be triggered', async () => {
    const result = await run({ 'dry-run': 'true' })
    expect(result.code).toBe(0)
    expect(virtual().sim.requests).toEqual([])
    expect(result.at('info')).toContainEqual(
      `Dry run: nothing is sent. The step would trigger automation ${READABLE} of project ${PROJECT}.`
    )
    expect(result.at('notice')).toEqual([
      `Dry run: nothing was sent; the step would trigger automation ${READABLE} (dry-run: true).`
    ])
    expect(result.summary).toContain(
      `<strong>Nothing was sent</strong> (<code>dry-run: true</code>): the step would trigger automation <code>${READABLE}</code>.`
    )
    expect(result.outputs).toMatchObject({ 'automation-run-id': '', 'job-id': '', prompt: '' })
  })

  describe('a re-run resumes the same run and job', () => {
    const attempt = (n: number) => ({
      GITHUB_RUN_ID: '7001',
      GITHUB_RUN_ATTEMPT: String(n),
      GITHUB_JOB: 'docs',
      GITHUB_ACTION: 'automation'
    })
    const rerun = (n: number, records: MemoryRecords, inputs: Record<string, string> = {}) =>
      step.run(inputs, { env: env(attempt(n)), records })

    it('after a successful attempt: the same outputs, no second trigger', async () => {
      const records = new MemoryRecords()
      const first = await rerun(1, records)
      const second = await rerun(2, records)
      expect(second.code).toBe(0)
      expect(triggers()).toHaveLength(1)
      expect(second.outputs).toEqual(first.outputs)
      expect(second.at('info')).toContainEqual(
        `Resuming run ${first.outputs['automation-run-id'] ?? ''} of automation ${READABLE} from attempt 1`
      )
      expect(second.summary).toContain('automation trigger, resumed from attempt 1 of this run')
    })

    it('after an attempt whose job cannot be read, or that was cancelled while waiting', async () => {
      const records = new MemoryRecords()
      const first = await rerun(1, records, { automation: HIDDEN })
      const second = await rerun(2, records, { automation: HIDDEN })
      expect(triggers()).toHaveLength(1)
      expect(second.code).toBe(0)
      expect(second.outputs['automation-run-id']).toBe(first.outputs['automation-run-id'])
      expect(second.at('notice')).toEqual(first.at('notice'))
      const cancelled = new MemoryRecords()
      const cancel = new AbortController()
      virtual().sim.onRequest = (r) => {
        if (r.operation === 'get') cancel.abort()
      }
      const stopped = await step.run({}, { env: env(attempt(1)), records: cancelled, cancel })
      expect(stopped.code).toBe(1)
      const stoppedJob = stopped.outputs['job-id'] ?? ''
      expect(stopped.at('error')).toEqual([
        `Cancelled while waiting for job ${stoppedJob}. Resume with job-id: ${stoppedJob}.`
      ])
      virtual().sim.onRequest = undefined
      const resumed = await rerun(2, cancelled)
      expect(resumed.code).toBe(0)
      expect(triggers()).toHaveLength(2)
      expect(resumed.outputs).toMatchObject({
        'automation-run-id': stopped.outputs['automation-run-id'],
        status: 'completed'
      })
    })

    it('after an attempt whose answer was lost: nothing is sent, and the error says why', async () => {
      const records = new MemoryRecords()
      virtual().sim.fail('trigger', { kind: 'status', status: 503, effect: true })
      const sentAt = new Date(virtual().clock.now()).toISOString().slice(0, 19).replace('T', ' ')
      await rerun(1, records)
      virtual().clock.advance(3_600_000)
      const second = await rerun(2, records)
      expect(second.summary).toContain(
        `<strong>No run id:</strong> the trigger of automation <code>${READABLE}</code> may have queued a run, but its answer was lost.`
      )
      expect(second.summary).toContain(
        `<strong>What now:</strong> Look on ${RUNS_PAGE} for a run of automation <code>${READABLE}</code> queued around ${sentAt} UTC. If there is one, do not trigger it again: a second run costs credits and opens a second pull request.`
      )
      expect(second.summary).toContain('automation trigger, resumed from attempt 1 of this run')
      expect(second.code).toBe(1)
      expect(triggers()).toHaveLength(1)
      expect(runs()).toHaveLength(1)
      expect(second.at('error')).toEqual([
        'Attempt 1 of this step sent the trigger request, but its answer was lost: the automation run may have been queued. It is not sent again; set on-rerun: new to send it anyway.'
      ])
    })

    it('resumes at once, riding out 404s within the grace of the first answer; a cancel then is a wait cancelled', async () => {
      const records = new MemoryRecords()
      const first = await rerun(1, records, { automation: HIDDEN, wait: 'false' })
      const startedAt = virtual().clock.now()
      const second = await rerun(2, records, { automation: HIDDEN })
      expect(second.code).toBe(0)
      const gets = step.requests('get')
      expect(gets[0]?.time).toBe(startedAt)
      expect(gets.length).toBeGreaterThan(1)
      expect(second.outputs['automation-run-id']).toBe(first.outputs['automation-run-id'])
      const cancel = new AbortController()
      virtual().sim.onRequest = (r) => {
        if (r.operation === 'get') cancel.abort()
      }
      const third = await step.run({ automation: HIDDEN }, { env: env(attempt(3)), records, cancel })
      const jobId = first.outputs['job-id'] ?? ''
      expect(third.at('error')).toEqual([`Cancelled while waiting for job ${jobId}. Resume with job-id: ${jobId}.`])
    })

    it('on-rerun: new triggers it again', async () => {
      const records = new MemoryRecords()
      await rerun(1, records, { 'on-rerun': 'new' })
      const second = await rerun(2, records, { 'on-rerun': 'new' })
      expect(second.code).toBe(0)
      expect(runs()).toHaveLength(2)
      expect(second.at('info')).toContainEqual(
        "Attempt 2 of this run: on-rerun is new, so the automation is triggered without looking for an earlier attempt's job."
      )
    })

    it('keeps the run in the record, under a key of its own', () => {
      const identity: RunIdentity = { runId: '7001', attempt: 1, job: 'docs', action: 'automation' }
      const recorded: RecordedStep = {
        mode: 'automation',
        automationId: READABLE,
        projectId: PROJECT,
        rerunKey: 'null',
        apiKey: KEY
      }
      const records = new MemoryRecords()
      return rerun(1, records).then((first) => {
        expect(opened(records, identity, recorded)).toEqual([
          {
            kind: 'found',
            record: {
              jobId: first.outputs['job-id'],
              automationRun: first.outputs['automation-run-id'],
              attempt: 1,
              answeredAt: expect.any(Number),
              mayHaveActed: false,
              prompt: fingerprint(''),
              answer: undefined
            }
          }
        ])
        // Another automation is another step's request.
        expect(opened(records, identity, { ...recorded, automationId: HIDDEN })[0]).toMatchObject({ kind: 'rejected' })
      })
    })
  })

  function attempt(n: number): Record<string, string> {
    return { GITHUB_RUN_ID: '7002', GITHUB_RUN_ATTEMPT: String(n), GITHUB_JOB: 'docs', GITHUB_ACTION: 'automation' }
  }

  function opened(
    records: MemoryRecords,
    identity: RunIdentity = { runId: '7002', attempt: 1, job: 'docs', action: 'automation' },
    recorded: RecordedStep = {
      mode: 'automation',
      automationId: READABLE,
      projectId: PROJECT,
      rerunKey: 'null',
      apiKey: KEY
    }
  ) {
    return records.keys.map((key) => openRecord(identity, recorded, key))
  }
})
