/**
 * The progress phase: while the step runs, the link-back's targets show the job as it goes. They
 * are written once the job exists, then once for each change of its status or docs pull request
 * that the wait loop reports (a poll that changed nothing writes nothing), then once more at the
 * end. The writes run beside the step (nothing waits for them until the end) and each target keeps
 * its own order, so the end is written last.
 */
import type { LinkBack } from './link-back.js'

export class Progress {
  /** Writes under way. */
  #writes: Promise<void>[] = []
  /** The job the started state was written for. */
  #started: string | undefined

  constructor(
    private readonly links: LinkBack,
    private readonly jobId: () => string | undefined
  ) {}

  /**
   * The job exists (this step's request was answered, or a grouped run targets the group's job):
   * the agent is at work. Once per job: a grouped follow-up's answer adds nothing to its targeting.
   */
  started(): void {
    if (this.jobId() === this.#started) return
    this.#started = this.jobId()
    this.#writes.push(this.links.write(false))
  }

  /** The wait read a new status or docs pull request. */
  changed(): void {
    this.#writes.push(this.links.write(false))
  }

  /** The step's end: once the progress is written, the outcome. */
  async ended(): Promise<void> {
    await Promise.all(this.#writes)
    await this.links.write(true)
  }
}
