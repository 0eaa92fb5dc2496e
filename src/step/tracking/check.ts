/**
 * The check run phase (`check`): a check run on the triggering commit, created in progress as soon
 * as the job exists (found again instead by a re-run of the workflow run or a later step of it,
 * through its `external_id`), and completed on every exit path with the step's conclusion. What
 * GitHub refuses is one warning, after which the check is left alone (each request comes after
 * the one before it succeeded, so there is never a second); the step's result and outputs never
 * depend on it.
 */
import type { Clock } from '../../base/clock.js'
import type { Log } from '../../base/log.js'
import { errorMessage } from '../../base/error-message.js'
import { inline } from '../../base/text.js'
import type { CheckConclusion, CheckOutput, CheckRun, CheckRunApi, CheckState } from '../../github/check-run.js'
import { refused } from '../../github/conversation/api.js'
import type { GitHubClient } from '../../github/client.js'
import type { Trigger } from '../../github/event.js'
import type { RunIdentity } from '../../rerun/record.js'
import { parsePullRequestUrl } from '../../github/pr-link.js'
import type { RunState } from '../../report/state.js'
import { heading } from '../../report/summary.js'
import { pullRequest } from '../../report/verdict.js'
import { jobLines, type LinkBackReport, type Where } from './link-back-text.js'
import type { RunStateWriter } from '../run-state.js'
import type { Settings } from '../settings.js'

/** How long the end of the step waits for a check still being made, so that the summary can show it. */
const MADE_WAIT_MS = 5_000

export interface CheckDeps extends Where {
  log: Log
  clock: Clock
  api: CheckRunApi
  /** The check's name (`check`). */
  name: string
  /** The commit the check goes on (checkCommit); undefined when none is known. */
  commit(): Promise<string | undefined>
  /** What finds the check again: the workflow run's id, kept in its `external_id`. */
  externalId: string | undefined
  /** An attempt after the first, or a wait-only step: the run may have its check already. */
  mayExist: boolean
}

/** The step's conclusion for the check: a `fail-on` that tolerates the ending makes it neutral, not success. */
export function conclusionOf(state: RunState, failed: boolean): CheckConclusion {
  if (state.outcome === 'cancelled') return 'cancelled'
  if (failed) return state.outcome === 'timed-out' ? 'timed_out' : 'failure'
  // With `docs-checks`, success only once the docs pull request's checks passed.
  if (state.docsChecks && state.docsChecks.result !== 'success') return 'neutral'
  return state.outcome === 'completed' && pullRequest(state).kind === 'link' ? 'success' : 'neutral'
}

/**
 * The commit a check goes on: a pull request's head (read from GitHub for a comment, whose event
 * does not hold it), a tag's commit, else `GITHUB_SHA`.
 */
export async function checkCommit(
  trigger: Trigger,
  sha: string | undefined,
  api: CheckRunApi
): Promise<string | undefined> {
  if (trigger.kind === 'pull-request') return trigger.headSha ?? (await api.pullHead(trigger.number))
  // A release's GITHUB_SHA is its tagged commit, but an annotated tag's push may name the tag object.
  if (trigger.kind === 'tag') return api.tagCommit(trigger.tag).catch(() => sha)
  return sha
}

/**
 * Where the check run goes (`check`); undefined when there is none to keep, or no token to write it
 * with (one warning).
 */
export function checkDeps(
  settings: Settings,
  wired: {
    clock: Clock
    env: Record<string, string | undefined>
    github: GitHubClient
    trigger: Trigger
    run: RunIdentity | undefined
    log: Log
    where: Where
  }
): CheckDeps | undefined {
  const { env, log, run } = wired
  const repository = env.GITHUB_REPOSITORY
  if (!settings.check) return undefined
  if (settings.dryRun) {
    // A dry run sends nothing, the check run included: said, so a missing check is not a mystery.
    log.notice(`Input 'check' is set, but this is a dry run: no check run is made.`)
    return undefined
  }
  if (!settings.githubToken || !repository) {
    const missing = repository ? "'github-token' is empty" : 'GITHUB_REPOSITORY is not set'
    log.warning(`Input 'check' is set, but ${missing}: no check run is made.`)
    return undefined
  }
  const api = wired.github.checkRuns(repository)
  return {
    ...wired.where,
    log,
    clock: wired.clock,
    api,
    name: settings.check,
    commit: () => checkCommit(wired.trigger, env.GITHUB_SHA || undefined, api),
    externalId: run && `docs-agent-action:${run.runId}`,
    mayExist: settings.mode === 'wait-only' || (run?.attempt ?? 1) > 1
  }
}

export class CheckPhase {
  #opened: Promise<CheckRun | undefined> | undefined
  #completed: Promise<void> | undefined
  /** Where a create that failed may still have made the check: it is looked for there before it is completed. */
  #unsure: string | undefined

  constructor(
    private readonly deps: CheckDeps,
    private readonly run: RunStateWriter,
    private readonly report: () => LinkBackReport
  ) {}

  /** The job exists: the check is made (or found again) in progress, beside the step. */
  start(): void {
    this.#opened ??= this.open(this.report())
  }

  /**
   * The step ended (`failed` as the verdict says): the conclusion goes into the state for the
   * outputs and the summary, once a check still being made is (for a moment at most), and the check
   * is completed beside the report.
   */
  async conclude(failed: boolean): Promise<void> {
    if (this.run.state.outcome === 'skipped') return this.skipped()
    const opened = this.#opened
    if (!opened) return
    await this.whileMade(opened)
    const conclusion = conclusionOf(this.run.state, failed)
    this.run.checked({ ...this.run.state.check, name: this.deps.name, conclusion })
    this.#completed = this.complete(opened, conclusion, this.output(this.report(), conclusion))
  }

