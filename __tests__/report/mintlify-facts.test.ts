/**
 * Mintlify's published facts, in what a failure says. Each as Mintlify's pages state it:
 * - keys expire (7, 30, 60 or 90 days; new keys 90), and an expired key is answered 401
 *   (mintlify.com/docs/api/introduction, "Set an expiration date");
 * - a key with an IP allow-list is answered 403 from any other address (the same page, "Restrict
 *   keys by IP address"), as a read-only key is on a POST ("Restrict admin keys by scope");
 * - `archived` is terminal, as `completed` and `failed` are (the Agent API's polling guidance:
 *   stop at any of the three; /work/shared/agent-api);
 * - the automation trigger allows 10 requests per 10 seconds per organization
 *   (mintlify.com/docs/api/automations/trigger, "Rate limits").
 */
import { describe, expect, it } from '@jest/globals'
import { VirtualClock } from '../../simulator/virtual-clock.js'
import { TRIGGER_RATE_WAIT_MS } from '../../src/agent-api/automation.js'
import { ApiError } from '../../src/agent-api/errors.js'
import { isTerminal, parseJob, type AgentJob } from '../../src/agent-api/job.js'
import { waitForJob } from '../../src/agent-api/wait.js'
import { explainTrigger } from '../../src/report/automation.js'
import { explain } from '../../src/report/failure.js'
import { nextSteps } from '../../src/report/next-steps.js'
import { runStateAt, settings } from '../fixtures/run-state.js'
import { quietWait } from '../fixtures/wait.js'

const state = runStateAt(Date.parse('2026-11-28T10:00:00Z'))

describe("Mintlify's published facts", () => {
  it('a 401 says the key may have expired, and after how long keys do', () => {
    const message = explain(new ApiError('unauthorized', 'm', 401), settings(), state({ phase: 'posting' }))
    expect(message).toContain('the Agent API refused the key (401). The key may have expired')
    expect(message).toContain('7, 30, 60 or 90 days')
  })

  it("a 403 says a key's IP allow-list refuses every other address, and a create needs the write scope", () => {
    const posting = explain(new ApiError('forbidden', 'm', 403), settings(), state({ phase: 'posting' }))
    expect(posting).toContain('A key with an IP allow-list is answered 403 from any other address')
    expect(posting).toContain('has the write scope')
    const reading = explain(new ApiError('forbidden', 'm', 403), settings(), state({ phase: 'reading' }))
    expect(reading).toContain('IP allow-list')
    expect(reading).not.toContain('write scope')
  })

  it('archived is terminal: the wait ends at it, and what to do says the job is over', async () => {
    expect(isTerminal('archived')).toBe(true)
    const clock = new VirtualClock({ seed: 1 })
    const archived = parseJob({ id: 'job_1', status: 'archived', archivedAt: '2026-11-28T10:00:05Z' }) as AgentJob
    const end = await waitForJob(quietWait(clock, 'job_1', () => Promise.resolve(archived), clock.now() + 60_000))
    expect(end).toEqual({ reason: 'terminal', job: archived, status: 'archived' })
    const steps = nextSteps(state({ outcome: 'archived' }), settings())
    expect(steps?.[0]).toBe('An archived job is over: the agent does no more work on it. To continue, ')
  })

  it("the trigger's 429 names the limit, 10 requests per 10 seconds per organization, and waits that window", () => {
    const message = explainTrigger(new ApiError('rate-limited', 'answered 429', 429), 'p', 'auto_1')
    expect(message).toContain('Mintlify allows 10 automation triggers per 10 seconds per organization')
    expect(TRIGGER_RATE_WAIT_MS).toBe(10_000)
  })
})
