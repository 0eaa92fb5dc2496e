/** The soak's invariants (0 to 8, as numbered below), checked on one run once its attempts are over. */
import { performance } from 'node:perf_hooks'
import { secretLeaks } from '../run-action.js'
import { terminalOf } from './plan.js'
import { KEY, type Attempt, type Request, type Run } from './run.js'

const SLACK_MS = 50 // between two clocks' readings (Retry-After, a run's end)
const HANDLER_RACE_MS = 5 // the soak and the action read their clocks in two processes
const ANSWER_RACE_MS = 50 // a create answer this close before the signal may not have been read yet
const EXIT_AFTER_SIGNAL_MS = 3_000
const EXIT_AFTER_TIMEOUT_MS = 4_000
// A completed job without a link is read again for 5 s, every 2.5 s (src/agent-api/wait.ts), before the action
// says there is none: the soak holds it to a link within 2 s only, not to figures that may be tuned.
const LINK_SURELY_SEEN_MS = 2_000
const SETTLE_READS_MS = 5_000 + 2_500

type Outcome =
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

/** How the attempt ended: killed before Node ran the entry's handlers or after its report, or as it says. */
export function ending({ exit }: Attempt): Outcome | 'start-up kill' | 'killed after reporting' | undefined {
  if (exit.code === null && exit.signal !== null && exit.summary === '') return 'start-up kill'
  if (exit.code === null) return 'killed after reporting'
  const heading = /<h2>(.*?)<\/h2>/.exec(exit.summary)?.[1]
  return heading === undefined ? undefined : HEADINGS.find(([pattern]) => pattern.test(heading))?.[1]
}

/** The run's violations, one line each. */
export function check(run: Run): string[] {
  const { plan, seeded } = run
  const violations: string[] = []
  const violate = (where: string, n: number, what: string) => violations.push(`${where}invariant ${n}: ${what}`)
  const postOp = plan.mode === 'message' ? 'message' : 'create'
  const acted = (rec: Request): boolean => rec.operation === postOp && serverActed(rec)
  const created = run.jobs.filter(({ job }) => job.id !== seeded?.id)
  const actingPosts = run.attempts.flatMap((a) => a.requests.filter(acted))
  // 0. The soak's bookkeeping: the n-th create that acted made the n-th job.
  const jobOf = new Map(actingPosts.map((rec, i) => [rec, created[i]?.job.id ?? '']))
  if (plan.mode === 'create' && actingPosts.length !== created.length)
    violate('', 0, `soak bookkeeping: ${created.length} jobs, but ${actingPosts.length} creates acted`)

  // 1. At most one job (or follow-up) per step across its attempts, unless on-rerun is new.
  const prompts = run.jobs.find(({ job }) => job.id === seeded?.id)?.prompts.length ?? 1
  const delivered = plan.mode === 'create' ? created.length : Math.max(0, prompts - 1)
  const perAttempt = run.attempts.map((a) => a.requests.filter(acted).length)
  const what = plan.mode === 'message' ? 'follow-ups delivered' : 'jobs created'
  if (plan.mode === 'wait-only' && (created.length > 0 || delivered > 0))
    violate('', 1, `a wait-only step posted: ${created.length} jobs created, ${delivered} messages`)
  else if (plan.onRerun === 'new')
    perAttempt.forEach((n, i) => n > 1 && violate(`attempt ${i + 1}: `, 1, `${n} ${what} by one attempt`))
  else if (delivered > 1) violate('', 1, `${delivered} ${what} for one step (per attempt: ${perAttempt.join(', ')})`)

  let knownId: string | undefined
  for (const a of run.attempts) {
    const { exit, signal, spawnedAt } = a
    const no = (invariant: number, what: string) => violate(`attempt ${a.n}: `, invariant, what)
    const sentAt = signal?.sentAt
    const outcome = ending(a)
    const startupKill = outcome === 'start-up kill'
    const posts = a.requests.filter((r) => r.operation === postOp)
    const signalled = sentAt === undefined ? '' : ` (${signal?.name ?? ''} at ${Math.round(sentAt - spawnedAt)} ms)`
    // 5. A summary on every exit path, but for a kill that came before the handler of its signal
    // existed (the preloaded probe says when it was installed).
    const handlerFirst = (a.handlerAt ?? Infinity) + HANDLER_RACE_MS < (signal?.sentEpoch ?? -Infinity)
    const installed = Math.round((a.handlerAt ?? NaN) - performance.timeOrigin - spawnedAt)
    if (startupKill && handlerFirst) no(5, `no summary after a kill${signalled}; a handler from ${installed} ms on`)
    if (!startupKill && exit.summary.trim() === '') no(5, `no summary (exit ${exit.code ?? exit.signal ?? ''})`)
    // 0. The verdicts above trust the probe: a signal the action handled must have shown it a handler.
    if (sentAt !== undefined && !startupKill && a.handlerAt === undefined)
      no(0, `soak bookkeeping: the action handled a signal${signalled}, but the probe saw no handler installed`)
    // 6. The key only ever in the one ::add-mask:: line.
    const leaks = secretLeaks({ ...exit, workspace: '' }, KEY)
    if (leaks.length > 0) no(6, `the API key appears in ${leaks.join(', ')}`)
    // 2. No POST after one that may have acted.
    const ambiguous = posts.findIndex(mayHaveActed)
    const more = posts.length - ambiguous - 1
    if (ambiguous >= 0 && more > 0) no(2, `${more} more ${postOp}(s) after one that ${describe(posts[ambiguous])}`)
    // 3. job-id on every exit path once the id is known: the input's, the one a create was answered
    // 201 with (unless a signal raced the answer), or the one of the record a re-run restored.
    const output = exit.outputs['job-id'] ?? ''
    if (seeded && !startupKill && output !== seeded.id) no(3, `job-id is "${output}", the input was ${seeded.id}`)
    if (!seeded && !startupKill) {
      const answer = posts.find((r) => r.answeredStatus === 201 && acted(r) && r.served?.kind !== 'truncate')
      const answeredId = answer && jobOf.get(answer)
      const end = answer?.endedAt
      const raced = sentAt !== undefined && end !== undefined && sentAt < end + ANSWER_RACE_MS
      let expected: string | undefined
      if (answeredId && raced) knownId = output === answeredId ? answeredId : knownId
      else if (answeredId) expected = knownId = answeredId
      else if (a.resumed && plan.onRerun === 'resume') expected = knownId
      const how = answeredId ? 'the create was answered 201 with' : 'this attempt restored the record of'
      if (expected !== undefined && output !== expected) no(3, `job-id "${output}", but ${how} ${expected}${signalled}`)
      else if (expected === undefined && output !== '' && !run.jobs.some(({ job }) => job.id === output))
        no(3, `job-id is "${output}", a job the simulator never handed out`)
    }
    // 4. The exit code as fail-on says, for an outcome that agrees with what happened.
    if (!startupKill && outcome !== 'killed after reporting')
      for (const problem of outcomeProblems(run, a, outcome, posts)) no(4, problem)
    // 7. Retry-After honoured: no request of the step before the time the last answer asked for.
    a.requests.forEach(({ retryUntil: until, answeredStatus, operation }, i) => {
      const next = a.requests[i + 1]
      if (!next || until === undefined || answeredStatus === undefined || next.time >= until - SLACK_MS) return
      no(7, `${next.operation} ${until - next.time} ms before the Retry-After of a ${operation}'s ${answeredStatus}`)
    })
    // 8. Ends soon after a signal, and soon after the timeout.
    const took = exit.at - spawnedAt
    if (took > plan.timeoutMs + EXIT_AFTER_TIMEOUT_MS) no(8, `ran ${Math.round(took)} ms, timeout ${plan.timeoutMs} ms`)
    if (sentAt !== undefined && exit.at - sentAt > EXIT_AFTER_SIGNAL_MS)
      no(8, `exited ${Math.round(exit.at - sentAt)} ms after the signal${signalled}`)
  }
  return violations
}

