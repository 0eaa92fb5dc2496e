/**
 * The job linked back where people look, after the step: one comment on the pull request (updated
 * in place by re-runs, later runs and follow-ups), a block in the release notes, a comment on the
 * docs pull request. Whatever GitHub refuses here is one warning; the outputs and the result stand.
 */
import type { Log } from '../base/log.js'
import { inline } from '../base/text.js'
import { refused, type ConversationApi } from '../github/conversation/api.js'
import { codeSpan, markdownLink, mention, withReleaseBlock } from '../github/conversation/markdown.js'
import { commentBody, markerKey, type LinkMarker } from '../github/conversation/marker.js'
import { LinkBackThread } from '../github/conversation/thread.js'
import { labelTarget } from '../github/labels.js'
import { parsePullRequestUrl, type PullRequestRef } from '../github/pr-link.js'
import { pullRequest } from '../report/verdict.js'
import type { RunState } from '../report/state.js'
import { handledCommand } from './comment/records.js'
import type { Settings } from './settings.js'

/** What the conversation needs from the step's surroundings. */
export interface ConversationDeps {
  log: Log
  /** The login `github-token` writes as (read once). */
  identity(): Promise<string>
  /** Comments, reactions and release notes of `owner/name`. */
  api(repository: string): ConversationApi
  /**
   * Whether `login` may command: write, maintain or admin on the workflow's repository. Undefined
   * when the permission could not be read.
   */
  mayWrite(login: string): Promise<boolean | undefined>
  /** `GITHUB_SERVER_URL`. */
  serverUrl: string | undefined
  /** The workflow run's page, when on a runner. */
  runUrl: string | undefined
}

/** Where the job is linked back, as the step found them. */
export interface LinkTargets {
  /** The pull request that triggered the run (or was commented on). */
  thread: LinkBackThread | undefined
  /** The release of a tag run, when `release` is asked for. */
  release: { repository: string; tag: string } | undefined
  /** Comment on the docs pull request too. */
  docsPr: boolean
  /** Whether this run resumed an older run's record: a later request is what the comment reports. */
  superseded?: (() => boolean) | undefined
}

/** What the comment says about the job. */
export interface LinkBackReport {
  state: RunState
  settings: Settings
}

/** The link-back comment: where the docs are, the job, the run, and how to ask for changes. */
export function renderLinkBack(
  { state, settings }: LinkBackReport,
  deps: Pick<ConversationDeps, 'serverUrl' | 'runUrl'>
): string[] {
  const lines = [`**Docs agent:** ${headline(state, deps.serverUrl)}`]
  const { group } = state
  if (group?.via === 'follow-up' && group.pull)
    lines.push(
      '',
      `This change was added to the open docs pull request ${markdownLink(group.pull.label, group.pull.url)} of group ${codeSpan(group.name)}.`
    )
  const { automation } = state
  const facts = [
    automation
      ? `automation ${codeSpan(automation.id)}${automation.run ? `, run ${codeSpan(automation.run)}` : ''}`
      : undefined,
    state.jobId ? `job ${codeSpan(state.jobId)}` : undefined
  ]
  if (state.job?.status) facts.push(`status ${codeSpan(state.job.status, 40)}`)
  if (deps.runUrl) facts.push(markdownLink('workflow run', deps.runUrl))
  const known = facts.filter((fact) => fact !== undefined)
  if (known.length) lines.push('', known.join(' · '))
  if (state.preview?.url) lines.push('', `Preview: ${markdownLink(state.preview.url, state.preview.url)}`)
  if (state.owner?.reviewers.length)
    lines.push('', `Review requested from ${state.owner.reviewers.map(mention).join(', ')}.`)
  if (settings.command) {
    const what = settings.command.kind === 'follow-up' ? 'a follow-up' : 'a new job'
    lines.push('', `Last request: ${what}, from ${mention(settings.command.author)}.`)
  }
  // A job the Agent API cannot read is not offered for follow-ups.
  if (state.jobId && state.outcome !== 'queued')
    lines.push('', `To ask for changes, comment ${codeSpan(`${settings.triggerPhrase} <what to change>`)} here.`)
  return lines
}

function headline(state: RunState, serverUrl: string | undefined): string {
  const pr = pullRequest(state)
  if (pr.kind === 'link') {
    const ref = parsePullRequestUrl(pr.url, serverUrl)
    return `docs pull request ${markdownLink(ref ? `${ref.owner}/${ref.repo}#${ref.number}` : pr.url, pr.url)}`
  }
  const status = codeSpan(state.job?.status ?? 'unknown', 40)
  switch (state.outcome) {
    case 'completed':
      return pr.kind === 'unusable'
        ? 'the job sent a pull request link that is not http(s).'
        : 'no docs changes were needed.'
    case 'failed':
    case 'archived':
      return `no docs pull request: the job ended ${status}.`
    case 'queued':
      return "no docs pull request yet: the automation's run is queued; the Automation Runs page of the Mintlify dashboard follows it."
    case 'started':
    case 'timed-out':
    case 'cancelled':
      return state.jobId ? `no docs pull request yet: the job is ${status}.` : 'no job was started.'
    default:
      return state.jobId
        ? `no docs pull request yet: the step ended before the job did (${status}).`
        : 'no job was started: see the workflow run.'
  }
}

