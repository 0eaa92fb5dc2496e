/**
 * The soak's invariants, checked on one run once its attempts are over: at most one job or follow-up
 * per step (1), no POST after one that may have acted (2), job-id on every exit path once known (3),
 * the exit code as fail-on says for an outcome that agrees with what happened (4), a summary on every
 * exit path (5), the key only in the mask line (6), Retry-After honoured (7), an end soon after a
 * signal and soon after the timeout (8).
 */
import { performance } from 'node:perf_hooks'
import type { RecordedRequest } from '../../simulator/agent-api.js'
import { secretLeaks } from '../run-action.js'
import { terminalOf, type Moment, type RunPlan, type SignalName } from './plan.js'
import { KEY, type AttemptRun, type GroupRun, type QueuedFault } from './run.js'

/** Timing slack of the checks that compare two clocks readings (Retry-After, a run's end). */
const SLACK_MS = 50
/**
 * The soak's clock and the action's are read in two processes (performance.timeOrigin plus now()):
 * a signal sent within this long of the handler's installation may have come first.
 */
const HANDLER_RACE_MS = 5
/** A create answer this close before the signal may not have been read by the action yet. */
const ANSWER_RACE_MS = 50
const EXIT_AFTER_SIGNAL_MS = 3_000
const EXIT_AFTER_TIMEOUT_MS = 4_000
/**
 * A completed job without a link is read again for 5 s, every 2.5 s (src/agent-api/wait.ts), before the
 * action says there is none. The soak only holds it to a link that came within 2 s: it checks the
 * built action from outside, and must not break when those figures are tuned.
 */
const LINK_SURELY_SEEN_MS = 2_000
const SETTLE_READS_MS = 5_000 + 2_500

export type Outcome =
  'completed-pr' | 'completed-no-pr' | 'failed' | 'archived' | 'timed-out' | 'started' | 'cancelled' | 'error'

// The summary's heading names the outcome (src/report/summary.ts): the one place every ending shows.
const HEADINGS: [RegExp, Outcome][] = [
  [/cancelled/i, 'cancelled'],
  [/timed out/i, 'timed-out'],
  [/job failed/i, 'failed'],
  [/archived/i, 'archived'],
  [/step failed/i, 'error'],
  [/started|follow-up sent/i, 'started'],
  [/pull request ready/i, 'completed-pr'],
  [/no changes|link is unusable/i, 'completed-no-pr']
]

function outcomeOf(summary: string): Outcome | undefined {
  const heading = /<h2>(.*?)<\/h2>/.exec(summary)?.[1]
  if (heading === undefined) return undefined
  return HEADINGS.find(([pattern]) => pattern.test(heading))?.[1]
}

export interface Violation {
  seed: number
  attempt: number | undefined
  invariant: number
  what: string
}

export interface AttemptReport {
  attempt: number
  /** What the attempt ended as; `start-up kill` when Node had not yet run the entry's handlers. */
  outcome: Outcome | 'start-up kill' | 'killed after reporting' | 'unknown'
  code: number | null
  signal?: { name: SignalName; moment: Moment; sent: boolean }
  resumed: boolean
  posted: boolean
}

export interface RunReport {
  seed: number
  plan: RunPlan
  attempts: AttemptReport[]
  violations: Violation[]
  /** Fault classes that a request was actually served (or, for `refused`, that the run had). */
  faults: string[]
  /** Kills before the entry's handlers: when, and when the handler was installed if it ever was (ms after spawn). */
  startupKills: { afterMs: number; handlerAfterMs: number | undefined }[]
  /**
   * Creates the simulator answered 201 although the signal came first or too close to tell (not
   * held to invariant 3), and how many of those left job-id empty: a job the step never reported.
   */
  racedAnswers: { raced: number; lost: number }
  durationMs: number
}

