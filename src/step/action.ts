/**
 * The step's flow: resume an earlier attempt's job, or build the prompt (with the workflow's
 * context), create or message the job, and wait for it; then report, on every exit path.
 */
import { Cancelled } from '../base/cancel.js'
import { requestTimeout, type Clock } from '../base/clock.js'
import type { AgentApi } from '../agent-api/client.js'
import { CONTEXT_BUDGET_CHARS } from '../github/context/budget.js'
import { CONTEXT_TIMEOUT_MS, gatherContext, promptWithContext } from '../github/context/context.js'
import { releaseSetContext } from '../github/context/release-set.js'
import { formatDuration } from '../base/duration.js'
import { ApiError, isSafeToRetryPost, mayHaveTakenEffect } from '../agent-api/errors.js'
import type { Trigger } from '../github/event.js'
import type { Permissions } from '../github/permissions.js'
import { decideAuthorText, decideStart, type TrustFacts } from '../github/trust.js'
import { WITHHELD, withheldContext } from '../github/context/withheld-context.js'
import type { GitHubReader } from '../github/client.js'
import { isKnownStatus, isTerminal, jobFingerprint, type AgentJob, type IdentifiedJob } from '../agent-api/job.js'
import { cancelMessage, explain, WORDING } from '../report/outcome.js'
import type { PullRequestRef } from '../github/pr-link.js'
import { labelTarget } from '../github/labels.js'
import { finish, type Reporter } from '../report/report.js'
import { restoreRecord, saveRecord, type RecordStore, type RerunRecord, type RunIdentity } from '../rerun/record.js'
import { fingerprint } from '../base/fingerprint.js'
import { nextRetryDelay } from '../agent-api/schedule.js'
import { MAX_PROMPT_CHARS, type Settings } from './settings.js'
import { initialState, type RunState } from '../report/state.js'
import { formatTime, inline, plural } from '../base/text.js'
import { NOT_FOUND_GRACE_MS, waitForJob } from '../agent-api/wait.js'

export interface Deps extends Reporter {
  api: AgentApi
  clock: Clock
  /** Aborts when the runner cancels the step. */
  signal: AbortSignal
  /** `GITHUB_REPOSITORY`: where `release-tags` are read, whatever the event; undefined outside a runner. */
  repository?: string | undefined
  /** What triggered the workflow; read only when a new job's prompt takes context. */
  trigger(): Trigger
  /** Who triggered it, and the pull request's people; read before anything is sent. */
  trust(): TrustFacts
  /** Permissions on the workflow's repository, each login read once in the run. */
  permissions: Permissions
  /** GitHub, with `github-token`: reads for the context, and labels. */
  github: {
    reader(repository: string, signal: AbortSignal): GitHubReader
    addLabels(pr: PullRequestRef, labels: string[]): Promise<void>
  }
  records: RecordStore
  /** This workflow run and attempt; undefined outside a runner. */
  run: RunIdentity | undefined
  /** Links the job back on GitHub (pull request, release, docs pull request) once reported. */
  linkBack?: (state: RunState) => Promise<void>
}

type Posting = Extract<Settings, { mode: 'create' | 'message' }>

/** Runs the step; true in `failed` when it must fail (the reason was already logged as an error). */
export async function runStep(settings: Settings, deps: Deps): Promise<{ failed: boolean }> {
  const state = initialState(deps.clock.now(), settings.mode === 'create' ? undefined : settings.jobId)
  const deadline = state.startedAt + settings.timeoutMs
  if (state.jobId) announceJob(state.jobId, deps)
  const pending: { save?: Promise<void> } = {}
  try {
    await drive(settings, deps, state, deadline, pending)
  } catch (error) {
    const posting = state.phase === 'posting'
    if (error instanceof Cancelled) {
      state.outcome = 'cancelled'
      state.mayHaveActed = posting && error.requestSent
      state.failure = cancelMessage(settings.mode, state, error.requestSent)
    } else {
      state.outcome = 'error'
      state.mayHaveActed = posting && error instanceof ApiError && mayHaveTakenEffect(error)
      state.notFound = state.jobId !== undefined && error instanceof ApiError && error.kind === 'not-found'
      state.failure = explain(error, settings, state)
    }
    // The request may have acted: a re-run must know, or it would post a second time.
    if (state.mayHaveActed && settings.mode !== 'wait-only') {
      pending.save = remember(settings, deps, state, {
        jobId: state.jobId,
        answeredAt: deps.clock.now(),
        mayHaveActed: true,
        answer: undefined
      })
    }
  }
  state.endedAt = deps.clock.now()
  const failed = await finish(state, settings, deps)
  if (!failed && state.outcome === 'completed') await label(state, settings, deps)
  await deps.linkBack?.(state)
  // The record is saved while the step waits; what is left of that is awaited here (bounded).
  await pending.save
  return { failed }
}

