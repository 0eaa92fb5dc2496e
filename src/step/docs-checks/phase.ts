/**
 * The docs checks phase (`docs-checks`), once the job completed with a docs pull request and before
 * the owner phase: waits for the checks on its head and, with `fix`, when some failed, sends the
 * job one follow-up with their problems, waits for the job and for the checks on its new head, and
 * judges that head only. It never changes the step's ending; `fail-on: docs-checks` decides
 * whether a red docs pull request fails the step (verdict.ts).
 */
import { Cancelled } from '../../base/cancel.js'
import { inline, plural } from '../../base/text.js'
import { ApiError, mayHaveTakenEffect } from '../../agent-api/errors.js'
import { jobFingerprint } from '../../agent-api/job.js'
import { NOT_FOUND_GRACE_MS } from '../../agent-api/wait.js'
import type { DocsChecksApi } from '../../github/docs-checks.js'
import { DOCS_TOKEN } from '../../github/docs-client.js'
import { labelTarget } from '../../github/labels.js'
import { refusalOf, said } from '../../github/owner/refusal.js'
import type { PullRequestRef } from '../../github/pr-link.js'
import { pullRequest } from '../../report/verdict.js'
import { post, type PostDeps } from '../post.js'
import type { Rerun } from '../rerun.js'
import type { RunStateWriter } from '../run-state.js'
import type { Settings } from '../settings.js'
import { wait, type WaitDeps } from '../wait.js'
import { fixable } from './judge.js'
import { fixMessage } from './message.js'
import { report, verdictOf } from './report.js'
import { settle, type Settled } from './settle.js'

export interface DocsChecksDeps extends WaitDeps, PostDeps {
  serverUrl: string | undefined
  /** The checks of the docs pull request, with the docs repository's token; throws when there is none. */
  docsChecks(pr: PullRequestRef): DocsChecksApi
}

/** Where the phase is: the docs pull request, and how its checks are read and reported. */
interface Ctx {
  settings: Settings
  deps: DocsChecksDeps
  run: RunStateWriter
  api: DocsChecksApi
  label: string
  deadline: number
}

export async function docsChecksPhase(
  settings: Settings,
  deps: DocsChecksDeps,
  run: RunStateWriter,
  rerun: Rerun,
  deadline: number
): Promise<void> {
  const link = pullRequest(run.state)
  if (settings.docsChecks === 'none' || run.state.outcome !== 'completed' || link.kind !== 'link') return
  // As the owner phase: only a pull request in the job's own repository gets the token.
  const bound = labelTarget(link.url, run.state.job?.source?.repository, deps.serverUrl)
  if (bound?.kind !== 'label') return
  const { pr } = bound
  const label = `${pr.owner}/${pr.repo}#${pr.number}`
  const sent = await rerun.docsFixSent(settings)
  run.docsChecked({ result: 'waiting', checks: [], rounds: sent ? 1 : 0 })
  deps.follow?.changed()
  try {
    const ctx: Ctx = { settings, deps, run, api: deps.docsChecks(pr), label, deadline }
    deps.log.info(`Waiting for the checks on the docs pull request ${label}.`)
    const first = await checksOnHead(ctx)
    const fix = settings.docsChecks === 'fix' && first.kind === 'ended' && fixable(first.judged.failures).length > 0
    if (fix && sent) deps.log.info(`An earlier attempt of this step already asked the agent to fix ${label}.`)
    const settled = fix && !sent ? await fixRound(ctx, first, rerun) : first
    // A round: this attempt's follow-up was answered, or an earlier attempt's may have reached the job.
    report(ctx, settled, (run.state.docsChecks?.rounds ?? 0) > 0)
  } catch (error) {
    unreadable(error, { deps, run, label, repository: `${pr.owner}/${pr.repo}`, rounds: run.state.docsChecks?.rounds })
  }
}

/** Reads the head, then waits for its checks. */
async function checksOnHead(ctx: Ctx): Promise<Settled> {
  const head = await ctx.api.head()
  const { settings, deps } = ctx
  const schedule = { initialMs: settings.pollIntervalMs, maxMs: settings.maxPollIntervalMs }
  const timing = { clock: deps.clock, signal: deps.signal, schedule, deadline: ctx.deadline, log: deps.log }
  return settle(ctx.api, head, timing)
}

