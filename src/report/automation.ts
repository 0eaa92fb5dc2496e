/**
 * What the report says of an automation's trigger: the failures of the trigger request, and the
 * endings that differ from a job's (queued and not followable, not waited for, a dry run, an
 * answer lost). The dashboard's Automation Runs page is where a run is followed otherwise.
 */
import { ApiError } from '../agent-api/errors.js'
import { triggerMayHaveActed, TriggerRateLimited } from '../agent-api/automation.js'
import { escapeHtml, formatTime, inline } from '../base/text.js'
import type { Part } from './part.js'
import type { AutomationState, RunState } from './state.js'

const RUNS_PAGE = 'the Automation Runs page of the Mintlify dashboard'

/** The failure of the trigger request, when it differs from a job's create; undefined when it does not. */
export function explainTrigger(error: ApiError, projectId: string, automationId: string): string | undefined {
  const request = `Triggering automation ${inline(automationId)}`
  if (triggerMayHaveActed(error)) {
    return `${request} failed after the request was sent (${error.message}): the automation run may have been queued. It was not sent again: a trigger is not idempotent, and a second run costs credits and opens a second pull request. Check ${RUNS_PAGE} before running this step again.`
  }
  if (error.status === 400) {
    // Mintlify's OpenAPI document (mintlify/docs openapi.json, the trigger's 400): "The automation ID is
    // malformed, the automation is not active, or the automation is not configured with a custom schedule."
    return `${request} failed (${error.message}): Mintlify triggers only an active automation whose trigger is a custom schedule. On the dashboard's Automations page, check that it is active and that its trigger is a custom schedule, and that 'automation' holds the ID from its settings panel; or start a job with a prompt instead.`
  }
  if (error.kind === 'not-found') {
    return `${request} failed: project '${inline(projectId)}' has no automation '${inline(automationId)}' (${error.message}). Check the 'automation' input (the ID in the automation's settings panel on the dashboard's Automations page) and 'project-id'.`
  }
  if (error.kind === 'rate-limited') {
    // The limit as published: mintlify.com/docs/api/automations/trigger, "Rate limits". A longer
    // timeout helps only when the wait for the limit did not fit in it: the attempts are three whatever it is.
    const raise =
      error instanceof TriggerRateLimited && error.outlastsTimeout
        ? ", or raise 'timeout' so the step waits longer for the limit"
        : ''
    return `${request} failed: rate limited (${error.message}); no run was queued. Mintlify allows 10 automation triggers per 10 seconds per organization, shared with the update trigger: spread the runs out (a concurrency: group runs them one at a time)${raise}.`
  }
  return undefined
}

/** The summary's lead for the endings of a trigger that differ from a job's; undefined for the others. */
export function automationLead(state: RunState, automation: AutomationState): string | undefined {
  if (state.mayHaveActed) {
    return `<strong>No run id:</strong> the trigger of automation ${code(automation.id)} may have queued a run, but its answer was lost.`
  }
  if (state.outcome === 'dry-run') {
    return `<strong>Nothing was sent</strong> (${code('dry-run: true')}): the step would trigger automation ${code(automation.id)}.`
  }
  if (state.outcome === 'started') {
    const { id, run, job } = names(state)
    return `<strong>Automation run queued:</strong> ${run ? `run ${code(run)}` : 'a run'} of automation ${code(id)}, job ${code(job)}; this step did not wait for it.`
  }
  return undefined
}

/** The lead of a run whose job cannot be read: where to follow it instead. */
export function queuedLead(state: RunState): string {
  const { id, run, job } = names(state)
  return `<strong>Automation run queued:</strong> ${run ? `run ${code(run)}` : 'a run'} of automation ${code(id)}. Its job ${code(job)} cannot be followed through the Agent API (it reads as not found): ${escapeHtml(RUNS_PAGE)} shows its progress and its pull request.`
}

/** The summary's Automation row. */
export function automationRow(automation: AutomationState): string {
  return automation.run ? `${code(automation.id)}, run ${code(automation.run)}` : code(automation.id)
}

/** The last log line of a run whose job cannot be read: the one notice that says where to follow it. */
export function queuedVerdict(state: RunState): string {
  const { id, run, job } = names(state)
  return `Automation ${inline(id)}: ${run ? `run ${inline(run)}` : 'a run'} was queued, and its job ${inline(job)} cannot be followed through the Agent API (it reads as not found). Follow the run on ${RUNS_PAGE}.`
}

/** The last log line of a trigger not waited for (`wait: false`). */
export function startedVerdict(state: RunState): string {
  const { id, run, job } = names(state)
  return `Automation ${inline(id)}: ${run ? `run ${inline(run)}` : 'a run'} queued (job ${inline(job)}); not waiting (wait: false).`
}

/** The last log line of a dry run. */
export function dryRunVerdict(automation: AutomationState): string {
  return `Dry run: nothing was sent; the step would trigger automation ${inline(automation.id)} (dry-run: true).`
}

/** What to do now, for the endings of a trigger that differ from a job's; undefined for the others. */
export function automationSteps(state: RunState, automation: AutomationState): Part[] | undefined {
  if (state.mayHaveActed) {
    const around = formatTime(new Date(state.postedAt ?? state.startedAt).toISOString())
    return [
      `Look on ${RUNS_PAGE} for a run of automation `,
      { code: automation.id },
      ` queued around ${around}. If there is one, do not trigger it again: a second run costs credits and opens a second pull request.`
    ]
  }
  if (state.outcome === 'started') {
    return [
      'In a later step, wait for its job with ',
      { code: `job-id: ${names(state).job}` },
      ' and no prompt; if the Agent API cannot read that job, follow ',
      ...runParts(state),
      ` on ${RUNS_PAGE}.`
    ]
  }
  return undefined
}

/** What to do about a run whose job cannot be read. */
export function queuedSteps(state: RunState): Part[] {
  return [
    'Follow ',
    ...runParts(state),
    ` on ${RUNS_PAGE}: it lists the run's pull request once the agent opens one. Re-running this workflow job does not trigger the automation again.`
  ]
}

/** The automation, its run (undefined when the trigger's answer did not name it) and its job, once the trigger answered. */
function names(state: RunState): { id: string; run: string | undefined; job: string } {
  const { id = '', run } = state.automation ?? {}
  return { id, run, job: state.jobId ?? '' }
}

/** The run to follow: by its id, or `the run` when the trigger's answer did not name it. */
function runParts(state: RunState): Part[] {
  const { run } = names(state)
  return run ? ['run ', { code: run }] : ['the run']
}

function code(value: string): string {
  return `<code>${escapeHtml(inline(value, 80))}</code>`
}
