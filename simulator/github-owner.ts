/**
 * The fake GitHub's side of a pull request's owner (simulator/github/pulls.ts and graphql.ts route here): review
 * requests, assignees and their events (REST), the merge state and auto-merge (GraphQL), and the
 * merge (REST), each with GitHub's refusals as GitHub words them.
 *
 *   gh.setMergeRules('acme/docs', { requiredChecks: true })     // BLOCKED until checks pass: auto-merge
 *   gh.setMergeRules('acme/docs', { allowAutoMerge: false })    // "Auto merge is not allowed for this repository"
 *   gh.setMergeRules('acme/docs', { requiredReviews: true })    // REVIEW_REQUIRED, BLOCKED (approved: APPROVED)
 *   gh.setMergeRules('acme/docs', { tokenCannotMerge: true })   // GraphQL FORBIDDEN, REST 403
 *   gh.addTeam('acme/docs-team')                                // a team the token can see
 *   gh.ownerOf('acme/docs', 5)                                  // requested, assigned, auto-merge, events
 *
 * Reviewers must be collaborators (a permission set with setPermission, other than none); a team
 * must have been added. One login or team that is neither makes the whole request a 422 that names
 * nobody, as GitHub answers. Assignees GitHub cannot assign are dropped without an error.
 */

/** How the repository merges. */
export interface MergeRules {
  /** Settings, "Allow auto-merge" (default true). */
  allowAutoMerge?: boolean
  /** Required status checks, pending on every pull request: BLOCKED. */
  requiredChecks?: boolean
  /** A required approving review, not given: REVIEW_REQUIRED, BLOCKED. */
  requiredReviews?: boolean
  /** The required review was given: APPROVED, and the reviews block nothing. */
  approved?: boolean
  /** The merge state shown instead (UNSTABLE, HAS_HOOKS, DIRTY, …). */
  mergeState?: string
  /** This many merge state reads answer UNKNOWN first, as right after a push. */
  unknownReads?: number
  /** The token may not merge: GraphQL FORBIDDEN, REST 403. */
  tokenCannotMerge?: boolean
  /** A rule refuses the REST merge: 405 with this message. */
  refuseMerge?: string
}

export type OwnerEvent =
  { event: 'review_requested'; reviewer?: string; team?: string } | { event: 'assigned'; assignee: string }

/** What a pull request's owner side holds. */
export interface PullOwner {
  reviewers: string[]
  /** Team slugs. */
  teams: string[]
  assignees: string[]
  autoMerge: { method: string } | undefined
  events: OwnerEvent[]
}

/** The pull request as the owner side needs it (the fake's own record, merged in place). */
export interface OwnedPull {
  id: number
  number: number
  user?: { login: string }
  head: { sha: string }
  merged?: boolean
  state?: 'open' | 'closed'
}

export interface OwnerAnswer {
  status: number
  json: unknown
}

const READY = ['CLEAN', 'HAS_HOOKS', 'UNSTABLE']
const NOT_COLLABORATOR = (repo: string): string =>
  `Reviews may only be requested from collaborators. One or more of the users or teams you specified is not a collaborator of the ${repo} repository.`

export class OwnerFake {
  private readonly rules = new Map<string, MergeRules>()
  private readonly teams = new Set<string>()
  private readonly pulls = new Map<string, PullOwner>()

  setRules(repo: string, rules: MergeRules): void {
    this.rules.set(repo.toLowerCase(), { ...rules })
  }

  addTeam(team: string): void {
    this.teams.add(team.toLowerCase())
  }

  /** The owner side of pull request `number` of `repo` (made on first use). */
  of(repo: string, number: number): PullOwner {
    const key = `${repo.toLowerCase()}#${number}`
    let owner = this.pulls.get(key)
    if (!owner) {
      owner = { reviewers: [], teams: [], assignees: [], autoMerge: undefined, events: [] }
      this.pulls.set(key, owner)
    }
    return owner
  }

  reset(): void {
    this.rules.clear()
    this.teams.clear()
    this.pulls.clear()
  }

