import { describe, expect, it } from '@jest/globals'
import { Cancelled } from '../src/client.js'
import { ApiError } from '../src/errors.js'
import type { AgentJob } from '../src/job.js'
import { waitForJob, type Clock, type WaitOptions } from '../src/wait.js'

/** A clock whose sleeps advance virtual time at once. */
function virtualClock(): Clock & { polls: number[] } {
  let now = 0
  const polls: number[] = []
  return {
    polls,
    now: () => now,
    random: () => 0.5,
    sleep: (ms, signal) => {
      if (signal.aborted) return Promise.reject(new Cancelled(false))
      now += ms
      return Promise.resolve()
    }
  }
}

const job = (status: string): AgentJob => ({ id: 'j', status, raw: {} })

function options(
  clock: ReturnType<typeof virtualClock>,
  answer: (at: number) => AgentJob,
  extra: Partial<WaitOptions> = {}
) {
  const heartbeats: number[] = []
  const waitOptions: WaitOptions = {
    jobId: 'j',
    getJob: () => {
      clock.polls.push(clock.now())
      return Promise.resolve(answer(clock.now()))
    },
    schedule: { initialMs: 2000, maxMs: 10_000 },
    deadline: 3_600_000,
    pollNow: false,
    postedAt: 0,
    clock,
    signal: new AbortController().signal,
    onPoll: () => undefined,
    onHeartbeat: () => heartbeats.push(clock.now()),
    ...extra
  }
  return { waitOptions, heartbeats }
}

describe('waitForJob on a virtual clock', () => {
  it('ends at the first poll after the job ends, with a heartbeat at most once a minute', async () => {
    const clock = virtualClock()
    const { waitOptions, heartbeats } = options(clock, (at) => job(at >= 300_000 ? 'completed' : 'active'))
    const end = await waitForJob(waitOptions)
    expect(end).toEqual({ reason: 'terminal', job: job('completed') })
    expect((clock.polls.at(-1) ?? 0) - 300_000).toBeLessThanOrEqual(10_000)
    expect(heartbeats.length).toBeGreaterThanOrEqual(4)
    for (let i = 1; i < heartbeats.length; i++)
      expect((heartbeats[i] ?? 0) - (heartbeats[i - 1] ?? 0)).toBeGreaterThanOrEqual(60_000)
  })

  it('polls at once in wait-only mode', async () => {
    const clock = virtualClock()
    await waitForJob(options(clock, () => job('failed'), { pollNow: true }).waitOptions)
    expect(clock.polls).toEqual([0])
  })

  it('times out at the deadline, with a last poll there', async () => {
    const clock = virtualClock()
    const end = await waitForJob(options(clock, () => job('active'), { deadline: 45_000 }).waitOptions)
    expect(end).toEqual({ reason: 'timed-out' })
    expect(clock.polls.at(-1)).toBe(45_000)
  })

  it('never polls before Retry-After, and stops when it is beyond the deadline', async () => {
    const clock = virtualClock()
    let first = true
    const getJob = () => {
      clock.polls.push(clock.now())
      if (first) {
        first = false
        return Promise.reject(new ApiError('rate-limited', '429', 429, 30_000))
      }
      return Promise.resolve(job('completed'))
    }
    await waitForJob({ ...options(clock, () => job('active')).waitOptions, getJob })
    expect((clock.polls[1] ?? 0) - (clock.polls[0] ?? 0)).toBeGreaterThanOrEqual(30_000)

    const late = virtualClock()
    const rejecting = () => Promise.reject(new ApiError('rate-limited', '429', 429, 120_000))
    const end = await waitForJob({
      ...options(late, () => job('active'), { deadline: 60_000 }).waitOptions,
      getJob: rejecting
    })
    expect(end).toEqual({ reason: 'timed-out' })
    expect(late.now()).toBeLessThan(60_000)
  })

  it('throws what cannot be retried, and 404s after the grace', async () => {
    const clock = virtualClock()
    const unauthorized = () => Promise.reject(new ApiError('unauthorized', '401', 401))
    await expect(
      waitForJob({ ...options(clock, () => job('active')).waitOptions, getJob: unauthorized })
    ).rejects.toMatchObject({ kind: 'unauthorized' })

    let calls = 0
    const missing = () => {
      calls++
      return Promise.reject(new ApiError('not-found', '404', 404))
    }
    await expect(
      waitForJob({ ...options(virtualClock(), () => job('active')).waitOptions, getJob: missing })
    ).rejects.toMatchObject({ kind: 'not-found' })
    expect(calls).toBe(4)
    calls = 0
    await expect(
      waitForJob({
        ...options(virtualClock(), () => job('active'), { postedAt: undefined }).waitOptions,
        getJob: missing
      })
    ).rejects.toMatchObject({ kind: 'not-found' })
    expect(calls).toBe(1)
  })

  it('reports a cancellation', async () => {
    const clock = virtualClock()
    const controller = new AbortController()
    controller.abort()
    const end = await waitForJob(options(clock, () => job('active'), { signal: controller.signal }).waitOptions)
    expect(end).toEqual({ reason: 'cancelled' })
  })
})
