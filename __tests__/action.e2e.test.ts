import { describe, expect, it } from '@jest/globals'
import { useSimulator } from './simulator-fixture.js'
import type { AgentApiSimulator } from '../simulator/server.js'
import { annotations, runAction, secretLeaks } from '../scripts/run-action.js'

const KEY = 'mint_e2e_secret_key_0123456789'
let sim: AgentApiSimulator

useSimulator(KEY, { runMs: 1200 }, (started) => (sim = started))

const inputs = (extra: Record<string, string> = {}) => ({
  'api-key': KEY,
  'project-id': 'proj-e2e',
  'base-url': sim.url,
  'poll-interval': '500ms',
  timeout: '30s',
  ...extra
})

describe('create and wait', () => {
  it('completes with a pull request: outputs, summary, notice and requests', async () => {
    const run = await runAction(inputs({ prompt: 'Document release v1.2.3' }))
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)

    const creates = sim.requests.filter((r) => r.operation === 'create')
    expect(creates).toHaveLength(1)
    expect(creates[0]).toMatchObject({ method: 'POST', rawPath: '/v2/agent/proj-e2e/job' })
    expect(JSON.parse(creates[0]?.body ?? '')).toEqual({ prompt: 'Document release v1.2.3' })
    expect(creates[0]?.headers.authorization).toBe(`Bearer ${KEY}`)
    expect(creates[0]?.headers['content-type']).toBe('application/json')
    const polls = sim.requests.filter((r) => r.operation === 'get')
    expect(polls.length).toBeGreaterThanOrEqual(1)
    expect(polls.length).toBeLessThanOrEqual(6)

    const [job] = sim.jobs('proj-e2e').slice(-1)
    const id = job?.job.id as string
    expect(run.outputs).toMatchObject({
      'job-id': id,
      status: 'completed',
      'pr-link': job?.job.prLink,
      'pr-repository': 'acme/docs',
      'source-repository': 'https://github.com/acme/docs',
      'timed-out': 'false'
    })
    expect(run.outputs['pr-number']).toMatch(/^\d+$/)
    expect(JSON.parse(run.outputs.job ?? '')).toMatchObject({ id, status: 'completed' })
    expect(run.stdout).toContain(`Job id: ${id}`)
    expect(run.stdout).toMatch(/is active/)
    expect(run.stdout).toMatch(/is completed after/)
    expect(annotations(run.stdout, 'notice')).toEqual([`Docs pull request: ${job?.job.prLink}`])
    expect(run.summary).toContain('✅ Docs agent job completed')
    expect(run.summary).toContain(`<a href="${job?.job.prLink}">`)
    expect(run.summary).toMatch(/Waited<\/th><td>\d+s, \d+ polls?/)
    expect(run.summary).toContain('Document release v1.2.3')
  })

  it('completes without a pull request: succeeds, says so, and fails only with fail-on: no-pr', async () => {
    sim.setScenario({ pr: false })
    const run = await runAction(inputs({ prompt: 'Fix typos' }))
    expect(run.code).toBe(0)
    expect(run.outputs).toMatchObject({ status: 'completed', 'pr-link': '', 'pr-number': '' })
    expect(run.summary).toContain('no pull request (the agent changed no files)')
    expect(run.stdout).toContain('no pull request (the agent changed no files)')

    const strict = await runAction(inputs({ prompt: 'Fix typos', 'fail-on': 'failed, no-pr' }))
    expect(strict.code).toBe(1)
    expect(annotations(strict.stdout, 'error')).toEqual([
      `Docs agent job ${strict.outputs['job-id']} completed without a pull request (fail-on includes 'no-pr').`
    ])
  })

  it.each(['failed', 'archived'] as const)('fails the step when the job ends %s, naming the job', async (status) => {
    sim.setScenario({ finalStatus: status, pr: false })
    const run = await runAction(inputs({ prompt: 'Document it' }))
    expect(run.code).toBe(1)
    const id = run.outputs['job-id'] as string
    expect(id).toMatch(/^job_/)
    expect(run.outputs.status).toBe(status)
    expect(annotations(run.stdout, 'error')).toEqual([
      `Docs agent job ${id} ended ${status} (fail-on includes '${status}').`
    ])
    if (status === 'archived') expect(run.outputs['archived-at']).not.toBe('')

    const tolerated = await runAction(inputs({ prompt: 'Document it', 'fail-on': 'none' }))
    expect(tolerated.code).toBe(0)
    expect(annotations(tolerated.stdout, 'warning')[0]).toContain(`ended ${status}`)
  })

  it('times out with the job id, timed-out output and how to resume', async () => {
    sim.setScenario({ runMs: 60_000 })
    const run = await runAction(inputs({ prompt: 'Slow job', timeout: '3s' }))
    expect(run.code).toBe(1)
    const id = run.outputs['job-id'] as string
    expect(run.outputs).toMatchObject({ status: 'active', 'timed-out': 'true' })
    expect(annotations(run.stdout, 'error')[0]).toBe(
      `Timed out after 3s waiting for job ${id} (still active). Resume with job-id: ${id}.`
    )
    expect(run.summary).toContain('Timed out waiting')
    expect(run.summary).toContain(`job-id: ${id.replace(/_/g, '&#95;')}`)

    const tolerated = await runAction(inputs({ prompt: 'Slow job', timeout: '2s', 'fail-on': 'failed' }))
    expect(tolerated.code).toBe(0)
    expect(tolerated.outputs['timed-out']).toBe('true')
  })
})

