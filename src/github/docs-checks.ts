/**
 * The checks on the docs pull request's head (GitHub's REST API): the pull request's head commit,
 * its check runs (`GET …/commits/{sha}/check-runs`), its combined status (`GET
 * …/commits/{ref}/status`) and a check run's annotations (`GET …/check-runs/{id}/annotations`).
 * Every page of a list is read with the step's signal (allPages, pages.ts); a failure throws the
 * Octokit error (`status`).
 */
import type { getOctokit } from '@actions/github'
import type { PullRequestRef } from './pr-link.js'
import { allPages } from './pages.js'
import type { CountedRequest, RequestCount } from './requests.js'

type Octokit = ReturnType<typeof getOctokit>

/**
 * Pages of 100 read at most per list: a commit with more checks than that is not one the agent
 * made. Past it the read fails rather than judge part: a check left unread could be failing.
 */
export const MAX_CHECK_LIST_PAGES = 5

/** A check run on the head, as the step judges and reports it. */
export interface DocsCheckRun {
  id: number
  name: string
  /** `queued`, `in_progress`, `completed` (or another GitHub adds: anything but completed is running). */
  status: string
  conclusion: string | null
  url: string | undefined
  title: string
  summary: string
  annotations: number
}

/** One commit status, the newest of its context (the combined status keeps only those). */
export interface DocsStatus {
  context: string
  /** `error`, `failure`, `pending` or `success`. */
  state: string
  description: string
  url: string | undefined
}

export interface DocsAnnotation {
  path: string
  line: number
  message: string
}

export interface DocsChecksApi {
  /** The pull request's head commit. */
  head(): Promise<string>
  checkRuns(sha: string): Promise<DocsCheckRun[]>
  statuses(sha: string): Promise<DocsStatus[]>
  /** The first `max` annotations of check run `id`, and how many it has. */
  annotations(id: number, max: number): Promise<DocsAnnotation[]>
}

/** The checks of pull request `pr` through an Octokit loaded on demand; `signal` bounds each request. */
export function docsChecksApi(
  client: () => Promise<Octokit>,
  pr: PullRequestRef,
  signal: () => AbortSignal,
  count?: RequestCount
): DocsChecksApi {
  const { owner, repo } = pr
  const request = (): CountedRequest => ({ signal: signal(), count })
  return {
    head: async () => {
      const octokit = await client()
      const { data } = await octokit.rest.pulls.get({ owner, repo, pull_number: pr.number, request: request() })
      return data.head.sha
    },
    checkRuns: async (sha) => {
      const octokit = await client()
      const options = request()
      const first = octokit.rest.checks.listForRef({ owner, repo, ref: sha, per_page: 100, request: options })
      return allPages(
        octokit,
        first,
        options,
        bounded(`check runs on ${sha}`, (data) => data.check_runs.map(checkRun))
      )
    },
    statuses: async (sha) => {
      const octokit = await client()
      const options = request()
      const first = octokit.rest.repos.getCombinedStatusForRef({
        owner,
        repo,
        ref: sha,
        per_page: 100,
        request: options
      })
      return allPages(
        octokit,
        first,
        options,
        bounded(`statuses on ${sha}`, (data) => data.statuses.map(commitStatus))
      )
    },
    annotations: async (id, max) => {
      const octokit = await client()
      const options = request()
      const first = octokit.rest.checks.listAnnotations({
        owner,
        repo,
        check_run_id: id,
        per_page: 100,
        request: options
      })
      const keep = (data: Awaited<typeof first>['data']): DocsAnnotation[] =>
        data.map((a) => ({ path: a.path, line: a.start_line, message: a.message ?? '' }))
      return (await allPages(octokit, first, options, keep, Math.ceil(max / 100))).slice(0, max)
    }
  }
}

/** `keep` for at most MAX_CHECK_LIST_PAGES pages; one more throws. */
function bounded<D, R>(what: string, keep: (page: D) => R[]): (page: D) => R[] {
  let pages = 0
  return (page) => {
    if (++pages > MAX_CHECK_LIST_PAGES) throw new Error(`more than ${MAX_CHECK_LIST_PAGES * 100} ${what}: not judged`)
    return keep(page)
  }
}

type CheckRunData = Awaited<ReturnType<Octokit['rest']['checks']['listForRef']>>['data']['check_runs'][number]
type StatusData = Awaited<ReturnType<Octokit['rest']['repos']['getCombinedStatusForRef']>>['data']['statuses'][number]

function checkRun(run: CheckRunData): DocsCheckRun {
  return {
    id: run.id,
    name: run.name,
    status: run.status,
    conclusion: run.conclusion,
    url: run.html_url ?? run.details_url ?? undefined,
    title: run.output.title ?? '',
    summary: run.output.summary ?? '',
    annotations: run.output.annotations_count
  }
}

function commitStatus(status: StatusData): DocsStatus {
  return {
    context: status.context,
    state: status.state,
    description: status.description ?? '',
    url: status.target_url ?? undefined
  }
}
