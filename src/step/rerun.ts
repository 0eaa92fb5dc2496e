/**
 * The step across re-runs of its workflow run: attempt 2 on finds the job an earlier attempt
 * created or messaged (the record saved then), and each attempt saves what it sent while it waits.
 */
import { Cancelled } from '../base/cancel.js'
import { fingerprint } from '../base/fingerprint.js'
import type { Log } from '../base/log.js'
import { inline } from '../base/text.js'
import { WORDING } from '../report/wording.js'
import { restoreRecord, saveRecord, type RecordStore, type RerunRecord, type RunIdentity } from '../rerun/record.js'
import type { BuiltPrompt } from './prompt-deps.js'
import type { AutomationSettings, CreateOrMessage, Settings } from './settings.js'

/** The settings of a step whose request a re-run must not send again. */
type Sending = CreateOrMessage | AutomationSettings

/** What an earlier attempt left for this one. */
export type Earlier =
  /** Nothing to follow: the step posts as on a first attempt. */
  | { kind: 'none' }
  /** Its request may have acted but its answer was lost; `prompt` is the user's when it is the same. */
  | { kind: 'answer-lost'; record: RerunRecord; prompt: string | undefined }
  /** Its job, to follow instead of posting again. */
  | { kind: 'job'; record: RerunRecord; jobId: string }

export interface RerunDeps {
  log: Log
  signal: AbortSignal
  records: RecordStore
  /** This workflow run and attempt; undefined outside a runner. */
  run: RunIdentity | undefined
}

export class Rerun {
  /** The records being saved while the step goes on. */
  #saving: Promise<void> | undefined
  /** The earlier attempt's record this one follows. */
  #earlier: RerunRecord | undefined

  constructor(private readonly deps: RerunDeps) {}

  /**
   * On a re-run (attempt 2 on), the job an earlier attempt of this step created or messaged, read
   * from its record; none when there is no record to trust.
   */
  async findEarlierAttempt(settings: Sending): Promise<Earlier> {
    const { run, records, log } = this.deps
    if (settings.dryRun || !run || run.attempt < 2) return { kind: 'none' }
    const posting = WORDING[settings.mode].posting
    if (settings.onRerun === 'new') {
      log.info(
        `Attempt ${run.attempt} of this run: on-rerun is new, so ${posting} without looking for an earlier attempt's job.`
      )
      return { kind: 'none' }
    }
    if (!records.available) {
      log.debug('No Actions cache service here: a re-run cannot find the job of an earlier attempt.')
      return { kind: 'none' }
    }
    const restored = await restoreRecord(records, run, settings)
    if (restored.kind !== 'found' && this.deps.signal.aborted) throw new Cancelled(false)
    if (restored.kind === 'failed') {
      log.warning(
        `Could not read what earlier attempts of this step did (${inline(restored.message)}), so ${posting}; if an earlier attempt already did, there will be two.`
      )
      return { kind: 'none' }
    }
    if (restored.kind === 'rejected') {
      // Planted by whoever can write this cache scope, or saved with another api-key: never followed.
      log.warning(
        `Ignored a re-run record under this step's cache key (${restored.reason}: not saved by an earlier attempt of this step with this api-key), so ${posting}.`
      )
      return { kind: 'none' }
    }
    if (restored.kind === 'missing') {
      log.info(`Attempt ${run.attempt}: no earlier attempt of this step left a job, so ${posting}.`)
      return { kind: 'none' }
    }
    const { record } = restored
    if (record.mayHaveActed) {
      // The prompt is shown when it is the user's own; rebuilding the context is not worth it here.
      const prompt =
        'prompt' in settings && fingerprint(settings.prompt) === record.prompt ? settings.prompt : undefined
      return { kind: 'answer-lost', record, prompt }
    }
    this.#earlier = record
    return { kind: 'job', record, jobId: record.jobId ?? '' }
  }

  /**
   * Whether an earlier attempt sent the docs checks' follow-up: the record it resumed from, or for
   * a step that only waits (no resume phase), its own record looked up now. Unreadable: false.
   */
  async docsFixSent(settings: Settings): Promise<boolean> {
    if (this.#earlier) return this.#earlier.docsFix === true
    const { run, records } = this.deps
    if (settings.mode !== 'wait-only' || !run || run.attempt < 2 || !records.available) return false
    const restored = await restoreRecord(records, run, settings)
    return restored.kind === 'found' && restored.record.docsFix === true
  }

  /**
   * The record keeps only the prompt's fingerprint: the prompt is built again (the same event, so
   * mostly the same context) and shown when it is the one that attempt sent.
   */
  async recallPrompt(record: RerunRecord, build: () => Promise<BuiltPrompt>): Promise<BuiltPrompt | undefined> {
    const built = await build()
    if (fingerprint(built.prompt) === record.prompt) return built
    this.deps.log.info(
      `The prompt attempt ${record.attempt} sent differs from the one built now (the workflow's context changed since): it is not shown.`
    )
    return undefined
  }

  /** The earlier attempt's job is gone (404 before any read): the step posts as on a first attempt. */
  warnGone(settings: CreateOrMessage, record: RerunRecord, jobId: string): void {
    const posting = WORDING[settings.mode].posting
    this.deps.log.warning(`Job ${inline(jobId)} from attempt ${record.attempt} no longer exists (404), so ${posting}.`)
  }

  /** Starts saving the re-run record while the step goes on (never rejects). */
  startSavingRecord(
    settings: Settings,
    what: Pick<
      RerunRecord,
      'jobId' | 'answeredAt' | 'mayHaveActed' | 'answer' | 'automationRun' | 'outsider' | 'docsFix'
    >,
    prompt: string
  ): void {
    const { run, records, log } = this.deps
    if (!run) return
    if (!records.available) {
      log.debug('No Actions cache service here: no re-run record is saved.')
      return
    }
    const record: RerunRecord = { ...what, attempt: run.attempt, prompt: fingerprint(prompt) }
    const job = what.jobId ? `job ${inline(what.jobId)}` : 'the job that may have been created'
    const before = this.#saving
    this.#saving = saveRecord(records, run, settings, record).then(async (saved) => {
      await before
      const lost = `a re-run of this workflow job will not find ${job} and ${WORDING[settings.mode].posting} again`
      if (saved.kind === 'saved') log.debug(`Saved the re-run record of ${job}.`)
      // pull_request_target and issue_comment runs get a read-only cache: expected, not worth a warning.
      else if (saved.kind === 'read-only')
        log.debug(`The Actions cache is read-only here (${inline(saved.message)}): ${lost}.`)
      else log.warning(`Could not save the re-run record (${inline(saved.message)}): ${lost}.`)
    })
  }

  /** What is left of the record's save (bounded by the store). */
  async saved(): Promise<void> {
    await this.#saving
  }
}
