/** The one exit path: outputs, summary and the last log line, for every ending, bad input included. */
import { errorMessage } from '../base/error-message.js'
import type { Log } from '../base/log.js'
import { verdict } from './verdict.js'
import { parsePullRequestUrl } from '../github/pr-link.js'
import { pullRequest } from './verdict.js'
import type { ReportedSettings, RunState } from './state.js'
import { renderSummary } from './summary.js'

/** The action's outputs, as declared in action.yml. */
export const OUTPUT_NAMES = [
  'job-id',
  'status',
  'pr-link',
  'pr-number',
  'pr-repository',
  'source-repository',
  'source-ref',
  'model',
  'created-at',
  'archived-at',
  'timed-out',
  'not-permitted',
  'job',
  'prompt',
  'command',
  'grouped',
  'preview-url',
  'automation-run-id',
  'reviewers',
  'assignees',
  'merge',
  'skipped',
  'skip-reason',
  'check-run-id',
  'docs-checks',
  'fix-rounds'
] as const
export type OutputName = (typeof OUTPUT_NAMES)[number]

/** Where the step reports: `@actions/core` in the action, recorders in tests. */
export interface Reporter {
  log: Log
  /** `GITHUB_SERVER_URL`, to recognise pull request links on GitHub Enterprise. */
  serverUrl: string | undefined
  setOutput(name: OutputName, value: string): void
  writeSummary(markdown: string): Promise<void>
}

/**
 * Every output's value ('' when unknown). Outputs are data for later steps: they keep the
 * server's bytes as sent (only `pr-link` is left empty when it is not an http(s) URL), where the
 * log and the summary, which people read, show the same text made safe to read.
 */
export function renderOutputs(
  state: RunState,
  serverUrl: string | undefined,
  settings?: Pick<ReportedSettings, 'command'>
): Record<OutputName, string> {
  const job = state.job
  const link = pullRequest(state)
  // A follow-up into the group's docs pull request: the job shows no link again until it ends.
  const grouped = state.group?.via === 'follow-up' ? state.group.pull?.url : undefined
  const prLink = link.kind === 'link' ? link.url : (grouped ?? '')
  const pr = parsePullRequestUrl(prLink, serverUrl)
  return {
    'job-id': state.jobId ?? '',
    status: job?.status ?? '',
    'pr-link': prLink,
    'pr-number': pr ? String(pr.number) : '',
    'pr-repository': pr ? `${pr.owner}/${pr.repo}` : '',
    'source-repository': job?.source?.repository ?? '',
    'source-ref': job?.source?.ref ?? '',
    model: job?.model ?? '',
    'created-at': job?.createdAt ?? '',
    'archived-at': job?.archivedAt ?? '',
    'timed-out': String(state.outcome === 'timed-out'),
    'not-permitted': String(state.outcome === 'not-permitted'),
    job: job ? JSON.stringify(job.raw) : '',
    prompt: state.prompt ?? '',
    command: settings?.command?.kind ?? '',
    grouped: String(state.group?.via === 'follow-up'),
    'preview-url': state.preview?.url ?? '',
    'automation-run-id': state.automation?.run ?? '',
    reviewers: state.owner?.reviewers.join(',') ?? '',
    assignees: state.owner?.assignees.join(',') ?? '',
    merge: state.owner?.merge?.result === 'open' ? '' : (state.owner?.merge?.result ?? ''),
    skipped: String(state.outcome === 'skipped'),
    'skip-reason': state.outcome === 'skipped' ? (state.skip?.reason ?? '') : '',
    'check-run-id': state.check?.id === undefined ? '' : String(state.check.id),
    // `waiting` is the progress's: a step stopped then has no verdict.
    'docs-checks': !state.docsChecks || state.docsChecks.result === 'waiting' ? '' : state.docsChecks.result,
    'fix-rounds': state.docsChecks ? String(state.docsChecks.rounds) : ''
  }
}

/**
 * Writes the outputs and the summary, then logs the verdict; true when the step must fail. A
 * summary that cannot be written is a warning, never the step's result.
 */
export async function finish(state: RunState, settings: ReportedSettings | undefined, out: Reporter): Promise<boolean> {
  const outputs = renderOutputs(state, out.serverUrl, settings)
  for (const name of OUTPUT_NAMES) out.setOutput(name, outputs[name])
  try {
    await out.writeSummary(renderSummary({ state, settings, serverUrl: out.serverUrl }))
  } catch (error) {
    out.log.warning(`Could not write the job summary: ${errorMessage(error)}`)
  }
  const { failed, level, message } = verdict(state, settings)
  out.log[level](message)
  if (failed || !settings?.failOn.has('docs-checks') || state.docsChecks?.result !== 'failure') return failed
  out.log.error("The docs pull request's checks failed (fail-on includes 'docs-checks').")
  return true
}
