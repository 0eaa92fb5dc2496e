/**
 * The prompt phase: a new job's prompt is the user's, then what triggered the workflow
 * (`context: auto`), read within a budget and a time limit; a follow-up's is the user's alone.
 */
import { inline, plural } from '../base/text.js'
import { CONTEXT_BUDGET_CHARS } from '../github/context/budget.js'
import type { Range } from '../github/context/since-documented.js'
import { inheritedOutsider } from './outsider.js'
import type { BuiltPrompt, PromptDeps } from './prompt-deps.js'
import { MAX_PROMPT_CHARS, type CreateOrMessage, type Settings } from './settings.js'

/**
 * The prompt the step sends: built for a new job, the user's own for a follow-up. `since`: a
 * grouped push or scheduled run's context is the range since the group's last documented commit.
 */
export async function preparePrompt(settings: CreateOrMessage, deps: PromptDeps, since?: Range): Promise<BuiltPrompt> {
  if (settings.mode === 'create') return buildPrompt(settings, deps, since)
  const trigger = deps.trigger()
  const pullRequest =
    trigger.kind === 'pull-request'
      ? { number: trigger.number, author: deps.trust().pullRequest?.author ?? '' }
      : undefined
  const outsider = await inheritedOutsider(settings, { pullRequest, permissions: deps.permissions })
  return { prompt: settings.prompt, context: undefined, outsider }
}

/** A new job's prompt: the user's, then what triggered the workflow (`context: auto`). */
export async function buildPrompt(
  settings: Extract<Settings, { mode: 'create' }>,
  deps: PromptDeps,
  since?: Range
): Promise<BuiltPrompt> {
  const { log } = deps
  if (settings.context === 'none') return { prompt: settings.prompt, context: undefined }
  const trigger = deps.trigger()
  const budget = Math.min(CONTEXT_BUDGET_CHARS, MAX_PROMPT_CHARS - settings.prompt.length - 2)
  const repo = trigger.kind === 'other' ? deps.repository : trigger.repo
  const releaseSet = settings.releaseTags.length > 0 && repo
  if (trigger.kind === 'other' && !releaseSet) {
    if (trigger.event) log.info(`Context: nothing to add for a ${inline(trigger.event, 60)} event.`)
    else log.debug('Context: no workflow event here (not on a runner).')
    return { prompt: settings.prompt, context: undefined }
  }
  if (budget < 1000) {
    log.info(
      `Context: left out, the prompt already has ${plural(settings.prompt.length, 'character')} of the ${plural(MAX_PROMPT_CHARS, 'character')} allowed.`
    )
    return { prompt: settings.prompt, context: undefined }
  }
  // Loaded only by a run that reads context: one with no event to read reaches its first request without it.
  const { readContext } = await import('./prompt-context.js')
  return readContext(settings, { trigger, repo, releaseSet, budget, since }, deps)
}
