/**
 * After a grouped run: the group's comment on its docs pull request, written once and updated in
 * place, lists the run's source and keeps the sealed record the next run finds. A new docs pull
 * request that takes over from a refused one gets the record; the old one's comment says so.
 * GitHub refusing is one warning; the outputs and the result stand.
 */
import { DOCS_TOKEN } from '../../github/docs-client.js'
import { errorMessage } from '../../base/error-message.js'
import type { Log } from '../../base/log.js'
import { inline } from '../../base/text.js'
import type { Trigger } from '../../github/event.js'
import { groupCommentBody } from '../../github/group/comment.js'
import { findGroupPull } from '../../github/group/find.js'
import {
  mergeRecords,
  openGroupRecord,
  withSource,
  type GroupKey,
  type GroupRecord,
  type GroupSource
} from '../../github/group/record.js'
import { parsePullRequestUrl } from '../../github/pr-link.js'
import { unreachable } from '../../github/unreachable.js'
import { pullRequest } from '../../report/verdict.js'
import type { RunState } from '../../report/state.js'
import type { GroupDocs, GroupPlan, OpenGroup } from './plan.js'

export interface GroupRecordDeps {
  log: Log
  serverUrl: string | undefined
  /** The workflow run's page. */
  runUrl?: string | undefined
  /** `GITHUB_SHA`. */
  sha?: string | undefined
  trigger(): Trigger
}

type FollowUp = Extract<GroupPlan, { kind: 'follow-up' }>

/** What this run came from, as the comment lists it. */
export function runSource(
  trigger: Trigger,
  sha: string | undefined,
  runUrl: string | undefined
): Omit<GroupSource, 'via'> {
  const at = (branch: string, commit: string | undefined): string =>
    commit ? `${branch} @ ${commit.slice(0, 7)}` : branch
  switch (trigger.kind) {
    case 'pull-request':
      return { kind: 'pull-request', label: `${trigger.repo}#${trigger.number}`, url: trigger.url, run: runUrl }
    case 'tag':
      return { kind: 'release', label: trigger.tag, url: trigger.release?.url, run: runUrl }
    case 'push':
      return { kind: 'push', label: at(trigger.branch, sha), url: trigger.compareUrl, run: runUrl }
    case 'scheduled':
      return {
        kind: trigger.event === 'schedule' ? 'schedule' : 'manual',
        label: at(trigger.branch, trigger.sha),
        run: runUrl
      }
    case 'other':
      return { kind: 'other', label: trigger.event || 'workflow run', run: runUrl }
  }
}

/** The commit this run documented, for the next push or scheduled run's range. */
function documented(trigger: Trigger, sha: string | undefined, before: string | undefined): string | undefined {
  if (trigger.kind === 'scheduled') return trigger.sha
  if (trigger.kind === 'push') return sha ?? before
  return before
}

/** Adds this run to the group's comment (creating it on a new docs pull request). Never throws. */
export async function recordGroup(
  plan: GroupPlan | undefined,
  state: Readonly<RunState>,
  apiKey: string,
  deps: GroupRecordDeps
): Promise<void> {
  if (!plan || !state.group || state.group.via.startsWith('would') || !state.jobId) return
  const { log } = deps
  const trigger = deps.trigger()
  const name = `Group ${inline(plan.key.group, 100)}`
  const source = runSource(trigger, deps.sha, deps.runUrl)
  const add = (record: GroupRecord, via: GroupSource['via']): GroupRecord => {
    const next = { ...record, last: documented(trigger, deps.sha, record.last) }
    // Once the job had text from someone without write access, no later run merges its pull request at once:
    // decided with the prompt, so a run that timed out, was cancelled or failed records it too.
    if (state.outsider) next.untrusted = true
    // A re-run of the same run adds nothing new.
    const known = record.sources.some((s) => s.label === source.label && s.run === source.run)
    return known ? next : withSource(next, { ...source, via })
  }
  const writing: Writing = { apiKey, key: plan.key, name, log, add }
  try {
    if (plan.kind === 'follow-up') {
      const now = await recordNow(apiKey, plan)
      await plan.docs.updateComment(plan.commentId, groupCommentBody(apiKey, plan.key, add(now, 'follow-up')))
      log.info(`${name}: added to the list of sources on ${plan.key.docsRepository}#${plan.pull.number}.`)
      await stillOpen(plan, state, writing)
      return
    }
    if (!plan.docs) return
    const pr = docsPullNumber(state, writing, deps.serverUrl)
    if (pr !== undefined) await recordOnNewPull(writing, plan.docs, pr, state.jobId, plan.replaces)
  } catch (error) {
    const lost = unreachable(error)
    log.warning(
      `${name}: could not write the group's comment on ${plan.key.docsRepository} (${inline(lost ?? errorMessage(error), 200)}); the next run of the group may start a new job. ${lost ? 'A network failure, not a missing permission.' : `The ${DOCS_TOKEN} needs pull-requests: write on ${plan.key.docsRepository}.`}`
    )
  }
}

/**
 * The record in the group's comment as it is now, read again just before it is written: another run
 * of the group may have written it during this run's wait (no `concurrency:`), and what it added
 * (its source, its outsider mark) is kept. GitHub's conditional requests are for reads only
 * (https://docs.github.com/rest/using-the-rest-api/best-practices-for-using-the-rest-api#use-conditional-requests-if-appropriate),
 * so two writes at the very same moment can still cross.
 */
async function recordNow(apiKey: string, plan: FollowUp): Promise<GroupRecord> {
  const comment = (await plan.docs.comments(plan.pull.number)).find((c) => c.id === plan.commentId)
  const opened = comment ? openGroupRecord(apiKey, plan.key, plan.pull.number, comment.body) : undefined
  if (opened?.kind !== 'found' || opened.record.job !== plan.record.job) return plan.record
  return mergeRecords(plan.record, opened.record)
}