/** The one round: the follow-up (kept in the re-run record), the job's wait, the new head's checks. */
async function fixRound(ctx: Ctx, first: Settled, rerun: Rerun): Promise<Settled> {
  const { settings, deps, run, label } = ctx
  const { head } = first.judged
  const failures = fixable(first.judged.failures)
  const names = failures.map((f) => f.name)
  verdictOf(ctx, first, false)
  const jobId = run.state.jobId ?? ''
  const message = { ...settings, mode: 'message' as const, jobId, prompt: fixMessage(failures, { label, head }) }
  const shown = names.map((name) => inline(name, 100)).join(', ')
  deps.log.info(`Asking the agent to fix ${plural(names.length, 'failing check')} on ${label}: ${shown}.`)
  let posted: Awaited<ReturnType<typeof post>>
  try {
    posted = await post(message, deps, run, ctx.deadline, message.prompt)
  } catch (error) {
    // A follow-up that may have reached the job (an answer lost, or a cancel once its bytes had
    // left) is kept as sent: a re-run never sends a second.
    const cancelledSent = error instanceof Cancelled && error.requestSent
    const mayHaveReached = error instanceof ApiError && mayHaveTakenEffect(error)
    if (cancelledSent || mayHaveReached)
      rerun.startSavingRecord(
        settings,
        { ...sentRecord(jobId, deps, undefined), outsider: !!run.state.outsider },
        run.state.prompt ?? ''
      )
    if (cancelledSent)
      deps.log.info(`The step was cancelled after the follow-up to ${label} left: it may have reached the job.`)
    if (!(error instanceof ApiError)) throw error
    const maybe = mayHaveReached ? ' It may have reached the job, so a re-run does not send it again.' : ''
    deps.log.warning(`Could not ask the agent to fix the checks on ${label} (${inline(error.message)}).${maybe}`)
    return first
  }
  const { job, answeredAt } = posted
  const answer = jobFingerprint(job)
  rerun.startSavingRecord(
    settings,
    { ...sentRecord(jobId, deps, answer), answeredAt, outsider: !!run.state.outsider },
    run.state.prompt ?? ''
  )
  const before = first.judged.rows
  run.docsChecked({ checks: before, result: 'waiting', rounds: 1, asked: names, before })
  deps.follow?.changed()
  const end = await wait(settings, deps, run, ctx.deadline, {
    jobId,
    pollNow: false,
    notFoundUntil: answeredAt + NOT_FOUND_GRACE_MS,
    previous: { fingerprint: answer, answeredAt },
    posted: true
  })
  if (end.kind !== 'waited' || end.end.reason !== 'terminal')
    return { kind: 'timed-out', judged: { ...first.judged, running: true } }
  const next = await checksOnHead(ctx)
  if (next.judged.head === head)
    deps.log.info(`The agent made no change to ${label} after the follow-up: its head is still ${head.slice(0, 7)}.`)
  return next
}

function sentRecord(jobId: string, deps: DocsChecksDeps, answer: string | undefined) {
  return { jobId, answeredAt: deps.clock.now(), mayHaveActed: false, answer, docsFix: true }
}

/** A read GitHub refused (or that stopped): one warning, `docs-checks: unknown`. */
function unreadable(
  error: unknown,
  at: { deps: DocsChecksDeps; run: RunStateWriter; label: string; repository: string; rounds: number | undefined }
): void {
  const { deps, run, label, repository } = at
  run.docsChecked({ result: 'unknown', checks: [], rounds: at.rounds ?? 0, asked: run.state.docsChecks?.asked })
  if (error instanceof Cancelled || deps.signal.aborted) {
    deps.log.info(`Stopped waiting for the checks on ${label}: the step was cancelled.`)
    return
  }
  if (error instanceof ApiError) {
    deps.log.warning(`Could not follow the job after the follow-up on ${label} (${inline(error.message)}).`)
    return
  }
  const refusal = refusalOf(error)
  const hint =
    refusal.status === 403 || refusal.status === 404
      ? ` The ${DOCS_TOKEN} needs checks: read and statuses: read on ${repository} (the workflow's own token has them only on its own repository: another repository needs a token with that access).`
      : ''
  deps.log.warning(`Could not read the checks on ${label} (${said(refusal)}): docs-checks is unknown.${hint}`)
}
