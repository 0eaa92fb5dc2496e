/**
 * The reads the context makes of one repository (GitHubClient.reader): releases, tags, comparisons,
 * a pull request's files and a workflow's successful runs, one function per request, every one
 * aborted by the same signal and counted.
 */
import type { getOctokit } from '@actions/github'
import { toCommit, type Commit } from './commit.js'
import { packageReads, type PackageReads } from './context/package-reads.js'
import { allPages } from './pages.js'
import { RequestCount, type CountedRequest } from './requests.js'
import { changedFile, type ChangedFile } from './changed-file.js'

type Octokit = ReturnType<typeof getOctokit>

/** Successful runs read to find the base of a scheduled run: the newest few are enough. */
const RUNS_READ = 5

/** A GitHub Release, as much of it as the context uses. */
export interface Release {
  tag: string
  name: string
  body: string
  url: string | undefined
}

/** A tag ref: `type` is `tag` for an annotated tag (`sha` is then the tag object's). */
export interface TagRef {
  name: string
  type: string
  sha: string
}

export interface Comparison {
  /** `ahead` when base is an ancestor of head; `identical`, `behind` or `diverged` otherwise. */
  status: string
  commits: Commit[]
  /** All the commits between the two, of which `commits` may be the first 250. */
  total: number
  /** The changed files, at most 300, with their patches. */
  files: ChangedFile[]
  /** GitHub's answer had no file list at all (the schema leaves `files` optional): `files` is then empty. */
  filesMissing?: boolean
  url: string | undefined
}

/** A successful run of a workflow. */
export interface WorkflowRun {
  headSha: string
  url: string
  /** When it was created (ISO 8601). */
  createdAt: string
}

/** The reads the context makes. A failure throws the Octokit error (with `status`). */
export interface GitHubReader extends PackageReads {
  /** The requests these reads sent: every try and every page. */
  requests(): number
  /** The release of a tag; undefined when there is none (404). */
  releaseByTag(tag: string): Promise<Release | undefined>
  /** The tags whose names start with `prefix` ('' for all), every page of them. */
  tagRefs(prefix: string): Promise<TagRef[]>
  /** The message of an annotated tag object. */
  tagMessage(sha: string): Promise<string>
  compare(base: string, head: string): Promise<Comparison>
  /** Page `page` (from 1) of a pull request's changed files, 100 a page. */
  pullFiles(number: number, page?: number): Promise<ChangedFile[]>
  /** The newest successful runs of workflow file `workflow` on `branch` for `event`, newest first. */
  successfulRuns(workflow: string, branch: string, event: string): Promise<WorkflowRun[]>
}

/** What every read shares: the Octokit loaded on demand, the repository, and the request's signal and count. */
interface Reads {
  client: () => Promise<Octokit>
  owner: string
  repo: string
  request: CountedRequest
}

async function releaseByTag({ client, owner, repo, request }: Reads, tag: string): Promise<Release | undefined> {
  const octokit = await client()
  try {
    const { data } = await octokit.rest.repos.getReleaseByTag({ owner, repo, tag, request })
    return { tag: data.tag_name, name: data.name ?? '', body: data.body ?? '', url: data.html_url }
  } catch (error) {
    if ((error as { status?: unknown }).status === 404) return undefined
    throw error
  }
}

async function tagRefs({ client, owner, repo, request }: Reads, prefix: string): Promise<TagRef[]> {
  const octokit = await client()
  const ref = prefix ? `tags/${prefix}` : 'tags'
  // GitHub answers matching-refs whole today; pages are followed should it ever send a Link.
  return allPages(octokit, octokit.rest.git.listMatchingRefs({ owner, repo, ref, request }), request, (refs) =>
    refs.map((tag) => ({
      name: tag.ref.replace(/^refs\/tags\//, ''),
      type: tag.object.type,
      sha: tag.object.sha
    }))
  )
}

async function tagMessage({ client, owner, repo, request }: Reads, sha: string): Promise<string> {
  const octokit = await client()
  const { data } = await octokit.rest.git.getTag({ owner, repo, tag_sha: sha, request })
  return data.message
}

async function compare({ client, owner, repo, request }: Reads, base: string, head: string): Promise<Comparison> {
  const octokit = await client()
  const { data } = await octokit.rest.repos.compareCommitsWithBasehead({
    owner,
    repo,
    basehead: `${base}...${head}`,
    request
  })
  return {
    status: data.status,
    commits: data.commits.map(toCommit),
    total: data.total_commits,
    files: (data.files ?? []).map(changedFile),
    ...(data.files ? {} : { filesMissing: true }),
    url: data.html_url
  }
}

async function pullFiles(
  { client, owner, repo, request }: Reads,
  number: number,
  page: number
): Promise<ChangedFile[]> {
  const octokit = await client()
  const { data } = await octokit.rest.pulls.listFiles({
    owner,
    repo,
    pull_number: number,
    per_page: 100,
    page,
    request
  })
  return data.map(changedFile)
}

async function successfulRuns(
  { client, owner, repo, request }: Reads,
  workflow: string,
  branch: string,
  event: string
): Promise<WorkflowRun[]> {
  const octokit = await client()
  const { data } = await octokit.rest.actions.listWorkflowRuns({
    owner,
    repo,
    workflow_id: workflow,
    branch,
    event,
    status: 'success',
    per_page: RUNS_READ,
    request
  })
  return data.workflow_runs.map((run) => ({
    headSha: run.head_sha,
    url: run.html_url,
    createdAt: run.created_at
  }))
}

/** Reads of `owner/name` through an Octokit loaded on demand, each aborted by `signal`. */
export function githubReader(client: () => Promise<Octokit>, repository: string, signal: AbortSignal): GitHubReader {
  const [owner = '', repo = ''] = repository.split('/')
  const count = new RequestCount()
  const request = { signal, count }
  const at: Reads = { client, owner, repo, request }
  return {
    requests: () => count.sent,
    ...packageReads(client, owner, repo, request),
    releaseByTag: (tag) => releaseByTag(at, tag),
    tagRefs: (prefix) => tagRefs(at, prefix),
    tagMessage: (sha) => tagMessage(at, sha),
    compare: (base, head) => compare(at, base, head),
    pullFiles: (number, page = 1) => pullFiles(at, number, page),
    successfulRuns: (workflow, branch, event) => successfulRuns(at, workflow, branch, event)
  }
}