/**
 * The group's docs pull request may have been merged or closed while this run's follow-up was on
 * its way or being done: what the agent did for it may then be on that branch only. Not asked when
 * this run's own `merge: auto` merged it or turned auto-merge on.
 */
async function stillOpen(plan: FollowUp, state: Readonly<RunState>, { name, log }: Writing): Promise<void> {
  const merge = state.owner?.merge?.result
  if (merge === 'merged' || merge === 'auto-merge') return
  const where = `${plan.key.docsRepository}#${plan.pull.number}`
  let now: 'open' | 'closed' | 'merged'
  try {
    now = await plan.docs.pullState(plan.pull.number)
  } catch (error) {
    log.info(`${name}: could not read whether ${where} is still open (${inline(errorMessage(error), 200)}).`)
    return
  }
  if (now !== 'open')
    log.warning(
      `${name}: ${where} was ${now} while this run's follow-up was on its way or being done: what the agent did for it may be on that pull request's branch only, not in an open pull request. The next run of the group starts a new job and a new docs pull request.`
    )
}

/** What every write of the group's comment needs. */
interface Writing {
  apiKey: string
  key: GroupKey
  /** `Group <name>`, as the log lines start. */
  name: string
  log: Log
  /** The record with this run added to its sources. */
  add: (record: GroupRecord, via: GroupSource['via']) => GroupRecord
}

/** The job's docs pull request in the group's docs repository; undefined (said in the log) when there is none. */
function docsPullNumber(
  state: Readonly<RunState>,
  { key, name, log }: Writing,
  serverUrl: string | undefined
): number | undefined {
  const link = pullRequest(state)
  const pr = link.kind === 'link' ? parsePullRequestUrl(link.url, serverUrl) : undefined
  if (!pr) {
    log.info(
      `${name}: the job has no docs pull request yet, so the group keeps no record; the next run starts a new job.`
    )
    return undefined
  }
  if (`${pr.owner}/${pr.repo}`.toLowerCase() !== key.docsRepository.toLowerCase()) {
    log.warning(
      `${name}: the docs pull request ${pr.owner}/${pr.repo}#${pr.number} is not in docs-repository ${key.docsRepository}, so the next run of the group will not find it.`
    )
    return undefined
  }
  return pr.number
}

/**
 * Writes the group's record on a created job's docs pull request: into our own comment there
 * when a re-run already wrote one, else a new comment; a replaced pull request's comment then
 * says it was superseded. Then another open pull request of the group is looked for.
 */
async function recordOnNewPull(
  writing: Writing,
  docs: GroupDocs,
  pr: number,
  jobId: string,
  replaces: OpenGroup | undefined
): Promise<void> {
  const { apiKey, key, name, log, add } = writing
  const me = (await docs.identity()).toLowerCase()
  const own = (await docs.comments(pr))
    .filter((c) => c.author.toLowerCase() === me)
    .map((c) => ({ id: c.id, opened: openGroupRecord(apiKey, key, pr, c.body) }))
    .find((c) => c.opened.kind === 'found')
  const fresh: GroupRecord = { pr, job: jobId, sources: [], earlier: 0, last: replaces?.record.last }
  const base = own?.opened.kind === 'found' ? { ...own.opened.record, job: jobId } : fresh
  const record = add(base, 'created')
  const body = groupCommentBody(apiKey, key, record)
  if (own) await docs.updateComment(own.id, body)
  const commentId = own?.id ?? (await docs.createComment(pr, body)).id
  log.info(`${name}: recorded on its docs pull request ${key.docsRepository}#${pr}.`)
  if (replaces && replaces.pull.number !== pr)
    await supersede(writing, docs, { number: replaces.pull.number, ...replaces }, pr)
  await noticeTwin(writing, docs, { number: pr, record, commentId })
}

/** A docs pull request of the group, and its record as written in comment `commentId`. */
interface Recorded {
  number: number
  record: GroupRecord
  commentId: number
}

/** Marks `old`'s record superseded by pull request `by`: the group's runs follow that one from now on. */
async function supersede({ apiKey, key, name, log }: Writing, docs: GroupDocs, old: Recorded, by: number) {
  await docs.updateComment(old.commentId, groupCommentBody(apiKey, key, { ...old.record, supersededBy: by }))
  log.info(`${name}: ${key.docsRepository}#${old.number} now says it was superseded.`)
}

/**
 * Two first runs of the group at once (no `concurrency:`) each start a job with its own docs pull
 * request. Whichever records second finds the other's record: one warning, and the older pull
 * request says it was superseded by the newer, which the group's runs follow from now on. (A run
 * whose lookup could not read GitHub finds the group's existing one the same way.)
 */
async function noticeTwin(writing: Writing, docs: GroupDocs, own: Recorded): Promise<void> {
  const { apiKey, key, name, log } = writing
  const found = await findGroupPull(apiKey, key, docs, own.number)
  if (found.kind !== 'found') return
  const other: Recorded = { number: found.pull.number, record: found.record, commentId: found.commentId }
  const [older, newer] = other.number < own.number ? [other, own] : [own, other]
  log.warning(
    `${name}: another open docs pull request, ${key.docsRepository}#${other.number}, carries the group's record besides this run's new ${key.docsRepository}#${own.number}: two runs of the group ran at once (or this run's lookup could not read it). ${key.docsRepository}#${older.number} now says it was superseded by #${newer.number}, which later runs add to; merge or close #${older.number} yourself. Give the job a \`concurrency:\` group of its own with cancel-in-progress: false and queue: max, so that runs of the group go one after another.`
  )
  await supersede(writing, docs, older, newer.number)
}
