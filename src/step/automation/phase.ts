/**
 * The automation mode (`automation`): the trigger takes the post phase's place. It is sent at most
 * once in effect (only a 429 is sent again), never again on a re-run (the record resumes the same
 * run and job), and the run's job is waited for as any job. A job the Agent API does not read (404
 * past the usual grace) ends the step as `queued`: the dashboard's Automation Runs page follows it.
 */
import { formatDuration } from '../../base/duration.js'
import { inline } from '../../base/text.js'
import { TRIGGER_ATTEMPTS, triggerOnce, type AutomationApi } from '../../agent-api/automation.js'
import { ApiError } from '../../agent-api/errors.js'
import { NOT_FOUND_GRACE_MS } from '../../agent-api/wait.js'
import type { FlowEnd } from '../ending.js'
import type { Rerun } from '../rerun.js'
import type { Tracking } from '../tracking/tracking.js'
import type { RunStateWriter } from '../run-state.js'
import { skipPhase, type SkipDeps } from '../skip/phase.js'
import type { AutomationSettings } from '../settings.js'
import { wait, type WaitDeps, type WaitFor } from '../wait.js'

export interface AutomationDeps extends WaitDeps, Omit<SkipDeps, 'log'> {
  automations: AutomationApi
  /** Told when the run's job is known: the progress and the check (tracking/tracking.ts). */
  follow?: (WaitDeps['follow'] & Pick<Tracking, 'answered' | 'following'>) | undefined
}

/** Resumes an earlier attempt's run, or triggers the automation (a dry run only says it would), then follows its job. */
export async function automation(
  settings: AutomationSettings,
  deps: AutomationDeps,
  run: RunStateWriter,
  rerun: Rerun,
  deadline: number
): Promise<FlowEnd> {
  const { automationId } = settings
  const earlier = await rerun.findEarlierAttempt(settings)
  if (earlier.kind === 'answer-lost') {
    run.automation(automationId, undefined)
    run.answerLost(earlier.record, undefined)
    return { kind: 'answer-lost', record: earlier.record }
  }
  if (earlier.kind === 'job') {
    const { record, jobId } = earlier
    run.resumed(record)
    run.automation(automationId, record.automationRun)
    const queued = record.automationRun === undefined ? 'the run' : `run ${inline(record.automationRun)}`
    deps.log.info(`Resuming ${queued} of automation ${inline(automationId)} from attempt ${record.attempt}`)
    run.reading()
    deps.follow?.following(settings)
    const notFoundUntil = record.answeredAt + NOT_FOUND_GRACE_MS
    return follow(settings, deps, run, deadline, { jobId, pollNow: true, notFoundUntil })
  }
  // A skip label or a marker spares the automation's credits as it spares a job's (never a resumed run).
  const skipped = skipPhase('event', settings, deps, run)
  if (skipped) return skipped
  run.automation(automationId, undefined)
  if (settings.dryRun) {
    deps.log.info(
      `Dry run: nothing is sent. The step would trigger automation ${inline(automationId)} of project ${inline(settings.projectId)}.`
    )
    return { kind: 'dry-run' }
  }
  deps.log.info(`Triggering automation ${inline(automationId)} of project ${inline(settings.projectId)}`)
  run.posting()
  const triggered = await triggerOnce(deps.automations, automationId, {
    clock: deps.clock,
    signal: deps.signal,
    deadline,
    onRateLimited: (error, waitMs, attempt) =>
      deps.log.info(
        `The trigger request was not accepted (${error.message}); attempt ${attempt + 1} of ${TRIGGER_ATTEMPTS} in ${formatDuration(waitMs)}`
      )
  })
  const answeredAt = deps.clock.now()
  const { instanceId, jobId } = triggered
  run.triggered(automationId, instanceId, jobId)
  const record = { jobId, automationRun: instanceId, answeredAt, mayHaveActed: false, answer: undefined }
  rerun.startSavingRecord(settings, record, '')
  deps.follow?.answered(settings)
  const notFoundUntil = answeredAt + NOT_FOUND_GRACE_MS
  return follow(settings, deps, run, deadline, { jobId, pollNow: false, notFoundUntil, posted: true })
}

/** The wait for the run's job; a job the Agent API does not read cannot be followed, which is no failure. */
async function follow(
  settings: AutomationSettings,
  deps: AutomationDeps,
  run: RunStateWriter,
  deadline: number,
  how: WaitFor
): Promise<FlowEnd> {
  try {
    return await wait(settings, deps, run, deadline, how)
  } catch (error) {
    if (error instanceof ApiError && error.kind === 'not-found') return { kind: 'not-followable' }
    throw error
  }
}
