/**
 * A job seen `completed` without a docs PR link is read again for a while (a late link); that grace
 * ends within the step's `timeout`, and a read that never answers then ends it as what the job is:
 * completed, no docs PR, never timed out. The random-fault replay's plan: the create answered; the
 * job `completed` without `prLink` at 6 s; `timeout: 11s`; the next read hangs.
 */
import { describe, expect, it } from '@jest/globals'
import type { Fault } from '../../simulator/agent-api.js'
import { useStep } from '../fixtures/step.js'

describe('the late-PR-link grace', () => {
  const step = useStep({ key: 'mint_grace_key_0123456789', project: 'proj-grace', prompt: 'Document v2.' })

  it('a read that hangs during the grace: completed, no docs PR, exit 0, within the timeout', async () => {
    const sim = step.sim()
    sim.setScenario({ runMs: 6000, pr: false })
    // The reads up to the first one that sees the job completed answer; every read after it hangs.
    const answered: Fault = { kind: 'delay', ms: 0 }
    sim.fail('get', answered, answered, answered)
    sim.failAlways('get', { kind: 'hang' })
    const start = step.clock().now()
    const result = await step.run({ timeout: '11s' })
    const id = result.outputs['job-id'] ?? ''
    expect(result.at('info')).toContainEqual(`Job ${id} completed without a pull request link so far; reading it again`)
    expect(step.requests('get').at(-1)?.fault).toBe('hang')
    expect(result.outputs).toMatchObject({ status: 'completed', 'timed-out': 'false', 'pr-link': '' })
    expect(result.code).toBe(0)
    expect(result.at('info')).toContainEqual(
      `Docs agent job ${id} completed without a pull request (the agent changed no files).`
    )
    expect(result.everything()).not.toMatch(/timed out/i)
    expect(step.clock().now() - start).toBeLessThanOrEqual(11_000)
  })
})
