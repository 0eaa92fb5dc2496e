/**
 * The wait phase: polls the job until it ends, the timeout, or a cancel (with `wait: false`, one
 * read, or none after this step's own request), recording each read.
 */
import type { Clock } from '../base/clock.js'
import { formatDuration } from '../base/duration.js'
import type { Log } from '../base/log.js'
import { inline } from '../base/text.js'
import type { AgentApi } from '../agent-api/client.js'
import type { AgentJob } from '../agent-api/job.js'
import { waitForJob } from '../agent-api/wait.js'
import type { FlowEnd } from './ending.js'
import type { RunStateWriter } from './run-state.js'
import type { Settings } from './settings.js'

export interface WaitDeps {
  api: AgentApi
  clock: Clock
  log: Log
  signal: AbortSignal
  /** Told when a read shows a new status or docs pull request (the progress, never a poll that changed nothing). */
  follow?: { changed(): void } | undefined
}

/** How to wait. */
export interface WaitFor {
  jobId: string
  pollNow: boolean
  notFoundUntil: number | undefined
  /** After a follow-up: the answer (fingerprinted), which a stale read must not be mistaken for. */
  previous?: { fingerprint: string; answeredAt: number } | undefined
  /** This step's create or message was just answered (the record in the state is that answer). */
  posted?: boolean
}

export async function wait(
  settings: Settings,
  deps: WaitDeps,
  run: RunStateWriter,
  deadline: number,
  how: WaitFor
): Promise<FlowEnd> {
  const { clock, log } = deps
  const { jobId } = how
  if (!settings.wait && how.posted) return { kind: 'not-waited', job: run.state.job }
  run.waitStarted()
  const end = await waitForJob({
    once: !settings.wait,
    jobId,
    getJob: (id, options) => deps.api.getJob(id, options),
    schedule: { initialMs: settings.pollIntervalMs, maxMs: settings.maxPollIntervalMs },
    deadline,
    pollNow: how.pollNow,
    notFoundUntil: how.notFoundUntil,
    previous: how.previous,
    clock,
    signal: deps.signal,
    onPoll: (event) => {
      run.polled()
      if ('job' in event) {
        const before = shown(run.state.job)
        run.jobRead(event.job)
        if (shown(event.job) !== before) deps.follow?.changed()
        if (event.held) log.info(`Job ${inline(jobId)} ${event.held}`)
      } else {
        log.info(
          `Poll ${run.state.polls} failed: ${event.error.message}; ${event.retryInMs === undefined ? 'no time left to retry' : `retrying in ${formatDuration(event.retryInMs)}`}`
        )
      }
    },
    onHeartbeat: (message) =>
      log.info(`${message}; job ${inline(jobId)} is ${inline(run.state.job?.status ?? 'unknown', 40)}`)
  })
  return { kind: 'waited', end }
}

/** What the progress shows of a job: its status and docs pull request. */
function shown(job: AgentJob | undefined): string {
  return JSON.stringify([job?.status, job?.prLink])
}
