/**
 * The step's flow, top to bottom as phases: gate, resume, skip, group, prompt, skip (the path rules,
 * on the files the context read), post, wait; then the closing phases (closing.ts): preview, the
 * ending, docs checks, owner and report. Each phase returns what happened; run-state.ts records it,
 * ending.ts decides how the step ended (a cancel included), and the report goes out on every exit path.
 */
import { Cancelled } from '../base/cancel.js'
import { debugOnly } from '../base/log.js'
import { inline } from '../base/text.js'
import { ApiError } from '../agent-api/errors.js'
import { jobFingerprint } from '../agent-api/job.js'
import { NOT_FOUND_GRACE_MS } from '../agent-api/wait.js'
import { decideStart } from '../github/trust.js'
import { automation } from './automation/phase.js'
import type { FlowEnd } from './ending.js'
import { dryRunGroup, showPrompt } from './dry-run.js'
import { groupKey, groupPrompts, planGroup, postGrouped, resumedGroup, type GroupPlan } from './group/plan.js'
import { post, type Posted } from './post.js'
import { Rerun } from './rerun.js'
import { RunStateWriter } from './run-state.js'
import { skipPhase } from './skip/phase.js'
import type { StepMode } from './mode.js'
import type { AutomationSettings, CreateOrMessage, Settings } from './settings.js'
import type { Decided, Deps, Flowed } from './step-deps.js'
import { wait } from './wait.js'

/** Runs the step; true in `failed` when it must fail (the reason was already logged as an error). */
export async function runStep(mode: StepMode, deps: Deps): Promise<{ failed: boolean }> {
  const { settings } = mode
  const run = new RunStateWriter(deps, 'jobId' in settings ? settings.jobId : undefined)
  const follow = deps.tracking?.(mode, run)
  deps = { ...deps, follow }
  const deadline = run.state.startedAt + settings.timeoutMs
  const rerun = new Rerun({ ...deps, records: mode.records })
  const flowed = await flow(settings, deps, run, rerun, deadline)
  // Loaded only now: a run reaches its first request without the closing phases (docs/benchmarks.md).
  const { close } = await import('./closing.js')
  return close(flowed, { settings, deps, run, rerun, deadline })
}

/** Everything up to the step's ending, phase by phase; a throw ends it as `thrown`. */
async function flow(
  settings: Settings,
  deps: Deps,
  run: RunStateWriter,
  rerun: Rerun,
  deadline: number
): Promise<Flowed> {
  // The request as decided so far, replaced by what the group and post phases return: a throw is
  // reported for the request decided by then.
  let decided: Decided = { settings, plan: undefined }
  try {
    if (settings.mode === 'wait-only') return { end: await waitOnly(settings, deps, run, deadline), decided }
    const refused = await gate(settings, deps)
    if (refused) return { end: refused, decided }
    if (settings.mode === 'automation') return { end: await automation(settings, deps, run, rerun, deadline), decided }
    const resumed = await resume(settings, deps, run, rerun, deadline)
    if (resumed) return { end: resumed, decided }
    // The skip phase: a label or a marker before anything is read, a path rule on what the context read.
    const skipped = skipPhase('event', settings, deps, run)
    if (skipped) return { end: skipped, decided }

    decided = { settings, plan: await group(settings, deps) }
    const prompts = await writePrompts(settings, decided.plan, deps, run)
    const judged = skipPhase('files', settings, deps, run)
    if (judged) return { end: judged, decided }
    if (settings.dryRun) {
      if (decided.plan) dryRunGroup(decided.plan, run, deps.log)
      showPrompt(prompts.followUp, deps.log)
      return { end: { kind: 'dry-run' }, decided }
    }
    const sent = await send(settings, decided.plan, prompts, deps, run, deadline)
    decided = sent.decided
    const { job, answeredAt } = sent.posted
    const answer = decided.settings.mode === 'message' ? jobFingerprint(job) : undefined
    rerun.startSavingRecord(
      settings,
      { jobId: job.id, answeredAt, mayHaveActed: false, answer, outsider: !!run.state.outsider },
      run.state.prompt ?? ''
    )
    // At once, so that a record saved in the comment goes out with the started state (link-back.ts).
    deps.follow?.answered(decided.settings)
    const end = await wait(decided.settings, deps, run, deadline, {
      jobId: job.id,
      pollNow: false,
      notFoundUntil: answeredAt + NOT_FOUND_GRACE_MS,
      previous: answer === undefined ? undefined : { fingerprint: answer, answeredAt },
      posted: true
    })
    return { end, decided }
  } catch (error) {
    return { end: { kind: 'thrown', error }, decided }
  }
}

