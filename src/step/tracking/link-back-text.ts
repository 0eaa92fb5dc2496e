/**
 * What the action writes about a job where people look, rendered from the run's state: the pull
 * request's comment, the release notes' block, the docs pull request's comment and the check run's
 * summary. While the step runs (no outcome yet, or `wait: false`) they say the agent is working;
 * at the end, how it ended. Text from GitHub, the server or a prompt is made inert.
 */
import { codeSpan, markdownLink, mention } from '../../github/conversation/markdown.js'
import { parsePullRequestUrl } from '../../github/pr-link.js'
import { nextSteps } from '../../report/next-steps.js'
import { pullRequest } from '../../report/verdict.js'
import type { RunState } from '../../report/state.js'
import { formatCount, formatTime } from '../../base/text.js'
import type { Settings } from '../settings.js'

/** What is said about the job. */
export interface LinkBackReport {
  state: RunState
  settings: Settings
  /** One line of what the agent was asked (asked.ts), in markdown. */
  asked?: string | undefined
}

/** Where the text points: `GITHUB_SERVER_URL`, the workflow run's page. (The secrets leave it on the way out: redact-writes.ts.) */
export interface Where {
  serverUrl: string | undefined
  runUrl: string | undefined
}

/** Whether the step is still with the job: no outcome yet, or one that does not wait for it. */
export function working(state: RunState): boolean {
  return state.outcome === undefined || state.outcome === 'started'
}

/**
 * The lines every report of the job has: what the agent is doing or how the step ended, the job,
 * the run, the docs pull request and its preview, what was asked and when, and, at the end, what
 * went wrong and what to do now.
 */
export function jobLines({ state, settings, asked }: LinkBackReport, where: Where): string[] {
  const live = working(state)
  const lines = [`**Docs agent:** ${live ? workingOn(settings) : headline(state, where.serverUrl)}`]
  const { automation } = state
  const facts = [
    automation
      ? `automation ${codeSpan(automation.id)}${automation.run ? `, run ${codeSpan(automation.run)}` : ''}`
      : undefined,
    state.jobId ? `job ${codeSpan(state.jobId)}` : undefined
  ]
  if (state.job?.status) facts.push(`status ${codeSpan(state.job.status, 40)}`)
  if (where.runUrl) facts.push(markdownLink('workflow run', where.runUrl))
  const known = facts.filter((fact) => fact !== undefined)
  if (known.length) lines.push('', known.join(' · '))
  const docs = pullRequest(state)
  if (live && docs.kind === 'link') lines.push('', `Docs pull request: ${docsLink(docs.url, where.serverUrl, '')}`)
  if (state.preview?.url) lines.push('', `Preview: ${markdownLink(state.preview.url, state.preview.url)}`)
  lines.push(...docsChecksLines(state))
  if (state.owner?.reviewers.length)
    lines.push('', `Review requested from ${state.owner.reviewers.map(mention).join(', ')}.`)
  if (!state.jobId) return lines
  const started = startedAt(state, settings)
  const about = [asked && `Asked: ${asked}`, started && `started ${started}`].filter(Boolean)
  if (about.length) lines.push('', `${about.join(' · ')}.`)
  const ended = !live && (state.outcome === 'error' || state.outcome === 'cancelled')
  if (ended && state.failure) lines.push('', `What happened: ${codeSpan(state.failure, 600)}`)
  const next = live ? undefined : nextSteps(state, settings)
  if (next) {
    const text = next.map((part) => (typeof part === 'string' ? part : codeSpan(part.code))).join('')
    lines.push('', `What now: ${text}`)
  }
  if (!settings.wait)
    lines.push(
      '',
      `This step does not wait for the job: a later step that waits for it (${codeSpan(`job-id: ${state.jobId}`)} and no prompt) on the same event updates this.`
    )
  return lines
}

/** The pull request's comment: the job's lines, the group it added to, the last command, and how to ask for changes. */
export function renderLinkBack(report: LinkBackReport, where: Where): string[] {
  const { state, settings } = report
  const [head = '', ...rest] = jobLines(report, where)
  const lines = [head]
  const { group } = state
  if (group?.via === 'follow-up' && group.pull)
    lines.push(
      '',
      `This change was added to the open docs pull request ${markdownLink(group.pull.label, group.pull.url)} of group ${codeSpan(group.name)}.`
    )
  lines.push(...rest)
  if (settings.command) {
    const what = settings.command.kind === 'follow-up' ? 'a follow-up' : 'a new job'
    lines.push('', `Last request: ${what}, from ${mention(settings.command.author)}.`)
  }
  // A job the Agent API cannot read is not offered for follow-ups.
  if (state.jobId && state.outcome !== 'queued')
    lines.push('', `To ask for changes, comment ${codeSpan(`${settings.triggerPhrase} <what to change>`)} here.`)
  return lines
}