/** Everything up to the outcome; the re-run record's save, started on the way, goes into `pending`. */
async function drive(
  settings: Settings,
  deps: Deps,
  state: RunState,
  deadline: number,
  pending: { save?: Promise<void> }
): Promise<void> {
  if (settings.mode === 'wait-only') {
    if (settings.dryRun) state.outcome = 'dry-run'
    else await follow(settings, deps, state, deadline, settings.jobId, { pollNow: true, notFoundUntil: undefined })
    return
  }
  if (!(await mayStart(settings, deps, state))) return
  if (await resume(settings, deps, state, deadline)) return

  const prompt = settings.mode === 'create' ? await buildPrompt(settings, deps, state) : settings.prompt
  state.prompt = prompt
  if (settings.dryRun) {
    state.outcome = 'dry-run'
    deps.log.info(`Dry run: nothing is sent. The prompt (${plural(prompt.length, 'character')}):`)
    // Each line behind a margin: text from GitHub or the prompt can never start a workflow command.
    for (const line of prompt.split(/\r?\n/)) deps.log.info(`│ ${inline(line, 2000)}`)
    return
  }

  state.phase = 'posting'
  state.postedAt = deps.clock.now()
  const job = await postAtMostOnce(settings, deps, deadline, prompt)
  state.phase = 'reading'
  const answeredAt = deps.clock.now()
  if (settings.mode === 'create') {
    state.jobId = job.id
    announceJob(job.id, deps)
  } else {
    deps.log.info(`Follow-up sent to job ${inline(settings.jobId)}`)
  }
  observe(state, job, deps)
  pending.save = remember(settings, deps, state, {
    jobId: job.id,
    answeredAt,
    mayHaveActed: false,
    answer: settings.mode === 'message' ? jobFingerprint(job) : undefined
  })
  await follow(settings, deps, state, deadline, job.id, {
    pollNow: false,
    notFoundUntil: answeredAt + NOT_FOUND_GRACE_MS,
    previous: settings.mode === 'message' ? { fingerprint: jobFingerprint(job), answeredAt } : undefined,
    posted: true
  })
}

interface Follow {
  pollNow: boolean
  notFoundUntil: number | undefined
  /** After a follow-up: the answer (fingerprinted), which a stale read must not be mistaken for. */
  previous?: { fingerprint: string; answeredAt: number } | undefined
  /** This step's create or message was just answered (the record in `state.job` is that answer). */
  posted?: boolean
}

/** Waits for the job (or, with `wait: false`, reports it) and sets the outcome. */
async function follow(
  settings: Settings,
  deps: Deps,
  state: RunState,
  deadline: number,
  jobId: string,
  how: Follow
): Promise<void> {
  const { clock, log } = deps
  if (!settings.wait && how.posted) {
    // A follow-up's answer may still show the previous prompt's result: it is not this one's.
    const status = state.job?.status
    state.outcome = isTerminal(status) && settings.mode === 'create' ? status : 'started'
    return
  }
  state.waitStartedAt = clock.now()
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
      state.polls++
      if ('job' in event) {
        observe(state, event.job, deps)
        if (event.held) log.info(`Job ${inline(jobId)} ${event.held}`)
      } else {
        log.info(
          `Poll ${state.polls} failed: ${event.error.message}; ${event.retryInMs === undefined ? 'no time left to retry' : `retrying in ${formatDuration(event.retryInMs)}`}`
        )
      }
    },
    onHeartbeat: (message) =>
      log.info(`${message}; job ${inline(jobId)} is ${inline(state.job?.status ?? 'unknown', 40)}`)
  })
  if (end.reason === 'cancelled') throw new Cancelled(false)
  if (end.reason === 'read') {
    const status = end.job.status
    state.outcome = isTerminal(status) ? status : 'started'
  } else {
    state.outcome = end.reason === 'terminal' ? end.status : end.reason
  }
}