/** Checks one run's invariants; everything a report needs about it. */
export function checkGroup(group: GroupRun): RunReport {
  const { plan } = group
  const violations: Violation[] = []
  const startupKills: RunReport['startupKills'] = []
  const racedAnswers = { raced: 0, lost: 0 }
  const violate = (attempt: number | undefined, invariant: number, what: string): void => {
    violations.push({ seed: plan.seed, attempt, invariant, what })
  }
  const postOp = plan.mode === 'message' ? 'message' : 'create'
  const acted = (rec: RecordedRequest): boolean => rec.operation === postOp && serverActed(rec, group)
  const created = group.jobs.filter((job) => job.job.id !== group.seededId)
  const actingCreates = group.attempts.flatMap((a) => a.requests.filter(acted))
  const jobOf = new Map<RecordedRequest, string>()
  if (plan.mode === 'create') {
    if (actingCreates.length !== created.length) {
      violate(undefined, 0, `soak bookkeeping: ${created.length} jobs, but ${actingCreates.length} creates acted`)
    }
    actingCreates.forEach((rec, i) => jobOf.set(rec, created[i]?.job.id ?? ''))
  }

  // 1. At most one job (or follow-up) per step across its attempts, unless on-rerun is new.
  const delivered =
    plan.mode === 'create'
      ? created.length
      : Math.max(0, (group.jobs.find((job) => job.job.id === group.seededId)?.prompts.length ?? 1) - 1)
  const perAttempt = group.attempts.map((a) => a.requests.filter(acted).length)
  const what = plan.mode === 'message' ? 'follow-ups delivered' : 'jobs created'
  if (plan.mode === 'wait-only' && (created.length > 0 || delivered > 0)) {
    violate(undefined, 1, `a wait-only step posted: ${created.length} jobs created, ${delivered} messages`)
  } else if (plan.onRerun === 'new') {
    perAttempt.forEach((n, i) => {
      if (n > 1) violate(i + 1, 1, `${n} ${what} by one attempt`)
    })
  } else if (delivered > 1) {
    violate(
      undefined,
      1,
      `${delivered} ${what} for one step (per attempt: ${perAttempt.join(', ')}; ${group.attempts.map(describeAttemptPost(group)).join('; ')})`
    )
  }

  let knownId: string | undefined
  const attempts: AttemptReport[] = []
  for (const a of group.attempts) {
    const { exit } = a
    const n = a.attempt
    const signalSent = a.signal?.sentAt !== undefined
    const startupKill = exit.code === null && exit.signal !== null && exit.summary === ''
    const killedAfterReport = exit.code === null && !startupKill
    // A lookup that found a key: the record is the key, nothing is downloaded.
    const resumed = a.cacheRequests.some((r) => r.operation === 'lookup' && r.status === 200)
    const posts = a.requests.filter((r) => r.operation === postOp)
    const outcome = outcomeOf(exit.summary)
    const ended = startupKill ? 'start-up kill' : killedAfterReport ? 'killed after reporting' : (outcome ?? 'unknown')
    const report: AttemptReport = { attempt: n, outcome: ended, code: exit.code, resumed, posted: posts.length > 0 }
    if (a.signal) report.signal = { name: a.signal.name, moment: a.signal.moment, sent: signalSent }
    attempts.push(report)

    // 5. A summary on every exit path, but for a kill that came before the handler of its signal
    // existed (the preloaded probe says when it was installed).
    if (startupKill) {
      const after = Math.round(a.signal?.afterSpawnMs ?? 0)
      const installedAt = a.signal ? a.handlersAt[a.signal.name] : undefined
      const handlerAfterMs =
        installedAt === undefined ? undefined : Math.round(installedAt - performance.timeOrigin - a.spawnedAt)
      startupKills.push({ afterMs: after, handlerAfterMs })
      const sentEpoch = a.signal?.sentEpoch
      if (installedAt !== undefined && sentEpoch !== undefined && installedAt + HANDLER_RACE_MS < sentEpoch) {
        violate(
          n,
          5,
          `killed by ${exit.signal ?? ''} ${after} ms after spawn, with no summary and no outputs, although its handler was installed ${handlerAfterMs ?? '?'} ms after spawn`
        )
      }
    } else if (exit.summary.trim() === '') {
      violate(n, 5, `no summary (exit ${exit.code ?? exit.signal ?? ''})`)
    }
    // The verdicts above trust the probe: a signal the action handled must have shown it a handler.
    if (signalSent && !startupKill && a.signal && a.handlersAt[a.signal.name] === undefined) {
      violate(n, 0, `soak bookkeeping: ${a.signal.name} was handled, but the probe saw no handler installed`)
    }

    // 6. The key only ever in the one ::add-mask:: line.
    const leaks = secretLeaks({ ...exit, workspace: '' }, KEY)
    if (leaks.length > 0) violate(n, 6, `the API key appears in ${leaks.join(', ')}`)

    // 2. No POST after one that may have acted.
    const ambiguous = posts.findIndex((r) => mayHaveActed(r, group.faultOf.get(r)))
    if (ambiguous >= 0 && ambiguous < posts.length - 1) {
      const first = posts[ambiguous] as RecordedRequest
      violate(
        n,
        2,
        `${posts.length - ambiguous - 1} more ${postOp} request(s) after one that ${describeRequest(first, group)}`
      )
    }

    // 3. job-id on every exit path once the id is known.
    if (!startupKill) {
      const output = exit.outputs['job-id'] ?? ''
      if (plan.mode !== 'create') {
        if (output !== group.seededId) violate(n, 3, `job-id is "${output}", the input was ${group.seededId ?? ''}`)
      } else {
        const answered = posts.find(
          (r) => r.answeredStatus === 201 && acted(r) && group.faultOf.get(r)?.fault.kind !== 'truncate'
        )
        const answeredId = answered && jobOf.get(answered)
        const end = answered && group.answeredAt.get(answered)
        const raced = a.signal?.sentAt !== undefined && end !== undefined && a.signal.sentAt < end + ANSWER_RACE_MS
        let expected: string | undefined
        if (answeredId && raced) {
          racedAnswers.raced++
          if (output === answeredId) knownId = answeredId
          else racedAnswers.lost++
        } else if (answeredId) {
          expected = answeredId
          knownId = answeredId
        } else if (resumed && plan.onRerun === 'resume') {
          expected = knownId
        }
        if (expected !== undefined && output !== expected) {
          const how = answeredId ? 'the create was answered 201 with' : 'this attempt restored the record of'
          violate(n, 3, `job-id is "${output}", but ${how} ${expected}${signalSent ? ` (${signalNote(a)})` : ''}`)
        } else if (expected === undefined && output !== '' && !group.jobs.some((job) => job.job.id === output)) {
          violate(n, 3, `job-id is "${output}", a job the simulator never handed out`)
        }
      }
    }

    // 4. The exit code as fail-on says, for an outcome that agrees with what happened.
    if (!startupKill && !killedAfterReport) {
      for (const problem of outcomeProblems(group, a, outcome)) violate(n, 4, problem)
    }

    // 7. Retry-After honoured: no request of the step before the time the last answer asked for.
    a.requests.forEach((rec, i) => {
      const next = a.requests[i + 1]
      const until = group.faultOf.get(rec)?.retryUntil
      if (!next || until === undefined || rec.answeredStatus === undefined) return
      if (next.time < until - SLACK_MS) {
        violate(
          n,
          7,
          `${next.operation} sent ${until - next.time} ms before the Retry-After of the ${rec.operation} answered ${rec.answeredStatus}`
        )
      }
    })

    // 8. Ends soon after a signal, and soon after the timeout.
    const took = exit.at - a.spawnedAt
    if (took > plan.timeoutMs + EXIT_AFTER_TIMEOUT_MS) {
      violate(n, 8, `ran ${Math.round(took)} ms with timeout ${plan.timeoutMs} ms`)
    }
    if (a.signal?.sentAt !== undefined && exit.at - a.signal.sentAt > EXIT_AFTER_SIGNAL_MS) {
      violate(n, 8, `exited ${Math.round(exit.at - a.signal.sentAt)} ms after ${a.signal.name}`)
    }
  }

  const faults = new Set<string>()
  for (const queued of group.faultOf.values()) faults.add(queued.planned.cls)
  if (plan.refused) faults.add('refused')
  return {
    seed: plan.seed,
    plan,
    attempts,
    violations,
    faults: [...faults].sort(),
    startupKills,
    racedAnswers,
    durationMs: group.durationMs
  }
}

