/** The verdict: what each ending means for the step, as its last log line. */
import { formatDuration } from '../base/duration.js'
import { httpUrl } from '../github/pr-link.js'
import type { FailOutcome, ReportedSettings, RunState } from './state.js'
import { inline } from '../base/text.js'
import { dryRunVerdict, queuedVerdict, startedVerdict } from './automation.js'

/** How the step ends, as one log line. */
export interface Verdict {
  failed: boolean
  level: 'error' | 'warning' | 'notice' | 'info'
  message: string
}

/** Logs nothing: says whether the step fails and what its last line says. */
export function verdict(state: RunState, settings: ReportedSettings | undefined): Verdict {
  const id = inline(state.jobId ?? 'unknown')
  const failOn: ReadonlySet<FailOutcome> = settings?.failOn ?? new Set()
  const outcome = state.outcome ?? 'error'
  switch (outcome) {
    case 'error':
      return { failed: true, level: 'error', message: state.failure ?? 'The step failed.' }
    case 'cancelled':
      return { failed: true, level: 'error', message: state.failure ?? 'Cancelled.' }
    case 'dry-run':
      return {
        failed: false,
        level: 'notice',
        message: state.automation
          ? dryRunVerdict(state.automation)
          : 'Dry run: the prompt was built and nothing was sent (dry-run: true).'
      }
    case 'not-permitted':
      return { failed: false, level: 'notice', message: state.failure ?? 'No job is started.' }
    case 'skipped':
      return {
        failed: false,
        level: 'notice',
        message: `Skipped, no job started: ${inline(state.skip?.reason ?? '', 1000)}.`
      }
    case 'started':
      return {
        failed: false,
        level: 'info',
        message: state.automation
          ? startedVerdict(state)
          : `Job ${id} ${settings?.mode === 'message' ? 'has the follow-up' : 'started'}; not waiting (wait: false).`
      }
    case 'queued':
      return { failed: false, level: 'notice', message: queuedVerdict(state) }
    case 'timed-out':
      return timedOutVerdict(state, settings, id, failOn)
    case 'failed':
    case 'archived':
      return failOn.has(outcome)
        ? {
            failed: true,
            level: 'error',
            message: `Docs agent job ${id} ended ${outcome} (fail-on includes '${outcome}').`
          }
        : {
            failed: false,
            level: 'warning',
            message: `Docs agent job ${id} ended ${outcome}; fail-on does not include it.`
          }
    case 'completed':
      return completedVerdict(state, id, failOn)
  }
}

/** A wait that ran out of time: a failure only when `fail-on` says so; either way the job may still finish. */
function timedOutVerdict(
  state: RunState,
  settings: ReportedSettings | undefined,
  id: string,
  failOn: ReadonlySet<FailOutcome>
): Verdict {
  const still = inline(state.job?.status ?? 'unknown', 40)
  const timeout = formatDuration(settings?.timeoutMs ?? 0)
  return failOn.has('timed-out')
    ? {
        failed: true,
        level: 'error',
        message: `Timed out after ${timeout} waiting for job ${id} (still ${still}). Resume with job-id: ${id}.`
      }
    : {
        failed: false,
        level: 'warning',
        message: `Timed out after ${timeout} waiting for job ${id}; fail-on does not include timed-out.`
      }
}

/** A completed job: its pull request, or why there is none (a failure only when `fail-on` has `no-pr`). */
function completedVerdict(state: RunState, id: string, failOn: ReadonlySet<FailOutcome>): Verdict {
  const pr = pullRequest(state)
  if (pr.kind === 'link')
    return { failed: false, level: 'notice', message: `Docs pull request: ${inline(pr.url, 500)}` }
  const none =
    pr.kind === 'unusable'
      ? `completed with a pull request link that is not http(s) (${pr.scheme}), so it is not used`
      : 'completed without a pull request (the agent changed no files)'
  return failOn.has('no-pr')
    ? { failed: true, level: 'error', message: `Docs agent job ${id} ${none} (fail-on includes 'no-pr').` }
    : {
        failed: false,
        level: pr.kind === 'unusable' ? 'warning' : 'info',
        message: `Docs agent job ${id} ${none}.`
      }
}

/** What the job's `prLink` gives: a link, a link we will not use, or none. */
export type PullRequestLink = { kind: 'link'; url: string } | { kind: 'unusable'; scheme: string } | { kind: 'none' }

export function pullRequest(state: RunState): PullRequestLink {
  const raw = state.job?.prLink
  if (raw === undefined) return { kind: 'none' }
  const url = httpUrl(raw)
  if (url) return { kind: 'link', url }
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(raw.trim())?.[1]
  return { kind: 'unusable', scheme: scheme ? `${scheme.toLowerCase()}:` : 'not a URL' }
}

/** Whether the job may still be running, so waiting for it with `job-id` can help. */
export function mayStillRun(state: RunState): boolean {
  const status = state.job?.status
  return (
    state.jobId !== undefined &&
    !state.notFound &&
    status !== 'completed' &&
    status !== 'failed' &&
    status !== 'archived'
  )
}