  /** A skipped run has no job: its check is made (or found again) completed as `skipped`, in one write. */
  private async skipped(): Promise<void> {
    const conclusion = 'skipped'
    this.run.checked({ ...this.run.state.check, name: this.deps.name, conclusion })
    const report = this.report()
    const opened = this.open(report, { status: 'completed', conclusion }, this.output(report, conclusion))
    this.#completed = opened.then((check) => {
      if (check) this.deps.log.info(`Check run ${this.name} completed: ${conclusion}.`)
      else if (this.#unsure)
        this.deps.log.warning(`Could not create the check run ${this.name}: GitHub did not answer; it may be there.`)
    })
    await this.whileMade(opened)
  }

  /** Waits a moment at most for a check still being made, so that the summary can link to it. */
  private async whileMade(opened: Promise<CheckRun | undefined>): Promise<void> {
    const limit = this.deps.clock.timeout(MADE_WAIT_MS)
    const waited = new Promise((resolve) => limit.addEventListener('abort', () => resolve('waited')))
    if ((await Promise.race([opened, waited])) === 'waited')
      this.deps.log.debug(`The check run ${this.name} is still being made: the summary shows it without its page.`)
  }

  /** What is left of the completion. */
  async completed(): Promise<void> {
    await this.#completed
  }

  /** The check in progress (or as `state` says); undefined when GitHub refused (one warning) or did not answer. */
  private async open(
    report: LinkBackReport,
    state: CheckState = { status: 'in_progress' },
    output = this.output(report, undefined)
  ): Promise<CheckRun | undefined> {
    const { deps } = this
    let sha: string | undefined
    try {
      sha = await deps.commit()
      if (!sha) {
        deps.log.warning(`No check run ${this.name}: the commit this run is for is not known (GITHUB_SHA is empty).`)
        return undefined
      }
      const found = deps.mayExist && deps.externalId ? await deps.api.find(sha, deps.name, deps.externalId) : undefined
      if (found) {
        this.made(found)
        await deps.api.update(found.id, state, output, deps.runUrl)
        return found
      }
      const run = { name: deps.name, headSha: sha, externalId: deps.externalId, detailsUrl: deps.runUrl }
      const made = await deps.api.create(run, state, output)
      this.made(made)
      return made
    } catch (error) {
      const known = this.run.state.check
      // A found check that could not be set in progress is still completed, unless GitHub refused.
      if (known?.id !== undefined) {
        if (!refusal(error)) return { id: known.id, url: known.url }
        deps.log.warning(this.problem('update', error))
        return undefined
      }
      // Lost on the way, or a 5xx: the create may have been done, so it is looked for at the end.
      if (!refusal(error) && sha && deps.externalId) this.#unsure = sha
      else deps.log.warning(this.problem('create', error))
      return undefined
    }
  }

  private async complete(
    opened: Promise<CheckRun | undefined>,
    conclusion: CheckConclusion,
    output: CheckOutput
  ): Promise<void> {
    const { deps } = this
    let check = await opened
    try {
      if (!check && this.#unsure) {
        check = await deps.api.find(this.#unsure, deps.name, deps.externalId ?? '')
        if (check) this.made(check)
        else
          deps.log.warning(`Could not create the check run ${this.name}: GitHub did not answer, and it is not there.`)
      }
      if (!check) return
      const docs = pullRequest(this.run.state)
      const details = conclusion === 'success' && docs.kind === 'link' ? docs.url : deps.runUrl
      await deps.api.update(check.id, { status: 'completed', conclusion }, output, details)
      deps.log.info(`Check run ${this.name} completed: ${conclusion}.`)
    } catch (error) {
      deps.log.warning(this.problem(check ? 'complete' : 'find', error))
    }
  }

  /** What the check shows: its title, and the job's lines (every link that matters: GitHub may ignore `details_url`). */
  private output(report: LinkBackReport, conclusion: CheckConclusion | undefined): CheckOutput {
    const { state, settings } = report
    const docs = pullRequest(state)
    const ref =
      conclusion === 'success' && docs.kind === 'link' ? parsePullRequestUrl(docs.url, this.deps.serverUrl) : undefined
    const title =
      conclusion === undefined
        ? `Docs agent working on job ${inline(state.jobId ?? '', 100)}`
        : ref
          ? `Docs pull request ${ref.owner}/${ref.repo}#${ref.number}`
          : heading(state, settings)
    return { title, summary: jobLines(report, this.deps).join('\n') }
  }

  private made(check: CheckRun): void {
    this.run.checked({ ...this.run.state.check, name: this.deps.name, id: check.id, url: check.url })
  }

  private get name(): string {
    return `'${inline(this.deps.name, 100)}'`
  }

  private problem(what: 'create' | 'update' | 'complete' | 'find', error: unknown): string {
    const doing = `${what} the check run ${this.name}`
    const status = (error as { status?: unknown }).status
    if (status === 404 || status === 422)
      return `Could not ${doing} (HTTP ${status}): ${inline(errorMessage(error), 300)}; the outputs are unchanged.`
    return refused(doing, error, 'checks: write')
  }
}

/** GitHub answered 4xx: it did nothing. */
function refusal(error: unknown): boolean {
  return Math.floor(Number((error as { status?: unknown }).status) / 100) === 4
}
