/**
 * The checks on the docs pull request's head (GitHub's REST API): the pull request's head commit,
 * its check runs (`GET …/commits/{sha}/check-runs`), its check suites (`GET
 * …/commits/{ref}/check-suites`), its combined status (`GET …/commits/{ref}/status`) and a check
 * run's annotations (`GET …/check-runs/{id}/annotations`).
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

/**
 * A check suite on the head: GitHub makes one per app at the push, before the app has made any
 * check run (https://docs.github.com/en/rest/guides/using-the-rest-api-to-interact-with-checks).
 */
export interface DocsCheckSuite {
  /** The app's name (its slug when GitHub gives no name). */
  app: string
  /** `queued`, `in_progress`, `completed`, or one GitHub Actions keeps (`waiting`, `requested`, `pending`). */
  status: string
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
  checkSuites(sha: string): Promise<DocsCheckSuite[]>
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
    ...headLists(client, pr, request),
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

/** The head's lists, every page read with the step's signal: at most MAX_CHECK_LIST_PAGES each. */
function headLists(
  client: () => Promise<Octokit>,
  { owner, repo }: PullRequestRef,
  request: () => CountedRequest
): Pick<DocsChecksApi, 'checkRuns' | 'checkSuites' | 'statuses'> {
  // `first` asks for the first page of `sha`'s list.
  const listed = async <D, R>(
    what: string,
    sha: string,
    first: (octokit: Octokit, params: ListParams) => Promise<{ data: D; headers: { link?: string | undefined } }>,
    keep: (page: D) => R[]
  ): Promise<R[]> => {
    const octokit = await client()
    const options = request()
    const params = { owner, repo, ref: sha, per_page: 100, request: options }
    return allPages(octokit, first(octokit, params), options, bounded(`${what} on ${sha}`, keep))
  }
  return {
    checkRuns: (sha) =>
      listed(
        'check runs',
        sha,
        (o, p) => o.rest.checks.listForRef(p),
        (d) => d.check_runs.map(checkRun)
      ),
    checkSuites: (sha) =>
      listed(
        'check suites',
        sha,
        (o, p) => o.rest.checks.listSuitesForRef(p),
        (d) => d.check_suites.map(checkSuite)
      ),
    statuses: (sha) =>
      listed(
        'statuses',
        sha,
        (o, p) => o.rest.repos.getCombinedStatusForRef(p),
        (d) => d.statuses.map(commitStatus)
      )
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

/** A list's first page, asked for: of `ref`, 100 a page, with the step's signal (Octokit's parameters). */
interface ListParams extends Record<string, unknown> {
  owner: string
  repo: string
  ref: string
  per_page: number
  request: CountedRequest
}

type CheckRunData = Awaited<ReturnType<Octokit['rest']['checks']['listForRef']>>['data']['check_runs'][number]
type SuiteData = Awaited<ReturnType<Octokit['rest']['checks']['listSuitesForRef']>>['data']['check_suites'][number]
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

function checkSuite(suite: SuiteData): DocsCheckSuite {
  // GitHub's schema lets `app` and `status` be null (an app's `name` it requires): an unknown app, a
  // suite not known to be completed.
  const app = suite.app?.name ?? 'an unnamed app'
  return { app, status: suite.status ?? 'queued' }
}

function commitStatus(status: StatusData): DocsStatus {
  return {
    context: status.context,
    state: status.state,
    description: status.description ?? '',
    url: status.target_url ?? undefined
  }
}