/** Whether the simulator did the work of this POST (created the job, took the message). */
function serverActed({ served, answeredStatus: status }: Request): boolean {
  if (served?.kind === 'status' || served?.kind === 'reset') return served.effect === true
  const ok = status !== undefined && status >= 200 && status < 300
  return ok && (served === undefined || served.kind === 'truncate' || served.kind === 'delay')
}

/** Whether a POST that ended this way may have acted: the action must never send another. */
function mayHaveActed({ served, answeredStatus: status }: Request): boolean {
  if (status === undefined || (status >= 500 && status !== 503)) return true
  return served?.kind === 'truncate' || (served?.kind === 'body' && status >= 200 && status < 300)
}

/** POST faults the action must fail on (it may not retry them): the outcome is an error or a cancel. */
function isFatalPost({ served }: Request): boolean {
  if (!served || served.kind === 'delay') return false
  return served.kind !== 'status' || (served.status !== 429 && served.status !== 503)
}

function describe(rec: Request | undefined): string {
  return `${rec?.cls ? `met ${rec.cls}` : 'had no fault'} (answered ${rec?.answeredStatus ?? 'nothing'})`
}

/** What is wrong with the attempt's exit code and stated outcome, given what really happened. */
function outcomeProblems(run: Run, a: Attempt, outcome: Outcome | undefined, posts: Request[]): string[] {
  const { plan } = run
  const { exit, signal } = a
  const { status: statusOutput = '', 'pr-link': prLink = '', 'timed-out': timedOut = '' } = exit.outputs
  if (outcome === undefined)
    return [`no outcome in the summary heading: ${/<h2>.*?<\/h2>/.exec(exit.summary)?.[0] ?? 'none'}`]
  const problems: string[] = []
  // fail-on as the README documents it (comma, space or newline separated, or none); a cancel or an error always fails.
  const word = outcome === 'completed-no-pr' ? 'no-pr' : outcome
  const failing =
    ['timed-out', 'failed', 'archived', 'no-pr'].includes(word) && plan.failOn.split(/[\s,]+/).includes(word)
  const code = Number(outcome === 'cancelled' || outcome === 'error' || failing)
  if (exit.code !== code) problems.push(`exit code ${exit.code ?? 'none'} for ${outcome}, expected ${code}`)
  if (outcome === 'cancelled' && signal?.sentAt === undefined) problems.push('cancelled, but no signal was sent')
  if ((outcome === 'timed-out') !== (timedOut === 'true')) problems.push(`${outcome} with timed-out "${timedOut}"`)
  if (outcome === 'started' && plan.wait) problems.push('reported started (not waiting) with wait: true')
  const fatal = posts.find(isFatalPost)
  if (fatal && outcome !== 'error' && outcome !== 'cancelled')
    problems.push(`${outcome} after a POST that ${describe(fatal)}`)
  // A re-run refuses to post again after an earlier attempt's POST left without a usable answer, or
  // was answered after that attempt was cancelled (which then rightly said it may have acted).
  const postOp = plan.mode === 'message' ? 'message' : 'create'
  const earlier = run.attempts.slice(0, a.n - 1)
  const lost = earlier.some((b) => b.requests.some((r) => r.operation === postOp && mayHaveActed(r)))
  const refusal = /^::error::Attempt \d+ of this step sent the (create|follow-up) request, but its answer was lost/
  const errorLine = exit.stdout.split('\n').find((line) => line.startsWith('::error'))
  const said = earlier.some((b) => /may have been (created|delivered)/.test(b.exit.stdout))
  const excused =
    posts.some((r) => r.cls !== undefined) || plan.refused || ((lost || said) && refusal.test(errorLine ?? ''))
  if (outcome === 'error' && !excused) problems.push(`unexpected error: ${errorLine ?? 'no ::error:: line'}`)

  const status = outcome === 'completed-pr' || outcome === 'completed-no-pr' ? 'completed' : outcome
  if (status !== 'completed' && status !== 'failed' && status !== 'archived') return problems
  if (statusOutput !== status) problems.push(`${outcome} with the status output "${statusOutput}"`)
  if (plan.end === 'unknown-status') problems.push(`${outcome}, but the job only ever showed an unknown status`)
  const jobId = run.seeded?.id ?? exit.outputs['job-id']
  const job = a.jobsAtExit.find((j) => j.job.id === jobId)?.job
  if (!job) return [...problems, `${outcome} for job "${jobId ?? ''}", which the simulator does not hold`]
  // From the plan, not the simulator's view: a stale record is exactly what must not be believed.
  const waitedOnly = plan.mode === 'wait-only' && plan.seedStatus !== 'active'
  const final = waitedOnly ? plan.seedStatus : terminalOf(plan.end)
  if (status !== final) problems.push(`${outcome}, but the job's current run ends ${final ?? 'active'}`)
  // When the job's current run started (epoch ms): the create that made it, its last follow-up, or its seeding.
  const upTo = run.attempts.slice(0, a.n).flatMap((x) => x.requests)
  const acted = upTo.filter((r) => (r.operation === 'message' || r.operation === 'create') && serverActed(r))
  const made = acted.filter((r) => r.operation === 'create')[run.jobs.findIndex((j) => j.job.id === job.id)]
  const runStart =
    plan.mode === 'create' ? made?.time : plan.mode === 'message' ? acted.at(-1)?.time : run.seeded?.epoch
  if (runStart === undefined && plan.mode === 'message') problems.push(`${outcome}, but no follow-up was delivered`)
  const runEnd = runStart === undefined ? undefined : runStart + (waitedOnly ? 0 : plan.runMs)
  if (runEnd !== undefined && exit.epoch < runEnd - SLACK_MS)
    problems.push(`${outcome} ${runEnd - exit.epoch} ms before the job's run (after its last POST) ended`)
  // Only a completed job's link decides its heading; a failed one may carry a link too.
  if (status === 'completed' && (outcome === 'completed-pr') !== (prLink !== ''))
    problems.push(`${outcome}, pr-link "${prLink}"`)
  if (outcome === 'completed-no-pr' && plan.end === 'pr') problems.push('no pull request, but the job had one at once')
  if (outcome === 'completed-no-pr' && plan.end === 'late-pr' && runEnd !== undefined && missedLateLink(run, a, runEnd))
    problems.push(`no pull request, but its link came ${plan.prLinkLagMs ?? 0} ms after the job completed`)
  return problems
}

/** A completed job whose link came soon after must still get it when the settle reads had room to see it. */
function missedLateLink({ plan }: Run, a: Attempt, runEnd: number): boolean {
  if (a.signal?.sentAt !== undefined || plan.staleAfterMessageMs !== undefined) return false
  if ((plan.prLinkLagMs ?? 0) > LINK_SURELY_SEEN_MS) return false
  const gets = a.requests.filter((r) => r.operation === 'get')
  const firstCompleted = gets.find((r) => r.time >= runEnd + SLACK_MS)
  if (gets.some((r) => r.cls !== undefined) || !firstCompleted) return false
  return firstCompleted.time + SETTLE_READS_MS + 500 <= a.spawnedEpoch + plan.timeoutMs
}
