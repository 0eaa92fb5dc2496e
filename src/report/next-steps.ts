/** The next steps: what to do now, for the summary, by how the step ended. */
import type { ReportedSettings, RunState } from './state.js'
import { formatTime } from '../base/text.js'
import { mayStillRun, pullRequest } from './verdict.js'
import { automationSteps, queuedSteps } from './automation.js'
import type { Part } from './part.js'

/** What to do now, for the summary: one paragraph for each ending that is not a plain success. */
export function nextSteps(state: RunState, settings: ReportedSettings | undefined): Part[] | undefined {
  const jobId = state.jobId ?? ''
  const wait: Part[] = ['wait for it with ', { code: `job-id: ${jobId}` }, ' and no prompt']
  const followUp: Part[] = ['send a follow-up (', { code: `job-id: ${jobId}` }, ' with a prompt)']
  const automation = state.automation && automationSteps(state, state.automation)
  if (automation) return automation
  if (state.mayHaveActed && settings) return mayHaveActedSteps(state, settings, wait)
  switch (state.outcome ?? 'error') {
    case 'failed':
      return [
        'The Mintlify dashboard shows why. To try again, ',
        ...followUp,
        ' or start a new workflow run (re-running this one resumes the same job).'
      ]
    case 'archived':
      // Terminal, as `completed` and `failed` are (the Agent API's polling guidance: stop at any of the three).
      return [
        'An archived job is over: the agent does no more work on it. To continue, ',
        ...followUp,
        ' or start a new workflow run (re-running this one resumes the same job).'
      ]
    case 'timed-out':
      return [
        'It may still finish: ',
        ...wait,
        ', or raise ',
        { code: 'timeout' },
        " (and the workflow job's ",
        { code: 'timeout-minutes' },
        '). Re-running this workflow job resumes it.'
      ]
    case 'cancelled':
      return mayStillRun(state)
        ? ['It may still finish: ', ...wait, ', or re-run this workflow job to resume it.']
        : undefined
    case 'error':
      if (state.notFound && settings) return notFoundSteps(state, settings)
      return mayStillRun(state) ? ['It may still be running: ', ...wait, '.'] : undefined
    case 'started':
      return ['In a later step, ', ...wait, '.']
    case 'completed':
      return completedSteps(state, followUp)
    case 'queued':
      return queuedSteps(state)
    case 'skipped':
      return [
        'Explicit requests are never skipped: to document this change anyway, run the workflow by hand (',
        { code: 'workflow_dispatch' },
        ') or comment ',
        { code: '/docs <request>' },
        ' on the pull request, where the workflow takes commands.'
      ]
    case 'dry-run':
    case 'not-permitted':
      return undefined
  }
}

/** The create or follow-up left but no usable answer came: look in the dashboard before repeating it. */
function mayHaveActedSteps(state: RunState, settings: ReportedSettings, wait: Part[]): Part[] {
  const jobId = state.jobId ?? ''
  const around = formatTime(new Date(state.postedAt ?? state.startedAt).toISOString())
  return settings.mode === 'create'
    ? [
        `Look in the Mintlify dashboard for a job created around ${around}. If there is one, wait for it with `,
        { code: 'job-id' },
        ' and no prompt, rather than running this step again: that would create a second job.'
      ]
    : [
        'Look at job ',
        { code: jobId },
        ' in the Mintlify dashboard. If it took up the follow-up, ',
        ...wait,
        ', rather than sending it again.'
      ]
}

/** A completed job without a usable pull request: where to find it, or how to ask for changes. */
function completedSteps(state: RunState, followUp: Part[]): Part[] | undefined {
  const pr = pullRequest(state)
  if (pr.kind === 'unusable')
    return [
      'Find the pull request of this job in the Mintlify dashboard; the ',
      { code: 'pr-link' },
      ' output is empty.'
    ]
  if (pr.kind === 'none') return ['For changes, ', ...followUp, ' that says more precisely what to change.']
  return undefined
}

/** A job that reads 404: what to check. Waiting on the same id again cannot help, so it is never advised. */
function notFoundSteps(state: RunState, settings: ReportedSettings): Part[] {
  const jobId = state.jobId ?? ''
  if (settings.mode === 'create')
    return [
      'The job this step created still read as not found 20 s after the create was answered. Look for it in the Mintlify dashboard (project ',
      { code: settings.projectId },
      ') before running this step again.'
    ]
  return [
    'Project ',
    { code: settings.projectId },
    ' has no job ',
    { code: jobId },
    '. Check ',
    { code: 'job-id' },
    ' for a typo; that ',
    { code: 'project-id' },
    " is the project the job was created in; and, when an earlier step created it, that this step is given that step's ",
    { code: 'job-id' },
    ' output. Waiting on this id again will not find it.'
  ]
}
