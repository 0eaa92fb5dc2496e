/**
 * Waits until every check on the docs pull request's head has ended: reads them, and while one
 * runs, reads again on the step's poll schedule (schedule.ts), until the step's deadline.
 */
import type { Clock } from '../../base/clock.js'
import { nextPollDelay, type PollSchedule } from '../../agent-api/schedule.js'
import type { DocsChecksApi } from '../../github/docs-checks.js'
import { judge, type Judged } from './judge.js'

export interface Settled {
  /** `timed-out`: a check still ran when the deadline came. */
  kind: 'ended' | 'timed-out'
  judged: Judged
}

export async function settle(
  api: DocsChecksApi,
  head: string,
  timing: { clock: Clock; signal: AbortSignal; schedule: PollSchedule; deadline: number }
): Promise<Settled> {
  const { clock, signal, deadline } = timing
  const started = clock.now()
  for (;;) {
    const judged = await judge(api, head)
    if (!judged.running) return { kind: 'ended', judged }
    const now = clock.now()
    const delay =
      deadline > now
        ? nextPollDelay(
            { elapsedMs: now - started, remainingMs: deadline - now, failures: 0, random: clock.random() },
            timing.schedule
          )
        : undefined
    if (delay === undefined || delay <= 0) return { kind: 'timed-out', judged }
    await clock.sleep(delay, signal)
  }
}
