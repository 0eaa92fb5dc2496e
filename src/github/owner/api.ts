/**
 * The docs pull request's owner: its people (REST: the pull request, its events, review requests,
 * assignees) and its merge (GraphQL: the merge state, `enablePullRequestAutoMerge` and
 * `disablePullRequestAutoMerge`; REST: the merge). Octokit is loaded on demand; the client never sends a write twice; a refusal throws the
 * Octokit error (`status` for REST, `errors` for GraphQL).
 */
import type { getOctokit } from '@actions/github'
import { isRecord } from '../event.js'
import { allPages } from '../pages.js'
import type { PullRequestRef } from '../pr-link.js'

type Octokit = ReturnType<typeof getOctokit>

export type MergeMethod = 'squash' | 'merge' | 'rebase'

/** The docs pull request as the REST API shows it. */
export interface DocsPullFacts {
  state: 'open' | 'closed' | 'merged'
  /** Who opened it (GitHub refuses a review request to them). */
  author: string
  /** The head commit: a merge at once merges this one or nothing. */
  head: string
  /** Pending review requests: logins, and teams as `org/slug`. */
  reviewers: string[]
  assignees: string[]
}

/** Everyone ever asked on the pull request, from its events: whoever answered, or was removed, included. */
export interface Asked {
  /** Logins, and teams as `org/slug`. */
  reviewers: string[]
  assignees: string[]
}

/** What decides between a merge at once and auto-merge (GraphQL). */
export interface MergeFacts {
  /** The pull request's node id, for the mutation. */
  id: string
  /** `CLEAN`, `BLOCKED`, `BEHIND`, `UNSTABLE`, `HAS_HOOKS`, `DIRTY`, `DRAFT` or `UNKNOWN` (still computed). */
  mergeState: string
  /** `REVIEW_REQUIRED`, `CHANGES_REQUESTED`, `APPROVED`; null when the branch requires no review. */
  reviewDecision: string | null
  /** Auto-merge is on already. */
  autoMerge: boolean
}

export interface OwnerApi {
  pull(): Promise<DocsPullFacts>
  asked(): Promise<Asked>
  /** Requests reviews of all of them, or (a 422) of none. */
  requestReviewers(logins: string[], teams: string[]): Promise<void>
  /** Adds assignees; who GitHub's answer shows as assigned (it drops silently whom it cannot assign). */
  assign(logins: string[]): Promise<string[]>
  mergeFacts(): Promise<MergeFacts>
  /** Auto-merge of the head `head` only: GitHub refuses it when the branch moved since it was read. */
  enableAutoMerge(id: string, method: MergeMethod, head: string): Promise<void>
  disableAutoMerge(id: string): Promise<void>
  /** Merges `head` (409 when the branch moved since). */
  merge(method: MergeMethod, head: string): Promise<void>
}

/** Pages of 100 events read at most: a pull request with more is not one the action opened this week. */
export const MAX_EVENT_PAGES = 10

// Variables named apart from Octokit's own options (`method`, `query`, `url`, `headers`…).
const MERGE_FACTS = `query($owner: String!, $repo: String!, $number: Int!) {
  repository(owner: $owner, name: $repo) {
    pullRequest(number: $number) {
      id mergeStateStatus reviewDecision
      autoMergeRequest { enabledAt }
    }
  }
}`
const ENABLE_AUTO_MERGE = `mutation($pullRequestId: ID!, $mergeMethod: PullRequestMergeMethod!, $expectedHeadOid: GitObjectID!) {
  enablePullRequestAutoMerge(input: { pullRequestId: $pullRequestId, mergeMethod: $mergeMethod, expectedHeadOid: $expectedHeadOid }) {
    pullRequest { autoMergeRequest { enabledAt } }
  }
}`
const DISABLE_AUTO_MERGE = `mutation($pullRequestId: ID!) {
  disablePullRequestAutoMerge(input: { pullRequestId: $pullRequestId }) {
    pullRequest { autoMergeRequest { enabledAt } }
  }
}`

/** GitHub answers errors, not nulls, for a repository or pull request it does not know. */
interface MergeFactsAnswer {
  repository: {
    pullRequest: {
      id: string
      mergeStateStatus: string
      reviewDecision: string | null
      autoMergeRequest: { enabledAt: string | null } | null
    }
  }
}

/** What every request shares: the Octokit loaded on demand, the pull request, and each request's signal. */
interface Pull {
  client: () => Promise<Octokit>
  owner: string
  repo: string
  number: number
  request: () => { signal: AbortSignal }
}

/** A team of the repository's owner, as `org/slug`. */
const team = (owner: string, slug: string): string => `${owner}/${slug}`

