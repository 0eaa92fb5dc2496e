/**
 * The prompt phase: a new job's prompt is the user's, then what triggered the workflow
 * (`context: auto`), read within a budget and a time limit; a follow-up's is the user's alone.
 */
import { Cancelled } from '../base/cancel.js'
import type { Clock } from '../base/clock.js'
import type { Log } from '../base/log.js'
import { inline, plural } from '../base/text.js'
import type { GitHubReader } from '../github/reader.js'
import { CONTEXT_BUDGET_CHARS } from '../github/context/budget.js'
import { CONTEXT_TIMEOUT_MS, gatherContext, promptWithContext, type ContextResult } from '../github/context/context.js'
import type { Trigger } from '../github/event.js'
import type { Permissions } from '../github/permissions.js'
import { sinceLastDocumented, type Range } from '../github/context/since-documented.js'
import { releaseSetContext } from '../github/context/release-set.js'
import { decideAuthorText, type TrustFacts } from '../github/trust.js'
import { WITHHELD, withheldContext } from '../github/context/withheld-context.js'
import { inheritedOutsider, promptOutsider } from './outsider.js'
import { MAX_PROMPT_CHARS, type CreateOrMessage, type Settings } from './settings.js'

/** A prompt as built, with the context it took. */
export interface BuiltPrompt {
  prompt: string
  context: ContextResult | undefined
  /** Why the job carries text written by someone without write access (outsider.ts); undefined when it does not. */
  outsider?: string | undefined
}

export interface PromptDeps {
  log: Log
  clock: Clock
  signal: AbortSignal
  repository?: string | undefined
  trigger(): Trigger
  trust(): TrustFacts
  permissions: Permissions
  github: { reader(repository: string, signal: AbortSignal): GitHubReader }
}

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
  let outsider: string | undefined
  if (trigger.kind === 'pull-request') {
    const own = await pullRequestText(settings, trigger, deps)
    if ('withheld' in own) return own.withheld
    outsider = own.outsider
  }
  const signal = AbortSignal.any([deps.signal, deps.clock.timeout(CONTEXT_TIMEOUT_MS)])
  const reader = settings.githubToken && repo ? deps.github.reader(repo, signal) : undefined
  // A path rule judges the changed files: all of them are read.
  const allFiles = settings.skip.paths !== undefined
  const options = { budget, reader, signal, timeoutMs: CONTEXT_TIMEOUT_MS, dryRun: settings.dryRun, allFiles }
  const ranged =
    since && reader && !releaseSet
      ? await sinceLastDocumented(since, reader, budget, (why) =>
          log.warning(`Context: could not read the changes since the group's last documented commit (${why}).`)
        )
      : undefined
  const context =
    ranged ??
    (releaseSet
      ? await releaseSetContext(releaseSet, settings.releaseTags, options)
      : await gatherContext(trigger, options))
  if (deps.signal.aborted) throw new Cancelled(false)
  // Without a token nothing was read, and main has said so in a notice.
  if (context.warning && reader) log.warning(context.warning)
  log.info(
    `Context: ${context.description} (${plural(context.text.length, 'character')}, ${plural(context.requests, 'GitHub request')})`
  )
  return { prompt: promptWithContext(settings.prompt, context), context, outsider }
}

/**
 * A pull request's own text, judged: why the job carries text written by someone without write
 * access (undefined when it does not), or, when the text is withheld, the prompt with the context
 * that stands for it.
 */
async function pullRequestText(
  settings: Extract<Settings, { mode: 'create' }>,
  trigger: Extract<Trigger, { kind: 'pull-request' }>,
  deps: PromptDeps
): Promise<{ outsider: string | undefined } | { withheld: BuiltPrompt }> {
  const { pullRequest } = deps.trust()
  const author = await decideAuthorText(pullRequest, settings.untrustedContext, settings, deps.permissions)
  const outsider = await promptOutsider(pullRequest, trigger.number, author, deps.permissions)
  if (deps.signal.aborted) throw new Cancelled(false)
  if (!author.include) {
    const context = withheldContext(trigger, pullRequest, author.why)
    deps.log.info(
      `Context: the ${WITHHELD} of pull request #${trigger.number} are withheld: ${author.why}; untrusted-context: include would pass them.`
    )
    return { withheld: { prompt: promptWithContext(settings.prompt, context), context } }
  }
  deps.log.debug(`Context: the pull request's own text is included: ${author.why}.`)
  return { outsider }
}