/** A wait-only run: no gate and no prompt; the given job is read at once. */
async function waitOnly(
  settings: Extract<Settings, { mode: 'wait-only' }>,
  deps: Deps,
  run: RunStateWriter,
  deadline: number
): Promise<FlowEnd> {
  // A path rule set on it says why it does not apply, as for every other explicit request.
  if (settings.skip.paths) {
    const reason = 'a wait-only step is an explicit request, never skipped'
    run.skipDecided({ skipped: false, reason }, false)
    deps.log.info(`Skip rules: not skipped: ${reason}.`)
  }
  if (settings.dryRun) return { kind: 'dry-run' }
  deps.follow?.following(settings)
  return wait(settings, deps, run, deadline, { jobId: settings.jobId, pollNow: true, notFoundUntil: undefined })
}

/** The gate: whether whoever triggered the run may start a job; the refusal when not. */
async function gate(settings: CreateOrMessage | AutomationSettings, deps: Deps): Promise<FlowEnd | undefined> {
  if (settings.allowedNonWriteUsers.includes('*')) {
    deps.log.warning(
      'allowed-non-write-users is *: anyone who can open a pull request or an issue can start a job with the API key on events such as pull_request_target.'
    )
  }
  const decision = await decideStart(deps.trust(), settings, deps.permissions)
  // A cancel makes the read fail: that is the cancel, not a refusal.
  if (deps.signal.aborted) throw new Cancelled(false)
  if (decision.allowed) return undefined
  if (decision.warning) deps.log.warning(decision.warning)
  return { kind: 'not-permitted', reason: decision.reason }
}

/**
 * The resume phase, on a re-run: follows the job an earlier attempt of this step created or
 * messaged instead of posting again. Undefined when there is none to follow: the step then posts
 * as on a first attempt.
 */
async function resume(
  settings: CreateOrMessage,
  deps: Deps,
  run: RunStateWriter,
  rerun: Rerun,
  deadline: number
): Promise<FlowEnd | undefined> {
  const earlier = await rerun.findEarlierAttempt(settings)
  if (earlier.kind === 'none') return undefined
  // From here a job is known: a cancel now is reported with its id, by the wait below.
  if (earlier.kind === 'answer-lost') {
    run.answerLost(earlier.record, earlier.prompt)
    return { kind: 'answer-lost', record: earlier.record }
  }
  const { record, jobId } = earlier
  run.resumed(record)
  deps.follow?.following(settings)
  deps.log.info(`Resuming job ${inline(jobId)} from attempt ${record.attempt}`)
  run.reading()
  // A grouped run's attempt is found again, quietly, for the prompt and the outputs it had.
  const followed = resumedGroup(await group(settings, { ...deps, log: debugOnly(deps.log) }), record, run)
  const recalled = await rerun.recallPrompt(record, async () => {
    const { built, followUp } = await groupPrompts(settings, followed, deps)
    return { ...built, prompt: followUp }
  })
  if (recalled) run.prompted(recalled)
  try {
    return await wait(settings, deps, run, deadline, {
      jobId,
      pollNow: true,
      notFoundUntil: record.answeredAt + NOT_FOUND_GRACE_MS,
      previous: record.answer === undefined ? undefined : { fingerprint: record.answer, answeredAt: record.answeredAt }
    })
  } catch (error) {
    // Never read in this attempt and not found: the job is gone. Anything else is the outcome.
    if (!(error instanceof ApiError && error.kind === 'not-found' && run.state.job === undefined)) throw error
    rerun.warnGone(settings, record, jobId)
    run.resumeAbandoned(settings.mode === 'message' ? settings.jobId : undefined)
    return undefined
  }
}

/**
 * The group phase: a run's own prompt with `group` finds its group's open docs pull request. A
 * /docs command keeps its own target: it never joins a group.
 */
async function group(settings: CreateOrMessage, deps: Deps): Promise<GroupPlan | undefined> {
  const key = settings.mode === 'create' && !settings.command ? groupKey(settings, deps) : undefined
  return settings.mode === 'create' && key ? planGroup(settings, key, deps) : undefined
}

/** The prompt phase: the prompt a new job gets, and a grouped follow-up's, which names the pull request it adds to. */
async function writePrompts(
  settings: CreateOrMessage,
  plan: GroupPlan | undefined,
  deps: Deps,
  run: RunStateWriter
): Promise<{ followUp: string; create: string }> {
  const { built, followUp } = await groupPrompts(settings, plan, deps)
  run.prompted({ ...built, prompt: followUp })
  return { followUp, create: built.prompt }
}

/**
 * The post phase: the create or the follow-up, and the request as it went out (a grouped run's
 * follow-up the API refused becomes a create).
 */
async function send(
  settings: CreateOrMessage,
  plan: GroupPlan | undefined,
  prompts: { followUp: string; create: string },
  deps: Deps,
  run: RunStateWriter,
  deadline: number
): Promise<{ posted: Posted; decided: Decided }> {
  if (settings.mode === 'create' && plan) {
    const grouped = await postGrouped(settings, plan, prompts, deps, run, deadline)
    return { posted: grouped.posted, decided: { settings: grouped.settings, plan: grouped.plan } }
  }
  return { posted: await post(settings, deps, run, deadline, prompts.create), decided: { settings, plan } }
}
