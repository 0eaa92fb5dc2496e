/**
 * The job summary: one raw-HTML block with no blank line, so markdown never applies inside it and
 * text from the prompt, GitHub or the server renders as plain text. The result leads; details
 * follow, one table row per line; the prompt and the context come last, collapsed.
 */
import { formatDuration } from '../base/duration.js'
import { mayStillRun, pullRequest } from './verdict.js'
import { nextSteps } from './next-steps.js'
import { ownerRows } from './owner-rows.js'
import { docsChecksSection } from './docs-checks.js'
import { judgedFiles, skipRow } from './skip.js'
import { WORDING } from './wording.js'
import { automationLead, automationRow, queuedLead } from './automation.js'
import { httpUrl, parsePullRequestUrl } from '../github/pr-link.js'
import type { CheckRunState, GroupState, Outcome, ReportedSettings, RunState } from './state.js'
import { escapeHtml, formatTime, inline, plural } from '../base/text.js'
import { block, byteLength } from './summary-block.js'

/** How much of the user's prompt the summary shows. */
export const SUMMARY_PROMPT_CHARS = 4000
/** Longest value in a table cell: in a page 1000 px wide, the table never scrolls sideways. */
export const CELL_CHARS = 80
/**
 * Largest summary, in UTF-8 bytes as written: the runner drops a step's summary whole (with an
 * error) past 1 MiB (`CreateStepSummaryCommand.AttachmentSizeLimit` in actions/runner).
 */
export const SUMMARY_BYTES = 1024 * 1024

export interface SummaryInput {
  state: RunState
  /** Undefined when the inputs could not be read. */
  settings: ReportedSettings | undefined
  serverUrl: string | undefined
}

export function renderSummary({ state, settings, serverUrl }: SummaryInput): string {
  const parts = [`<h2>${escapeHtml(heading(state, settings))}</h2>`, `<p>${lead(state, serverUrl)}</p>`]
  // A cancel while waiting is told by the lead and the next step; anything else says what happened.
  if (state.failure && !(state.outcome === 'cancelled' && state.phase === 'reading')) {
    parts.push(`<p><strong>What happened:</strong> ${text(state.failure, 2000)}</p>`)
  }
  const next = nextSteps(state, settings)
  if (next) {
    const html = next.map((part) => (typeof part === 'string' ? text(part, 2000, false) : code(part.code))).join('')
    parts.push(`<p><strong>What now:</strong> ${html}</p>`)
  }
  // Inputs that could not be read: no request was made, so there is nothing more to show.
  if (!settings) return `${parts.join('\n')}\n\n`
  parts.push(
    '<table>',
    ...rows(state, settings).map(([name, value]) => `<tr><th align="left">${name}</th><td>${value}</td></tr>`),
    '</table>'
  )
  // Half of what is left at most: the blocks below keep room too.
  const checks = docsChecksSection(state.docsChecks, (SUMMARY_BYTES - byteLength(`${parts.join('\n')}\n\n`)) / 2)
  if (checks) parts.push(checks)
  const context = state.context?.text || undefined
  // The blocks take what the rest leaves of the byte budget, the prompt first (it is capped).
  let room = SUMMARY_BYTES - byteLength(`${parts.join('\n')}\n\n`)
  const add = (html: string): void => {
    parts.push(html)
    room -= byteLength(html) + 1
  }
  if (state.prompt !== undefined) {
    const own =
      context && state.prompt.endsWith(context) ? state.prompt.slice(0, -context.length).trimEnd() : state.prompt
    const title = settings.dryRun ? 'Prompt that would be sent' : 'Prompt'
    add(block(title, own, SUMMARY_PROMPT_CHARS, room - 1, settings.dryRun))
  }
  const judged = settings.dryRun ? judgedFiles(state.skip) : undefined
  if (judged) add(block(judged.title, judged.text, judged.text.length, room - 1, true))
  if (context) {
    const title = `Context added from GitHub: ${inline(state.context?.description ?? '', 200)}`
    add(block(title, context, context.length, room - 1, settings.dryRun))
  }
  return `${parts.join('\n')}\n\n`
}

