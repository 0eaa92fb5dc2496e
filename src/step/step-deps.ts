/**
 * What the step works with (its dependencies, main.ts wires them) and what its flow comes to
 * (action.ts), shared by the flow and its closing phases (closing.ts).
 */
import type { Log } from '../base/log.js'
import type { Reporter } from '../report/finish.js'
import type { AutomationDeps } from './automation/phase.js'
import type { DocsChecksDeps } from './docs-checks/phase.js'
import type { FlowEnd } from './ending.js'
import type { GroupDeps, GroupPlan } from './group/plan.js'
import type { LabelDeps } from './label.js'
import type { StepMode } from './mode.js'
import type { OwnerDeps } from './owner/deps.js'
import type { PostDeps } from './post.js'
import type { PreviewDeps } from './preview.js'
import type { PromptDeps } from './prompt-deps.js'
import type { RerunDeps } from './rerun.js'
import type { RunStateWriter } from './run-state.js'
import type { Settings } from './settings.js'
import type { SkipDeps } from './skip/phase.js'
import type { Tracking } from './tracking/tracking.js'

export interface Deps
  extends
    Reporter,
    PromptDeps,
    PostDeps,
    Omit<RerunDeps, 'records'>,
    GroupDeps,
    Omit<PreviewDeps, 'github'>,
    AutomationDeps,
    SkipDeps {
  log: Log
  /** The docs pull request's checks (`docs-checks`). */
  docsChecks: DocsChecksDeps['docsChecks']
  /** Whoever caused the run, for `reviewers: author` and `assignees: author`. */
  author: OwnerDeps['author']
  /** The workflow run's page, for the group's list of sources. */
  runUrl?: string | undefined
  /** GitHub: reads for the context with `github-token`; the preview's branch, labels and the docs PR's owner with `docs-token`. */
  github: PromptDeps['github'] & PreviewDeps['github'] & OwnerDeps['github'] & LabelDeps['github']
  /** Follows the job on GitHub while the step runs, and links it back at the end (tracking/tracking.ts). */
  tracking?: (mode: StepMode, run: RunStateWriter) => Tracking
  /** This run's, set by `runStep`. */
  follow?: Tracking | undefined
}

/** The request as decided: a grouped run's follow-up is a message to the group's job. */
export interface Decided {
  settings: Settings
  plan: GroupPlan | undefined
}

/** What the flow came to, and the request as decided by then. */
export interface Flowed {
  end: FlowEnd
  decided: Decided
}
