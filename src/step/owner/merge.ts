/**
 * `merge: auto`, as `gh pr merge --auto` does it: GitHub's auto-merge when the docs pull request
 * has checks or reviews to wait for, a merge at once when it has none (GitHub refuses auto-merge
 * then). Never at once when the agent was given text written by someone without write access:
 * such text can steer the agent, so a person must read the result; auto-merge is turned on only
 * where the docs repository requires a review. A refusal leaves the pull request open, with one
 * warning that names the setting.
 */
import { DOCS_TOKEN } from '../../github/docs-client.js'
import { inline } from '../../base/text.js'
import type { DocsPullFacts, MergeFacts, MergeMethod, OwnerApi } from '../../github/owner/api.js'
import { forbidden, refusalOf, said } from '../../github/owner/refusal.js'
import { isBot, mayWrite } from '../../github/permissions.js'
import { decideAuthorText } from '../../github/trust.js'
import type { OwnerState } from '../../report/state.js'
import type { GroupPlan } from '../group/plan.js'
import type { OwnerDeps, Target } from './deps.js'
import type { Settings } from '../settings.js'

type Merged = Pick<OwnerState, 'merge' | 'untrusted'>

/** The merge states GitHub merges at once (auto-merge is refused: nothing is left to wait for). */
const READY = ['CLEAN', 'HAS_HOOKS', 'UNSTABLE']
/** Review decisions that keep the pull request from merging until a person approves it. */
const AWAITING_REVIEW = ['REVIEW_REQUIRED', 'CHANGES_REQUESTED']
/** GitHub works the merge state out after a push: `UNKNOWN` is read again, this often, this far apart. */
const STATE_READS = 4
const STATE_READ_GAP_MS = 1500

export async function mergeDocsPull(
  api: OwnerApi,
  docs: { pull: DocsPullFacts; target: Target; method: MergeMethod },
  settings: Settings,
  plan: GroupPlan | undefined,
  deps: OwnerDeps
): Promise<Merged> {
  const { log } = deps
  const { target, method } = docs
  const open = (why: string): Merged['merge'] => ({ result: 'open', method, why })
  const untrusted = await outsiderText(settings, plan, deps)
  let facts: MergeFacts
  try {
    facts = await mergeFacts(api, deps)
  } catch (error) {
    const refusal = refusalOf(error)
    log.warning(
      `Could not read the merge state of ${target.label} (${said(refusal)}), so it is left open.${forbidden(refusal) ? ` The ${DOCS_TOKEN} needs pull-requests: read on ${target.repository}.` : ''}`
    )
    return { merge: open('its merge state could not be read'), untrusted }
  }
  if (facts.autoMerge) {
    log.info(`Auto-merge is already on for ${target.label}.`)
    return { merge: { result: 'auto-merge', method }, untrusted }
  }
  if (untrusted) {
    if (AWAITING_REVIEW.includes(facts.reviewDecision ?? '')) {
      log.info(
        `${target.label} is not merged at once: the agent was given text written by someone without write access (${untrusted}). ${target.repository} requires a review, so auto-merge waits for a person's approval.`
      )
      return { merge: await autoMerge(api, facts, docs, deps, false), untrusted }
    }
    log.warning(
      `${target.label} is left open for a person to read: the agent was given text written by someone without write access (${untrusted}), and ${target.repository} requires no review before merging, so merge: auto would merge it unread.`
    )
    return { merge: open('the agent was given text written by someone without write access'), untrusted }
  }
  if (READY.includes(facts.mergeState)) return { merge: await mergeNow(api, docs, deps) }
  return { merge: await autoMerge(api, facts, docs, deps, true) }
}

/** The merge facts, read again while GitHub is still working out the merge state. */
async function mergeFacts(api: OwnerApi, deps: OwnerDeps): Promise<MergeFacts> {
  let facts = await api.mergeFacts()
  for (let read = 1; read < STATE_READS && facts.mergeState === 'UNKNOWN'; read++) {
    await deps.clock.sleep(STATE_READ_GAP_MS, deps.signal)
    facts = await api.mergeFacts()
  }
  return facts
}

