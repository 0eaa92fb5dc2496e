/**
 * Waits until every check on the docs pull request's head has ended: reads them, and while one
 * runs, reads again on the step's poll schedule (schedule.ts), until the step's deadline. Checks
 * still to come (an app's check suite with none running, judge.ts) are waited for SUITE_GRACE_MS.
 */
import type { Clock } from '../../base/clock.js'
import type { Log } from '../../base/log.js'
import { inline } from '../../base/text.js'
import { nextPollDelay, type PollSchedule } from '../../agent-api/schedule.js'
import type { DocsChecksApi } from '../../github/docs-checks.js'
import { judge, type Judged } from './judge.js'

export interface Settled {
  /** `timed-out`: a check still ran when the deadline came. */
  kind: 'ended' | 'timed-out'
  judged: Judged
}

/**
 * How long checks still to come hold a head's verdict, from the start of the wait for its checks.
 * An app gets its suite's `check_suite` event at the push and makes its runs on it within seconds;
 * two minutes leave room for an event delivered late and an app slow to start. Past it the suites
 * are left out: GitHub can leave a suite queued for good with no run (an app that ignores the push,
 * nodejs/node-core-utils#1160), which would otherwise hold the step until its timeout.
 */
export const SUITE_GRACE_MS = 120_000

export async function settle(
  api: DocsChecksApi,
  head: string,
  timing: { clock: Clock; signal: AbortSignal; schedule: PollSchedule; deadline: number; log: Log }
): Promise<Settled> {
  const { clock, signal, deadline } = timing
  const started = clock.now()
  for (;;) {
    const judged = await judge(api, head, clock.now() - started < SUITE_GRACE_MS)
    if (!judged.running) {
      if (judged.toCome.length > 0) timing.log.info(leftOut(judged))
      return { kind: 'ended', judged }
    }
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

function leftOut({ head, toCome }: Judged): string {
  const apps = toCome.map((app) => inline(app, 100)).join(', ')
  const minutes = SUITE_GRACE_MS / 60_000
  return `The check suites of ${apps} on head ${head.slice(0, 7)} are still not completed, with no check running, after a ${minutes}-minute wait: judged without them.`
}
