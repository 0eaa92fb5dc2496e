// The simulator's automations over real HTTP on loopback: the trigger, its answers and its limit, and
// the run's job, which can be read through the Agent API or not.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { AgentApiSimulator } from '../../simulator/agent-api.js'
import { describeAutomations } from '../../simulator/cli.js'
import { VirtualClock } from '../../simulator/virtual-clock.js'

const KEY = 'mint_automation_key'

describe('simulator automations', () => {
  let sim: AgentApiSimulator
  let clock: VirtualClock
  beforeEach(async () => {
    clock = new VirtualClock()
    sim = await AgentApiSimulator.start({ apiKey: KEY, clock, scenario: { runMs: 1000 } })
  })
  afterEach(() => sim.close())

  const call = async (method: string, path: string, key = KEY) => {
    const res = await fetch(`${sim.url}${path}`, { method, headers: { authorization: `Bearer ${key}` } })
    return { status: res.status, retryAfter: res.headers.get('retry-after'), json: await res.json() }
  }
  const trigger = (automation: string, project = 'proj', key = KEY) =>
    call('POST', `/v1/workflow/${project}/${encodeURIComponent(automation)}/trigger`, key)

  it('queues a run of a scheduled automation whose job is an Agent API job', async () => {
    const answer = await trigger('auto-readable-job')
    expect(answer.status).toBe(200)
    const [run] = sim.runs()
    expect(answer.json).toEqual({ schemaId: 'auto-readable-job', instanceId: run?.instanceId, jobId: run?.jobId })
    expect(run).toMatchObject({ projectId: 'proj', automationId: 'auto-readable-job', jobReadable: true })
    expect(run?.instanceId).toMatch(/^run_[0-9a-f]{16}$/)
    const job = await call('GET', `/v2/agent/proj/job/${run?.jobId ?? ''}`)
    expect(job).toMatchObject({ status: 200, json: { id: run?.jobId, status: 'active' } })
    expect(sim.jobs('proj')[0]?.prompts).toEqual(['Update the docs for what changed since the last run.'])
    expect(sim.requests[0]).toMatchObject({
      operation: 'trigger',
      projectId: 'proj',
      automationId: 'auto-readable-job'
    })
  })

  it("queues a run whose job the Agent API never reads (404), and a run's answer can be 202", async () => {
    sim.setAutomations({ status: 202 })
    const answer = await trigger('auto-hidden-job')
    expect(answer.status).toBe(202)
    const jobId = sim.runs()[0]?.jobId ?? ''
    expect(jobId).toMatch(/^bgjob_/)
    expect(sim.jobs()).toEqual([])
    clock.advance(3_600_000)
    expect(await call('GET', `/v2/agent/proj/job/${jobId}`)).toMatchObject({ status: 404 })
  })

  it('answers 400 for an automation that is not a custom schedule, 404 for an unknown one, 401 for a bad key', async () => {
    expect(await trigger('auto-on-push')).toEqual({
      status: 400,
      retryAfter: null,
      json: { error: 'Only automations with a custom schedule trigger can be triggered' }
    })
    expect(await trigger('auto-nope')).toMatchObject({ status: 404, json: { error: 'Automation not found' } })
    expect(await trigger('auto-readable-job', 'proj', 'mint_other')).toMatchObject({ status: 401 })
    expect(await call('GET', '/v1/workflow/proj/auto-readable-job/trigger')).toMatchObject({ status: 405 })
    expect(await call('POST', '/v1/workflow/proj/auto-readable-job/trigger/x')).toMatchObject({ status: 404 })
    expect(sim.runs()).toEqual([])
  })

  it('allows 10 triggers in 10 seconds per organization; its 429 has no Retry-After, as none is documented', async () => {
    for (let i = 0; i < 10; i++) {
      expect((await trigger('auto-hidden-job', `p${i}`)).status).toBe(200)
      clock.advance(500)
    }
    clock.advance(2_000)
    expect(await trigger('auto-hidden-job', 'late')).toMatchObject({ status: 429, retryAfter: null })
    clock.advance(3_000)
    expect((await trigger('auto-hidden-job', 'late')).status).toBe(200)
    expect(await trigger('auto-hidden-job', 'later')).toMatchObject({ status: 429, retryAfter: null })
  })

  it('a scenario may ask for Retry-After: the seconds until a trigger leaves the window', async () => {
    sim.setAutomations({ retryAfter: true })
    for (let i = 0; i < 10; i++) {
      expect((await trigger('auto-hidden-job', `p${i}`)).status).toBe(200)
      clock.advance(500)
    }
    clock.advance(2_000)
    expect(await trigger('auto-hidden-job', 'late')).toMatchObject({ status: 429, retryAfter: '3' })
    clock.advance(3_000)
    expect((await trigger('auto-hidden-job', 'late')).status).toBe(200)
    expect(await trigger('auto-hidden-job', 'later')).toMatchObject({ status: 429, retryAfter: '1' })
  })

  it('takes faults like any operation, the real work done first when asked', async () => {
    sim.fail('trigger', { kind: 'status', status: 503, effect: true })
    expect((await trigger('auto-readable-job')).status).toBe(503)
    expect(sim.runs()).toHaveLength(1)
  })

  it('names its automations for a user at the start', () => {
    expect(describeAutomations()).toBe(
      'Automations (input automation): auto-readable-job (its job can be read), auto-hidden-job (its job reads 404), auto-on-push (not a custom schedule: 400).'
    )
  })
})