const TITLES: Record<Exclude<Outcome, 'completed'>, string> = {
  failed: '❌ Docs agent job failed',
  archived: '🗄️ Docs agent job archived',
  started: '🚀 Docs agent job started',
  'timed-out': '⏱️ Timed out waiting for the docs agent',
  cancelled: '🛑 Docs agent step cancelled',
  error: '❌ Docs agent step failed',
  'dry-run': '🧪 Dry run: nothing was sent',
  'not-permitted': '🔒 No job: whoever triggered the run may not start one',
  queued: '🚀 Automation run queued',
  skipped: '⏭️ Skipped: no docs job for this change'
}

export function heading(state: RunState, settings: ReportedSettings | undefined): string {
  const outcome = state.outcome ?? 'error'
  if (!settings) return '❌ Docs agent step failed: bad input'
  if (outcome === 'started' && settings.mode === 'message') return '🚀 Follow-up sent to the docs agent'
  if (outcome === 'started' && settings.mode === 'automation') return TITLES.queued
  if (outcome !== 'completed') return TITLES[outcome]
  switch (pullRequest(state).kind) {
    case 'link':
      return '✅ Docs pull request ready'
    case 'unusable':
      return '⚠️ Docs agent finished: its pull request link is unusable'
    case 'none':
      return '☑️ Docs agent finished: no changes'
  }
}

/** One line under the heading: the pull request, or a plain statement of why there is none. */
function lead(state: RunState, serverUrl: string | undefined): string {
  const id = state.jobId ? ` ${code(state.jobId)}` : ''
  const pr = pullRequest(state)
  if (pr.kind === 'link') {
    const ref = parsePullRequestUrl(pr.url, serverUrl)
    return `<strong>Pull request:</strong> ${link(pr.url, ref ? `${ref.owner}/${ref.repo}#${ref.number}` : undefined)}`
  }
  if (pr.kind === 'unusable') {
    return `<strong>No usable pull request link:</strong> job${id} sent one that is not http(s) (${code(pr.scheme)}).`
  }
  const automation = state.automation && automationLead(state, state.automation)
  if (automation) return automation
  if (state.mayHaveActed) {
    return state.jobId
      ? `<strong>No pull request yet:</strong> the follow-up to job${id} may have been delivered, but its answer was lost.`
      : '<strong>No job id:</strong> the create request may have started a job, but its answer was lost.'
  }
  const status = code(state.job?.status ?? 'unknown')
  switch (state.outcome ?? 'error') {
    case 'completed':
      return `<strong>No pull request:</strong> job${id} completed without changing any file.`
    case 'failed':
    case 'archived':
      return `<strong>No pull request:</strong> job${id} ended ${status}.`
    case 'timed-out':
      return `<strong>No pull request yet:</strong> job${id} was still ${status} when the step timed out.`
    case 'started':
      return `<strong>No pull request yet:</strong> job${id} is running; this step did not wait for it.`
    case 'dry-run':
      return `<strong>Nothing was sent</strong> to the Agent API (${code('dry-run: true')}): below is the prompt the step would send.`
    case 'not-permitted':
      return '<strong>Nothing was sent</strong> to the Agent API: this event can be triggered by people without write access.'
    case 'queued':
      return queuedLead(state)
    case 'skipped':
      return `<strong>Nothing was sent</strong> to the Agent API, and nothing written on GitHub: ${text(state.skip?.reason ?? '', 300)}.`
    case 'cancelled':
    case 'error':
      if (!state.jobId) return '<strong>No pull request:</strong> no job was started.'
      if (state.notFound) return `<strong>No pull request:</strong> job${id} was not found.`
      return mayStillRun(state)
        ? `<strong>No pull request yet:</strong> job${id} may still be running.`
        : `<strong>No pull request:</strong> job${id} ended ${status}.`
  }
}

