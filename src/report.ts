import { formatDuration } from './duration.js'
import { httpUrl, parsePullRequestUrl } from './pr-link.js'
import type { Mode } from './settings.js'
import type { Outcome, RunState } from './state.js'
import { escapeHtml, inline } from './text.js'

/** The action's outputs, as declared in action.yml. */
export const OUTPUT_NAMES = [
  'job-id',
  'status',
  'pr-link',
  'pr-number',
  'pr-repository',
  'source-repository',
  'source-ref',
  'model',
  'created-at',
  'archived-at',
  'timed-out',
  'job'
] as const
export type OutputName = (typeof OUTPUT_NAMES)[number]

/** Every output's value ('' when unknown), from what the step knows. */
export function renderOutputs(state: RunState, serverUrl: string | undefined): Record<OutputName, string> {
  const job = state.job
  const prLink = httpUrl(job?.prLink)
  const pr = parsePullRequestUrl(prLink, serverUrl)
  return {
    'job-id': state.jobId ?? '',
    status: job?.status ?? '',
    'pr-link': prLink ?? '',
    'pr-number': pr ? String(pr.number) : '',
    'pr-repository': pr ? `${pr.owner}/${pr.repo}` : '',
    'source-repository': job?.source?.repository ?? '',
    'source-ref': job?.source?.ref ?? '',
    model: job?.model ?? '',
    'created-at': job?.createdAt ?? '',
    'archived-at': job?.archivedAt ?? '',
    'timed-out': String(state.outcome === 'timed-out'),
    job: job ? JSON.stringify(job.raw) : ''
  }
}

const TITLES: Record<Outcome, string> = {
  completed: '✅ Docs agent job completed',
  failed: '❌ Docs agent job failed',
  archived: '🗄️ Docs agent job archived',
  started: '🚀 Docs agent job started',
  'timed-out': '⏱️ Timed out waiting for the docs agent job',
  cancelled: '🛑 Cancelled while waiting for the docs agent job',
  error: '❌ Docs agent step failed'
}

/** How much of the prompt the summary shows. */
export const SUMMARY_PROMPT_CHARS = 4000
/** Longest server-supplied value shown in a table cell. */
const CELL_CHARS = 500

export interface SummaryInput {
  state: RunState
  /** Undefined when the inputs could not be read. */
  mode: Mode | undefined
  prompt: string | undefined
  serverUrl: string | undefined
}

/**
 * The job summary as one HTML block. Every value is escaped, and no line is blank, so markdown
 * never applies inside it: text from the prompt or the server renders as plain text.
 */
export function renderSummary({ state, mode, prompt, serverUrl }: SummaryInput): string {
  const { job } = state
  const outcome = state.outcome ?? 'error'
  const rows: [string, string][] = []
  rows.push(['Status', job?.status ? code(job.status) : 'unknown'])
  rows.push(['Job', state.jobId ? code(state.jobId) : 'none: no job id was received'])
  rows.push(['Pull request', pullRequestCell(state, serverUrl)])
  const repository = job?.source?.repository
  if (repository) rows.push(['Source', `${link(repository)}${job.source?.ref ? ` @ ${code(job.source.ref)}` : ''}`])
  if (job?.model) rows.push(['Model', code(job.model)])
  if (job?.createdAt) rows.push(['Created at', text(job.createdAt)])
  if (job?.archivedAt) rows.push(['Archived at', text(job.archivedAt)])
  if (state.waitStartedAt !== undefined) {
    const waited = (state.endedAt ?? state.waitStartedAt) - state.waitStartedAt
    rows.push(['Waited', `${formatDuration(waited)}, ${state.polls} ${state.polls === 1 ? 'poll' : 'polls'}`])
  }
  if (mode)
    rows.push(['Request', mode === 'create' ? 'new job' : mode === 'message' ? 'follow-up message' : 'wait only'])

  const parts = [`<h2>${escapeHtml(TITLES[outcome])}</h2>`]
  if (state.failure) parts.push(`<p><strong>Error:</strong> ${text(state.failure, 2000)}</p>`)
  // Inputs that could not be read: no request was made, so there is nothing more to show.
  if (!mode) return `${parts.join('\n')}\n\n`
  parts.push(
    `<table>${rows.map(([name, value]) => `<tr><th align="left">${name}</th><td>${value}</td></tr>`).join('')}</table>`
  )
  const resume = resumeHint(state)
  if (resume) parts.push(`<p>${resume}</p>`)
  if (prompt !== undefined) parts.push(promptBlock(prompt))
  return `${parts.join('\n')}\n\n`
}

function pullRequestCell(state: RunState, serverUrl: string | undefined): string {
  const prLink = httpUrl(state.job?.prLink)
  if (prLink) {
    const pr = parsePullRequestUrl(prLink, serverUrl)
    return link(prLink, pr ? `${pr.owner}/${pr.repo}#${pr.number}` : undefined)
  }
  if (state.job?.status === 'completed') return 'no pull request (the agent changed no files)'
  return 'none yet'
}

function resumeHint(state: RunState): string | undefined {
  if (!state.jobId || !['started', 'timed-out', 'cancelled', 'error'].includes(state.outcome ?? 'error'))
    return undefined
  if (state.job !== undefined && ['completed', 'failed', 'archived'].includes(state.job.status ?? '')) return undefined
  return `The job may still be running. To wait for it, run this action again with <code>job-id: ${escapeHtml(state.jobId)}</code> and no prompt.`
}

function promptBlock(prompt: string): string {
  const shown = prompt.length > SUMMARY_PROMPT_CHARS ? `${prompt.slice(0, SUMMARY_PROMPT_CHARS)}…` : prompt
  const note = prompt.length > SUMMARY_PROMPT_CHARS ? `, first ${SUMMARY_PROMPT_CHARS} shown` : ''
  // Newlines as entities keep the block on one line: a blank line would end the HTML block.
  const body = escapeHtml(shown).replace(/\r?\n/g, '&#10;')
  return `<details><summary>Prompt (${prompt.length} characters${note})</summary><pre>${body}</pre></details>`
}

function text(value: string, max = CELL_CHARS): string {
  return escapeHtml(inline(value, max))
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