/** Whether the simulator did the work of this POST (created the job, took the message). */
function serverActed(rec: RecordedRequest, group: GroupRun): boolean {
  const fault = group.faultOf.get(rec)?.fault
  if (fault?.kind === 'status' || fault?.kind === 'reset') return fault.effect === true
  const ok = rec.answeredStatus !== undefined && rec.answeredStatus >= 200 && rec.answeredStatus < 300
  return ok && (fault === undefined || fault.kind === 'truncate' || fault.kind === 'delay')
}

/** Whether a POST that ended this way may have acted: the action must never send another. */
function mayHaveActed(rec: RecordedRequest, queued: QueuedFault | undefined): boolean {
  const status = rec.answeredStatus
  if (status === undefined) return true
  if (status >= 500 && status !== 503) return true
  const kind = queued?.fault.kind
  return kind === 'truncate' || (kind === 'body' && status >= 200 && status < 300)
}

/** POST faults the action must fail on (it may not retry them): the outcome is an error or a cancel. */
function isFatalPost(queued: QueuedFault | undefined): boolean {
  const fault = queued?.fault
  if (!fault || fault.kind === 'delay') return false
  return fault.kind !== 'status' || (fault.status !== 429 && fault.status !== 503)
}

function describeRequest(rec: RecordedRequest, group: GroupRun): string {
  const cls = group.faultOf.get(rec)?.planned.cls
  return `${cls ? `met ${cls}` : 'had no fault'} (${rec.answeredStatus === undefined ? 'no answer' : `answered ${rec.answeredStatus}`})`
}