function rows(state: RunState, settings: ReportedSettings): [string, string][] {
  const { job } = state
  const noJob = state.mayHaveActed ? 'unknown (the answer was lost)' : settings.dryRun ? 'none (dry run)' : 'none'
  const result: [string, string][] = [['Job', state.jobId ? code(state.jobId) : noJob]]
  if (state.automation) result.push(['Automation', automationRow(state.automation)])
  if (job?.status) {
    // The wait's own time, as the log says it (the preview and the owner phase come after it).
    const waited = (state.waitEndedAt ?? state.endedAt ?? 0) - (state.waitStartedAt ?? Infinity)
    const polls = state.polls
      ? `, ${waited >= 1000 ? `after ${formatDuration(waited)} and ` : ''}${plural(state.polls, 'poll')}`
      : ''
    result.push(['Status', `${code(job.status)}${polls}`])
  }
  const repository = job?.source?.repository
  if (repository) result.push(['Docs repository', link(repository, shortRepository(repository))])
  // The docs pull request's head branch, when read, is the branch the Preview row speaks of.
  const branch = state.preview?.branch ?? state.group?.pull?.head ?? job?.source?.ref
  if (branch) result.push(['Branch', code(branch)])
  if (state.preview) {
    const { url, problem } = state.preview
    result.push(['Preview', url ? link(url) : text(problem ?? 'none', 300)])
  }
  if (job?.model) result.push(['Model', code(job.model)])
  if (job?.createdAt) result.push(['Created', text(formatTime(job.createdAt))])
  if (job?.archivedAt) result.push(['Archived', text(formatTime(job.archivedAt))])
  const request = WORDING[settings.mode].summary
  result.push([
    'Request',
    state.resumedFrom === undefined ? request : `${request}, resumed from attempt ${state.resumedFrom} of this run`
  ])
  if (state.group) result.push(['Group', groupRow(state.group)])
  if (state.owner) result.push(...ownerRows(state.owner))
  if (state.check) result.push(['Check', checkRow(state.check)])
  if (settings.command) {
    const { kind, author, text: asked, hidden } = settings.command
    const what = kind === 'follow-up' ? 'follow-up to the linked job' : 'new job'
    const removed = hidden ? `; ${plural(hidden, 'hidden character')} removed` : ''
    result.push(['Command', `${text(asked)} from ${code(`@${author}`)} (${what}${removed})`])
  }
  if (state.skip) result.push(['Skip rules', skipRow(state.skip, settings.dryRun)])
  if (state.context) {
    const { description, hidden } = state.context
    const removed = hidden ? `; ${plural(hidden, 'hidden character')} removed from the context` : ''
    result.push(['Context', `${text(description)}${removed}`])
  }
  return result
}

function groupRow(group: GroupState): string {
  const pull = group.pull ? ` ${link(group.pull.url, group.pull.label)}` : ''
  const name = code(group.name)
  switch (group.via) {
    case 'follow-up':
      return `${name}: added to its open docs pull request${pull}`
    case 'would-follow-up':
      return `${name}: would add to its open docs pull request${pull} (dry run)`
    case 'created':
      return `${name}: started a new job for it`
    case 'would-create':
      return `${name}: would start a new job for it (dry run)`
  }
}

/** The check run: its page, and the conclusion the step gives it; none when GitHub did not make it. */
function checkRow({ name, id, url, conclusion }: CheckRunState): string {
  const named = url ? link(url, name) : code(name)
  if (id === undefined) return `${named}: no check run (see the log)`
  return `${named}: ${conclusion ? code(conclusion) : 'in progress'}`
}

/** `acme/docs` for a GitHub repository URL; else undefined (the URL is shown). */
function shortRepository(url: string): string | undefined {
  return /^https:\/\/[^/]+\/([^/]+\/[^/]+?)(?:\.git)?\/?$/.exec(url)?.[1]
}

function text(value: string, max = CELL_CHARS, trim = true): string {
  return escapeHtml(inline(value, max, trim))
}

function code(value: string): string {
  return `<code>${text(value)}</code>`
}

/** A link only for http(s) URLs; anything else is shown as text. */
function link(url: string, label?: string): string {
  const href = httpUrl(url)
  if (!href) return text(url)
  return `<a href="${escapeHtml(href)}">${text(label ?? href)}</a>`
}
