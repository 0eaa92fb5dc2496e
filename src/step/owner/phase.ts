/**
 * The owner phase, once the job completed with a docs pull request: the people asked to review it
 * and assigned to it, then, with `merge: auto`, its merge (owner-merge.ts). Only the pull request
 * the job's `prLink` names, in the job's own repository, while it is open; nobody is asked twice
 * (GitHub's events on the pull request say who was). It never changes the step's result: whatever
 * GitHub refuses is one warning.
 */
import { DOCS_TOKEN } from '../../github/docs-client.js'
import type { Log } from '../../base/log.js'
import { inline } from '../../base/text.js'
import { labelTarget } from '../../github/labels.js'
import type { Asked, DocsPullFacts, OwnerApi } from '../../github/owner/api.js'
import type { RunAuthor } from '../../github/owner/author.js'
import { forbidden, refusalOf, said, type Refusal } from '../../github/owner/refusal.js'
import { isBot } from '../../github/permissions.js'
import { pullRequest } from '../../report/verdict.js'
import type { OwnerState, RunState } from '../../report/state.js'
import type { OwnerDeps, Target } from './deps.js'
import { groupRecordOutsider } from './group-outsider.js'
import { mergeDocsPull } from './merge.js'
import { teamName, type Person } from './settings.js'
import type { Settings } from '../settings.js'

/** What the docs pull request got; undefined when nothing was asked for, or there is none to act on. */
export async function ownDocsPull(
  settings: Settings,
  deps: OwnerDeps,
  state: Readonly<RunState>
): Promise<OwnerState | undefined> {
  const { owner } = settings
  const asked = owner.reviewers.length > 0 || owner.assignees.length > 0 || owner.merge === 'auto'
  const link = pullRequest(state)
  if (!asked || settings.dryRun || state.outcome !== 'completed' || link.kind !== 'link') return undefined
  const { log } = deps
  const target = docsTarget(link.url, state, deps)
  if (!target) return undefined
  if (!settings.docsToken) {
    log.warning(
      `Inputs 'docs-token' and 'github-token' are empty: nobody is asked to review ${target.label} or assigned, and it is not merged.`
    )
    return undefined
  }
  const read = await readDocsPull(target, deps)
  if (!read) return undefined
  const { api, pull } = read
  if (pull.state !== 'open') {
    log.info(
      `${target.label} is ${pull.state}: nobody is asked to review it or assigned, and merge: auto has nothing to do.`
    )
    const merged = pull.state === 'merged' && owner.merge === 'auto'
    return { reviewers: [], assignees: [], merge: merged ? { result: 'merged', method: owner.mergeMethod } : undefined }
  }
  const author = settings.command ? { login: settings.command.author, role: 'the /docs commenter' } : deps.author()
  const reviewers = people(owner.reviewers, 'reviewers', { author, pull, target }, log)
  const assignees = people(owner.assignees, 'assignees', { author, pull, target }, log)
  const before = reviewers.length + assignees.length > 0 ? await askedBefore(api, target, log) : undefined
  const result: OwnerState = {
    reviewers: before
      ? await requestReviews(api, reviewers, [...before.reviewers, ...pull.reviewers], target, log)
      : [],
    assignees: before ? await assign(api, assignees, pull, before, target, log) : []
  }
  if (owner.merge === 'none') return result
  const method = owner.mergeMethod
  const elsewhere = owner.docsRepository && !same(owner.docsRepository, target.repository)
  if (elsewhere) {
    log.warning(
      `merge: auto acts only on a pull request in docs-repository ${owner.docsRepository}: ${target.label} is left open.`
    )
    return { ...result, merge: { result: 'open', method, why: `not in docs-repository ${owner.docsRepository}` } }
  }
  // A group's record on the docs pull request may know what the run's own records do not.
  const outsider = state.outsider ?? (await groupRecordOutsider(settings, state.jobId, target, deps))
  const checks = settings.docsChecks === 'none' ? undefined : state.docsChecks
  const verdict = checks && { result: checks.result, head: checks.head }
  const ask = { pull, target, method, outsider, reviewers: result.reviewers, checks: verdict }
  return { ...result, merge: await mergeDocsPull(api, ask, deps) }
}