function describeAttemptPost(group: GroupRun): (a: AttemptRun) => string {
  return (a) => {
    const posts = a.requests.filter((r) => r.operation === 'create' || r.operation === 'message')
    const signal = a.signal?.sentAt === undefined ? '' : `, ${signalNote(a)}`
    const what = posts.map((r) => describeRequest(r, group)).join(' then ') || 'no POST'
    return `attempt ${a.attempt}: ${what}${signal}`
  }
}

export function signalNote(a: AttemptRun): string {
  const s = a.signal
  return s?.afterSpawnMs === undefined ? '' : `${s.name} at ${s.moment}, ${Math.round(s.afterSpawnMs)} ms after spawn`
}

/** What is wrong with the attempt's exit code and stated outcome, given what really happened. */
function outcomeProblems(group: GroupRun, a: AttemptRun, outcome: Outcome | undefined): string[] {
  const { plan } = group
  const { exit } = a
  if (outcome === undefined)
    return [`cannot tell the outcome from the summary heading: ${/<h2>.*?<\/h2>/.exec(exit.summary)?.[0] ?? 'none'}`]
  const problems: string[] = []
  // As the README documents fail-on: comma, space or newline separated, or none.
  const failOn = new Set(plan.failOn.split(/[\s,]+/).filter((word) => word !== 'none'))
  const expectedCode =
    outcome === 'cancelled' || outcome === 'error'
      ? 1
      : outcome === 'timed-out' || outcome === 'failed' || outcome === 'archived'
        ? Number(failOn.has(outcome))
        : outcome === 'completed-no-pr'
          ? Number(failOn.has('no-pr'))
          : 0
  if (exit.code !== expectedCode)
    problems.push(
      `exit code ${exit.code ?? 'none'} for ${outcome} with fail-on "${plan.failOn}", expected ${expectedCode}`
    )

  const postOp = plan.mode === 'message' ? 'message' : 'create'
  const posts = a.requests.filter((r) => r.operation === postOp)
  const postFaulted = posts.some((r) => group.faultOf.has(r))
  const fatal = posts.find((r) => isFatalPost(group.faultOf.get(r)))
  const signalSent = a.signal?.sentAt !== undefined
  const errorLine = exit.stdout.split('\n').find((line) => line.startsWith('::error'))
  if (outcome === 'cancelled' && !signalSent) problems.push('reported cancelled, but no signal was sent')
  if ((outcome === 'timed-out') !== (exit.outputs['timed-out'] === 'true')) {
    problems.push(`outcome ${outcome} with the timed-out output "${exit.outputs['timed-out'] ?? ''}"`)
  }
  if (outcome === 'started' && plan.wait) problems.push('reported started (not waiting) with wait: true')
  if (fatal && outcome !== 'error' && outcome !== 'cancelled') {
    problems.push(`carried on to ${outcome} after a ${postOp} that ${describeRequest(fatal, group)}`)
  }
  // A re-run refuses to post again after an earlier attempt's POST left without a usable answer.
  const earlier = group.attempts.slice(0, group.attempts.indexOf(a))
  // Either the server gave no usable answer, or it answered after the attempt had been cancelled:
  // the attempt then rightly reported that its request may have acted.
  const lostEarlier = earlier.some(
    (b) =>
      b.requests.some((r) => r.operation === postOp && mayHaveActed(r, group.faultOf.get(r))) ||
      /may have been (created|delivered)/.test(b.exit.stdout)
  )
  const refusal = /^::error::Attempt \d+ of this step sent the (create|follow-up) request, but its answer was lost/
  if (outcome === 'error' && !postFaulted && !plan.refused && !(lostEarlier && refusal.test(errorLine ?? '')))
    problems.push(`unexpected error: ${errorLine ?? 'no ::error:: line'}`)

  const status = outcome === 'completed-pr' || outcome === 'completed-no-pr' ? 'completed' : outcome
  if (status !== 'completed' && status !== 'failed' && status !== 'archived') return problems
  if (exit.outputs.status !== status)
    problems.push(`reported ${outcome} with the status output "${exit.outputs.status ?? ''}"`)
  if (plan.end === 'unknown-status')
    problems.push(`reported ${outcome}, but the job only ever showed an unknown status`)
  const jobId = plan.mode === 'create' ? exit.outputs['job-id'] : group.seededId
  const job = a.jobsAtExit.find((j) => j.job.id === jobId)
  if (!job) return [...problems, `reported ${outcome} for job "${jobId ?? ''}", which the simulator does not hold`]
  // From the plan, not the simulator's view: a stale record is exactly what must not be believed.
  const final = plan.mode === 'wait-only' && plan.seedStatus !== 'active' ? plan.seedStatus : terminalOf(plan.end)
  if (status !== final) problems.push(`reported ${outcome}, but the job's current run ends ${final ?? 'active'}`)
  const runStart = runStartOf(group, a, job.job.id)
  if (runStart === undefined && plan.mode === 'message')
    problems.push(`reported ${outcome}, but no follow-up was delivered`)
  const runEnd = runStart === undefined ? undefined : runStart + runLengthOf(plan)
  if (runEnd !== undefined && exit.epoch < runEnd - SLACK_MS) {
    problems.push(`reported ${outcome} ${runEnd - exit.epoch} ms before the job's run (after its last POST) ended`)
  }
  const prLink = exit.outputs['pr-link'] ?? ''
  // Only a completed job's link decides its heading; a failed one may carry a link too.
  if (status === 'completed' && (outcome === 'completed-pr') !== (prLink !== '')) {
    problems.push(`reported ${outcome} with pr-link "${prLink}"`)
  }
  if (outcome === 'completed-no-pr' && plan.end === 'pr')
    problems.push('reported no pull request, but the job had one from the moment it completed')
  if (outcome === 'completed-no-pr' && plan.end === 'late-pr' && runEnd !== undefined) {
    const missed = missedLateLink(group, a, runEnd)
    if (missed) problems.push(missed)
  }
  return problems
}

