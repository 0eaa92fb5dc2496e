/**
 * Check runs of `owner/name` (GitHub's checks API): one created on a commit, updated in place, and
 * those of a name on a commit listed with their `external_id`, which GitHub keeps but does not
 * filter on; and the commits a check goes on that the event does not name (a commented pull
 * request's head, a tag's commit). The client never sends a write again after a 5xx (client.ts);
 * a refusal throws the Octokit error.
 */
import type { getOctokit } from '@actions/github'
import { truncate } from '../base/text.js'
import { allPages } from './pages.js'

type Octokit = ReturnType<typeof getOctokit>

/** GitHub's limit on a check run's `output.summary`. */
export const MAX_CHECK_SUMMARY_CHARS = 65_535
/** Longest a check request may take: the check is written after a cancel too, within the runner's grace. */
const CHECK_TIMEOUT_MS = 10_000
/**
 * Pages of 100 check runs of one name on one commit read at most: each attempt of each workflow run
 * on the commit makes one, so a commit with more is not searched further.
 */
export const MAX_CHECK_PAGES = 3

/** How a check run ended, as GitHub names it. */
export type CheckConclusion = 'success' | 'neutral' | 'failure' | 'timed_out' | 'cancelled' | 'skipped'

/** In progress, or completed with its conclusion. */
export type CheckState = { status: 'in_progress' } | { status: 'completed'; conclusion: CheckConclusion }

/** What a check run shows: a title, and a summary in markdown. */
export interface CheckOutput {
  title: string
  summary: string
}

/** A check run as the action knows it: its id and its page. */
export interface CheckRun {
  id: number
  url: string | undefined
}

/** A check run as listed on a commit: whose it is (`external_id`) and whether it is completed. */
export interface ListedCheckRun extends CheckRun {
  externalId: string | undefined
  completed: boolean
}

export interface CheckRunApi {
  /** `POST /repos/{owner}/{repo}/check-runs`. */
  create(
    run: { name: string; headSha: string; externalId: string | undefined; detailsUrl: string | undefined },
    state: CheckState,
    output: CheckOutput
  ): Promise<CheckRun>
  /** `PATCH /repos/{owner}/{repo}/check-runs/{id}`. */
  update(id: number, state: CheckState, output: CheckOutput, detailsUrl: string | undefined): Promise<void>
  /** The check runs named `name` on commit `sha`, newest first (MAX_CHECK_PAGES pages of them at most). */
  list(sha: string, name: string): Promise<ListedCheckRun[]>
  /** The head commit of pull request `number`. */
  pullHead(number: number): Promise<string>
  /** The commit tag `tag` points to, through an annotated tag's object. */
  tagCommit(tag: string): Promise<string>
}

/** The check runs of `owner/name` through an Octokit loaded on demand. */
export function checkRunApi(client: () => Promise<Octokit>, repository: string): CheckRunApi {
  const [owner = '', repo = ''] = repository.split('/')
  const request = (): { signal: AbortSignal } => ({ signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) })
  const fields = (state: CheckState, output: CheckOutput) => ({
    ...state,
    output: { title: output.title, summary: truncate(output.summary, MAX_CHECK_SUMMARY_CHARS) }
  })
  return {
    create: async ({ name, headSha, externalId, detailsUrl }, state, output) => {
      const octokit = await client()
      const { data } = await octokit.rest.checks.create({
        owner,
        repo,
        name,
        head_sha: headSha,
        // Octokit leaves out what is undefined.
        external_id: externalId,
        details_url: detailsUrl,
        ...fields(state, output),
        request: request()
      })
      return { id: data.id, url: data.html_url ?? undefined }
    },
    update: async (id, state, output, detailsUrl) => {
      const octokit = await client()
      await octokit.rest.checks.update({
        owner,
        repo,
        check_run_id: id,
        details_url: detailsUrl,
        ...fields(state, output),
        request: request()
      })
    },
    list: async (sha, name) => {
      const octokit = await client()
      const listing = request()
      const first = octokit.rest.checks.listForRef({
        owner,
        repo,
        ref: sha,
        check_name: name,
        filter: 'all',
        per_page: 100,
        request: listing
      })
      const runs = await allPages(octokit, first, listing, (page) => page.check_runs, MAX_CHECK_PAGES)
      return runs
        .map((run) => ({
          id: run.id,
          url: run.html_url ?? undefined,
          externalId: run.external_id ?? undefined,
          completed: run.status === 'completed'
        }))
        .sort((a, b) => b.id - a.id)
    },
    pullHead: async (number) => {
      const octokit = await client()
      const { data } = await octokit.rest.pulls.get({ owner, repo, pull_number: number, request: request() })
      return data.head.sha
    },
    tagCommit: async (tag) => {
      const octokit = await client()
      const { data } = await octokit.rest.git.getRef({ owner, repo, ref: `tags/${tag}`, request: request() })
      if (data.object.type !== 'tag') return data.object.sha
      const annotated = await octokit.rest.git.getTag({ owner, repo, tag_sha: data.object.sha, request: request() })
      return annotated.data.object.sha
    }
  }
}