/** The docs pull request at `url`, when the token may write to it; undefined otherwise, said when it is elsewhere. */
function docsTarget(url: string, state: Readonly<RunState>, deps: OwnerDeps): Target | undefined {
  // The link is the server's: only a pull request in the job's own repository gets the token's writes.
  const bound = labelTarget(url, state.job?.source?.repository, deps.serverUrl)
  if (bound?.kind !== 'label') {
    if (bound) deps.log.warning(`Not acting on the docs pull request ${inline(url, 200)}: ${bound.reason}.`)
    return undefined
  }
  const { pr } = bound
  const repository = `${pr.owner}/${pr.repo}`
  return { pr, label: `${repository}#${pr.number}`, repository }
}

/** The owner API of the docs pull request and what it is now; undefined, with a warning, when it cannot be read. */
async function readDocsPull(
  target: Target,
  deps: OwnerDeps
): Promise<{ api: OwnerApi; pull: DocsPullFacts } | undefined> {
  try {
    const api = deps.github.owner(target.pr)
    return { api, pull: await api.pull() }
  } catch (error) {
    const refusal = refusalOf(error)
    const hint = refusal.lost ? '' : ` The ${DOCS_TOKEN} needs pull-requests: read on ${target.repository}.`
    deps.log.warning(
      `Could not read ${target.label} (${said(refusal)}), so nobody is asked to review it or assigned, and it is not merged.${hint}`
    )
    return undefined
  }
}

/** The logins and teams of an input: `author` resolved; bots, the docs PR's author and other organizations' teams left out, said once. */
function people(
  asked: Person[],
  input: 'reviewers' | 'assignees',
  { author, pull, target }: { author: RunAuthor; pull: DocsPullFacts; target: Target },
  log: Log
): string[] {
  const result: string[] = []
  for (const person of asked) {
    const who = person.kind === 'author' ? author.login : person.kind === 'user' ? person.login : teamName(person)
    if (who === undefined) {
      log.info(`${input}: author is ${author.role}, and the event does not say who that is: nobody is added for it.`)
      continue
    }
    const shown = `${person.kind === 'author' ? `author (${author.role}) ` : ''}${inline(who, 100)}`
    if (person.kind === 'team' && person.org.toLowerCase() !== target.pr.owner.toLowerCase()) {
      log.warning(
        `${input}: ${shown} is a team of another organization: GitHub asks only teams of ${target.pr.owner}, the owner of ${target.repository}, to review its pull requests.`
      )
      continue
    }
    if (isBot(who)) {
      log.info(`${input}: ${shown} is a bot: left out.`)
      continue
    }
    // GitHub refuses to ask a pull request's author to review it; assigning them is fine.
    if (input === 'reviewers' && same(who, pull.author)) {
      log.info(`${input}: ${shown} opened ${target.label}: GitHub does not ask a pull request's author to review it.`)
      continue
    }
    if (!result.some((known) => same(known, who))) result.push(who)
  }
  return result
}

/** Who was ever asked on the pull request; unreadable, nobody is asked (they might be asked twice). */
async function askedBefore(api: OwnerApi, target: Target, log: Log): Promise<Asked | undefined> {
  try {
    return await api.asked()
  } catch (error) {
    log.warning(
      `Could not read the events of ${target.label} (${said(refusalOf(error))}), so nobody is asked to review it or assigned: they might be asked twice. The ${DOCS_TOKEN} needs pull-requests: read on ${target.repository}.`
    )
    return undefined
  }
}

/** Asks those not asked before; who was asked (before or now), in the input's order. */
async function requestReviews(
  api: OwnerApi,
  wanted: string[],
  before: string[],
  target: Target,
  log: Log
): Promise<string[]> {
  const earlier = wanted.filter((who) => before.some((known) => same(known, who)))
  if (earlier.length) log.info(`${list(earlier)} already asked to review ${target.label}: not asked again.`)
  const fresh = wanted.filter((who) => !earlier.includes(who))
  const accepted = fresh.length ? await askToReview(api, fresh, target, log) : []
  return wanted.filter((who) => earlier.includes(who) || accepted.includes(who))
}