async function pullFacts({ client, owner, repo, number, request }: Pull): Promise<DocsPullFacts> {
  const octokit = await client()
  const { data } = await octokit.rest.pulls.get({ owner, repo, pull_number: number, request: request() })
  return {
    state: data.merged ? 'merged' : data.state === 'open' ? 'open' : 'closed',
    author: data.user.login,
    head: data.head.sha,
    reviewers: [
      ...(data.requested_reviewers ?? []).map((user) => user.login),
      ...(data.requested_teams ?? []).map((t) => team(owner, t.slug))
    ],
    assignees: (data.assignees ?? []).map((user) => user.login)
  }
}

async function asked({ client, owner, repo, number, request }: Pull): Promise<Asked> {
  const octokit = await client()
  let pages = 0
  // Each page with the listing's signal (allPages): Octokit's paginate would send them without it.
  const listing = request()
  const first = octokit.rest.issues.listEvents({
    owner,
    repo,
    issue_number: number,
    per_page: 100,
    request: listing
  })
  const events = await allPages(octokit, first, listing, (page) => {
    // Past the bound the read fails rather than answer part: someone could be asked twice.
    if (++pages > MAX_EVENT_PAGES)
      throw new Error(`pull request #${number} has more than ${MAX_EVENT_PAGES * 100} events: not read`)
    return page.map((event): Record<string, unknown> => ({ ...event }))
  })
  const field = (value: unknown, key: 'login' | 'slug'): string[] =>
    isRecord(value) && typeof value[key] === 'string' ? [value[key]] : []
  return {
    reviewers: events
      .filter((e) => e.event === 'review_requested')
      .flatMap((e) => [
        ...field(e.requested_reviewer, 'login'),
        ...field(e.requested_team, 'slug').map((slug) => team(owner, slug))
      ]),
    assignees: events.filter((e) => e.event === 'assigned').flatMap((e) => field(e.assignee, 'login'))
  }
}

async function requestReviewers(
  { client, owner, repo, number, request }: Pull,
  logins: string[],
  teams: string[]
): Promise<void> {
  const octokit = await client()
  await octokit.rest.pulls.requestReviewers({
    owner,
    repo,
    pull_number: number,
    reviewers: logins,
    team_reviewers: teams,
    request: request()
  })
}

async function assign({ client, owner, repo, number, request }: Pull, logins: string[]): Promise<string[]> {
  const octokit = await client()
  const { data } = await octokit.rest.issues.addAssignees({
    owner,
    repo,
    issue_number: number,
    assignees: logins,
    request: request()
  })
  return (data.assignees ?? []).map((user) => user.login)
}

async function mergeFacts({ client, owner, repo, number, request }: Pull): Promise<MergeFacts> {
  const octokit = await client()
  const answer = await octokit.graphql<MergeFactsAnswer>(MERGE_FACTS, {
    owner,
    repo,
    number,
    // mergeStateStatus was a preview field; GitHub Enterprise Server may still want the header.
    mediaType: { previews: ['merge-info-preview'] },
    request: request()
  })
  const pull = answer.repository.pullRequest
  return {
    id: pull.id,
    mergeState: pull.mergeStateStatus,
    reviewDecision: pull.reviewDecision,
    autoMerge: pull.autoMergeRequest !== null
  }
}

async function enableAutoMerge(
  { client, request }: Pull,
  id: string,
  method: MergeMethod,
  head: string
): Promise<void> {
  const octokit = await client()
  await octokit.graphql(ENABLE_AUTO_MERGE, {
    pullRequestId: id,
    mergeMethod: method.toUpperCase(),
    expectedHeadOid: head,
    request: request()
  })
}

async function disableAutoMerge({ client, request }: Pull, id: string): Promise<void> {
  const octokit = await client()
  await octokit.graphql(DISABLE_AUTO_MERGE, { pullRequestId: id, request: request() })
}

async function merge({ client, owner, repo, number, request }: Pull, method: MergeMethod, head: string): Promise<void> {
  const octokit = await client()
  await octokit.rest.pulls.merge({
    owner,
    repo,
    pull_number: number,
    merge_method: method,
    sha: head,
    request: request()
  })
}

/** The owner side of pull request `pr`; `signal` bounds each request. */
export function ownerApi(client: () => Promise<Octokit>, pr: PullRequestRef, signal: () => AbortSignal): OwnerApi {
  const { owner, repo, number } = pr
  const at: Pull = { client, owner, repo, number, request: () => ({ signal: signal() }) }
  return {
    pull: () => pullFacts(at),
    asked: () => asked(at),
    requestReviewers: (logins, teams) => requestReviewers(at, logins, teams),
    assign: (logins) => assign(at, logins),
    mergeFacts: () => mergeFacts(at),
    enableAutoMerge: (id, method, head) => enableAutoMerge(at, id, method, head),
    disableAutoMerge: (id) => disableAutoMerge(at, id),
    merge: (method, head) => merge(at, method, head)
  }
}
