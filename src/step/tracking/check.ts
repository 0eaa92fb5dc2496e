/**
 * The check run phase (`check`): a check run on the triggering commit, created in progress as soon
 * as the job exists, and completed on every exit path with the step's conclusion. A completed run
 * is final on GitHub (GitHub staff; Atlantis and Mergify met it), so each attempt of the workflow
 * run, and a wait-only step, makes its own, after completing as `cancelled` an earlier attempt's
 * left in progress (a killed attempt). Its `external_id` (run id and attempt) finds it again only
 * when a create's answer was lost. What GitHub refuses is one warning, after which the check is
 * left alone; the step's result and outputs never depend on it.
 */
import type { Clock } from '../../base/clock.js'
import type { Log } from '../../base/log.js'
import { inline } from '../../base/text.js'
import type { CheckConclusion, CheckOutput, CheckRun, CheckRunApi, CheckState } from '../../github/check-run.js'
import { checkProblem, refusal, transient } from './check-problem.js'
import { parsePullRequestUrl } from '../../github/pr-link.js'
import type { RunState } from '../../report/state.js'
import { heading } from '../../report/summary.js'
import { pullRequest } from '../../report/verdict.js'
import { jobLines, type LinkBackReport, type Where } from './link-back-text.js'
import type { RunStateWriter } from '../run-state.js'

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
  /** This attempt's check (`docs-agent-action:<run id>:<attempt>`, `:wait` for a wait-only step), kept in its `external_id`. */
  externalId: string | undefined
  /** What every attempt's check of this workflow run carries in its `external_id` (then `:<attempt>`). */
  runPrefix: string | undefined
  /** `GITHUB_RUN_ATTEMPT`. */
  attempt: number
  /** An attempt after the first, or a wait-only step: an earlier check of the run may be left in progress. */
  mayExist: boolean
  /** `github-token` is a person's, which cannot make check runs. */
  personal: boolean
}

/** The step's conclusion for the check: a `fail-on` that tolerates the ending makes it neutral, not success. */
export function conclusionOf(state: RunState, failed: boolean): CheckConclusion {
  if (state.outcome === 'cancelled') return 'cancelled'
  if (failed) return state.outcome === 'timed-out' ? 'timed_out' : 'failure'
  // With `docs-checks`, success only once the docs pull request's checks passed.
  if (state.docsChecks && state.docsChecks.result !== 'success') return 'neutral'
  return state.outcome === 'completed' && pullRequest(state).kind === 'link' ? 'success' : 'neutral'
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

  /** The job exists: the check is made in progress, beside the step. */
  start(): void {
    this.#opened ??= this.open(this.report())
  }

  /**
   * The step ended (`failed` as the verdict says): the conclusion goes into the state for the
   * outputs and the summary, once a check still being made is (for a moment at most), and the check
   * is completed beside the report.
   */
  async conclude(failed: boolean): Promise<void> {
    const { outcome } = this.run.state
    if (outcome === 'skipped' || outcome === 'not-permitted') return this.skipped()
    const opened = this.#opened
    if (!opened) return
    await this.whileMade(opened)
    const conclusion = conclusionOf(this.run.state, failed)
    this.run.checked({ ...this.run.state.check, name: this.deps.name, conclusion })
    this.#completed = this.complete(opened, conclusion, this.output(this.report(), conclusion))
  }

  /**
   * A skipped run, or one nobody permitted, has no job: its check is made completed as `skipped`
   * (with why), in one write, so that a required check never waits for a job that does not start.
   */
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
    const sha = await deps.commit().catch((error: unknown) => {
      deps.log.warning(
        checkProblem(`read the commit for the check run ${this.name}`, error, 'pull-requests: read', false)
      )
      return null
    })
    if (sha === null) return undefined
    if (!sha) {
      deps.log.warning(`No check run ${this.name}: the commit this run is for is not known (GITHUB_SHA is empty).`)
      return undefined
    }
    if (deps.mayExist) await this.supersede(sha)
    try {
      const run = { name: deps.name, headSha: sha, externalId: deps.externalId, detailsUrl: deps.runUrl }
      const made = await deps.api.create(run, state, output)
      this.made(made)
      return made
    } catch (error) {
      // Lost on the way, or a 5xx: the create may have been done, so it is looked for at the end.
      if (!refusal(error) && deps.externalId) this.#unsure = sha
      else deps.log.warning(this.problem('create', error))
      return undefined
    }
  }

  /** An earlier attempt's check of this workflow run left in progress (a killed attempt): completed as cancelled. */
  private async supersede(sha: string): Promise<void> {
    const { deps } = this
    const prefix = deps.runPrefix
    if (!prefix) return
    const ours = (id: string | undefined): boolean => id === prefix || !!id?.startsWith(`${prefix}:`)
    const why = `superseded by attempt ${deps.attempt}`
    try {
      const left = (await deps.api.list(sha, deps.name)).filter(
        (run) => !run.completed && run.externalId !== deps.externalId && ours(run.externalId)
      )
      for (const run of left) {
        const summary = `**Docs agent:** ${why} of the workflow run${deps.runUrl ? ` (${deps.runUrl})` : ''}.`
        await deps.api.update(run.id, CANCELLED, { title: `Cancelled: ${why}`, summary }, deps.runUrl)
        deps.log.info(`Check run ${this.name} of an earlier attempt completed: cancelled, ${why}.`)
      }
    } catch (error) {
      deps.log.warning(this.problem('complete an earlier attempt of', error))
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
      if (!check && this.#unsure) check = await this.lost(this.#unsure)
      if (!check) return
      const docs = pullRequest(this.run.state)
      const details = conclusion === 'success' && docs.kind === 'link' ? docs.url : deps.runUrl
      const { id } = check
      const update = () => deps.api.update(id, { status: 'completed', conclusion }, output, details)
      // It sets a fixed state, so sending it again after a 5xx or a lost connection changes nothing more.
      await update().catch((error: unknown) => {
        if (!transient(error)) throw error
        return update()
      })
      deps.log.info(`Check run ${this.name} completed: ${conclusion}.`)
    } catch (error) {
      deps.log.warning(this.problem(check ? 'complete' : 'find', error))
    }
  }

  /** The check whose create's answer was lost, found by its `external_id`; undefined (one warning) when not there or completed. */
  private async lost(sha: string): Promise<CheckRun | undefined> {
    const { deps } = this
    const found = (await deps.api.list(sha, deps.name)).find((run) => run.externalId === deps.externalId)
    if (!found) {
      deps.log.warning(`Could not create the check run ${this.name}: GitHub did not answer, and it is not there.`)
      return undefined
    }
    this.made(found)
    if (!found.completed) return found
    deps.log.warning(`The check run ${this.name} is completed already: GitHub does not change a completed run.`)
    return undefined
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

  private problem(what: string, error: unknown): string {
    return checkProblem(`${what} the check run ${this.name}`, error, 'checks: write', this.deps.personal)
  }
}

const CANCELLED: CheckState = { status: 'completed', conclusion: 'cancelled' }