/**
 * After the step: the pull request's comment, the release notes' block and the docs pull
 * request's comment, each as asked for. Each refusal is one warning.
 */
export async function linkBack(report: LinkBackReport, targets: LinkTargets, deps: ConversationDeps): Promise<void> {
  const { state, settings } = report
  // A dry run sends nothing; a run nobody permitted, or a skipped one, leaves no trace on GitHub.
  if (settings.dryRun || state.outcome === 'not-permitted' || state.outcome === 'skipped') return
  if (targets.superseded?.())
    deps.log.info('A later request is linked back on the pull request: its comment is left as it is.')
  else if (targets.thread) await linkOnPullRequest(report, targets.thread, deps)
  const link = pullRequest(state)
  const docs = link.kind === 'link' ? link.url : undefined
  if (targets.release && docs) await linkInRelease(targets.release, docs, deps)
  if (!targets.docsPr || !docs) return
  // A grouped run's docs pull request has the group's comment: one comment from the action, not two.
  if (state.group) return
  // The link is the server's: only a pull request in the job's repository is commented on, as `labels` does.
  const target = labelTarget(docs, state.job?.source?.repository, deps.serverUrl)
  if (target?.kind === 'label') await linkOnDocsPullRequest(report, targets, target.pr, deps)
  else if (target) deps.log.warning(`Not commenting on the docs pull request ${inline(docs, 200)}: ${target.reason}.`)
}

async function linkOnPullRequest(
  report: LinkBackReport,
  thread: LinkBackThread,
  deps: ConversationDeps
): Promise<void> {
  const { state, settings } = report
  try {
    await thread.update((previous) => {
      // The re-run records, when this trigger keeps them there, stay for re-runs of these runs.
      const marker: LinkMarker = {
        job: state.jobId ?? previous?.job,
        records: previous?.records,
        command: handledCommand(settings) ?? previous?.command
      }
      return commentBody(renderLinkBack(report, deps), marker, thread.seal)
    })
    deps.log.info(`Linked back on ${thread.repository}#${thread.number}.`)
  } catch (error) {
    deps.log.warning(
      refused(`comment on ${thread.repository}#${thread.number}`, error, 'pull-requests: write (or issues: write)')
    )
  }
}

async function linkInRelease(
  { repository, tag }: { repository: string; tag: string },
  docs: string,
  deps: ConversationDeps
): Promise<void> {
  const { log } = deps
  try {
    const api = deps.api(repository)
    const release = await api.release(tag)
    if (!release) log.info(`No release for ${inline(tag, 100)}: release notes not linked.`)
    else {
      const ref = parsePullRequestUrl(docs, deps.serverUrl)
      const block = `**Docs:** ${markdownLink(ref ? `${ref.owner}/${ref.repo}#${ref.number}` : docs, docs)}`
      const body = withReleaseBlock(release.body, block)
      if (body !== release.body) await api.updateRelease(release.id, body)
      log.info(`Linked back in the notes of release ${inline(tag, 100)}.`)
    }
  } catch (error) {
    log.warning(refused(`edit the notes of release ${inline(tag, 100)}`, error, 'contents: write'))
  }
}

async function linkOnDocsPullRequest(
  { state, settings }: LinkBackReport,
  targets: LinkTargets,
  docsPr: PullRequestRef,
  deps: ConversationDeps
): Promise<void> {
  const repository = `${docsPr.owner}/${docsPr.repo}`
  const thread = new LinkBackThread(
    deps.api(repository),
    repository,
    docsPr.number,
    () => deps.identity(),
    markerKey(settings.apiKey)
  )
  try {
    const source = targets.thread
      ? `${targets.thread.repository}#${targets.thread.number}`
      : targets.release
        ? `release ${inline(targets.release.tag, 100)} of ${targets.release.repository}`
        : 'a workflow'
    const lines = [`**Docs agent:** this pull request was opened for ${source}.`]
    if (deps.runUrl) lines.push('', markdownLink('Workflow run', deps.runUrl))
    lines.push(
      '',
      targets.thread
        ? `To ask for changes, comment ${codeSpan(`${settings.triggerPhrase} <what to change>`)} on ${targets.thread.repository}#${targets.thread.number}.`
        : `To ask for changes, send a follow-up to job ${codeSpan(state.jobId ?? '')}.`
    )
    await thread.write(commentBody(lines, { job: state.jobId }, thread.seal))
    deps.log.info(`Linked back on the docs pull request ${repository}#${docsPr.number}.`)
  } catch (error) {
    deps.log.warning(
      refused(`comment on ${repository}#${docsPr.number}`, error, `pull-requests: write on ${repository}`)
    )
  }
}