/** When the job's current run started (epoch ms): its create, its last follow-up, or its seeding. */
function runStartOf(group: GroupRun, a: AttemptRun, jobId: string): number | undefined {
  const upTo = group.attempts.slice(0, group.attempts.indexOf(a) + 1).flatMap((x) => x.requests)
  const posts = upTo.filter((r) => (r.operation === 'message' || r.operation === 'create') && serverActed(r, group))
  if (group.plan.mode === 'create') {
    // The create that made this job: the n-th create that acted made the n-th job.
    const ids = group.jobs.map((j) => j.job.id)
    const creates = posts.filter((r) => r.operation === 'create')
    return creates[ids.indexOf(jobId)]?.time
  }
  return group.plan.mode === 'message' ? posts.at(-1)?.time : group.seededEpoch
}

/** How long the job stays active after a POST (or its seeding). */
function runLengthOf(plan: RunPlan): number {
  if (plan.mode === 'wait-only' && plan.seedStatus !== 'active') return 0
  return plan.runMs
}

/** A completed job whose link came soon after must still get it when the settle reads had room to see it. */
function missedLateLink(group: GroupRun, a: AttemptRun, runEnd: number): string | undefined {
  const { plan } = group
  const lag = plan.prLinkLagMs ?? 0
  if (a.signal?.sentAt !== undefined || plan.staleAfterMessageMs !== undefined) return undefined
  if (lag > LINK_SURELY_SEEN_MS) return undefined
  const gets = a.requests.filter((r) => r.operation === 'get')
  if (gets.some((r) => group.faultOf.has(r))) return undefined
  const firstCompleted = gets.find((r) => r.time >= runEnd + SLACK_MS)
  if (!firstCompleted) return undefined
  const deadline = a.spawnedEpoch + plan.timeoutMs
  if (firstCompleted.time + SETTLE_READS_MS + 500 > deadline) return undefined
  return `reported no pull request, but its link appeared ${lag} ms after the job completed, within the settle reads`
}
