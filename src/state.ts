import type { AgentJob } from './job.js'

/** How the step ended. */
export type Outcome =
  /** The job's terminal status. */
  | 'completed'
  | 'failed'
  | 'archived'
  /** `wait: false`: we returned with the job still running. */
  | 'started'
  | 'timed-out'
  | 'cancelled'
  /** The step failed before the job's outcome was known (bad input, API error). */
  | 'error'

/** What the step knows so far; outputs and the summary are rendered from it on every exit path. */
export interface RunState {
  /** Epoch ms when the step started. */
  startedAt: number
  jobId: string | undefined
  /** The last job record read. */
  job: AgentJob | undefined
  polls: number
  /** Epoch ms when the wait began, if it did. */
  waitStartedAt: number | undefined
  /** Epoch ms when the step ended. */
  endedAt: number | undefined
  outcome: Outcome | undefined
  /** The reason the step failed, shown in the summary. */
  failure: string | undefined
  /** An unknown status is warned about once. */
  unknownStatusWarned: boolean
}

export function initialState(now: number, jobId: string | undefined): RunState {
  return {
    startedAt: now,
    jobId,
    job: undefined,
    polls: 0,
    waitStartedAt: undefined,
    endedAt: undefined,
    outcome: undefined,
    failure: undefined,
    unknownStatusWarned: false
  }
}
