import { Cancelled, type CallOptions } from './client.js'
import { formatDuration } from './duration.js'
import { ApiError, errorMessage, isSafeToRetryPost, mayHaveTakenEffect } from './errors.js'
import { isKnownStatus, isTerminal, type AgentJob, type IdentifiedJob } from './job.js'
import type { Log } from './log.js'
import { httpUrl, parsePullRequestUrl, type PullRequestRef } from './pr-link.js'
import { renderOutputs, renderSummary, OUTPUT_NAMES } from './report.js'
import { nextRetryDelay } from './schedule.js'
import type { Settings } from './settings.js'
import { initialState, type Outcome, type RunState } from './state.js'
import { inline } from './text.js'
import { requestTimeout, waitForJob, type Clock } from './wait.js'

/** The Agent API as the action uses it (`AgentClient` in the action, the same over HTTP in tests). */
export interface Api {
  createJob(prompt: string, call: CallOptions): Promise<IdentifiedJob>
  sendMessage(jobId: string, prompt: string, call: CallOptions): Promise<IdentifiedJob>
  getJob(jobId: string, call: CallOptions): Promise<AgentJob>
}

export interface Deps {
  api: Api
  log: Log
  clock: Clock
  /** Aborts when the runner cancels the step. */
  signal: AbortSignal
  /** `GITHUB_SERVER_URL`, to recognise pull request links on GitHub Enterprise. */
  serverUrl: string | undefined
  setOutput(name: string, value: string): void
  writeSummary(html: string): Promise<void>
  /** Adds labels to a pull request; throws when GitHub refuses. */
  addLabels(pr: PullRequestRef, labels: string[]): Promise<void>
}

export interface RunResult {
  state: RunState
  /** Whether the step must fail (the reason was already logged as an error). */
  failed: boolean
}

/** Creates, messages or only reads the job, waits for it, then reports on every exit path. */
export async function run(settings: Settings, deps: Deps): Promise<RunResult> {
  const { log, clock } = deps
  const state = initialState(clock.now(), settings.jobId)
  const deadline = state.startedAt + settings.timeoutMs
  if (state.jobId) announceJob(state.jobId, deps)
  // Whether a failure or a cancellation came from the create or message (else from reading).
  let posting = false

  try {
    if (settings.mode !== 'wait-only') {
      const prompt = settings.prompt as string
      posting = true
      const job = await postOnce(settings, deps, deadline, (call) =>
        settings.mode === 'create'
          ? deps.api.createJob(prompt, call)
          : deps.api.sendMessage(settings.jobId as string, prompt, call)
      )
      posting = false
      if (settings.mode === 'create') {
        state.jobId = job.id
        announceJob(state.jobId, deps)
      } else {
        log.info(`Follow-up sent to job ${inline(state.jobId ?? '')}`)
      }
      observe(state, job, log, clock.now())
    }
    const jobId = state.jobId as string

    if (!settings.wait) {
      if (settings.mode === 'wait-only') {
        state.polls++
        const job = await deps.api.getJob(jobId, {
          timeoutMs: requestTimeout(deadline, clock.now()),
          signal: deps.signal
        })
        observe(state, job, log, clock.now())
      }
      state.outcome = isTerminal(state.job?.status) ? state.job.status : 'started'
    } else if (isTerminal(state.job?.status)) {
      state.outcome = state.job.status
    } else {
      state.waitStartedAt = clock.now()
      const postedAt = settings.mode === 'wait-only' ? undefined : state.waitStartedAt
      const end = await waitForJob({
        jobId,
        getJob: (id, call) => deps.api.getJob(id, call),
        schedule: { initialMs: settings.pollIntervalMs, maxMs: settings.maxPollIntervalMs },
        deadline,
        pollNow: settings.mode === 'wait-only',
        postedAt,
        clock,
        signal: deps.signal,
        onPoll: (event) => {
          state.polls++
          if ('job' in event) observe(state, event.job, log, clock.now())
          else
            log.info(
              `Poll ${state.polls} failed: ${event.error.message}; ${event.retryInMs === undefined ? 'no time left to retry' : `retrying in ${formatDuration(event.retryInMs)}`}`
            )
        },
        onHeartbeat: (message) =>
          log.info(`${message}; job ${inline(jobId)} is ${inline(state.job?.status ?? 'unknown', 40)}`)
      })
      state.outcome = end.reason === 'terminal' ? (end.job.status as Outcome) : end.reason
    }
  } catch (error) {
    if (error instanceof Cancelled) {
      state.outcome = 'cancelled'
      if (posting && error.duringRequest) {
        state.failure = `Cancelled while the ${settings.mode === 'create' ? 'create' : 'follow-up'} request was in flight: ${settings.mode === 'create' ? 'the job may have been created' : 'the follow-up may have been delivered'}. Check the agent jobs in the dashboard.`
      }
    } else {
      state.outcome = 'error'
      state.failure = explain(error, settings, state, posting)
    }
  } finally {
    state.endedAt = clock.now()
    await publish(state, settings, deps)
  }

  const failed = verdict(state, settings, log)
  if (!failed) await label(state, settings, deps)
  return { state, failed }
}

