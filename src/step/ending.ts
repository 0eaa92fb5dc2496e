/**
 * How the step ended, decided in one place from what its last phase returned (or threw). A cancel
 * is one ending, whether the wait saw it or a request threw it.
 */
import { Cancelled } from '../base/cancel.js'
import { triggerMayHaveActed } from '../agent-api/automation.js'
import { ApiError, mayHaveTakenEffect } from '../agent-api/errors.js'
import { isTerminal, type AgentJob } from '../agent-api/job.js'
import type { WaitEnd } from '../agent-api/wait.js'
import { cancelMessage, explain } from '../report/failure.js'
import { WORDING } from '../report/wording.js'
import type { Outcome, RunState } from '../report/state.js'
import type { RerunRecord } from '../rerun/record.js'
import type { Settings } from './settings.js'

/** How the step ended: what the state records of it. */
export interface Ending {
  outcome: Outcome
  failure?: string | undefined
  mayHaveActed?: boolean
  notFound?: boolean
}

/** What the flow's last phase came to. */
export type FlowEnd =
  /** The gate refused whoever triggered the run. */
  | { kind: 'not-permitted'; reason: string }
  /** `dry-run: true`: the prompt was shown, nothing was sent. */
  | { kind: 'dry-run' }
  /** A skip rule matched: nothing was sent. */
  | { kind: 'skipped' }
  /** An earlier attempt's request may have acted, and its answer was lost: nothing is sent again. */
  | { kind: 'answer-lost'; record: RerunRecord }
  /** `wait: false`: the answer to this step's request, not waited on. */
  | { kind: 'not-waited'; job: AgentJob | undefined }
  /** The wait for the job ended. */
  | { kind: 'waited'; end: WaitEnd }
  /** An automation's run was queued, and its job reads 404 past the grace: it cannot be followed. */
  | { kind: 'not-followable' }
  /** A phase threw (a cancel during a request, or an error). */
  | { kind: 'thrown'; error: unknown }

export function decideEnding(end: FlowEnd, settings: Settings, state: Readonly<RunState>): Ending {
  const requestSent = cancelledRequest(end)
  if (requestSent !== undefined) {
    return {
      outcome: 'cancelled',
      mayHaveActed: state.phase === 'posting' && requestSent,
      failure: cancelMessage(settings.mode, state, requestSent)
    }
  }
  switch (end.kind) {
    case 'not-permitted':
      return { outcome: 'not-permitted', failure: end.reason }
    case 'dry-run':
      return { outcome: 'dry-run' }
    case 'skipped':
      return { outcome: 'skipped' }
    case 'answer-lost': {
      // Posting again could make a second job (or deliver the follow-up twice): say so, and stop.
      const words = WORDING[settings.mode]
      return {
        outcome: 'error',
        mayHaveActed: true,
        failure: `Attempt ${end.record.attempt} of this step sent ${words.request.replace(/^The /, 'the ')}, but its answer was lost: ${words.mayHaveActed}. It is not sent again; set on-rerun: new to send it anyway.`
      }
    }
    case 'not-waited': {
      // A follow-up's answer may still show the previous prompt's result: it is not this one's.
      const status = end.job?.status
      return { outcome: isTerminal(status) && settings.mode === 'create' ? status : 'started' }
    }
    case 'not-followable':
      return { outcome: 'queued' }
    case 'waited':
      if (end.end.reason === 'read') return { outcome: isTerminal(end.end.job.status) ? end.end.job.status : 'started' }
      return { outcome: end.end.reason === 'terminal' ? end.end.status : 'timed-out' }
    case 'thrown': {
      const { error } = end
      return {
        outcome: 'error',
        mayHaveActed:
          state.phase === 'posting' &&
          error instanceof ApiError &&
          (settings.mode === 'automation' ? triggerMayHaveActed(error) : mayHaveTakenEffect(error)),
        notFound: state.jobId !== undefined && error instanceof ApiError && error.kind === 'not-found',
        failure: explain(error, settings, state)
      }
    }
  }
}

/** Whether the end is a cancel, and if so whether a request had left: undefined when it is not one. */
function cancelledRequest(end: FlowEnd): boolean | undefined {
  if (end.kind === 'waited' && end.end.reason === 'cancelled') return false
  if (end.kind === 'thrown' && end.error instanceof Cancelled) return end.error.requestSent
  return undefined
}