/** Turns auto-merge on; `mayMergeNow`: a pull request that turned out clean meanwhile is merged at once. */
async function autoMerge(
  api: OwnerApi,
  facts: MergeFacts,
  docs: { pull: DocsPullFacts; target: Target; method: MergeMethod },
  deps: OwnerDeps,
  mayMergeNow: boolean
): Promise<OwnerState['merge']> {
  const { target, method } = docs
  try {
    await api.enableAutoMerge(facts.id, method)
    deps.log.info(
      `Auto-merge is on for ${target.label} (${method}): it merges once its required checks and reviews pass.`
    )
    return { result: 'auto-merge', method }
  } catch (error) {
    const refusal = refusalOf(error)
    // GitHub's words for a pull request with nothing left to wait for (its state was read before that).
    if (mayMergeNow && /\b(clean|unstable|has_hooks) status\b/i.test(refusal.message)) return mergeNow(api, docs, deps)
    const why = /auto merge is not allowed/i.test(refusal.message)
      ? `${target.repository} does not allow auto-merge: turn on "Allow auto-merge" in its Settings, General, Pull Requests`
      : forbidden(refusal)
        ? `the ${DOCS_TOKEN} needs contents: write and pull-requests: write on ${target.repository} (the workflow's GITHUB_TOKEN cannot write to another repository)`
        : 'GitHub refused it'
    deps.log.warning(`Could not turn on auto-merge for ${target.label} (${said(refusal)}): ${why}. It stays open.`)
    return { result: 'open', method, why: inline(refusal.message, 200) }
  }
}

/** Merges the head that was read: a branch that moved since is not merged unseen (409). */
async function mergeNow(
  api: OwnerApi,
  { pull, target, method }: { pull: DocsPullFacts; target: Target; method: MergeMethod },
  deps: OwnerDeps
): Promise<OwnerState['merge']> {
  try {
    await api.merge(method, pull.head)
    deps.log.info(`Merged ${target.label} (${method}): it had no checks or reviews left to wait for.`)
    return { result: 'merged', method }
  } catch (error) {
    const refusal = refusalOf(error)
    const why = refusal.lost
      ? 'the merge may have reached GitHub: see the pull request'
      : forbidden(refusal)
        ? `the ${DOCS_TOKEN} needs contents: write and pull-requests: write on ${target.repository} (the workflow's GITHUB_TOKEN cannot write to another repository)`
        : refusal.status === 409
          ? 'its branch moved since it was read'
          : `a rule of ${target.repository} refuses it: its base branch's protection or ruleset decides`
    deps.log.warning(`Could not merge ${target.label} (${said(refusal)}): ${why}. It stays open.`)
    return { result: 'open', method, why: inline(refusal.message, 200) }
  }
}

/**
 * Why the job may carry text written by someone without write access, or undefined when it does
 * not: a pull request's own text reached the agent (`untrusted-context: include`, or a maintainer
 * merged an outsider's pull request), here or in an earlier run of the group. A prompt built here
 * with `context: none` carried none of it; a follow-up's job (a `/docs` command, `job-id`) was made
 * earlier, perhaps with it, whatever this run's event says.
 */
async function outsiderText(
  settings: Settings,
  plan: GroupPlan | undefined,
  deps: OwnerDeps
): Promise<string | undefined> {
  if (plan?.kind === 'follow-up' && plan.record.untrusted)
    return `an earlier run of group ${inline(plan.key.group, 100)} gave its job such text`
  const trigger = deps.trigger()
  if (trigger.kind !== 'pull-request') return undefined
  // A grouped run's prompt is built as a new job's, even when it goes out as a follow-up.
  const built = settings.mode === 'create' || plan?.kind === 'follow-up'
  if (built && settings.context === 'none') return undefined
  const pr = deps.trust().pullRequest
  const author = pr?.author ?? ''
  const own = author && !isBot(author) ? await deps.permissions.of(author) : undefined
  if (own?.known && mayWrite(own.permission)) return undefined
  if (!built)
    return `its job may have been given pull request #${trigger.number}'s own text when it was created, and its author ${inline(author || 'unknown', 100)} has no write access`
  const text = await decideAuthorText(pr, settings.untrustedContext, settings, deps.permissions)
  return text.include ? `pull request #${trigger.number}'s own text was included: ${text.why}` : undefined
}