/** Sends a create or message, retrying only when the server certainly did not act. */
async function postOnce(
  settings: Settings,
  deps: Deps,
  deadline: number,
  send: (call: CallOptions) => Promise<IdentifiedJob>
): Promise<IdentifiedJob> {
  const { clock, log } = deps
  for (let attempt = 1; ; attempt++) {
    try {
      return await send({ timeoutMs: requestTimeout(deadline, clock.now()), signal: deps.signal })
    } catch (error) {
      if (!(error instanceof ApiError) || !isSafeToRetryPost(error)) throw error
      const delay = nextRetryDelay({
        attempt,
        remainingMs: deadline - clock.now(),
        retryAfterMs: error.retryAfterMs,
        random: clock.random()
      })
      if (delay === undefined) throw error
      log.info(
        `The ${settings.mode === 'create' ? 'create' : 'message'} request was not accepted (${error.message}); retrying in ${formatDuration(delay)}`
      )
      await clock.sleep(delay, deps.signal)
    }
  }
}

function announceJob(jobId: string, deps: Deps): void {
  // Set at once, so that even a step killed from here on leaves the id behind.
  deps.setOutput('job-id', jobId)
  deps.log.info(`Job id: ${inline(jobId)}`)
}

/** Records a job read and logs what changed. */
function observe(state: RunState, job: AgentJob, log: Log, now: number): void {
  const previous = state.job?.status
  state.job = job
  if (job.status === previous) return
  const status = inline(job.status ?? 'missing', 60)
  if (job.status !== undefined && !isKnownStatus(job.status) && !state.unknownStatusWarned) {
    state.unknownStatusWarned = true
    log.warning(
      `Job ${inline(state.jobId ?? '')} reports an unknown status "${status}"; polling on until it ends or the timeout.`
    )
  }
  const elapsed = state.waitStartedAt === undefined ? '' : ` after ${formatDuration(now - state.waitStartedAt)}`
  log.info(`Job ${inline(state.jobId ?? '')} is ${status}${isTerminal(job.status) ? elapsed : ''}`)
}

/** The step's failure message for an error that ended it. */
function explain(error: unknown, settings: Settings, state: RunState, posting: boolean): string {
  if (!(error instanceof ApiError)) return `Unexpected error: ${inline(errorMessage(error), 500)}`
  const request = !posting
    ? `Reading job ${state.jobId ?? ''}`
    : settings.mode === 'create'
      ? 'Creating the job'
      : `Sending the follow-up to job ${state.jobId ?? ''}`
  if (posting && mayHaveTakenEffect(error)) {
    const what = settings.mode === 'create' ? 'the job may have been created' : 'the follow-up may have been delivered'
    return `${request} failed after the request was sent (${error.message}): ${what}. It was not retried, to avoid a duplicate job and pull request; check the agent jobs in the dashboard before running again.`
  }
  switch (error.kind) {
    case 'unauthorized':
      return `${request} failed: the Agent API refused the key (401). Check that the 'api-key' input holds a current admin API key (mint_…).`
    case 'forbidden':
      return `${request} failed: the Agent API forbade it (403). Check that the key in 'api-key' belongs to project '${settings.projectId}' and that its IP allow-list admits this runner.`
    case 'not-found':
      return posting && settings.mode === 'create'
        ? `${request} failed (${error.message}). Check the 'project-id' input.`
        : `${request} failed: job not found (${error.message}). Check the 'job-id' input and that it belongs to project '${settings.projectId}'.`
    case 'rate-limited':
      return `${request} failed: rate limited (${error.message}). The API allows 100 jobs and messages per project per hour; retried within the time left and gave up.`
    case 'redirect':
      return `${request} failed: ${error.message}. Redirects are not followed with the API key; check the 'base-url' input.`
    case 'invalid':
    case 'unavailable':
    case 'server-error':
    case 'not-sent':
    case 'no-answer':
    case 'bad-response':
      return `${request} failed: ${error.message}.`
  }
}