/**
 * On a re-run (attempt 2 on), finds the job an earlier attempt of this step created or messaged,
 * and follows it instead of posting again. False when there is none to follow: the step then
 * posts as on a first attempt.
 */
async function resume(settings: Posting, deps: Deps, state: RunState, deadline: number): Promise<boolean> {
  const { run, records, log } = deps
  if (settings.dryRun || !run || run.attempt < 2) return false
  const posting = WORDING[settings.mode].posting
  if (settings.onRerun === 'new') {
    log.info(
      `Attempt ${run.attempt} of this run: on-rerun is new, so ${posting} without looking for an earlier attempt's job.`
    )
    return false
  }
  if (!records.available) {
    log.debug('No Actions cache service here: a re-run cannot find the job of an earlier attempt.')
    return false
  }
  const restored = await restoreRecord(records, run, settings)
  if (restored.kind !== 'found' && deps.signal.aborted) throw new Cancelled(false)
  if (restored.kind === 'failed') {
    log.warning(
      `Could not read what earlier attempts of this step did (${inline(restored.message)}), so ${posting}; if an earlier attempt already did, there will be two.`
    )
    return false
  }
  if (restored.kind === 'rejected') {
    // Planted by whoever can write this cache scope, or saved with another api-key: never followed.
    log.warning(
      `Ignored a re-run record under this step's cache key (${restored.reason}: not saved by an earlier attempt of this step with this api-key), so ${posting}.`
    )
    return false
  }
  if (restored.kind === 'missing') {
    log.info(`Attempt ${run.attempt}: no earlier attempt of this step left a job, so ${posting}.`)
    return false
  }
  // From here a job is known: a cancel now is reported with its id, by the wait below.
  const { record } = restored
  state.resumedFrom = record.attempt
  if (record.jobId !== state.jobId && record.jobId) announceJob(record.jobId, deps)
  state.jobId = record.jobId
  if (record.mayHaveActed) {
    // The prompt is shown when it is the user's own; rebuilding the context is not worth it here.
    if (fingerprint(settings.prompt) === record.prompt) state.prompt = settings.prompt
    // Posting again could make a second job (or deliver the follow-up twice): say so, and stop.
    state.mayHaveActed = true
    state.postedAt = record.answeredAt
    state.outcome = 'error'
    state.failure = `Attempt ${record.attempt} of this step sent ${WORDING[settings.mode].request.replace(/^The /, 'the ')}, but its answer was lost: ${WORDING[settings.mode].mayHaveActed}. It is not sent again; set on-rerun: new to send it anyway.`
    return true
  }
  const jobId = record.jobId ?? ''
  log.info(`Resuming job ${inline(jobId)} from attempt ${record.attempt}`)
  state.phase = 'reading'
  await recallPrompt(settings, deps, state, record)
  try {
    await follow(settings, deps, state, deadline, jobId, {
      pollNow: true,
      notFoundUntil: record.answeredAt + NOT_FOUND_GRACE_MS,
      previous: record.answer === undefined ? undefined : { fingerprint: record.answer, answeredAt: record.answeredAt }
    })
    return true
  } catch (error) {
    // Never read in this attempt and not found: the job is gone. Anything else is the outcome.
    if (!(error instanceof ApiError && error.kind === 'not-found' && state.job === undefined)) throw error
    log.warning(`Job ${inline(jobId)} from attempt ${record.attempt} no longer exists (404), so ${posting}.`)
    Object.assign(state, {
      jobId: settings.mode === 'message' ? settings.jobId : undefined,
      resumedFrom: undefined,
      prompt: undefined,
      context: undefined,
      phase: 'before-post'
    })
    return false
  }
}

/**
 * The record keeps only the prompt's fingerprint: the prompt is built again (the same event, so
 * mostly the same context) and shown when it is the one that attempt sent.
 */
