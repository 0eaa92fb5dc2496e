/**
 * The grouping phase of a run with `group`: decided up front, before the prompt, whether the run
 * adds to the group's open docs pull request (a follow-up to the group's job) or starts one (a
 * create). A follow-up the API refuses (nothing was done) is one warning and one create; one that
 * may have taken effect is never followed by a create.
 */
import { DOCS_TOKEN } from '../../github/docs-client.js'
import type { Log } from '../../base/log.js'
import { inline, plural } from '../../base/text.js'
import { ApiError } from '../../agent-api/errors.js'
import type { Trigger } from '../../github/event.js'
import { findGroupPull, MAX_SCANNED, type DocsPull, type DocsReads } from '../../github/group/find.js'
import type { Range } from '../../github/context/since-documented.js'
import type { GroupKey, GroupRecord } from '../../github/group/record.js'
import type { GroupState } from '../../report/state.js'
import type { RerunRecord } from '../../rerun/record.js'
import { post, type PostDeps, type Posted } from '../post.js'
import { preparePrompt } from '../prompt.js'
import type { BuiltPrompt, PromptDeps } from '../prompt-deps.js'
import type { RunStateWriter } from '../run-state.js'
import type { CreateOrMessage, Settings } from '../settings.js'

export type Creating = Extract<Settings, { mode: 'create' }>

/** The docs repository as the group uses it: its reads, and the writes of the group's comment. */
export interface GroupDocs extends DocsReads {
  /** Whether pull request `number` is open, closed or merged. */
  pullState(number: number): Promise<'open' | 'closed' | 'merged'>
  createComment(number: number, body: string): Promise<{ id: number }>
  updateComment(id: number, body: string): Promise<void>
}

export interface GroupDeps extends PostDeps {
  log: Log
  /** The docs repository with `docs-token`; undefined when there is no token. */
  groupDocs?: ((repository: string) => GroupDocs) | undefined
  /** `GITHUB_REPOSITORY`. */
  repository?: string | undefined
  /** `GITHUB_SHA`: the commit a push or scheduled run documents. */
  sha?: string | undefined
  trigger(): Trigger
}

/** The group's docs pull request as found, and its record. */
export interface OpenGroup {
  pull: DocsPull
  record: GroupRecord
  commentId: number
}

/** What the phase decided: add to the open docs pull request, or start one. */
export type GroupPlan =
  | ({ kind: 'follow-up'; key: GroupKey; docs: GroupDocs } & OpenGroup)
  /** `docs` is undefined when the docs repository could not be used at all. */
  | { kind: 'create'; key: GroupKey; docs: GroupDocs | undefined; replaces?: OpenGroup | undefined }

/** The group's key for this run. */
export function groupKey(settings: Creating, deps: Pick<GroupDeps, 'repository'>): GroupKey | undefined {
  const { group } = settings
  if (!group) return undefined
  return {
    group: group.name,
    repository: deps.repository ?? '',
    projectId: settings.projectId,
    docsRepository: group.docsRepository
  }
}

/** Finds the group's open docs pull request; anything that cannot be read is one warning and a new job. */
export async function planGroup(settings: Creating, key: GroupKey, deps: GroupDeps): Promise<GroupPlan> {
  const { log } = deps
  const name = `Group ${inline(key.group, 100)}`
  const docs = settings.docsToken ? deps.groupDocs?.(key.docsRepository) : undefined
  if (!docs) {
    log.warning(
      `${name}: no token (docs-token, github-token) to read ${key.docsRepository}, so the state of the group's docs pull request is unknown: a new job is started.`
    )
    return { kind: 'create', key, docs: undefined }
  }
  const found = await findGroupPull(settings.apiKey, key, docs)
  if (found.kind === 'unreadable') {
    log.warning(
      `${name}: could not read the open pull requests of ${key.docsRepository} (${found.message}), so a new job is started rather than a follow-up into a docs pull request whose state is unknown. ${found.network ? 'A network failure, not a missing permission.' : `The ${DOCS_TOKEN} needs pull-requests: read on ${key.docsRepository}.`}`
    )
    return { kind: 'create', key, docs }
  }
  if (found.ignored.length)
    log.warning(`${name}: ignored ${found.ignored.join('; ')}: only the action's own sealed record is followed.`)
  if (found.kind === 'none') {
    log.info(
      `${name}: no open pull request of ${key.docsRepository} carries the group's record (${plural(found.scanned, 'open pull request')} read, ${plural(found.requests, 'GitHub request')}): a new job.`
    )
    if (found.unread > 0)
      log.warning(
        `${name}: ${key.docsRepository} has at least ${plural(found.unread, 'open pull request')} older than the ${MAX_SCANNED} newest whose comments were not read; the group's docs pull request may be among those not read, and a new one is being opened. Merge or close the group's older docs pull requests, or the docs repository's stale ones.`
      )
    return { kind: 'create', key, docs }
  }
  log.info(
    `${name}: adding to its open docs pull request ${key.docsRepository}#${found.pull.number} with a follow-up to job ${inline(found.record.job)} (${plural(found.requests, 'GitHub request')}).`
  )
  return { kind: 'follow-up', key, docs, pull: found.pull, record: found.record, commentId: found.commentId }
}

