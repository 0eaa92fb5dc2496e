/**
 * The skip phase: a run that is not an explicit request does nothing when its change needs no
 * docs: a skip label or a `[skip docs]` marker says so (read from the event, before anything else
 * is read), or a path rule does, on the changed files the context read. A dry run shows the
 * decision and goes on.
 */
import type { Log } from '../../base/log.js'
import { formatCount, inline, plural } from '../../base/text.js'
import type { ChangedFiles } from '../../github/context/changed.js'
import type { ContextResult } from '../../github/context/context.js'
import type { Trigger } from '../../github/event.js'
import type { SkipState } from '../../report/state.js'
import type { FlowEnd } from '../ending.js'
import type { RunStateWriter } from '../run-state.js'
import type { AutomationSettings, CreateOrMessage } from '../settings.js'
import type { PathRule } from './settings.js'
import { matchesList } from './patterns.js'

/** The markers that work like `[skip ci]`, compared without case. */
export const SKIP_MARKERS = ['[skip docs]', '[docs skip]', '[no docs]', '[skip-docs]']

/** Paths a dry run's log lists per list of changed files. */
const LOGGED = 50

export interface SkipDeps {
  log: Log
  trigger(): Trigger
  /** `GITHUB_EVENT_NAME`: a workflow_dispatch run is an explicit request. */
  eventName?: string | undefined
}

/** The settings the phase judges: an automation's trigger is skipped by labels and markers too. */
type Skippable = CreateOrMessage | AutomationSettings

/**
 * One step of the phase: `event` before the group and the context (labels, markers), `files` once
 * the context is read (a path rule). The flow's end when the run is skipped; undefined when it goes on.
 */
export function skipPhase(
  step: 'event' | 'files',
  settings: Skippable,
  deps: SkipDeps,
  run: RunStateWriter
): FlowEnd | undefined {
  // A dry run's earlier skip stands: the files are not judged again.
  if (run.state.skip?.skipped) return undefined
  const decision = step === 'event' ? byEvent(settings, deps) : byFiles(settings, deps, run.state.context)
  if (!decision) return undefined
  const ends = decision.skipped && !settings.dryRun
  run.skipDecided(decision, ends)
  if (settings.dryRun) {
    showDecision(decision, deps.log)
    return undefined
  }
  if (!ends) deps.log.info(`Skip rules: not skipped: ${decision.reason}.`)
  return ends ? { kind: 'skipped' } : undefined
}

/** Why the run is an explicit request, never skipped; undefined when it is not one. */
export function explicitRequest(settings: Skippable, eventName: string | undefined): string | undefined {
  if (settings.command) return `a ${inline(settings.triggerPhrase, 50)} command`
  if (settings.mode === 'message') return 'a follow-up to job-id'
  if (eventName === 'workflow_dispatch') return 'a workflow_dispatch run'
  return undefined
}

/** An empty `release-tags` list, a skip label on the pull request, or a marker in its title or a branch push's head commit. */
function byEvent(settings: Skippable, deps: SkipDeps): SkipState | undefined {
  if (explicitRequest(settings, deps.eventName)) return undefined
  if (settings.skip.nothingReleased)
    return { skipped: true, reason: 'release-tags is an empty list: nothing was released' }
  const trigger = deps.trigger()
  if (trigger.kind === 'pull-request') {
    const wanted = new Set(settings.skip.labels.map((label) => label.toLowerCase()))
    const label = trigger.labels.find((name) => wanted.has(name.toLowerCase()))
    const pr = `pull request #${trigger.number}`
    if (label !== undefined) return { skipped: true, reason: `skip-labels: ${pr} has the label ${inline(label, 100)}` }
    const marker = markerIn(trigger.title)
    if (marker) return { skipped: true, reason: `${marker} in the title of ${pr}` }
  }
  if (trigger.kind === 'push') {
    const marker = markerIn(trigger.headMessage)
    const to = `the push to ${inline(trigger.branch, 100)}`
    if (marker) return { skipped: true, reason: `${marker} in the message of the head commit of ${to}` }
  }
  return undefined
}