async function recallPrompt(settings: Posting, deps: Deps, state: RunState, record: RerunRecord): Promise<void> {
  const prompt = settings.mode === 'create' ? await buildPrompt(settings, deps, state) : settings.prompt
  if (fingerprint(prompt) === record.prompt) {
    state.prompt = prompt
    return
  }
  state.context = undefined
  deps.log.info(
    `The prompt attempt ${record.attempt} sent differs from the one built now (the workflow's context changed since): it is not shown.`
  )
}

/** Whether whoever triggered the run may start a job; when not, the outcome says why. */
async function mayStart(settings: Posting, deps: Deps, state: RunState): Promise<boolean> {
  if (settings.allowedNonWriteUsers.includes('*')) {
    deps.log.warning(
      'allowed-non-write-users is *: anyone who can open a pull request or an issue can start a job with the API key on events such as pull_request_target.'
    )
  }
  const decision = await decideStart(deps.trust(), settings, deps.permissions)
  // A cancel makes the read fail: that is the cancel, not a refusal.
  if (deps.signal.aborted) throw new Cancelled(false)
  if (decision.allowed) return true
  if (decision.warning) deps.log.warning(decision.warning)
  state.outcome = 'not-permitted'
  state.failure = decision.reason
  return false
}

/** Saves the re-run record while the step goes on; resolves once saved or given up (never rejects). */
function remember(
  settings: Posting,
  deps: Deps,
  state: RunState,
  what: Pick<RerunRecord, 'jobId' | 'answeredAt' | 'mayHaveActed' | 'answer'>
): Promise<void> | undefined {
  const { run, records, log } = deps
  if (!run) return undefined
  if (!records.available) {
    log.debug('No Actions cache service here: no re-run record is saved.')
    return undefined
  }
  const record: RerunRecord = { ...what, attempt: run.attempt, prompt: fingerprint(state.prompt ?? '') }
  const job = what.jobId ? `job ${inline(what.jobId)}` : 'the job that may have been created'
  return saveRecord(records, run, settings, record).then((saved) => {
    const lost = `a re-run of this workflow job will not find ${job} and ${WORDING[settings.mode].posting} again`
    if (saved.kind === 'saved') log.debug(`Saved the re-run record of ${job}.`)
    // pull_request_target and issue_comment runs get a read-only cache: expected, not worth a warning.
    else if (saved.kind === 'read-only')
      log.debug(`The Actions cache is read-only here (${inline(saved.message)}): ${lost}.`)
    else log.warning(`Could not save the re-run record (${inline(saved.message)}): ${lost}.`)
  })
}

/** A new job's prompt: the user's, then what triggered the workflow (`context: auto`). */
async function buildPrompt(
  settings: Extract<Settings, { mode: 'create' }>,
  deps: Deps,
  state: RunState
): Promise<string> {
  const { log } = deps
  if (settings.context === 'none') return settings.prompt
  const trigger = deps.trigger()
  const budget = Math.min(CONTEXT_BUDGET_CHARS, MAX_PROMPT_CHARS - settings.prompt.length - 2)
  const repo = trigger.kind === 'other' ? deps.repository : trigger.repo
  const releaseSet = settings.releaseTags.length > 0 && repo
  if (trigger.kind === 'other' && !releaseSet) {
    if (trigger.event) log.info(`Context: nothing to add for a ${inline(trigger.event, 60)} event.`)
    else log.debug('Context: no workflow event here (not on a runner).')
    return settings.prompt
  }
  if (budget < 1000) {
    log.info(
      `Context: left out, the prompt already has ${plural(settings.prompt.length, 'character')} of the ${plural(MAX_PROMPT_CHARS, 'character')} allowed.`
    )
    return settings.prompt
  }
  if (trigger.kind === 'pull-request') {
    const { pullRequest } = deps.trust()
    const author = await decideAuthorText(pullRequest, settings.untrustedContext, settings, deps.permissions)
    if (deps.signal.aborted) throw new Cancelled(false)
    if (!author.include) {
      state.context = withheldContext(trigger, pullRequest, author.why)
      log.info(
        `Context: the ${WITHHELD} of pull request #${trigger.number} are withheld: ${author.why}; untrusted-context: include would pass them.`
      )
      return promptWithContext(settings.prompt, state.context)
    }
    log.debug(`Context: the pull request's own text is included: ${author.why}.`)
  }
  const signal = AbortSignal.any([deps.signal, deps.clock.timeout(CONTEXT_TIMEOUT_MS)])
  const reader = settings.githubToken && repo ? deps.github.reader(repo, signal) : undefined
  const options = { budget, reader, signal, timeoutMs: CONTEXT_TIMEOUT_MS, dryRun: settings.dryRun }
  const context = releaseSet
    ? await releaseSetContext(releaseSet, settings.releaseTags, options)
    : await gatherContext(trigger, options)
  if (deps.signal.aborted) throw new Cancelled(false)
  state.context = context
  // Without a token nothing was read, and main has said so in a notice.
  if (context.warning && reader) log.warning(context.warning)
  log.info(
    `Context: ${context.description} (${plural(context.text.length, 'character')}, ${plural(context.requests, 'GitHub request')})`
  )
  return promptWithContext(settings.prompt, context)
}

