/**
 * Re-runs: one step means one job, whatever "Re-run jobs" does. In-process, with the records in
 * memory under the cache service's rules (the store over @actions/cache has its own suite, and the
 * end-to-end suite runs two attempts as two processes against a fake cache service).
 */
import { describe, expect, it } from '@jest/globals'
import { MemoryRecords } from '../../scripts/in-process.js'
import { NOT_FOUND_GRACE_MS } from '../../src/agent-api/wait.js'
import { useStep } from '../fixtures/step.js'
import { fingerprint } from '../../src/base/fingerprint.js'
import { openRecord, recordPrefix, sealRecord, type RecordedStep, type RunIdentity } from '../../src/rerun/record.js'

// One describe for the file: its hooks stay its own when the mutation suite runs the files together.
describe('rerun', () => {
  const KEY = 'mint_rerun_secret_key_0000'
  const PROJECT = 'proj-rerun'
  const harness = useStep({ key: KEY, project: PROJECT, prompt: 'Document v2', scenario: { runMs: 20_000 } })
  const virtual = harness.virtual

  const env = (attempt: number, extra: Record<string, string> = {}) => ({
    GITHUB_RUN_ID: '9001',
    GITHUB_RUN_ATTEMPT: String(attempt),
    GITHUB_JOB: 'docs',
    GITHUB_ACTION: 'agent',
    ...extra
  })
  const attempt = (
    n: number,
    records: MemoryRecords,
    extra: Record<string, string> = {},
    envExtra: Record<string, string> = {},
    cancel?: AbortController
  ) => harness.run(extra, { env: env(n, envExtra), records, ...(cancel ? { cancel } : {}) })
  const creates = () => harness.requests('create').length
  // This file's step, as its records are keyed.
  const step: RecordedStep = {
    mode: 'create',
    projectId: PROJECT,
    rerunKey: 'null',
    apiKey: KEY,
    prompt: 'Document v2'
  }
  const identity: RunIdentity = { runId: '9001', attempt: 1, job: 'docs', action: 'agent' }
  const opened = (records: MemoryRecords) => records.keys.map((key) => openRecord(identity, step, key))

  describe('a re-run resumes the job of an earlier attempt', () => {
    it('after a successful attempt: reports that job, as if it had created it, and creates none', async () => {
      const records = new MemoryRecords()
      const first = await attempt(1, records)
      expect(first.code).toBe(0)
      expect(opened(records)).toEqual([
        {
          kind: 'found',
          record: {
            jobId: first.outputs['job-id'],
            attempt: 1,
            answeredAt: expect.any(Number),
            mayHaveActed: false,
            prompt: fingerprint('Document v2'),
            answer: undefined
          }
        }
      ])
      const second = await attempt(2, records)
      expect(second.code).toBe(0)
      expect(creates()).toBe(1)
      expect(second.outputs).toEqual(first.outputs)
      expect(second.at('info')).toContainEqual(`Resuming job ${first.outputs['job-id'] ?? ''} from attempt 1`)
      expect(second.summary).toContain('new job, resumed from attempt 1 of this run')
      expect(second.summary).toContain('✅ Docs pull request ready')
      // Keys are immutable: attempt 2 did not post, so it saved nothing.
      expect(records.keys.length).toBe(1)
    })

    it('after an attempt cancelled while waiting: waits for the same job', async () => {
      const records = new MemoryRecords()
      const cancel = harness.cancelAtRequest('get', 2)
      const first = await attempt(1, records, {}, {}, cancel)
      expect(first.code).toBe(1)
      virtual().sim.onRequest = undefined
      const second = await attempt(2, records)
      expect(second.code).toBe(0)
      expect(creates()).toBe(1)
      expect(second.outputs['job-id']).toBe(first.outputs['job-id'])
      expect(second.outputs.status).toBe('completed')
    })

    it('protects a follow-up the same way: the message is not sent twice', async () => {
      const records = new MemoryRecords()
      virtual().sim.addJob(PROJECT, { id: 'job_m', status: 'completed' })
      const inputs = { 'job-id': 'job_m', prompt: 'Also the CLI' }
      expect((await attempt(1, records, inputs)).code).toBe(0)
      const second = await attempt(2, records, inputs)
      expect(second.code).toBe(0)
      expect(harness.requests('message')).toHaveLength(1)
      expect(second.at('info')).toContainEqual('Resuming job job_m from attempt 1')
    })

    it('protects wait: false steps', async () => {
      const records = new MemoryRecords()
      const first = await attempt(1, records, { wait: 'false' })
      const second = await attempt(2, records, { wait: 'false' })
      expect([first.code, second.code]).toEqual([0, 0])
      expect(creates()).toBe(1)
      expect(second.outputs['job-id']).toBe(first.outputs['job-id'])
      expect(second.outputs.status).toBe('active')
    })

    it('keeps the prompt and the context of the attempt that sent them', async () => {
      const records = new MemoryRecords()
      const payload = JSON.stringify({
        compare: 'https://github.com/a/b/compare/x...y',
        commits: [{ id: '1', message: 'Add export (#4)' }]
      })
      const runWith = (n: number) =>
        harness.run(
          { prompt: 'Document it' },
          {
            records,
            env: env(n, {
              GITHUB_EVENT_NAME: 'push',
              GITHUB_REF: 'refs/heads/main',
              GITHUB_REPOSITORY: 'a/b',
              GITHUB_EVENT_PATH: 'e.json'
            }),
            files: { 'e.json': payload }
          }
        )
      const first = await runWith(1)
      const second = await runWith(2)
      expect(second.outputs.prompt).toBe(first.outputs.prompt)
      expect(second.outputs.prompt).toContain('- Add export (#4)')
      expect(second.summary).toContain('<tr><th align="left">Context</th><td>Push to main: 1 commit</td></tr>')
    })

    it('shows no prompt when the one built now is not the one sent (the context changed)', async () => {
      const records = new MemoryRecords()
      const runWith = (n: number, message: string) =>
        harness.run(
          { prompt: 'Document it' },
          {
            records,
            env: env(n, {
              GITHUB_EVENT_NAME: 'push',
              GITHUB_REF: 'refs/heads/main',
              GITHUB_REPOSITORY: 'a/b',
              GITHUB_EVENT_PATH: 'e.json'
            }),
            files: { 'e.json': JSON.stringify({ commits: [{ id: '1', message }] }) }
          }
        )
      const first = await runWith(1, 'Add export (#4)')
      const second = await runWith(2, 'Add import (#5)')
      expect(creates()).toBe(1)
      expect(second.outputs['job-id']).toBe(first.outputs['job-id'])
      expect(second.outputs.prompt).toBe('')
      expect(second.summary).not.toContain('Add import')
      expect(second.at('info')).toContainEqual(
        "The prompt attempt 1 sent differs from the one built now (the workflow's context changed since): it is not shown."
      )
    })

    it('creates a new job when the remembered one is gone (404), and says so', async () => {
      const records = new MemoryRecords()
      const first = await attempt(1, records, { wait: 'false' })
      virtual().clock.advance(NOT_FOUND_GRACE_MS + 1)
      virtual().sim.fail('get', { kind: 'notFound' })
      const second = await attempt(2, records)
      expect(second.code).toBe(0)
      expect(creates()).toBe(2)
      expect(second.at('warning')).toEqual([
        `Job ${first.outputs['job-id'] ?? ''} from attempt 1 no longer exists (404), so a new job is created.`
      ])
      expect(second.outputs['job-id']).not.toBe(first.outputs['job-id'])
      // The new job is remembered for attempt 3.
      expect(records.keys.length).toBe(2)
      const third = await attempt(3, records)
      expect(third.outputs['job-id']).toBe(second.outputs['job-id'])
      expect(third.at('info')).toContainEqual(`Resuming job ${second.outputs['job-id'] ?? ''} from attempt 2`)
    })
  })

  describe('what is the same step', () => {
    it.each([
      ['another prompt', { prompt: 'Document v3' }, {}],
      ['another project', { 'project-id': 'other' }, {}],
      ['another step', {}, { GITHUB_ACTION: 'agent2' }],
      ['another job', {}, { GITHUB_JOB: 'docs2' }],
      ['another matrix leg', { 'rerun-key': '{"os":"windows"}' }, {}],
      ['another run', {}, { GITHUB_RUN_ID: '9002' }]
    ])('%s never picks up the job', async (_name, inputs, envExtra) => {
      const records = new MemoryRecords()
      await attempt(1, records, { 'rerun-key': '{"os":"linux"}' })
      virtual().sim.setScenario({})
      const second = await attempt(2, records, { 'rerun-key': '{"os":"linux"}', ...inputs }, envExtra)
      expect(second.code).toBe(0)
      expect(creates()).toBe(2)
      expect(second.at('info')).toContainEqual(
        'Attempt 2: no earlier attempt of this step left a job, so a new job is created.'
      )
    })

    it('on-rerun: new posts again', async () => {
      const records = new MemoryRecords()
      await attempt(1, records, { 'on-rerun': 'new' })
      const second = await attempt(2, records, { 'on-rerun': 'new' })
      expect(creates()).toBe(2)
      expect(second.at('info')).toContainEqual(
        "Attempt 2 of this run: on-rerun is new, so a new job is created without looking for an earlier attempt's job."
      )
    })
  })

  describe('a record this step did not write is never followed', () => {
    const planted = (records: MemoryRecords, key: string) => records.keys.push(key)
    const ignored = async (records: MemoryRecords, reason: string) => {
      const second = await attempt(2, records)
      expect(second.code).toBe(0)
      expect(creates()).toBe(1)
      expect(second.outputs['job-id']).toBe(virtual().sim.jobs(PROJECT)[0]?.job.id)
      expect(second.at('warning')).toEqual([
        `Ignored a re-run record under this step's cache key (${reason}: not saved by an earlier attempt of this step with this api-key), so a new job is created.`
      ])
    }
    const real = (jobId: string) => ({
      jobId,
      attempt: 1,
      answeredAt: 5,
      mayHaveActed: false,
      prompt: fingerprint('Document v2'),
      answer: undefined
    })

    it('a key under the prefix with a wrong MAC', async () => {
      const records = new MemoryRecords()
      const key = sealRecord(identity, step, real('job_planted')) ?? ''
      planted(records, `${key.slice(0, -1)}${key.endsWith('0') ? '1' : '0'}`)
      await ignored(records, 'its signature is wrong')
    })

    it('another job id, sealed with another api-key', async () => {
      const records = new MemoryRecords()
      const other = { ...step, apiKey: 'mint_someone_else' }
      const key = sealRecord(identity, other, real('job_planted')) ?? ''
      // Under this step's prefix, as a planter who read the key list would put it.
      planted(records, `${recordPrefix(identity, step)}${key.slice(recordPrefix(identity, other).length)}`)
      await ignored(records, 'its signature is wrong')
    })

    it("another run's real record, moved under this run's prefix", async () => {
      const records = new MemoryRecords()
      const run2 = { ...identity, runId: '9002' }
      const key = sealRecord(run2, step, real('job_other_run')) ?? ''
      planted(records, `${recordPrefix(identity, step)}${key.slice(recordPrefix(run2, step).length)}`)
      await ignored(records, 'its signature is wrong')
    })

    it('a key under the prefix that is no record at all', async () => {
      const records = new MemoryRecords()
      planted(records, `${recordPrefix(identity, step)}../../etc/passwd`)
      await ignored(records, 'not a record of this step')
    })

    it('a real record still resumes', async () => {
      virtual().sim.addJob(PROJECT, { id: 'job_real', status: 'completed' })
      const records = new MemoryRecords()
      planted(records, sealRecord(identity, step, real('job_real')) ?? '')
      const second = await attempt(2, records)
      expect(second.outputs['job-id']).toBe('job_real')
      expect(second.outputs.prompt).toBe('Document v2')
      expect(creates()).toBe(0)
      expect(second.at('warning')).toEqual([])
    })
  })

  describe('the record service', () => {
    it('absent (a local run): nothing saved or looked up, a debug line', async () => {
      const records = new MemoryRecords(false)
      const first = await attempt(1, records)
      const second = await attempt(2, records)
      expect(creates()).toBe(2)
      expect(records.keys.length).toBe(0)
      expect(first.at('debug')).toContainEqual('No Actions cache service here: no re-run record is saved.')
      expect(second.at('debug')).toContainEqual(
        'No Actions cache service here: a re-run cannot find the job of an earlier attempt.'
      )
    })

    it('failing to restore: one warning, and the job is created', async () => {
      const records = new MemoryRecords()
      await attempt(1, records)
      records.failRestore = 'getCacheEntry failed: Cache service responded with 500'
      const second = await attempt(2, records)
      expect(second.code).toBe(0)
      expect(creates()).toBe(2)
      expect(second.at('warning')).toEqual([
        'Could not read what earlier attempts of this step did (getCacheEntry failed: Cache service responded with 500), so a new job is created; if an earlier attempt already did, there will be two.'
      ])
    })

    it('failing to save: one warning, and the step is unaffected', async () => {
      const records = new MemoryRecords()
      records.failSave = 'reserveCache failed: Cache service responded with 500'
      const first = await attempt(1, records)
      expect(first.code).toBe(0)
      expect(first.at('warning')).toEqual([
        `Could not save the re-run record (reserveCache failed: Cache service responded with 500): a re-run of this workflow job will not find job ${first.outputs['job-id'] ?? ''} and a new job is created again.`
      ])
    })

    it('read-only (pull_request_target, issue_comment): one debug line, no warning', async () => {
      const records = new MemoryRecords()
      records.readOnly = true
      const first = await attempt(1, records)
      expect(first.code).toBe(0)
      expect(first.at('warning')).toEqual([])
      expect(first.at('debug')).toContainEqual(
        `The Actions cache is read-only here (cache write denied: read-only token): a re-run of this workflow job will not find job ${first.outputs['job-id'] ?? ''} and a new job is created again.`
      )
    })

    it('no runner variables: no record', async () => {
      const records = new MemoryRecords()
      await harness.run({ prompt: 'x' }, { records })
      expect(records.keys.length).toBe(0)
    })
  })

  describe('found by the soak', () => {
    it('a create whose answer was lost in attempt 1 is not sent again in attempt 2', async () => {
      const records = new MemoryRecords()
      virtual().sim.fail('create', { kind: 'status', status: 502, effect: true })
      const first = await attempt(1, records)
      expect(first.code).toBe(1)
      expect(opened(records)).toEqual([
        { kind: 'found', record: expect.objectContaining({ jobId: undefined, mayHaveActed: true, attempt: 1 }) }
      ])
      const sentAt = new Date(virtual().clock.now()).toISOString().slice(0, 19).replace('T', ' ')
      virtual().clock.advance(3_600_000)
      const second = await attempt(2, records)
      expect(second.code).toBe(1)
      expect(creates()).toBe(1)
      expect(second.at('error')).toEqual([
        'Attempt 1 of this step sent the create request, but its answer was lost: the job may have been created. It is not sent again; set on-rerun: new to send it anyway.'
      ])
      expect(second.summary).toContain(
        '<strong>No job id:</strong> the create request may have started a job, but its answer was lost.'
      )
      // The job to look for would have been created by attempt 1, an hour before this one.
      expect(second.summary).toContain(`a job created around ${sentAt} UTC`)
      // The prompt it may have sent: the user's own, with no context to build again.
      expect(second.outputs.prompt).toBe('Document v2')
      // on-rerun: new is the way to post anyway.
      expect((await attempt(3, records, { 'on-rerun': 'new' })).code).toBe(0)
      expect(creates()).toBe(2)
    })

    it('a lost create whose prompt had context: the re-run does not build it again, and shows none', async () => {
      const records = new MemoryRecords()
      const push = {
        GITHUB_EVENT_NAME: 'push',
        GITHUB_REF: 'refs/heads/main',
        GITHUB_REPOSITORY: 'a/b',
        GITHUB_EVENT_PATH: 'e.json'
      }
      const runWith = (n: number) =>
        harness.run(
          { prompt: 'Document v2' },
          {
            records,
            env: env(n, push),
            files: { 'e.json': JSON.stringify({ commits: [{ id: '1', message: 'Add export (#4)' }] }) }
          }
        )
      virtual().sim.fail('create', { kind: 'status', status: 502, effect: true })
      expect((await runWith(1)).outputs.prompt).toContain('Add export (#4)')
      const second = await runWith(2)
      expect(second.code).toBe(1)
      expect(creates()).toBe(1)
      expect(second.outputs.prompt).toBe('')
    })

    it('a cancel while the create was on the wire, then a re-run: not sent again', async () => {
      const records = new MemoryRecords()
      const cancel = new AbortController()
      virtual().sim.fail('create', { kind: 'hang' })
      virtual().sim.onRequest = (r) => r.operation === 'create' && cancel.abort()
      expect((await attempt(1, records, {}, {}, cancel)).code).toBe(1)
      virtual().sim.onRequest = undefined
      const second = await attempt(2, records)
      expect(second.code).toBe(1)
      expect(creates()).toBe(1)
    })

    it('a follow-up whose answer was lost is not delivered twice', async () => {
      const records = new MemoryRecords()
      virtual().sim.addJob(PROJECT, { id: 'job_lost', status: 'completed' })
      virtual().sim.fail('message', { kind: 'reset', effect: true })
      const inputs = { 'job-id': 'job_lost', prompt: 'Also the CLI' }
      expect((await attempt(1, records, inputs)).code).toBe(1)
      const second = await attempt(2, records, inputs)
      expect(second.code).toBe(1)
      expect(harness.requests('message')).toHaveLength(1)
      expect(second.outputs['job-id']).toBe('job_lost')
      expect(second.outputs.prompt).toBe('Also the CLI')
      expect(second.at('error')).toEqual([
        expect.stringMatching(
          /^Attempt 1 of this step sent the follow-up request, but its answer was lost: the follow-up may have been delivered\./
        )
      ])
    })

    it('a cancel while the record is read keeps the job id it found', async () => {
      const records = new MemoryRecords()
      const first = await attempt(1, records, { wait: 'false' })
      const cancel = new AbortController()
      const lookup = records.lookup.bind(records)
      records.lookup = (prefix) => {
        cancel.abort()
        return lookup(prefix)
      }
      const second = await attempt(2, records, {}, {}, cancel)
      expect(second.code).toBe(1)
      const id = first.outputs['job-id'] ?? ''
      expect(second.outputs['job-id']).toBe(id)
      expect(second.at('error')).toEqual([`Cancelled while waiting for job ${id}. Resume with job-id: ${id}.`])
    })

    it("a resumed follow-up still tells the previous prompt's result from its own", async () => {
      const records = new MemoryRecords()
      virtual().sim.addJob(PROJECT, { id: 'job_prev', status: 'failed' })
      virtual().sim.setScenario({ runMs: 20_000, staleAfterMessageMs: 8000 })
      const inputs = { 'job-id': 'job_prev', prompt: 'Try again' }
      const cancel = new AbortController()
      virtual().sim.onRequest = (r) => r.operation === 'get' && cancel.abort()
      expect((await attempt(1, records, inputs, {}, cancel)).code).toBe(1)
      virtual().sim.onRequest = undefined
      const second = await attempt(2, records, inputs)
      expect(second.code).toBe(0)
      expect(second.outputs.status).toBe('completed')
      expect(second.at('info')).toContainEqual(
        'Job job_prev still shows the result of the previous prompt; waiting for the follow-up to be taken up'
      )
    })

    it('wait: false on a re-run rides out a failed read, as any poll does', async () => {
      const records = new MemoryRecords()
      const first = await attempt(1, records, { wait: 'false' })
      virtual().sim.fail('get', { kind: 'body', body: '' }, { kind: 'status', status: 502 })
      const second = await attempt(2, records, { wait: 'false' })
      expect(second.code).toBe(0)
      expect(second.outputs).toMatchObject({ 'job-id': first.outputs['job-id'], status: 'active' })
      expect(
        virtual()
          .sim.requests.filter((r) => r.operation === 'get')
          .map((r) => r.answeredStatus)
      ).toEqual([200, 502, 200])
    })
  })
})
