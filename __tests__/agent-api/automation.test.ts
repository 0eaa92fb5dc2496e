import { describe, expect, it } from '@jest/globals'
import {
  identifiedRun,
  parseAutomationRun,
  triggerMayHaveActed,
  triggerOnce,
  TRIGGER_RATE_WAIT_MS
} from '../../src/agent-api/automation.js'
import { Cancelled } from '../../src/base/cancel.js'
import { ApiError, type ApiErrorKind } from '../../src/agent-api/errors.js'
import type { AutomationScenario } from '../../simulator/agent-api.js'
import { useAgentClient } from '../fixtures/agent-client.js'

// One describe for the file: its hooks stay its own when the mutation suite runs the files together.
describe('automation trigger', () => {
  const start = useAgentClient({ seed: 5, apiKey: 'mint_trigger_key', projectId: 'proj/1' })

  async function setUp(automations: Partial<AutomationScenario> = {}, timeoutMs = 30 * 60_000) {
    const { sim: started, clock, client } = await start({ automations, prefix: '/api' })
    const waits: string[] = []
    const cancel = new AbortController()
    const trigger = (automation: string) =>
      triggerOnce(client, automation, {
        clock,
        signal: cancel.signal,
        deadline: clock.now() + timeoutMs,
        onRateLimited: (error, waitMs, attempt) => waits.push(`${attempt}: ${error.status ?? ''} ${waitMs}`)
      })
    const triggers = () => started.requests.filter((r) => r.operation === 'trigger')
    return { sim: started, clock, client, trigger, triggers, waits, cancel }
  }

  it('POSTs to the trigger path with no body and gives the run and its job', async () => {
    const { sim, trigger, triggers } = await setUp()
    const run = await trigger('auto-readable-job')
    const queued = sim.runs()[0]
    expect(run).toEqual({ schemaId: 'auto-readable-job', instanceId: queued?.instanceId, jobId: queued?.jobId })
    const [request] = triggers()
    expect(request?.rawPath).toBe('/api/v1/workflow/proj%2F1/auto-readable-job/trigger')
    expect(request?.method).toBe('POST')
    expect(request?.body).toBe('')
    expect(request?.headers['content-type']).toBeUndefined()
    expect(request?.headers.authorization).toBe('Bearer mint_trigger_key')
  })

  it('after a 429 waits Retry-After, or the 10 s window without it, and sends it again', async () => {
    const { sim, trigger, triggers, waits } = await setUp()
    sim.fail(
      'trigger',
      { kind: 'status', status: 429, headers: { 'retry-after': '7' } },
      { kind: 'status', status: 429 }
    )
    await trigger('auto-hidden-job')
    expect(waits).toEqual(['1: 429 7000', `2: 429 ${TRIGGER_RATE_WAIT_MS}`])
    const times = triggers().map((r) => r.time)
    expect([(times[1] ?? 0) - (times[0] ?? 0), (times[2] ?? 0) - (times[1] ?? 0)]).toEqual([7000, 10_000])
    expect(sim.runs()).toHaveLength(1)
  })

  it('a Retry-After of 0 is none: waits the 10 s window, not sending it again at once', async () => {
    const { sim, trigger, triggers, waits } = await setUp()
    sim.fail('trigger', { kind: 'status', status: 429, headers: { 'retry-after': '0' } })
    await trigger('auto-hidden-job')
    expect(waits).toEqual([`1: 429 ${TRIGGER_RATE_WAIT_MS}`])
    const times = triggers().map((r) => r.time)
    expect((times[1] ?? 0) - (times[0] ?? 0)).toBe(TRIGGER_RATE_WAIT_MS)
  })

  it('sends it three times at most: the last 429 is the error, with the attempts and their time', async () => {
    const { sim, trigger, triggers, waits } = await setUp({ perWindow: 0 })
    const error = await trigger('auto-hidden-job').catch((e: unknown) => e)
    expect(error).toEqual(
      new ApiError('rate-limited', 'answered 429: Rate limit exceeded; 3 attempts over 20s', 429, undefined)
    )
    expect(triggers()).toHaveLength(3)
    expect(waits).toHaveLength(2)
    expect(sim.runs()).toEqual([])
  })

  it('never waits past the deadline: the 429 is the error at once, saying so', async () => {
    const { trigger, triggers } = await setUp({ perWindow: 0 }, 10_000)
    await expect(trigger('auto-hidden-job')).rejects.toThrow(
      'answered 429: Rate limit exceeded; waiting 10s for it would pass timeout'
    )
    expect(triggers()).toHaveLength(1)
  })

  it('waits for the limit only while the wait fits: the second 429 is the error when the next would not', async () => {
    const { trigger, triggers } = await setUp({ perWindow: 0 }, 15_000)
    await expect(trigger('auto-hidden-job')).rejects.toThrow(
      'answered 429: Rate limit exceeded; 2 attempts over 10s; waiting 10s for it would pass timeout'
    )
    expect(triggers()).toHaveLength(2)
  })

  it.each([
    [{ kind: 'status' as const, status: 503, effect: true }, 'unavailable'],
    [{ kind: 'status' as const, status: 500, effect: true }, 'server-error'],
    [{ kind: 'reset' as const, effect: true }, 'no-answer'],
    [{ kind: 'body' as const, body: '{"instanceId":"run_1"}' }, 'bad-response'],
    [{ kind: 'status' as const, status: 400 }, 'invalid']
  ])('sends it once after %j (%s)', async (fault, kind) => {
    const { sim, trigger, triggers } = await setUp()
    sim.fail('trigger', fault)
    const error = await trigger('auto-readable-job').catch((e: unknown) => e)
    expect((error as ApiError).kind).toBe(kind)
    expect(triggers()).toHaveLength(1)
  })

  it('stops at a cancel while waiting for the limit', async () => {
    const { sim, trigger, triggers, cancel } = await setUp({ perWindow: 0 })
    sim.onRequest = () => queueMicrotask(() => cancel.abort())
    await expect(trigger('auto-hidden-job')).rejects.toBeInstanceOf(Cancelled)
    expect(triggers()).toHaveLength(1)
  })

  it('names the ids an answer lacks', async () => {
    const { sim, trigger } = await setUp()
    sim.fail('trigger', { kind: 'body', body: '{"schemaId":"a","instanceId":""}' }, { kind: 'body', body: '[]' })
    await expect(trigger('auto-readable-job')).rejects.toThrow('answered without instanceId or jobId')
    await expect(trigger('auto-readable-job')).rejects.toThrow(
      'answered 200 with JSON that is not an automation run record'
    )
  })

  it('reads the ids that are non-empty strings', () => {
    expect(parseAutomationRun({ schemaId: 'a', instanceId: 'r', jobId: 'j', extra: 1 })).toEqual({
      schemaId: 'a',
      instanceId: 'r',
      jobId: 'j'
    })
    expect(parseAutomationRun({ schemaId: 3, instanceId: null, jobId: '' })).toEqual({})
    expect(parseAutomationRun(null)).toBeUndefined()
    expect(parseAutomationRun('run')).toBeUndefined()
    expect(parseAutomationRun(['run'])).toBeUndefined()
    expect(identifiedRun({ instanceId: 'r', jobId: 'j' })).toEqual({ instanceId: 'r', jobId: 'j' })
    expect(() => identifiedRun({ instanceId: 'r' })).toThrow(new ApiError('bad-response', 'answered without jobId'))
    // The answer's schema requires none of its ids: the job is the one the step needs.
    expect(identifiedRun({ jobId: 'j' })).toEqual({ jobId: 'j' })
    expect(() => identifiedRun({ schemaId: 'a' })).toThrow('answered without instanceId or jobId')
  })

  it.each<[ApiErrorKind, boolean]>([
    ['server-error', true],
    ['unavailable', true],
    ['no-answer', true],
    ['bad-response', true],
    ['unauthorized', false],
    ['forbidden', false],
    ['not-found', false],
    ['invalid', false],
    ['rate-limited', false],
    ['not-sent', false],
    ['proxy', false],
    ['tls', false],
    ['redirect', false]
  ])('a trigger that failed %s may have queued a run: %s', (kind, acted) => {
    expect(triggerMayHaveActed(new ApiError(kind, 'x'))).toBe(acted)
  })
})