/** Sends the create or message. A retry is sent only when the server certainly did not act on the last. */
async function postAtMostOnce(settings: Posting, deps: Deps, deadline: number, prompt: string): Promise<IdentifiedJob> {
  const { clock, log } = deps
  const started = clock.now()
  for (let attempt = 1; ; attempt++) {
    const call = { timeoutMs: requestTimeout(deadline, clock.now()), signal: deps.signal }
    try {
      return settings.mode === 'create'
        ? await deps.api.createJob(prompt, call)
        : await deps.api.sendMessage(settings.jobId, prompt, call)
    } catch (error) {
      if (!(error instanceof ApiError) || !isSafeToRetryPost(error)) throw error
      const rateLimited = error.kind === 'rate-limited'
      const delay = nextRetryDelay({
        attempt,
        remainingMs: deadline - clock.now(),
        retryAfterMs: error.retryAfterMs,
        rateLimited,
        random: clock.random()
      })
      if (delay === undefined) {
        if (!rateLimited || attempt === 1) throw error
        // How long the limit held is what tells a user whether raising timeout can help.
        throw new ApiError(
          error.kind,
          `${error.message}; ${plural(attempt, 'attempt')} over ${formatDuration(clock.now() - started)}`,
          error.status,
          error.retryAfterMs
        )
      }
      const when =
        rateLimited && error.retryAfterMs === undefined
          ? `; attempt ${attempt + 1} at ${formatTime(new Date(clock.now() + delay).toISOString())}, in ${formatDuration(delay)}`
          : `; retrying in ${formatDuration(delay)}`
      log.info(`${WORDING[settings.mode].request} was not accepted (${error.message})${when}`)
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
function observe(state: RunState, job: AgentJob, { log, clock }: Pick<Deps, 'log' | 'clock'>): void {
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
  const waited =
    state.waitStartedAt === undefined || !isTerminal(job.status)
      ? ''
      : ` after ${formatDuration(clock.now() - state.waitStartedAt)}`
  log.info(`Job ${inline(state.jobId ?? '')} is ${status}${waited}`)
}

/** Labels the docs PR; GitHub refusing is a warning, never a failed step or lost outputs. */
async function label(state: RunState, settings: Settings, deps: Deps): Promise<void> {
  if (settings.labels.length === 0) return
  const bound = labelTarget(state.job?.prLink, state.job?.source?.repository, deps.serverUrl)
  if (bound?.kind !== 'label') {
    if (bound) deps.log.warning(`Not labelling ${inline(state.job?.prLink ?? '', 200)}: ${bound.reason}.`)
    return
  }
  const { pr } = bound
  const target = `${pr.owner}/${pr.repo}#${pr.number}`
  try {
    await deps.github.addLabels(pr, settings.labels)
    deps.log.info(`Labelled ${target}: ${settings.labels.map((name) => inline(name, 50)).join(', ')}`)
  } catch (error) {
    deps.log.warning(
      `Could not label ${target} (${inline(error instanceof Error ? error.message : String(error), 300)}). The 'github-token' input needs 'pull-requests: write' (or 'issues: write') on ${pr.owner}/${pr.repo}; the default GITHUB_TOKEN cannot write to another repository: pass a fine-grained token or a GitHub App token for it.`
    )
  }
}
