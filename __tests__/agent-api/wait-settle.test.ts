/**
 * The late-PR-link grace on a virtual clock: once a job reads `completed` without a link, a wait
 * that ends before the grace does (the deadline, a read that fails for good) ends with that record,
 * completed with no docs PR, never timed out; a read that shows the job working again drops it.
 */
import { describe, expect, it } from '@jest/globals'
import { VirtualClock } from '../../simulator/virtual-clock.js'
import { ApiError } from '../../src/agent-api/errors.js'
import type { AgentJob } from '../../src/agent-api/job.js'
import { waitForJob } from '../../src/agent-api/wait.js'
import { quietWait } from '../fixtures/wait.js'

const job = (status: string): AgentJob => ({ id: 'j', status, raw: { status } })

/** A wait that polls at once, reads `answer(poll)` and must end by `deadlineMs`. */
function wait(answer: (poll: number) => AgentJob | ApiError, deadlineMs: number) {
  const clock = new VirtualClock({ seed: 5 })
  let polls = 0
  return waitForJob(
    quietWait(
      clock,
      'j',
      () => {
        const result = answer(++polls)
        return result instanceof ApiError ? Promise.reject(result) : Promise.resolve(result)
      },
      clock.now() + deadlineMs
    )
  )
}

describe('the late-PR-link grace', () => {
  const completed = { reason: 'terminal', status: 'completed', job: job('completed') }

  it('a read that fails for good during the grace: completed, no docs PR', async () => {
    const end = await wait((n) => (n === 1 ? job('completed') : new ApiError('unauthorized', '401', 401)), 60_000)
    expect(end).toEqual(completed)
  })

  it('the deadline inside the grace, reads failing meanwhile: completed, not timed out', async () => {
    const end = await wait((n) => (n === 1 ? job('completed') : new ApiError('server-error', '500', 500)), 4_000)
    expect(end).toEqual(completed)
  })

  it('a job that reads active again is no longer settled: the deadline is then a time-out', async () => {
    const end = await wait(
      (n) => (n === 1 ? job('completed') : n === 2 ? job('active') : new ApiError('server-error', '500', 500)),
      30_000
    )
    expect(end).toEqual({ reason: 'timed-out' })
  })
})
