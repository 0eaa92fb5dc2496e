/**
 * The step's closing phases, once its flow has ended (action.ts): the preview, the ending, the docs
 * checks, the docs pull request's owner, the tracking's end and the report. Loaded by `import()`
 * when the flow ends, so that a run reaches its first request without them.
 */
import type { RunState } from '../report/state.js'
import { finish } from '../report/finish.js'
import type { Decided, Deps, Flowed } from './step-deps.js'
import { docsChecksPhase } from './docs-checks/phase.js'
import { decideEnding } from './ending.js'
import { recordGroup } from './group/record.js'
import { label } from './label.js'
import { ownDocsPull } from './owner/phase.js'
import { preview } from './preview.js'
import type { Rerun } from './rerun.js'
import type { RunStateWriter } from './run-state.js'
import type { Settings } from './settings.js'

/** The run as its flow left it. */
export interface Closing {
  settings: Settings
  deps: Deps
  run: RunStateWriter
  rerun: Rerun
  deadline: number
}

/** The closing phases; true in `failed` when the step must fail (the reason was already logged as an error). */
export async function close({ end, decided }: Flowed, closing: Closing): Promise<{ failed: boolean }> {
  const { settings, deps, run, rerun, deadline } = closing
  // The preview phase: a job that ended with a docs PR, when asked for (never changes the ending).
  if (decided.settings.preview && end.kind === 'waited' && end.end.reason === 'terminal' && end.end.job.prLink) {
    await preview(decided.settings, deps, run, end.end.job, deadline)
  }
  const ending = decideEnding(end, decided.settings, run.state)
  // The request may have acted: a re-run must know, or it would post a second time.
  if (end.kind === 'thrown' && ending.mayHaveActed && settings.mode !== 'wait-only') {
    const { jobId, outsider } = run.state
    const what = { jobId, answeredAt: deps.clock.now(), mayHaveActed: true, answer: undefined, outsider: !!outsider }
    rerun.startSavingRecord(settings, what, run.state.prompt ?? '')
  }
  run.ended(ending)
  // The docs checks phase: the docs PR's checks, and one round of fixes with `fix`, before its owner is asked.
  await docsChecksPhase(decided.settings, deps, run, rerun, deadline)
  // The owner phase: reviewers, assignees and merge of the docs PR the job ended with (never changes the ending).
  const owner = await ownDocsPull(decided.settings, deps, run.state)
  if (owner) run.owned(owner)
  await deps.follow?.ended(decided.settings)
  return report(decided, deps, run.state, rerun)
}

/** The report phase: outputs, summary and log; then the label and the link-back, as asked for. */
async function report(
  { settings, plan }: Decided,
  deps: Deps,
  state: Readonly<RunState>,
  rerun: Rerun
): Promise<{ failed: boolean }> {
  const failed = await finish(state, settings, deps)
  if (!failed && state.outcome === 'completed') await label(state, settings, deps)
  await recordGroup(plan, state, settings.apiKey, deps)
  await deps.follow?.linkBack()
  // The record is saved while the step waits; what is left of that is awaited here (bounded).
  await rerun.saved()
  return { failed }
}