function markerIn(text: string | undefined): string | undefined {
  const lower = text?.toLowerCase()
  return SKIP_MARKERS.find((marker) => lower?.includes(marker))
}

/** The path rule, on every list of changed files the context read: skipped only when each list would be. */
function byFiles(settings: Skippable, deps: SkipDeps, context: ContextResult | undefined): SkipState | undefined {
  const rule = settings.skip.paths
  if (!rule) return undefined
  const explicit = explicitRequest(settings, deps.eventName)
  if (explicit) return { skipped: false, reason: `${explicit} is an explicit request, never skipped` }
  const lists = context?.changed ?? []
  if (lists.length === 0) {
    return { skipped: false, reason: `${rule.input} has no changed files to judge: the context read none` }
  }
  if (!settings.githubToken) {
    return {
      skipped: false,
      reason: `${rule.input} has no changed files to judge: github-token is empty`,
      files: lists
    }
  }
  const verdicts = lists.map((list) => judge(rule, list))
  const kept = verdicts.find((verdict) => !verdict.skipped)
  if (kept) return { skipped: false, reason: kept.reason, files: lists }
  const reasons = verdicts.map((verdict) => verdict.reason).join('; ')
  const reason = verdicts.length > 1 ? `every package of the release set would be skipped: ${reasons}` : reasons
  return { skipped: true, reason, files: lists }
}

/** One list of changed files against the rule. */
function judge(rule: PathRule, list: ChangedFiles): { skipped: boolean; reason: string } {
  const { input, patterns } = rule
  if (list.incomplete) {
    return { skipped: false, reason: `the changed files of ${list.of} may be incomplete (${list.incomplete})` }
  }
  const files = list.paths
  if (files.length === 0) return { skipped: true, reason: `${input}: ${list.of} changes no file` }
  const matched = files.filter((path) => matchesList(patterns, path))
  if (input === 'paths-ignore') {
    const hit = new Set(matched)
    const left = files.filter((path) => !hit.has(path))
    return left.length === 0
      ? { skipped: true, reason: `${input} matches every changed file of ${list.of}: ${named(files)}` }
      : { skipped: false, reason: `${input} leaves ${of(left, files)} of ${list.of}: ${named(left)}` }
  }
  return matched.length === 0
    ? { skipped: true, reason: `${input} matches none of the changed files of ${list.of}: ${named(files)}` }
    : { skipped: false, reason: `${input} matches ${of(matched, files)} of ${list.of}: ${named(matched)}` }
}

/** `2 of the 5 changed files`. */
function of(some: readonly string[], all: readonly string[]): string {
  return `${formatCount(some.length)} of the ${plural(all.length, 'changed file')}`
}

/** The first three paths, then how many more. */
function named(paths: readonly string[]): string {
  const shown = paths.slice(0, 3).map((path) => inline(path, 200))
  return paths.length > 3 ? `${shown.join(', ')} and ${formatCount(paths.length - 3)} more` : shown.join(', ')
}

/** A dry run's log: the decision, then the files it was made on. */
function showDecision(decision: SkipState, log: Log): void {
  const verb = decision.skipped ? 'would skip this run' : 'would not skip this run'
  log.info(`Dry run: the skip rules ${verb}: ${decision.reason}.`)
  for (const list of decision.files ?? []) {
    const state = list.incomplete ? `may be incomplete: ${list.incomplete}` : 'complete'
    log.info(`Dry run: the changed files of ${list.of} (${plural(list.paths.length, 'path')}; ${state}):`)
    for (const path of list.paths.slice(0, LOGGED)) log.info(`│ ${inline(path, 300)}`)
    if (list.paths.length > LOGGED) log.info(`│ … and ${formatCount(list.paths.length - LOGGED)} more`)
  }
}