/** The range of a push or scheduled run: since the group's last documented commit. */
function groupRange(plan: GroupPlan | undefined, deps: Pick<GroupDeps, 'trigger' | 'sha'>): Range | undefined {
  const last = plan?.kind === 'follow-up' ? plan.record.last : undefined
  const trigger = deps.trigger()
  if (!last || (trigger.kind !== 'push' && trigger.kind !== 'scheduled')) return undefined
  const sha = trigger.kind === 'scheduled' ? trigger.sha : deps.sha
  if (!sha || !plan) return undefined
  return { repo: trigger.repo, branch: trigger.branch, group: plan.key.group, last, sha }
}

/**
 * The prompt a new job gets (`built`), and the one sent for `plan`: a grouped push or scheduled
 * run's context is its range since the group's last documented commit, and a follow-up's prompt
 * first names the pull request it adds to.
 */
export async function groupPrompts(
  settings: CreateOrMessage,
  plan: GroupPlan | undefined,
  deps: PromptDeps & Pick<GroupDeps, 'trigger' | 'sha'>
): Promise<{ built: BuiltPrompt; followUp: string }> {
  const prepared = await preparePrompt(settings, deps, groupRange(plan, deps))
  // The group's job carries an outsider's text once any run gave it some (its record says so).
  const inherited = plan?.kind === 'follow-up' && plan.record.untrusted
  const outsider = inherited
    ? `an earlier run of group ${inline(plan.key.group, 100)} gave its job such text`
    : undefined
  const built = { ...prepared, outsider: prepared.outsider ?? outsider }
  return { built, followUp: plan?.kind === 'follow-up' ? `${addsTo(plan)}\n\n${built.prompt}` : built.prompt }
}

/** The one line a follow-up starts with: the agent adds to the open pull request. */
function addsTo(plan: Extract<GroupPlan, { kind: 'follow-up' }>): string {
  return `This request adds to the open docs pull request ${plan.key.docsRepository}#${plan.pull.number} (${plan.pull.url}) of group ${inline(plan.key.group, 100)}: update that pull request on its branch, do not open another. What follows is what a new job would get.`
}

/**
 * A re-run that resumes a grouped run's job: the group as the attempt left it, and the follow-up
 * `plan` adds, when the attempt sent one to that job (only a follow-up's record keeps its answer).
 */
export function resumedGroup(
  plan: GroupPlan | undefined,
  record: RerunRecord,
  run: RunStateWriter
): Extract<GroupPlan, { kind: 'follow-up' }> | undefined {
  if (!plan) return undefined
  const followed = plan.kind === 'follow-up' && record.answer !== undefined && plan.record.job === record.jobId
  run.grouped(followed ? followUpState(plan) : { name: plan.key.group, via: 'created' })
  return followed ? plan : undefined
}

/** What the run's state keeps of a follow-up into the group's open docs pull request. */
export function followUpState(plan: Extract<GroupPlan, { kind: 'follow-up' }>): GroupState {
  const pull = { label: `${plan.key.docsRepository}#${plan.pull.number}`, url: plan.pull.url, head: plan.pull.head }
  return { name: plan.key.group, via: 'follow-up', pull }
}

/** The statuses of a follow-up the API refused, having done nothing. */
const REFUSED = [400, 404, 409]

/**
 * Sends the follow-up into the group's job, or the create. A refused follow-up (400, 404, 409) is
 * one warning, then one create with the prompt a new job gets; the plan becomes a create that
 * replaces the old pull request. Anything else the follow-up meets is thrown: it may have acted.
 */
export async function postGrouped(
  settings: Creating,
  plan: GroupPlan,
  prompts: { followUp: string; create: string },
  deps: GroupDeps,
  run: RunStateWriter,
  deadline: number
): Promise<{ posted: Posted; plan: GroupPlan; settings: Settings }> {
  if (plan.kind === 'create') {
    run.grouped({ name: plan.key.group, via: 'created' })
    return { posted: await post(settings, deps, run, deadline, prompts.create), plan, settings }
  }
  const message: Settings = { ...settings, mode: 'message', jobId: plan.record.job, prompt: prompts.followUp }
  run.targeted(plan.record.job)
  run.grouped(followUpState(plan))
  try {
    return { posted: await post(message, deps, run, deadline, prompts.followUp), plan, settings: message }
  } catch (error) {
    if (!(error instanceof ApiError && error.status !== undefined && REFUSED.includes(error.status))) throw error
    deps.log.warning(
      `Group ${inline(plan.key.group, 100)}: job ${inline(plan.record.job)} refused the follow-up (${inline(error.message, 200)}); nothing was sent to it, so one new job is started with the full prompt, and ${plan.key.docsRepository}#${plan.pull.number} will say it was superseded.`
    )
    run.targeted(undefined)
    run.grouped({ name: plan.key.group, via: 'created' })
    const replacing: GroupPlan = { kind: 'create', key: plan.key, docs: plan.docs, replaces: plan }
    run.prompted({ prompt: prompts.create, context: run.state.context })
    return { posted: await post(settings, deps, run, deadline, prompts.create), plan: replacing, settings }
  }
}