  /** POST …/pulls/{n}/requested_reviewers: all or nothing, as GitHub does. */
  requestReviewers(
    repo: string,
    pull: OwnedPull,
    body: unknown,
    collaborator: (login: string) => boolean,
    json: () => unknown
  ): OwnerAnswer {
    const logins = strings(body, 'reviewers')
    const slugs = strings(body, 'team_reviewers')
    if (!logins || !slugs || logins.length + slugs.length === 0)
      return refusal(422, 'Invalid request.\n\n"reviewers" or "team_reviewers" must be a non-empty array of strings.')
    const org = repo.split('/')[0] ?? ''
    if (logins.some((login) => login.toLowerCase() === pull.user?.login.toLowerCase()))
      return refusal(422, 'Review cannot be requested from pull request author.')
    if (!logins.every(collaborator) || !slugs.every((slug) => this.teams.has(`${org}/${slug}`.toLowerCase())))
      return refusal(422, NOT_COLLABORATOR(repo))
    const owner = this.of(repo, pull.number)
    for (const login of logins) {
      if (!owner.reviewers.includes(login)) owner.reviewers.push(login)
      owner.events.push({ event: 'review_requested', reviewer: login })
    }
    for (const slug of slugs) {
      if (!owner.teams.includes(slug)) owner.teams.push(slug)
      owner.events.push({ event: 'review_requested', team: slug })
    }
    return { status: 201, json: json() }
  }

  /** POST …/issues/{n}/assignees: whom it cannot assign is dropped silently. */
  assign(
    repo: string,
    pull: OwnedPull,
    body: unknown,
    collaborator: (login: string) => boolean,
    json: () => unknown
  ): OwnerAnswer {
    const logins = strings(body, 'assignees')
    if (!logins) return refusal(422, 'Invalid request.\n\n"assignees" must be an array of strings.')
    const owner = this.of(repo, pull.number)
    for (const login of logins.filter(collaborator)) {
      if (owner.assignees.some((known) => known.toLowerCase() === login.toLowerCase())) continue
      owner.assignees.push(login)
      owner.events.push({ event: 'assigned', assignee: login })
    }
    return { status: 201, json: json() }
  }

  /** The merge state and review decision as GraphQL shows them. */
  mergeFacts(repo: string, pull: OwnedPull): Record<string, unknown> {
    const rules = this.rulesOf(repo)
    const owner = this.of(repo, pull.number)
    let mergeState = this.mergeState(repo, pull)
    if ((rules.unknownReads ?? 0) > 0) {
      rules.unknownReads = (rules.unknownReads ?? 0) - 1
      mergeState = 'UNKNOWN'
    }
    return {
      state: pull.merged ? 'MERGED' : (pull.state ?? 'open') === 'open' ? 'OPEN' : 'CLOSED',
      mergeStateStatus: mergeState,
      reviewDecision: rules.requiredReviews ? (rules.approved ? 'APPROVED' : 'REVIEW_REQUIRED') : null,
      autoMergeRequest: owner.autoMerge
        ? { enabledAt: '2024-05-01T12:00:00Z', mergeMethod: owner.autoMerge.method }
        : null
    }
  }

