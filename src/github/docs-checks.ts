/**
 * The checks on the docs pull request's head (GitHub's REST API): the pull request's head commit,
 * its check runs (`GET …/commits/{sha}/check-runs`), its combined status (`GET
 * …/commits/{ref}/status`) and a check run's annotations (`GET …/check-runs/{id}/annotations`).
 * Every page of a list is read, each with the step's signal (Octokit's `paginate` would drop it,
 * pages.ts); a failure throws the Octokit error (`status`).
 */
import type { getOctokit } from '@actions/github'
import type { PullRequestRef } from './pr-link.js'
import type { RequestCount } from './requests.js'

type Octokit = ReturnType<typeof getOctokit>

/** Pages of 100 read at most per list: a commit with more checks than that is not one the agent made. */
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
  const request = (): { signal: AbortSignal; fetch?: typeof fetch | undefined } => ({
    signal: signal(),
    fetch: count?.fetch
  })
  /** Page 1, 2… of a list until one comes back short, or `pages` were read. */
  const pages = async <T>(read: (page: number) => Promise<T[]>, pages = MAX_CHECK_LIST_PAGES): Promise<T[]> => {
    const all: T[] = []
    for (let page = 1; page <= pages; page++) {
      const items = await read(page)
      all.push(...items)
      if (items.length < 100) break
    }
    return all
  }
  return {
    head: async () => {
      const octokit = await client()
      const { data } = await octokit.rest.pulls.get({ owner, repo, pull_number: pr.number, request: request() })
      return data.head.sha
    },
    checkRuns: async (sha) => {
      const octokit = await client()
      return pages(async (page) => {
        const { data } = await octokit.rest.checks.listForRef({
          owner,
          repo,
          ref: sha,
          per_page: 100,
          page,
          request: request()
        })
        return data.check_runs.map((run): DocsCheckRun => ({
          id: run.id,
          name: run.name,
          status: run.status,
          conclusion: run.conclusion,
          url: run.html_url ?? run.details_url ?? undefined,
          title: run.output.title ?? '',
          summary: run.output.summary ?? '',
          annotations: run.output.annotations_count
        }))
      })
    },
    statuses: async (sha) => {
      const octokit = await client()
      return pages(async (page) => {
        const { data } = await octokit.rest.repos.getCombinedStatusForRef({
          owner,
          repo,
          ref: sha,
          per_page: 100,
          page,
          request: request()
        })
        return data.statuses.map((status): DocsStatus => ({
          context: status.context,
          state: status.state,
          description: status.description ?? '',
          url: status.target_url ?? undefined
        }))
      })
    },
    annotations: async (id, max) => {
      const octokit = await client()
      const all = await pages(
        async (page) => {
          const { data } = await octokit.rest.checks.listAnnotations({
            owner,
            repo,
            check_run_id: id,
            per_page: 100,
            page,
            request: request()
          })
          return data.map((a) => ({ path: a.path, line: a.start_line, message: a.message ?? '' }))
        },
        Math.ceil(max / 100)
      )
      return all.slice(0, max)
    }
  }
}