describe('existing jobs', () => {
  it('sends a follow-up to job-id and waits for it', async () => {
    sim.addJob('proj-e2e', { id: 'job_existing/1', status: 'completed', prompt: 'first' })
    const run = await runAction(inputs({ 'job-id': 'job_existing/1', prompt: 'Also document the CLI' }))
    expect(run.code).toBe(0)
    expect(sim.requests.filter((r) => r.operation === 'create')).toHaveLength(0)
    const [message] = sim.requests.filter((r) => r.operation === 'message')
    expect(message).toMatchObject({ method: 'POST', rawPath: '/v2/agent/proj-e2e/job/job_existing%2F1/message' })
    expect(JSON.parse(message?.body ?? '')).toEqual({ prompt: 'Also document the CLI' })
    expect(sim.jobs('proj-e2e').find((j) => j.job.id === 'job_existing/1')?.prompts).toEqual([
      'first',
      'Also document the CLI'
    ])
    expect(run.outputs).toMatchObject({ 'job-id': 'job_existing/1', status: 'completed' })
    expect(run.summary).toContain('follow-up message')
  })

  it('only waits when job-id comes without a prompt', async () => {
    sim.addJob('proj-e2e', { id: 'job_wait' })
    const run = await runAction(inputs({ 'job-id': 'job_wait' }))
    expect(run.code).toBe(0)
    expect(sim.requests.every((r) => r.method === 'GET')).toBe(true)
    expect(sim.requests[0]?.rawPath).toBe('/v2/agent/proj-e2e/job/job_wait')
    expect(run.outputs).toMatchObject({ 'job-id': 'job_wait', status: 'completed' })
    expect(run.summary).toContain('wait only')
  })

  it('fails clearly when the job to wait for does not exist', async () => {
    const run = await runAction(inputs({ 'job-id': 'job_missing' }))
    expect(run.code).toBe(1)
    expect(sim.requests).toHaveLength(1)
    expect(annotations(run.stdout, 'error')[0]).toMatch(
      /Reading job job_missing failed: job not found .*Check the 'job-id' input/
    )
    expect(run.outputs['job-id']).toBe('job_missing')
  })
})

describe('wait: false', () => {
  it('returns right after the create answer with the job still active', async () => {
    const run = await runAction(inputs({ prompt: 'Start only', wait: 'false' }))
    expect(run.code).toBe(0)
    expect(sim.requests.map((r) => r.operation)).toEqual(['create'])
    expect(run.outputs).toMatchObject({ status: 'active', 'timed-out': 'false', 'pr-link': '' })
    expect(run.outputs['job-id']).toMatch(/^job_/)
    expect(run.summary).toContain('Docs agent job started')
  })
})

describe('bad input', () => {
  it.each<[string, Record<string, string>, RegExp]>([
    ['missing api-key', { 'api-key': '', prompt: 'x' }, /^Input 'api-key': required/],
    ['missing project-id', { 'project-id': '', prompt: 'x' }, /^Input 'project-id': required/],
    ['no prompt and no job-id', {}, /^Input 'prompt': set 'prompt' or 'prompt-file'/],
    ['prompt and prompt-file', { prompt: 'x', 'prompt-file': 'p.md' }, /^Input 'prompt-file': set either/],
    ['unreadable prompt-file', { 'prompt-file': 'nope.md' }, /^Input 'prompt-file': cannot read "nope.md" \(ENOENT\)/],
    [
      'malformed timeout',
      { prompt: 'x', timeout: '10min' },
      /^Input 'timeout': "10min" is not a duration: expected seconds \(600\)/
    ],
    [
      'malformed poll-interval',
      { prompt: 'x', 'poll-interval': 'fast' },
      /^Input 'poll-interval': "fast" is not a duration/
    ],
    [
      'wait not a boolean',
      { prompt: 'x', wait: 'maybe' },
      /^Input 'wait': "maybe" is not a boolean: expected true or false/
    ],
    ['unknown fail-on value', { prompt: 'x', 'fail-on': 'failed,oops' }, /^Input 'fail-on': unknown outcome "oops"/],
    [
      'plain-http base-url',
      { prompt: 'x', 'base-url': 'http://api.example.com' },
      /^Input 'base-url': plain http:\/\/ would send the API key unencrypted/
    ]
  ])('%s fails before any request, naming the input', async (_name, extra, message) => {
    const run = await runAction(inputs(extra), { files: { 'p.md': 'prompt' } })
    expect(run.code).toBe(1)
    expect(sim.requests).toHaveLength(0)
    const errors = annotations(run.stdout, 'error')
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(message)
    expect(run.summary).toContain('Docs agent step failed')
    expect(secretLeaks(run, KEY)).toEqual([])
  })
})