  /**
   * `enablePullRequestAutoMerge`: its data, or GitHub's errors. `expectedHeadOid` is its input's
   * "expected head OID of the pull request" (GitHub's GraphQL reference): another head is refused.
   * The refusal's words are assumed, as the REST merge's 409 words it.
   */
  enableAutoMerge(
    repo: string,
    pull: OwnedPull,
    method: unknown,
    expectedHead: unknown
  ): { data: unknown; errors?: unknown[] } {
    const rules = this.rulesOf(repo)
    const error = mutationError('enablePullRequestAutoMerge')
    if (rules.tokenCannotMerge) return error('FORBIDDEN', 'Resource not accessible by integration')
    if (expectedHead !== undefined && expectedHead !== pull.head.sha)
      return error('UNPROCESSABLE', 'Head branch was modified. Review and try the merge again.')
    if (!['MERGE', 'SQUASH', 'REBASE'].includes(String(method)))
      return error('INVALID', `Variable $mergeMethod of type PullRequestMergeMethod! was provided invalid value`)
    if (rules.allowAutoMerge === false)
      return error('UNPROCESSABLE', 'Pull request Auto merge is not allowed for this repository')
    if (pull.merged || (pull.state ?? 'open') !== 'open')
      return error('UNPROCESSABLE', 'Pull request Pull request is closed')
    const state = this.mergeState(repo, pull)
    if (READY.includes(state))
      return error('UNPROCESSABLE', `Pull request Pull request is in ${state.toLowerCase()} status`)
    this.of(repo, pull.number).autoMerge = { method: String(method) }
    return { data: { enablePullRequestAutoMerge: { pullRequest: { autoMergeRequest: { enabledAt: 'now' } } } } }
  }

  /** `disablePullRequestAutoMerge` (GitHub's GraphQL reference): auto-merge off; a token that may not merge is refused, as for the enable. */
  disableAutoMerge(repo: string, pull: OwnedPull): { data: unknown; errors?: unknown[] } {
    if (this.rulesOf(repo).tokenCannotMerge)
      return mutationError('disablePullRequestAutoMerge')('FORBIDDEN', 'Resource not accessible by integration')
    this.of(repo, pull.number).autoMerge = undefined
    return { data: { disablePullRequestAutoMerge: { pullRequest: { autoMergeRequest: null } } } }
  }

  /** PUT …/pulls/{n}/merge. */
  merge(repo: string, pull: OwnedPull, body: unknown): OwnerAnswer {
    const rules = this.rulesOf(repo)
    const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {}
    if (rules.tokenCannotMerge) return refusal(403, 'Resource not accessible by integration')
    if (pull.merged || (pull.state ?? 'open') !== 'open') return refusal(405, 'Pull Request is not mergeable')
    if (rules.refuseMerge) return refusal(405, rules.refuseMerge)
    if (this.mergeState(repo, pull) === 'BLOCKED')
      return refusal(
        405,
        rules.requiredReviews && !rules.approved
          ? 'At least 1 approving review is required by reviewers with write access.'
          : 'Required status check "docs-build" is expected.'
      )
    if (record.sha !== undefined && record.sha !== pull.head.sha)
      return refusal(409, 'Head branch was modified. Review and try the merge again.')
    pull.merged = true
    pull.state = 'closed'
    return { status: 200, json: { sha: pull.head.sha, merged: true, message: 'Pull Request successfully merged' } }
  }

  private mergeState(repo: string, pull: OwnedPull): string {
    const rules = this.rulesOf(repo)
    if (pull.merged || (pull.state ?? 'open') !== 'open') return 'UNKNOWN'
    const awaitingReview = rules.requiredReviews && !rules.approved
    return rules.mergeState ?? (rules.requiredChecks || awaitingReview ? 'BLOCKED' : 'CLEAN')
  }

  private rulesOf(repo: string): MergeRules {
    let rules = this.rules.get(repo.toLowerCase())
    if (!rules) {
      rules = {}
      this.rules.set(repo.toLowerCase(), rules)
    }
    return rules
  }
}

function strings(body: unknown, field: string): string[] | undefined {
  if (typeof body !== 'object' || body === null) return undefined
  const value = (body as Record<string, unknown>)[field]
  if (value === undefined) return []
  return Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : undefined
}

/** A mutation's refusal, as GitHub's GraphQL answers it: null data and the error. */
function mutationError(name: string): (type: string, message: string) => { data: unknown; errors: unknown[] } {
  return (type, message) => ({
    data: { [name]: null },
    errors: [{ type, path: [name], locations: [{ line: 2, column: 3 }], message }]
  })
}

function refusal(status: number, message: string): OwnerAnswer {
  return { status, json: { message, documentation_url: 'https://docs.github.com/rest/pulls', status: String(status) } }
}