/** Writes outputs and the summary; a failure to write is a warning, never the step's result. */
async function publish(state: RunState, settings: Settings, deps: Deps): Promise<void> {
  const outputs = renderOutputs(state, deps.serverUrl)
  for (const name of OUTPUT_NAMES) deps.setOutput(name, outputs[name])
  try {
    await deps.writeSummary(
      renderSummary({ state, mode: settings.mode, prompt: settings.prompt, serverUrl: deps.serverUrl })
    )
  } catch (error) {
    deps.log.warning(`Could not write the job summary: ${errorMessage(error)}`)
  }
}

/** Logs the result; true when the step must fail. */
function verdict(state: RunState, settings: Settings, log: Log): boolean {
  const id = inline(state.jobId ?? 'unknown')
  switch (state.outcome ?? 'error') {
    case 'error':
      log.error(state.failure ?? 'The step failed.')
      return true
    case 'cancelled':
      log.error(
        state.failure ??
          (state.jobId ? `Cancelled while waiting for job ${id}. Resume with job-id: ${id}.` : 'Cancelled.')
      )
      return true
    case 'started':
      log.info(`Job ${id} started; not waiting (wait: false).`)
      return false
    case 'timed-out':
      if (settings.failOn.has('timed-out')) {
        log.error(
          `Timed out after ${formatDuration(settings.timeoutMs)} waiting for job ${id} (still ${inline(state.job?.status ?? 'unknown', 40)}). Resume with job-id: ${id}.`
        )
        return true
      }
      log.warning(
        `Timed out after ${formatDuration(settings.timeoutMs)} waiting for job ${id}; fail-on does not include timed-out.`
      )
      return false
    case 'failed':
    case 'archived': {
      const outcome = state.outcome as 'failed' | 'archived'
      if (settings.failOn.has(outcome)) {
        log.error(`Docs agent job ${id} ended ${outcome} (fail-on includes '${outcome}').`)
        return true
      }
      log.warning(`Docs agent job ${id} ended ${outcome}; fail-on does not include it.`)
      return false
    }
    case 'completed': {
      const prLink = httpUrl(state.job?.prLink)
      if (prLink) {
        log.notice(`Docs pull request: ${inline(prLink, 500)}`)
        return false
      }
      if (settings.failOn.has('no-pr')) {
        log.error(`Docs agent job ${id} completed without a pull request (fail-on includes 'no-pr').`)
        return true
      }
      log.info(`Docs agent job ${id} completed; no pull request (the agent changed no files).`)
      return false
    }
  }
}

/** Labels the docs PR; GitHub refusing is a warning, never a failed step or lost outputs. */
async function label(state: RunState, settings: Settings, deps: Deps): Promise<void> {
  if (settings.labels.length === 0 || state.outcome !== 'completed') return
  const pr = parsePullRequestUrl(state.job?.prLink, deps.serverUrl)
  if (!pr) {
    if (state.job?.prLink)
      deps.log.warning(
        `Not labelling ${inline(state.job.prLink, 200)}: it is not a pull request on this GitHub server.`
      )
    return
  }
  const target = `${pr.owner}/${pr.repo}#${pr.number}`
  try {
    await deps.addLabels(pr, settings.labels)
    deps.log.info(`Labelled ${target}: ${settings.labels.map((name) => inline(name, 50)).join(', ')}`)
  } catch (error) {
    deps.log.warning(
      `Could not label ${target} (${inline(errorMessage(error), 300)}). The 'github-token' input needs 'pull-requests: write' (or 'issues: write') on ${pr.owner}/${pr.repo}; the default GITHUB_TOKEN cannot write to another repository: pass a fine-grained token or a GitHub App token for it.`
    )
  }
}
