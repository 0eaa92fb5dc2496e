/**
 * The one writer of the run's state: each phase of the step says what happened, and this records
 * it in the state that the outputs and the summary are rendered from, on every exit path.
 */
import type { Clock } from '../base/clock.js'
import { formatDuration } from '../base/duration.js'
import type { Log } from '../base/log.js'
import { inline } from '../base/text.js'
import { isKnownStatus, isTerminal, type AgentJob, type IdentifiedJob } from '../agent-api/job.js'
import {
  initialState,
  type CheckRunState,
  type GroupState,
  type DocsChecksState,
  type OwnerState,
  type RunState,
  type SkipState
} from '../report/state.js'
import type { RerunRecord } from '../rerun/record.js'
import type { Ending } from './ending.js'
import type { BuiltPrompt } from './prompt-deps.js'

/** The state of a step whose inputs could not be read: it ends as it starts, in an error. */
export function badInputState(now: number, jobId: string | undefined, failure: string): RunState {
  return { ...initialState(now, jobId), outcome: 'error', failure, endedAt: now }
}

export class RunStateWriter {
  readonly #state: RunState

  constructor(
    private readonly deps: { log: Log; clock: Clock; setOutput(name: string, value: string): void },
    jobId: string | undefined
  ) {
    this.#state = initialState(deps.clock.now(), jobId)
    if (jobId) this.announce(jobId)
  }

  /** What is known so far, for the phases to read. */
  get state(): Readonly<RunState> {
    return this.#state
  }

  /** The prompt to send (or to show, in a dry run), and the context in it. */
  prompted({ prompt, context, outsider }: BuiltPrompt): void {
    this.#state.prompt = prompt
    this.#state.context = context
    // Once the job carries an outsider's text, it always does (a resumed attempt's record may say so first).
    this.#state.outsider ??= outsider
  }

  /** The create or message is about to leave. */
  posting(): void {
    this.#state.phase = 'posting'
    this.#state.postedAt = this.deps.clock.now()
  }

  /** The create or message was answered with `job`. */
  answered(job: IdentifiedJob, created: boolean): void {
    this.#state.phase = 'reading'
    if (created) {
      this.#state.jobId = job.id
      this.announce(job.id)
    }
  }

  /** Told when a grouped run targets the group's job: the job exists from then on (tracking/tracking.ts). */
  onTargeted: () => void = () => undefined

  /** A grouped run's follow-up goes to the group's job (undefined: it was refused, a create follows). */
  targeted(jobId: string | undefined): void {
    this.#state.jobId = jobId
    if (jobId) this.announce(jobId)
  }

  /** A grouped run: where its request goes. */
  grouped(group: GroupState): void {
    this.#state.group = group
    if (group.via === 'follow-up') this.onTargeted()
  }

  /** What the skip rules decided; a run they end sends nothing, so it has no prompt to show. */
  skipDecided(skip: SkipState, ends: boolean): void {
    this.#state.skip = skip
    if (ends) Object.assign(this.#state, { prompt: undefined, context: undefined })
  }

  /** An earlier attempt of this step created or messaged the job. */
  resumed(record: RerunRecord): void {
    this.#state.resumedFrom = record.attempt
    if (record.jobId !== this.#state.jobId && record.jobId) this.announce(record.jobId)
    this.#state.jobId = record.jobId
    if (record.outsider)
      this.#state.outsider ??= `attempt ${record.attempt} of this run recorded that its job was given such text`
  }

  /** The automation to trigger (or, in a dry run, that would be), and its run once known. */
  automation(id: string, run: string | undefined): void {
    this.#state.automation = { id, run }
    if (run === undefined) return
    this.deps.setOutput('automation-run-id', run)
    this.deps.log.info(`Automation run: ${inline(run)}`)
  }

  /** The trigger queued a run (undefined when the answer does not name it), processed by `jobId`. */
  triggered(automationId: string, run: string | undefined, jobId: string): void {
    this.#state.phase = 'reading'
    this.automation(automationId, run)
    this.#state.jobId = jobId
    this.announce(jobId)
  }

  /** The earlier attempt's request may have acted, but its answer was lost. */
  answerLost(record: RerunRecord, prompt: string | undefined): void {
    this.resumed(record)
    if (prompt !== undefined) this.#state.prompt = prompt
    this.#state.postedAt = record.answeredAt
  }

  /** Following the earlier attempt's job. */
  reading(): void {
    this.#state.phase = 'reading'
  }

  /** The earlier attempt's job is gone: the step posts as on a first attempt. */
  resumeAbandoned(jobId: string | undefined): void {
    Object.assign(this.#state, {
      jobId,
      resumedFrom: undefined,
      prompt: undefined,
      context: undefined,
      phase: 'before-post'
    })
  }

  waitStarted(): void {
    this.#state.waitStartedAt = this.deps.clock.now()
    this.#state.waitEndedAt = undefined
  }

  polled(): void {
    this.#state.polls++
  }

  /** Records a job read and logs what changed. */
  jobRead(job: AgentJob): void {
    const state = this.#state
    const { log, clock } = this.deps
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
    if (isTerminal(job.status)) state.waitEndedAt = clock.now()
    const waited =
      state.waitStartedAt === undefined || state.waitEndedAt === undefined
        ? ''
        : ` after ${formatDuration(state.waitEndedAt - state.waitStartedAt)}`
    log.info(`Job ${inline(state.jobId ?? '')} is ${status}${waited}`)
  }

  /** The docs PR's preview: its URL once built, or why there is none; the PR's head branch when read. */
  previewed(url: string | undefined, problem: string | undefined, branch?: string): void {
    this.#state.preview = { url, problem, branch }
  }

  /** What the owner phase did on the docs PR: reviewers, assignees, merge. */
  owned(owner: OwnerState): void {
    this.#state.owner = owner
  }

  /** The docs pull request's checks, as the docs checks phase finds them. */
  docsChecked(checks: DocsChecksState): void {
    this.#state.docsChecks = checks
  }

  /** The check run: once made, its id is an output at once, as the job's is. */
  checked(check: CheckRunState): void {
    if (check.id !== undefined && check.id !== this.#state.check?.id)
      this.deps.setOutput('check-run-id', String(check.id))
    this.#state.check = check
  }

  ended(ending: Ending): void {
    const state = this.#state
    state.outcome = ending.outcome
    if (ending.failure !== undefined) state.failure = ending.failure
    if (ending.mayHaveActed !== undefined) state.mayHaveActed = ending.mayHaveActed
    if (ending.notFound !== undefined) state.notFound = ending.notFound
    state.endedAt = this.deps.clock.now()
  }

  private announce(jobId: string): void {
    // Set at once, so that even a step killed from here on leaves the id behind.
    this.deps.setOutput('job-id', jobId)
    this.deps.log.info(`Job id: ${inline(jobId)}`)
  }
}
