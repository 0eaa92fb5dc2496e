/** The outcome policy: what each ending means for the step, and how it is told in the log and the summary. */
import { formatDuration } from '../base/duration.js'
import { ApiError, mayHaveTakenEffect } from '../agent-api/errors.js'
import { errorMessage } from '../base/error-message.js'
import { httpUrl } from '../github/pr-link.js'
import type { Mode, ReportedSettings, RunState } from './state.js'
import { formatTime, inline } from '../base/text.js'

/** How each mode's request is named: one table instead of a branch per sentence. */
export const WORDING: Record<
  Mode,
  {
    /** "The create request was not accepted". */
    request: string
    /** "… so <posting>". */
    posting: string
    /** When the request left but no usable answer came. */
    mayHaveActed: string
    /** When it never left. */
    nothingSent: string
    /** Names the failed request in an error. */
    failing(jobId: string): string
    /** The summary's name for the request. */
    summary: string
  }
> = {
  create: {
    request: 'The create request',
    posting: 'a new job is created',
    mayHaveActed: 'the job may have been created',
    nothingSent: 'no job was created',
    failing: () => 'Creating the job',
    summary: 'new job'
  },
  message: {
    request: 'The follow-up request',
    posting: 'the follow-up is sent',
    mayHaveActed: 'the follow-up may have been delivered',
    nothingSent: 'no follow-up was sent',
    failing: (jobId) => `Sending the follow-up to job ${jobId}`,
    summary: 'follow-up message'
  },
  'wait-only': {
    request: 'The read',
    posting: 'the job is read',
    mayHaveActed: '',
    nothingSent: '',
    failing: (jobId) => `Reading job ${jobId}`,
    summary: 'wait only'
  }
}

/** How the step ends, as one log line. */
export interface Verdict {
  failed: boolean
  level: 'error' | 'warning' | 'notice' | 'info'
  message: string
}

/** Logs nothing: says whether the step fails and what its last line says. */
export function verdict(state: RunState, settings: ReportedSettings | undefined): Verdict {
  const id = inline(state.jobId ?? 'unknown')
  const failOn = settings?.failOn ?? new Set()
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
        message: 'Dry run: the prompt was built and nothing was sent (dry-run: true).'
      }
    case 'not-permitted':
      return { failed: false, level: 'notice', message: state.failure ?? 'No job is started.' }
    case 'started':
      return {
        failed: false,
        level: 'info',
        message: `Job ${id} ${settings?.mode === 'message' ? 'has the follow-up' : 'started'}; not waiting (wait: false).`
      }
    case 'timed-out': {
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
    case 'completed': {
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

/** The message of a cancellation, by where it found the step. */
export function cancelMessage(mode: Mode, state: RunState, requestSent: boolean): string {
  const words = WORDING[mode]
  const id = inline(state.jobId ?? '')
  if (state.phase === 'posting' && requestSent) {
    return `Cancelled while ${words.request.replace(/^The /, 'the ')} was in flight: ${words.mayHaveActed}. Check the agent jobs in the dashboard.`
  }
  if (state.phase !== 'reading' && mode !== 'wait-only') {
    return `Cancelled before ${words.request.replace(/^The /, 'the ')} was sent: ${words.nothingSent}.`
  }
  return `Cancelled while waiting for job ${id}. Resume with job-id: ${id}.`
}

/** The step's failure message for an error that ended it. */
export function explain(error: unknown, settings: ReportedSettings, state: RunState): string {
  if (!(error instanceof ApiError)) return `Unexpected error: ${inline(errorMessage(error), 500)}`
  const posting = state.phase === 'posting'
  const jobId = state.jobId ?? ''
  const words = WORDING[settings.mode]
  const request = posting ? words.failing(jobId) : `Reading job ${jobId}`
  if (posting && mayHaveTakenEffect(error)) {
    return `${request} failed after the request was sent (${error.message}): ${words.mayHaveActed}. It was not retried, to avoid a duplicate job and pull request; check the agent jobs in the dashboard before running again.`
  }
  switch (error.kind) {
    case 'unauthorized':
      return `${request} failed: the Agent API refused the key (401). Check that the 'api-key' input holds a current admin API key (mint_…).`
    case 'forbidden':
      return `${request} failed: the Agent API forbade it (403). Check that the key in 'api-key' belongs to project '${settings.projectId}' and that its IP allow-list admits this runner.`
    case 'not-found':
      if (settings.mode === 'create')
        return posting
          ? `${request} failed (${error.message}). Check the 'project-id' input.`
          : `${request} failed: job not found (${error.message}), though this step created it; look for it in the Mintlify dashboard.`
      return `${request} failed: job not found (${error.message}). Check the 'job-id' input and that it belongs to project '${settings.projectId}'.`
    case 'rate-limited':
      return `${request} failed: rate limited (${error.message}). The Agent API allows 100 jobs and messages per project per hour: spread the runs out (a concurrency: group runs them one at a time), or raise 'timeout' so the step waits longer for the limit to clear.`
    case 'redirect':
      return `${request} failed: ${error.message}. Redirects are not followed with the API key; check the 'base-url' input.`
    case 'proxy':
      return `${request} failed: ${error.message}; nothing reached the API. ${error.status === 407 ? 'The proxy wants credentials: put them in HTTPS_PROXY (http://user:password@host:port).' : 'Check the proxy in HTTPS_PROXY and NO_PROXY.'}`
    case 'tls':
      return `${request} failed: ${error.message}; nothing reached the API. If a proxy or gateway re-signs TLS, give its CA certificate to Node with NODE_EXTRA_CA_CERTS; else check 'base-url'.`
    case 'not-sent':
      return `${request} failed: ${error.message}; nothing reached the API. Check 'base-url' and the runner's network.`
    case 'invalid':
    case 'unavailable':
    case 'server-error':
    case 'no-answer':
    case 'bad-response':
      return `${request} failed: ${error.message}.`
  }
}

/** Text, with code set apart (job ids, inputs), so the summary can format it without parsing. */
export type Part = string | { code: string }

/** What to do now, for the summary: one paragraph for each ending that is not a plain success. */
export function nextSteps(state: RunState, settings: ReportedSettings | undefined): Part[] | undefined {
  const jobId = state.jobId ?? ''
  const wait: Part[] = ['wait for it with ', { code: `job-id: ${jobId}` }, ' and no prompt']
  const followUp: Part[] = ['send a follow-up (', { code: `job-id: ${jobId}` }, ' with a prompt)']
  if (state.mayHaveActed && settings) {
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
  switch (state.outcome ?? 'error') {
    case 'failed':
      return [
        'The Mintlify dashboard shows why. To try again, ',
        ...followUp,
        ' or start a new workflow run (re-running this one resumes the same job).'
      ]
    case 'archived':
      return ['To continue, ', ...followUp, ' or start a new workflow run (re-running this one resumes the same job).']
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
    case 'completed': {
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
    case 'dry-run':
    case 'not-permitted':
      return undefined
  }
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
