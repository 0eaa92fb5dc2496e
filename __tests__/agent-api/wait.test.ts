import { describe, expect, it } from '@jest/globals'
import { VirtualClock } from '../../simulator/virtual-clock.js'
import { ApiError } from '../../src/agent-api/errors.js'
import { jobFingerprint, type AgentJob } from '../../src/agent-api/job.js'
import {
  FOLLOW_UP_GRACE_MS,
  NOT_FOUND_GRACE_MS,
  PR_SETTLE_MS,
  PR_SETTLE_POLL_MS,
  waitForJob,
  type PollEvent,
  type WaitOptions
} from '../../src/agent-api/wait.js'

const job = (status: string, extra: Record<string, unknown> = {}): AgentJob => ({
  id: 'j',
  status,
  ...extra,
  raw: { status, ...extra }
})

/** A wait on a virtual clock; `answer` gives what each poll gets, by time since the start. */
function wait(answer: (sinceStart: number, poll: number) => AgentJob | ApiError, extra: Partial<WaitOptions> = {}) {
  const clock = new VirtualClock({ seed: 3 })
  const start = clock.now()
  const polls: number[] = []
  const events: PollEvent[] = []
  const heartbeats: number[] = []
  const options: WaitOptions = {
    jobId: 'j',
    getJob: () => {
      polls.push(clock.now() - start)
      const result = answer(clock.now() - start, polls.length)
      return result instanceof ApiError ? Promise.reject(result) : Promise.resolve(result)
    },
    schedule: { initialMs: 2000, maxMs: 10_000 },
    deadline: start + 3_600_000,
    pollNow: false,
    notFoundUntil: start + NOT_FOUND_GRACE_MS,
    clock,
    signal: new AbortController().signal,
    onPoll: (event) => events.push(event),
    onHeartbeat: () => heartbeats.push(clock.now() - start),
    ...extra
  }
  return { end: waitForJob(options), polls, events, heartbeats, clock, start }
}

