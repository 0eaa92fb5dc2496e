/**
 * `context: auto`: what triggered the workflow, written for the agent after the user's prompt.
 * The agent sees only the docs repository; the release notes, the changes and the pull request
 * are what it can document.
 */
import type { Trigger } from '../event.js'
import type { GitHubReader } from '../reader.js'
import { render, type Built } from './budget.js'
import type { ChangedFiles } from './changed.js'
import { findLastRun } from './last-run.js'
import { pullRequestContext } from './pull-request.js'
import { pushContext, pushedFiles } from './push.js'
import { reading } from './reading.js'
import { tagContext } from './release.js'
import { describeScheduled } from './schedule.js'
import { warning } from './warning.js'

/** Longest the context may hold up the create; past it, the job is created with what was read. */
export const CONTEXT_TIMEOUT_MS = 10_000

export interface ContextResult {
  /** Markdown appended after the user's prompt; '' when there is nothing to add. */
  text: string
  /** One line naming what the context holds, for the log and the summary. */
  description: string
  /** What could not be read, and the permission that would fix it: one warning. */
  warning: string | undefined
  /** GitHub requests made. */
  requests: number
  /** Characters of GitHub's text left out as hidden (`removeHidden`); unknown on a resumed run. */
  hidden?: number
  /** The changed files read, for the skip rules: one list, or one per package of a release set. */
  changed?: ChangedFiles[]
}

export interface ContextOptions {
  /** Characters the context may take. */
  budget: number
  /** The reads' signal: aborted, it means the time limit passed. */
  signal: AbortSignal
  /** That time limit, for the warning. */
  timeoutMs: number
  /** Reads of the triggering repository; undefined without a token. */
  reader: GitHubReader | undefined
  /** A dry run creates nothing: the warning says so. */
  dryRun: boolean
  /** The skip rules judge the changed files: read all of them (a pull request's every page, a push's range). */
  allFiles?: boolean
}

/** The user's prompt, whole, then the context under its own heading. */
export function promptWithContext(prompt: string, context: ContextResult): string {
  return context.text ? `${prompt.trimEnd()}\n\n${context.text}` : prompt
}

/** Gathers the context of `event`; never throws: what cannot be read is named in `warning`. */
export async function gatherContext(event: Trigger, options: ContextOptions): Promise<ContextResult> {
  const { read, missing, requests, visible, hidden } = reading(options.reader)
  const trigger = await visible(event)
  let built: Built
  switch (trigger.kind) {
    case 'tag':
      built = await tagContext(trigger, read)
      break
    case 'pull-request':
      built = await pullRequestContext(trigger, read, options.allFiles)
      break
    case 'push':
      built = { ...pushContext(trigger), ...(options.allFiles ? { changed: await pushedFiles(trigger, read) } : {}) }
      break
    case 'scheduled':
      built = describeScheduled(trigger, await findLastRun(trigger, read))
      break
    case 'other':
      return {
        text: '',
        description: `nothing to add for a ${trigger.event} event`,
        warning: undefined,
        requests: requests()
      }
  }
  const warnings = [
    built.warning,
    missing.length
      ? warning(missing, options.signal.aborted ? options.timeoutMs : undefined, options.dryRun)
      : undefined
  ].filter((line) => line !== undefined)
  return {
    text: render(built, options.budget),
    description: built.description,
    warning: warnings.length ? warnings.join(' ') : undefined,
    requests: requests(),
    hidden: hidden(),
    ...(built.changed ? { changed: [built.changed] } : {})
  }
}
