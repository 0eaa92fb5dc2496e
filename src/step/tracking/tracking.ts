/**
 * What follows the job on GitHub while the step runs, as the flow tells it: the link-back's progress
 * (progress.ts) and the check run (check.ts). The flow says when the job exists, the wait loop
 * when its status or docs pull request changes, and the report when the step ended.
 */
import { verdict } from '../../report/verdict.js'
import { CheckPhase, type CheckDeps } from './check.js'
import { LinkBack, type ConversationDeps } from './link-back.js'
import type { LinkBackReport } from './link-back-text.js'
import type { StepMode } from '../mode.js'
import { Progress } from './progress.js'
import type { RunStateWriter } from '../run-state.js'
import type { Settings } from '../settings.js'

export interface TrackingDeps {
  conversation: ConversationDeps
  /** One line of what the agent was asked (asked.ts). */
  asked: string | undefined
  /** With `check` (and a token): where the check run goes. */
  check: CheckDeps | undefined
}

export class Tracking {
  /** The request as decided so far: a grouped run's becomes a follow-up. */
  #settings: Settings
  readonly #progress: Progress
  readonly #check: CheckPhase | undefined

  constructor(
    mode: StepMode,
    private readonly run: RunStateWriter,
    deps: TrackingDeps
  ) {
    this.#settings = mode.settings
    // A copy of the state as it is when a write is asked for: writes go out beside the step, later.
    const report = (): LinkBackReport => ({ state: { ...run.state }, settings: this.#settings, asked: deps.asked })
    this.#progress = new Progress(new LinkBack(report, mode.targets, deps.conversation), () => run.state.jobId)
    this.#check = deps.check && new CheckPhase(deps.check, run, report)
    // A grouped run's job exists once it targets the group's: shown before its follow-up is answered.
    run.onTargeted = () => this.started()
  }

  /** This step's create or message was answered: the started state is written, the check made. */
  answered(settings: Settings): void {
    this.#settings = settings
    this.started()
  }

  private started(): void {
    this.#progress.started()
    this.#check?.start()
  }

  /** A re-run or a wait-only step follows a job it knows: the check is made; the comment waits for a first read. */
  following(settings: Settings): void {
    this.#settings = settings
    this.#check?.start()
  }

  /** The wait read a new status or docs pull request. */
  changed(): void {
    this.#progress.changed()
  }

  /** The step ended: the check's conclusion is decided (for the outputs and the summary) and written beside them. */
  async ended(settings: Settings): Promise<void> {
    this.#settings = settings
    await this.#check?.conclude(verdict(this.run.state, settings).failed)
  }

  /** After the report: the check completed, then the link-back's last write. */
  async linkBack(): Promise<void> {
    await this.#check?.completed()
    await this.#progress.ended()
  }
}