describe('waitForJob on a virtual clock', () => {
  it('ends at the first poll after the job ends, with a heartbeat at most once a minute', async () => {
    const w = wait((t) =>
      job(t >= 300_000 ? 'completed' : 'active', t >= 300_000 ? { prLink: 'https://github.com/a/b/pull/1' } : {})
    )
    expect(await w.end).toEqual({
      reason: 'terminal',
      status: 'completed',
      job: job('completed', { prLink: 'https://github.com/a/b/pull/1' })
    })
    expect((w.polls.at(-1) ?? 0) - 300_000).toBeLessThanOrEqual(11_000)
    expect(w.polls[0]).toBeGreaterThanOrEqual(1800)
    expect(w.heartbeats.length).toBeGreaterThanOrEqual(4)
    for (let i = 1; i < w.heartbeats.length; i++)
      expect((w.heartbeats[i] ?? 0) - (w.heartbeats[i - 1] ?? 0)).toBeGreaterThanOrEqual(60_000)
  })

  it('polls at once when asked (wait-only, resume)', async () => {
    const w = wait(() => job('failed'), { pollNow: true })
    expect(await w.end).toMatchObject({ reason: 'terminal', status: 'failed' })
    expect(w.polls).toEqual([0])
  })

  it('times out at the deadline, with a last poll there', async () => {
    const timed = wait(() => job('active'), { deadline: new VirtualClock().now() + 45_000 })
    expect(await timed.end).toEqual({ reason: 'timed-out' })
    expect(timed.polls.at(-1)).toBe(45_000)
  })

  it('never polls before Retry-After, and stops when it is beyond the deadline', async () => {
    const w = wait((_t, n) => (n === 1 ? new ApiError('rate-limited', '429', 429, 30_000) : job('failed')))
    await w.end
    expect((w.polls[1] ?? 0) - (w.polls[0] ?? 0)).toBeGreaterThanOrEqual(30_000)

    const late = wait(() => new ApiError('rate-limited', '429', 429, 120_000), {
      deadline: new VirtualClock().now() + 60_000
    })
    expect(await late.end).toEqual({ reason: 'timed-out' })
    expect(late.polls).toHaveLength(1)
  })

  it('backs off by doubling from poll-interval while polls fail, and returns to the schedule after', async () => {
    const w = wait((_t, n) => (n <= 3 ? new ApiError('server-error', '500', 500) : job('failed')), { pollNow: true })
    await w.end
    const gaps = w.polls.slice(1).map((t, i) => t - (w.polls[i] ?? 0))
    // 2 s, 4 s, 8 s with ±10 % jitter.
    expect(gaps[0]).toBeGreaterThanOrEqual(3600)
    expect(gaps[1]).toBeGreaterThanOrEqual(7200)
    expect(gaps[2]).toBeGreaterThanOrEqual(7200)
    expect(w.events.filter((e) => 'error' in e)).toHaveLength(3)
  })

  it('throws what cannot be retried', async () => {
    await expect(wait(() => new ApiError('unauthorized', '401', 401)).end).rejects.toMatchObject({
      kind: 'unauthorized'
    })
    await expect(wait(() => new ApiError('tls', 'cert')).end).rejects.toMatchObject({ kind: 'tls' })
    await expect(wait(() => new ApiError('proxy', '407', 407)).end).rejects.toMatchObject({ kind: 'proxy' })
  })

  it('tolerates 404s until notFoundUntil, on the normal schedule, whatever failures come between', async () => {
    const w = wait((t, n) =>
      n === 2
        ? new ApiError('server-error', '500', 500)
        : t < 15_000
          ? new ApiError('not-found', '404', 404)
          : job('failed')
    )
    expect(await w.end).toMatchObject({ reason: 'terminal' })
    expect(w.polls.filter((t) => t < 15_000).length).toBeGreaterThanOrEqual(4)

    const gone = wait(() => new ApiError('not-found', '404', 404))
    await expect(gone.end).rejects.toMatchObject({ kind: 'not-found' })
    expect(gone.polls.at(-1)).toBeGreaterThanOrEqual(NOT_FOUND_GRACE_MS)
    expect(gone.polls.at(-2)).toBeLessThan(NOT_FOUND_GRACE_MS)
    // The delays stayed on the schedule (2 s, growing), not a doubling backoff.
    expect(gone.polls.length).toBeGreaterThanOrEqual(6)

    const strict = wait(() => new ApiError('not-found', '404', 404), { notFoundUntil: undefined })
    await expect(strict.end).rejects.toMatchObject({ kind: 'not-found' })
    expect(strict.polls).toHaveLength(1)
  })

  it(`reads a job completed without a PR link again over ${PR_SETTLE_MS} ms before concluding`, async () => {
    const w = wait((t) => job(t >= 10_000 ? 'completed' : 'active'))
    const end = await w.end
    expect(end).toMatchObject({ reason: 'terminal', status: 'completed' })
    const first = w.polls.find((t) => t >= 10_000) ?? 0
    expect((w.polls.at(-1) ?? 0) - first).toBe(2 * PR_SETTLE_POLL_MS)
    expect(w.events.filter((e) => 'held' in e)).toHaveLength(2)

    const late = wait((t) =>
      job(t >= 10_000 ? 'completed' : 'active', t >= 12_000 ? { prLink: 'https://x/pull/2' } : {})
    )
    expect(await late.end).toMatchObject({ job: { prLink: 'https://x/pull/2' } })
  })

  it('does not hold a completed job for its link when the deadline leaves no room, nor other endings', async () => {
    const w = wait(() => job('completed'), { pollNow: true, deadline: new VirtualClock().now() + 1000 })
    expect(await w.end).toMatchObject({ reason: 'terminal', status: 'completed' })
    expect(w.polls).toEqual([0])
    const failed = wait(() => job('failed'), { pollNow: true })
    await failed.end
    expect(failed.polls).toEqual([0])
    const unusable = wait(() => job('completed', { prLink: 'javascript:x' }), { pollNow: true })
    await unusable.end
    expect(unusable.polls).toEqual([0])
  })

  it('after a follow-up, the previous result does not end the wait: an active read, a changed record or the grace does', async () => {
    const clock = new VirtualClock()
    const answer = job('completed', { prLink: 'https://x/pull/1' })
    const previous = { fingerprint: jobFingerprint(answer), answeredAt: clock.now() }
    const active = wait(
      (t) => (t < 6000 ? answer : t < 20_000 ? job('active') : job('completed', { prLink: 'https://x/pull/1' })),
      { previous }
    )
    expect(await active.end).toMatchObject({ reason: 'terminal' })
    expect(active.polls.at(-1)).toBeGreaterThanOrEqual(20_000)
    expect(active.events.find((e) => 'held' in e)).toMatchObject({
      held: 'still shows the result of the previous prompt; waiting for the follow-up to be taken up'
    })

    const changed = wait(
      (t) => (t < 6000 ? answer : job('completed', { prLink: 'https://x/pull/1', archivedAt: 'x' })),
      { previous }
    )
    await changed.end
    expect(changed.polls.at(-1)).toBeLessThan(12_000)

    const stale = wait(() => answer, { previous })
    await stale.end
    expect(stale.polls.at(-1)).toBeGreaterThanOrEqual(FOLLOW_UP_GRACE_MS)
    expect(stale.polls.at(-1)).toBeLessThan(FOLLOW_UP_GRACE_MS + 11_000)
  })

  it('reports a cancellation, before or during the wait', async () => {
    const controller = new AbortController()
    controller.abort()
    expect(await wait(() => job('active'), { signal: controller.signal }).end).toEqual({ reason: 'cancelled' })
  })
})