/**
 * One request for all; a 422 names nobody and does nothing, so each is then asked alone, to ask
 * those GitHub accepts and name those it refuses.
 */
async function askToReview(api: OwnerApi, fresh: string[], target: Target, log: Log): Promise<string[]> {
  const request = (who: string[]): Promise<void> =>
    api.requestReviewers(
      who.filter((w) => !w.includes('/')),
      who.filter((w) => w.includes('/')).map((team) => team.slice(team.indexOf('/') + 1))
    )
  const refused: [string, Refusal][] = []
  const accepted: string[] = []
  try {
    await request(fresh)
    accepted.push(...fresh)
  } catch (error) {
    const refusal = refusalOf(error)
    if (refusal.status !== 422 || fresh.length === 1)
      refused.push(...fresh.map((who): [string, Refusal] => [who, refusal]))
    else
      for (const who of fresh) {
        try {
          await request([who])
          accepted.push(who)
        } catch (alone) {
          refused.push([who, refusalOf(alone)])
        }
      }
  }
  if (accepted.length) log.info(`Asked ${list(accepted)} to review ${target.label}.`)
  if (refused.length) log.warning(reviewRefusal(refused, target))
  return accepted
}

function reviewRefusal(refused: [string, Refusal][], target: Target): string {
  const reasons = [...new Set(refused.map(([, refusal]) => said(refusal)))].join('; ')
  const [, first] = refused[0] ?? []
  const hint =
    first && forbidden(first)
      ? `The ${DOCS_TOKEN} needs pull-requests: write on ${target.repository}; the workflow's GITHUB_TOKEN cannot write to another repository.`
      : first?.lost
        ? 'The request may have reached GitHub: it is not sent again.'
        : `Reviewers must be collaborators of ${target.repository} (or members of its organization with access), and a team needs a token that can see the organization's teams: the workflow's GITHUB_TOKEN cannot (a GitHub App or fine-grained token can).`
  return `Could not ask ${list(refused.map(([who]) => who))} to review ${target.label} (${reasons}). ${hint}`
}

/** Assigns those never assigned before; who GitHub shows as assigned, of those asked for. */
async function assign(
  api: OwnerApi,
  wanted: string[],
  pull: DocsPullFacts,
  before: Asked,
  target: Target,
  log: Log
): Promise<string[]> {
  const fresh = wanted.filter((who) => ![...before.assignees, ...pull.assignees].some((known) => same(known, who)))
  let shown = pull.assignees
  if (fresh.length) {
    try {
      shown = await api.assign(fresh)
      const dropped = fresh.filter((who) => !shown.some((known) => same(known, who)))
      if (dropped.length < fresh.length)
        log.info(`Assigned ${list(fresh.filter((who) => !dropped.includes(who)))} to ${target.label}.`)
      if (dropped.length)
        log.warning(
          `GitHub did not assign ${list(dropped)} to ${target.label}: it leaves out, without an error, whom it cannot assign there (people without access to ${target.repository}), and everyone when the token lacks push access to it.`
        )
    } catch (error) {
      const refusal = refusalOf(error)
      const hint = forbidden(refusal)
        ? ` The ${DOCS_TOKEN} needs issues: write or pull-requests: write on ${target.repository}.`
        : ''
      log.warning(`Could not assign ${list(fresh)} to ${target.label} (${said(refusal)}).${hint}`)
    }
  }
  return shown.filter((who) => wanted.some((known) => same(known, who)))
}

/** Logins and repository names are case-insensitive on GitHub. */
function same(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase()
}

/** `@mona, acme/docs-team` for the log. */
export function list(who: string[]): string {
  return who.map((w) => inline(w.includes('/') ? w : `@${w}`, 100)).join(', ')
}
