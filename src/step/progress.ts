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

  constructor(private readonly links: LinkBack) {}

  /** This step's request was answered: the job exists, and the agent is at work. */
  started(): void {
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