/** The release notes' block: the docs pull request once there is one; until then, the job's state. */
export function releaseBlock({ state }: LinkBackReport, where: Where): string {
  const docs = pullRequest(state)
  if (docs.kind === 'link') return `**Docs:** ${docsLink(docs.url, where.serverUrl, '')}`
  const what = working(state) ? 'the docs agent is working on it.' : headline(state, where.serverUrl)
  const facts = [`job ${codeSpan(state.jobId ?? '')}`]
  if (where.runUrl) facts.push(markdownLink('workflow run', where.runUrl))
  return `**Docs:** ${what} ${facts.join(' · ')}`
}

/** The docs pull request's comment: where it came from, the job as it goes, and how to ask for changes. */
export function docsPrLines(
  { state, settings }: LinkBackReport,
  source: { thread: string | undefined; release: string | undefined },
  where: Where
): string[] {
  const from = source.thread ?? source.release ?? 'a workflow'
  const facts = [`job ${codeSpan(state.jobId ?? '')}`]
  if (state.job?.status) facts.push(`status ${codeSpan(state.job.status, 40)}`)
  if (where.runUrl) facts.push(markdownLink('workflow run', where.runUrl))
  return [
    `**Docs agent:** this pull request was opened for ${from}.`,
    '',
    facts.join(' · '),
    '',
    source.thread
      ? `To ask for changes, comment ${codeSpan(`${settings.triggerPhrase} <what to change>`)} on ${source.thread}.`
      : `To ask for changes, send a follow-up to job ${codeSpan(state.jobId ?? '')}.`
  ]
}

/** Checks named in the list of those the agent was asked to fix; the rest are counted (the phase reads up to 1,000). */
export const ASKED_NAMED = 20

/** The docs checks phase as it goes: waiting for the checks, and the checks the agent was asked to fix. */
function docsChecksLines({ docsChecks }: RunState): string[] {
  if (!docsChecks) return []
  const lines: string[] = []
  const asked = docsChecks.asked ?? []
  if (asked.length) {
    const named = asked.slice(0, ASKED_NAMED).map((name) => codeSpan(name, 100))
    const more = asked.length > ASKED_NAMED ? ` and ${formatCount(asked.length - ASKED_NAMED)} more` : ''
    lines.push('', `Asked the agent to fix: ${named.join(', ')}${more}.`)
  }
  lines.push(
    '',
    docsChecks.result === 'waiting'
      ? "Waiting for the docs PR's checks."
      : `Docs PR checks: ${codeSpan(docsChecks.result, 20)}.`
  )
  return lines
}

function workingOn(settings: Settings): string {
  return settings.command ? `working on ${mention(settings.command.author)}'s request.` : 'working on the docs.'
}

/** How the step ended, in a few words: the docs pull request, or why there is none. */
function headline(state: RunState, serverUrl: string | undefined): string {
  const pr = pullRequest(state)
  if (pr.kind === 'link') return docsLink(pr.url, serverUrl)
  const status = codeSpan(state.job?.status ?? 'unknown', 40)
  switch (state.outcome) {
    case 'completed':
      return pr.kind === 'unusable'
        ? 'the job sent a pull request link that is not http(s).'
        : 'no docs changes were needed.'
    case 'failed':
    case 'archived':
      return `no docs pull request: the job ended ${status}.`
    case 'skipped':
      return `skipped, no job started: ${codeSpan(state.skip?.reason ?? '', 300)}.`
    case 'not-permitted':
      return `skipped, no job started: ${codeSpan(state.failure ?? '', 300)}.`
    case 'queued':
      return "no docs pull request yet: the automation's run is queued; the Automation Runs page of the Mintlify dashboard follows it."
    case 'timed-out':
    case 'cancelled':
      return state.jobId ? `no docs pull request yet: the job is ${status}.` : 'no job was started.'
    default:
      return state.jobId
        ? `no docs pull request yet: the step ended before the job did (${status}).`
        : 'no job was started: see the workflow run.'
  }
}

/** `docs pull request [acme/docs#12](…)`: its short name when it is a pull request on this server. */
function docsLink(url: string, serverUrl: string | undefined, prefix = 'docs pull request '): string {
  const ref = parsePullRequestUrl(url, serverUrl)
  return `${prefix}${markdownLink(ref ? `${ref.owner}/${ref.repo}#${ref.number}` : url, url)}`
}

/** When the work began: a follow-up's when it was sent, else the job's creation (as the server says it). */
function startedAt(state: RunState, settings: Settings): string | undefined {
  const at = settings.mode === 'message' ? state.postedAt : Date.parse(state.job?.createdAt ?? '')
  return Number.isFinite(at) ? formatTime(new Date(at as number).toISOString()) : undefined
}
