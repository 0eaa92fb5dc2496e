/**
 * The context a new job's prompt takes (prompt.ts): a pull request's own text judged, then what the
 * trigger changed, read within the budget and the time limit. Loaded by `import()` only by a run
 * that reads context.
 */
import { Cancelled } from '../base/cancel.js'
import { plural } from '../base/text.js'
import { CONTEXT_TIMEOUT_MS, gatherContext, promptWithContext } from '../github/context/context.js'
import type { Trigger } from '../github/event.js'
import { releaseSetContext } from '../github/context/release-set.js'
import { sinceLastDocumented, type Range } from '../github/context/since-documented.js'
import { decideAuthorText } from '../github/trust.js'
import { WITHHELD, withheldContext } from '../github/context/withheld-context.js'
import { promptOutsider } from './outsider.js'
import type { BuiltPrompt, PromptDeps } from './prompt-deps.js'
import type { Settings } from './settings.js'

/** What buildPrompt decided to read: the trigger, its repository or release set, the budget and a group's range. */
export interface Reading {
  trigger: Trigger
  repo: string | undefined
  releaseSet: string | false | undefined
  budget: number
  since: Range | undefined
}

/** The prompt with the context read for it. */
export async function readContext(
  settings: Extract<Settings, { mode: 'create' }>,
  { trigger, repo, releaseSet, budget, since }: Reading,
  deps: PromptDeps
): Promise<BuiltPrompt> {
  const { log } = deps
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
