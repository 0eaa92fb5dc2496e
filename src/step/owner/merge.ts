/**
 * `merge: auto`, as `gh pr merge --auto` does it: GitHub's auto-merge when the docs pull request
 * has checks or reviews to wait for, a merge at once when it has none (GitHub refuses auto-merge
 * then). Never at once when the job carries text written by someone without write access
 * (outsider.ts): such text can steer the agent, so a person must read the result; auto-merge is
 * kept on only where the docs repository requires a review, and turned off where it was on. Never
 * at once either when this run asked someone to review it: the pull request is theirs to read. A
 * refusal leaves the pull request open, with one warning that names the setting.
 */
import { DOCS_TOKEN } from '../../github/docs-client.js'
import { inline } from '../../base/text.js'
import type { DocsPullFacts, MergeFacts, MergeMethod, OwnerApi } from '../../github/owner/api.js'
import { forbidden, refusalOf, said } from '../../github/owner/refusal.js'
import type { OwnerState } from '../../report/state.js'
import type { OwnerDeps, Target } from './deps.js'

type Merge = OwnerState['merge']

/** The docs pull request to merge, and why it may not merge at once. */
export interface MergeAsk {
  pull: DocsPullFacts
  target: Target
  method: MergeMethod
  /** Why the job carries an outsider's text (run state); undefined when it does not. */
  outsider: string | undefined
  /** Who was asked to review it (this run or an earlier one): none of them has read it yet. */
  reviewers: string[]
  /** `docs-checks`' verdict and the head it judged; undefined with `docs-checks: none`. */
  checks: { result: string; head: string | undefined } | undefined
}

/** The merge states GitHub merges at once (auto-merge is refused: nothing is left to wait for). */
const READY = ['CLEAN', 'HAS_HOOKS', 'UNSTABLE']
/** Review decisions that keep the pull request from merging until a person approves it. */
const AWAITING_REVIEW = ['REVIEW_REQUIRED', 'CHANGES_REQUESTED']
/** GitHub works the merge state out after a push: `UNKNOWN` is read again, this often, this far apart. */
const STATE_READS = 4
const STATE_READ_GAP_MS = 1500

export async function mergeDocsPull(api: OwnerApi, ask: MergeAsk, deps: OwnerDeps): Promise<Merge> {
  const { log } = deps
  const { target, method, outsider } = ask
  let facts: MergeFacts
  try {
    facts = await mergeFacts(api, deps)
  } catch (error) {
    const refusal = refusalOf(error)
    log.warning(
      `Could not read the merge state of ${target.label} (${said(refusal)}), so it is left open.${forbidden(refusal) ? ` The ${DOCS_TOKEN} needs pull-requests: read on ${target.repository}.` : ''}`
    )
    return open(method, 'its merge state could not be read')
  }
  if (outsider) return mergeOutsider(api, ask, facts, deps)
  if (facts.autoMerge) {
    log.info(`Auto-merge is already on for ${target.label}.`)
    return { result: 'auto-merge', method }
  }
  if (ask.reviewers.length > 0) {
    if (!READY.includes(facts.mergeState)) return autoMerge(api, facts, ask, deps, false)
    return leftToReviewers(ask, deps)
  }
  if (READY.includes(facts.mergeState)) return mergeNow(api, ask, deps, facts.mergeState === 'UNSTABLE')
  return autoMerge(api, facts, ask, deps, true)
}

const open = (method: MergeMethod, why: string): Merge => ({ result: 'open', method, why })
/** `@mona, acme/docs-team`. */
const named = (who: string[]): string => who.map((w) => inline(w.includes('/') ? w : `@${w}`, 100)).join(', ')
const OUTSIDER = 'the agent was given text written by someone without write access'

/** A job with an outsider's text: auto-merge only where a person's approval is required, never a merge at once. */
async function mergeOutsider(api: OwnerApi, ask: MergeAsk, facts: MergeFacts, deps: OwnerDeps): Promise<Merge> {
  const { target, method, outsider } = ask
  const why = `${OUTSIDER} (${outsider ?? ''})`
  if (facts.autoMerge) return turnOffAutoMerge(api, ask, facts, deps)
  if (AWAITING_REVIEW.includes(facts.reviewDecision ?? '')) {
    deps.log.info(
      `${target.label} is not merged at once: ${why}. ${target.repository} requires a review, so auto-merge waits for a person's approval.`
    )
    return autoMerge(api, facts, ask, deps, false)
  }
  deps.log.warning(
    `${target.label} is left open for a person to read: ${why}, and ${target.repository} requires no review before merging, so merge: auto would merge it unread.`
  )
  return open(method, OUTSIDER)
}

