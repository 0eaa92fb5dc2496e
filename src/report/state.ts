import type { ChangedFiles } from '../github/context/changed.js'
import type { CheckConclusion } from '../github/check-run.js'
import type { ContextResult } from '../github/context/context.js'
import type { AgentJob } from '../agent-api/job.js'

/** Outcomes `fail-on` may list. */
export const FAIL_OUTCOMES = ['failed', 'archived', 'timed-out', 'no-pr', 'docs-checks'] as const
export type FailOutcome = (typeof FAIL_OUTCOMES)[number]

/** What the step does: start a job, send a follow-up to one, only wait on one, or trigger an automation. */
export type Mode = 'create' | 'message' | 'wait-only' | 'automation'

/** The settings the report reads (the step's settings have them all). */
export interface ReportedSettings {
  mode: Mode
  projectId: string
  failOn: ReadonlySet<FailOutcome>
  /** Longest time the step may take (ms). */
  timeoutMs: number
  dryRun: boolean
  /** The pull request comment that drove the step, if one did. */
  command?: { kind: 'follow-up' | 'create'; author: string; text: string; hidden?: number | undefined } | undefined
}

/** How the step ended. */
export type Outcome =
  /** The job's terminal status. */
  | 'completed'
  | 'failed'
  | 'archived'
  /** `wait: false`: we returned with the job still running. */
  | 'started'
  | 'timed-out'
  | 'cancelled'
  /** The step failed before the job's outcome was known (bad input, API error). */
  | 'error'
  /** `dry-run: true`: the prompt was built and shown, nothing was sent. */
  | 'dry-run'
  /** Whoever triggered the run may not start a job here (`failure` says why); nothing was sent. */
  | 'not-permitted'
  /** An automation's run was queued, and its job cannot be read through the Agent API (404). */
  | 'queued'
  /** A skip rule matched (`skip` says which, and on what): nothing was sent, nothing written on GitHub. */
  | 'skipped'

/** Where a failure or a cancellation found the step. */
export type Phase =
  /** Before any create or follow-up request left: nothing was sent. */
  | 'before-post'
  /** The create or follow-up request was under way. */
  | 'posting'
  /** Reading the job. */
  | 'reading'

/** What the step knows so far; outputs and the summary are rendered from it on every exit path. */
export interface RunState {
  /** Epoch ms when the step started. */
  startedAt: number
  jobId: string | undefined
  /** The last job record read. */
  job: AgentJob | undefined
  polls: number
  /** Epoch ms when the wait began, if it did. */
  waitStartedAt: number | undefined
  /** Epoch ms when the wait read the job ended: the log and the summary time the wait by it. */
  waitEndedAt?: number | undefined
  /** Epoch ms when the step ended. */
  endedAt: number | undefined
  outcome: Outcome | undefined
  phase: Phase
  /** The reason the step failed or stopped, in full. */
  failure: string | undefined
  /** The create or follow-up left, but no usable answer came: it may have taken effect. */
  mayHaveActed: boolean
  /** Epoch ms when the create or follow-up was sent (in an earlier attempt, for a resumed one). */
  postedAt: number | undefined
  /** An unknown status is warned about once. */
  unknownStatusWarned: boolean
  /** The exact prompt sent (or, in a dry run, that would have been sent). */
  prompt: string | undefined
  /** Why the job carries text written by someone without write access (step/outsider.ts); undefined when it does not. */
  outsider?: string | undefined
  /** What `context: auto` added to the prompt. */
  context: ContextResult | undefined
  /** The attempt of this workflow run that created or messaged the job, when this one resumed it. */
  resumedFrom: number | undefined
  /** Reading the job ended in a 404 (past any grace): the id is wrong, or the job is gone. */
  notFound: boolean
  /**
   * `preview: true`: the docs PR's preview URL once built, or why there is none; `branch`, the docs
   * PR's head branch when it was read from GitHub.
   */
  preview: { url: string | undefined; problem: string | undefined; branch?: string | undefined } | undefined
  /** With `group`: the group, and where this run's request went. */
  group?: GroupState | undefined
  /** With `check`: the check run on the triggering commit. */
  check?: CheckRunState | undefined
  /** With `automation`: the automation, and the run its trigger queued once known. */
  automation?: AutomationState | undefined
  /** With `reviewers`, `assignees` or `merge`: what the docs pull request got. */
  owner?: OwnerState | undefined
  /** What the skip rules decided, when one had something to say. */
  skip?: SkipState | undefined
  /** With `docs-checks`: the checks on the docs pull request's head, and the round asked for. */
  docsChecks?: DocsChecksState | undefined
}

/** The docs pull request's checks: the verdict (`waiting` until there is one), each check, the round. */
export interface DocsChecksState {
  result: 'waiting' | 'success' | 'failure' | 'timed-out' | 'unknown'
  checks: DocsCheckRow[]
  /** Follow-ups sent to fix them (0 or 1). */
  rounds: number
  /** The checks the follow-up asked the agent to fix. */
  asked?: string[] | undefined
  /** With a round sent by this attempt: the checks of the head before it. */
  before?: DocsCheckRow[] | undefined
  /** The head commit the checks were read on (none when they could not be read). */
  head?: string | undefined
}

/** One check (a check run, or a commit status by its context) as the summary shows it. */
export interface DocsCheckRow {
  name: string
  /** A check run's conclusion, a status's state, or `pending`. */
  conclusion: string
  url: string | undefined
  /** A failure's first problems, one line each. */
  problems: string[]
}

/** The skip rules' decision: the rule that skipped the run and on what, or why a path rule did not. */
export interface SkipState {
  skipped: boolean
  reason: string
  /** The changed files a path rule was judged on (a dry run shows them). */
  files?: ChangedFiles[] | undefined
}

/** An automation's trigger: the automation, and the run (`instanceId`) once the trigger answered. */
export interface AutomationState {
  id: string
  run?: string | undefined
}

/** The check run the step keeps on the triggering commit (`check`). */
export interface CheckRunState {
  name: string
  /** Its id and page, once GitHub made it (or the step found it again). */
  id?: number | undefined
  url?: string | undefined
  /** The conclusion the step gives it at its end. */
  conclusion?: CheckConclusion | undefined
}

/** A grouped run: whether it added to the group's open docs pull request or started one. */
export interface GroupState {
  name: string
  /** `follow-up`: added to the open docs pull request; `created`: a new job; `would-…`: a dry run's plan. */
  via: 'follow-up' | 'created' | 'would-follow-up' | 'would-create'
  /** The group's open docs pull request, when it has one: `owner/name#n`, its page and its head branch. */
  pull?: { label: string; url: string; head?: string | undefined } | undefined
}

/** Who was asked to review the docs pull request, who GitHub shows as assigned, and how it merges. */
export interface OwnerState {
  /** Logins and `org/team`, by this run or an earlier one. */
  reviewers: string[]
  assignees: string[]
  /** With `merge: auto`: `open` when it was left open (`why` says why). */
  merge?: { result: 'auto-merge' | 'merged' | 'open'; method: string; why?: string | undefined } | undefined
}

export function initialState(now: number, jobId: string | undefined): RunState {
  return {
    startedAt: now,
    jobId,
    job: undefined,
    polls: 0,
    waitStartedAt: undefined,
    endedAt: undefined,
    outcome: undefined,
    phase: 'before-post',
    failure: undefined,
    mayHaveActed: false,
    postedAt: undefined,
    unknownStatusWarned: false,
    prompt: undefined,
    context: undefined,
    resumedFrom: undefined,
    notFound: false,
    preview: undefined
  }
}
