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

/**
 * GitHub's limit on a check run's `output.summary`: its docs say 65,535 characters, its API counts
 * UTF-8 bytes ("summary exceeds a maximum bytesize of 65535", github/docs issue 35252), and refuses
 * the whole write, which would leave the run in progress.
 */
export const MAX_CHECK_SUMMARY_BYTES = 65_535
const utf8Bytes = (text: string): number => Buffer.byteLength(text, 'utf8')
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

/** A check run to create: its name, its commit, whose it is and the page it links to. */
export interface NewCheckRun {
  name: string
  headSha: string
  externalId: string | undefined
  detailsUrl: string | undefined
}

export interface CheckRunApi {
  /** `POST /repos/{owner}/{repo}/check-runs`. */
  create(run: NewCheckRun, state: CheckState, output: CheckOutput): Promise<CheckRun>
  /** `PATCH /repos/{owner}/{repo}/check-runs/{id}`. */
  update(id: number, state: CheckState, output: CheckOutput, detailsUrl: string | undefined): Promise<void>
  /** The check runs named `name` on commit `sha`, newest first (MAX_CHECK_PAGES pages of them at most). */
  list(sha: string, name: string): Promise<ListedCheckRun[]>
  /** The head commit of pull request `number`. */
  pullHead(number: number): Promise<string>
  /** The commit tag `tag` points to, through an annotated tag's object. */
  tagCommit(tag: string): Promise<string>
}

/** What every request shares: the Octokit loaded on demand, and the repository's owner and name. */
interface Repo {
  client: () => Promise<Octokit>
  owner: string
  repo: string
}

/** A fresh signal per request, so each gets the whole CHECK_TIMEOUT_MS. */
const request = (): { signal: AbortSignal } => ({ signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) })

/** A check run's state and output as GitHub takes them, the summary cut to GitHub's limit. */
const fields = (state: CheckState, output: CheckOutput) => ({
  ...state,
  output: { title: output.title, summary: truncate(output.summary, MAX_CHECK_SUMMARY_BYTES, utf8Bytes) }
})

async function createCheckRun(
  { client, owner, repo }: Repo,
  { name, headSha, externalId, detailsUrl }: NewCheckRun,
  state: CheckState,
  output: CheckOutput
): Promise<CheckRun> {
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
}

async function updateCheckRun(
  { client, owner, repo }: Repo,
  id: number,
  state: CheckState,
  output: CheckOutput,
  detailsUrl: string | undefined
): Promise<void> {
  const octokit = await client()
  await octokit.rest.checks.update({
    owner,
    repo,
    check_run_id: id,
    details_url: detailsUrl,
    ...fields(state, output),
    request: request()
  })
}

async function listCheckRuns({ client, owner, repo }: Repo, sha: string, name: string): Promise<ListedCheckRun[]> {
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
}

async function pullHead({ client, owner, repo }: Repo, number: number): Promise<string> {
  const octokit = await client()
  const { data } = await octokit.rest.pulls.get({ owner, repo, pull_number: number, request: request() })
  return data.head.sha
}

async function tagCommit({ client, owner, repo }: Repo, tag: string): Promise<string> {
  const octokit = await client()
  const { data } = await octokit.rest.git.getRef({ owner, repo, ref: `tags/${tag}`, request: request() })
  if (data.object.type !== 'tag') return data.object.sha
  const annotated = await octokit.rest.git.getTag({ owner, repo, tag_sha: data.object.sha, request: request() })
  return annotated.data.object.sha
}

/** The check runs of `owner/name` through an Octokit loaded on demand. */
export function checkRunApi(client: () => Promise<Octokit>, repository: string): CheckRunApi {
  const [owner = '', repo = ''] = repository.split('/')
  const at: Repo = { client, owner, repo }
  return {
    create: (run, state, output) => createCheckRun(at, run, state, output),
    update: (id, state, output, detailsUrl) => updateCheckRun(at, id, state, output, detailsUrl),
    list: (sha, name) => listCheckRuns(at, sha, name),
    pullHead: (number) => pullHead(at, number),
    tagCommit: (tag) => tagCommit(at, tag)
  }
}