/**
 * Auto-merge found on a job with an outsider's text (turned on by an earlier, trusted run): off, so
 * that it does not merge unread. When GitHub refuses, nothing says it will merge by itself.
 */
async function turnOffAutoMerge(api: OwnerApi, ask: MergeAsk, facts: MergeFacts, deps: OwnerDeps): Promise<Merge> {
  const { target, method, outsider } = ask
  try {
    await api.disableAutoMerge(facts.id)
    deps.log.notice(
      `Auto-merge is now off for ${target.label}: ${OUTSIDER} (${outsider ?? ''}), so a person merges it after reading it.`
    )
    return open(method, `auto-merge turned off: ${OUTSIDER}`)
  } catch (error) {
    const refusal = refusalOf(error)
    const hint = forbidden(refusal)
      ? ` The ${DOCS_TOKEN} needs contents: write and pull-requests: write on ${target.repository}.`
      : ''
    deps.log.warning(
      `Could not turn off auto-merge for ${target.label} (${said(refusal)}): ${OUTSIDER} (${outsider ?? ''}), and it may merge unread once its checks pass. Turn auto-merge off on the pull request.${hint}`
    )
    return open(method, `auto-merge could not be turned off: ${inline(refusal.message, 200)}`)
  }
}

/** A pull request with nothing to wait for, whose review this run asked for: left to the reviewers, with one notice. */
function leftToReviewers({ target, method, reviewers }: MergeAsk, deps: OwnerDeps): Merge {
  deps.log.notice(
    `${target.label} is left to ${named(reviewers)} to review: merge: auto does not merge at once a pull request whose review was asked for.`
  )
  return open(method, `left to the review asked of ${named(reviewers)}`)
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

/**
 * Turns auto-merge on for the head that was read; `mayMergeNow`: a pull request that turned out
 * clean meanwhile is merged at once (never for an outsider's text or a requested review).
 */
async function autoMerge(
  api: OwnerApi,
  facts: MergeFacts,
  ask: MergeAsk,
  deps: OwnerDeps,
  mayMergeNow: boolean
): Promise<Merge> {
  const { target, method } = ask
  try {
    await api.enableAutoMerge(facts.id, method, ask.pull.head)
    deps.log.info(
      `Auto-merge is on for ${target.label} (${method}): it merges once its required checks and reviews pass.`
    )
    return { result: 'auto-merge', method }
  } catch (error) {
    const refusal = refusalOf(error)
    // GitHub's words for a pull request with nothing left to wait for (its state was read before that).
    const ready = /\b(clean|unstable|has_hooks) status\b/i.test(refusal.message)
    if (ready && mayMergeNow) return mergeNow(api, ask, deps, /\bunstable status\b/i.test(refusal.message))
    if (ready && !ask.outsider && ask.reviewers.length > 0) return leftToReviewers(ask, deps)
    const why = /auto merge is not allowed/i.test(refusal.message)
      ? `${target.repository} does not allow auto-merge: turn on "Allow auto-merge" in its Settings, General, Pull Requests`
      : forbidden(refusal)
        ? `the ${DOCS_TOKEN} needs contents: write and pull-requests: write on ${target.repository} (the workflow's GITHUB_TOKEN cannot write to another repository)`
        : 'GitHub refused it'
    deps.log.warning(`Could not turn on auto-merge for ${target.label} (${said(refusal)}): ${why}. It stays open.`)
    return open(method, inline(refusal.message, 200))
  }
}

/**
 * Merges the head that was read: a branch that moved since is not merged unseen (409). With
 * `docs-checks`, only the head it judged green: GitHub merges at once a pull request whose failing
 * checks are not required (`unstable`), and one whose head moved after the checks were read.
 */
async function mergeNow(api: OwnerApi, ask: MergeAsk, deps: OwnerDeps, unstable: boolean): Promise<Merge> {
  const { pull, target, method, checks } = ask
  const short = (sha: string | undefined): string => (sha ?? 'none').slice(0, 7)
  const notGreen = !checks
    ? undefined
    : checks.result !== 'success'
      ? `its checks are not green (docs-checks: ${checks.result})`
      : checks.head !== pull.head
        ? `its head ${short(pull.head)} is not the one docs-checks judged (${short(checks.head)})`
        : unstable
          ? 'GitHub says some of its checks fail (merge state UNSTABLE) since docs-checks judged them'
          : undefined
  if (notGreen) {
    deps.log.warning(
      `${target.label} is left open: ${notGreen}, and merge: auto merges at once only a head docs-checks judged green.`
    )
    return open(method, notGreen)
  }
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
    return open(method, inline(refusal.message, 200))
  }
}
