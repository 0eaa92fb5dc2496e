import type { getOctokit } from '@actions/github'
import { checkRunApi, type CheckRunApi } from './check-run.js'
import { docsChecksApi, type DocsChecksApi } from './docs-checks.js'
import { conversationApi, type ConversationApi } from './conversation/api.js'
import type { DocsPull } from './group/find.js'
import { openPulls, pullState } from './group/pulls.js'
import { ownerApi, type OwnerApi } from './owner/api.js'
import { toRepoPermission, type RepoPermission } from './permissions.js'
import type { PullRequestRef } from './pr-link.js'
import { pullBranch } from './pull-branch.js'
import { countRequests, type RequestCount } from './requests.js'
import { githubReader, type GitHubReader } from './reader.js'
import { systemClock, type Clock } from '../base/clock.js'
import { yieldWithoutTimers } from './limiter.js'
import { recordTries, retryReads, throttleOptions, type RetryPace } from './retry.js'
import { redactWrites } from './redact-writes.js'

type Octokit = ReturnType<typeof getOctokit>

const LABEL_TIMEOUT_MS = 30_000

/**
 * The GitHub REST API through `@actions/github`'s Octokit, with one token (docs-client.ts). The module (and
 * Octokit with it) is loaded on first use, so runs that read and label nothing never pay for it.
 * `apiUrl` is `GITHUB_API_URL`, so GitHub Enterprise Server works. Reads are retried on 5xx and
 * lost connections, on the step's clock, and on rate limits; writes only on rate limits (retry.ts).
 * Every write has the secrets taken out of its text (redact-writes.ts).
 */
export class GitHubClient {
  private octokit: Promise<Octokit> | undefined
  private readonly clock: Clock
  private readonly pace: RetryPace
  private readonly secrets: readonly string[]
  /** The error of a write without a token, naming its input. */
  private readonly empty: string

  constructor(
    private readonly token: string,
    private readonly apiUrl: string | undefined,
    /**
     * The step's clock, for the waits between a read's tries; the throttling plugin's waits' pace
     * (tests shorten both); the input the token came from, for the errors of an empty one; the
     * secrets no write carries.
     */
    options: { clock?: Clock; pace?: RetryPace; input?: string; secrets?: readonly string[] } = {}
  ) {
    this.clock = options.clock ?? systemClock
    this.pace = options.pace ?? { msPerSecond: 1000 }
    this.empty = `the '${options.input ?? 'github-token'}' input is empty`
    this.secrets = [token, ...(options.secrets ?? [])]
  }

  private client(): Promise<Octokit> {
    this.octokit ??= import('./octokit.js').then(({ getOctokit, throttling, limiter, parseJson }) => {
      yieldWithoutTimers(limiter)
      const options = { ...throttleOptions(this.pace, limiter), ...(this.apiUrl ? { baseUrl: this.apiUrl } : {}) }
      // recordTries first: inside the throttling plugin, it sees each of its tries.
      const octokit = getOctokit(this.token, options, recordTries, throttling)
      countRequests(octokit)
      // Inside the retries: a body that stalls ends on the read's signal, as its answer would.
      parseJson(octokit)
      redactWrites(octokit, this.secrets)
      retryReads(octokit, this.clock)
      return octokit
    })
    return this.octokit
  }

  /** Reads of `owner/name`, each aborted by `signal`. */
  reader(repository: string, signal: AbortSignal): GitHubReader {
    return githubReader(() => this.client(), repository, signal)
  }

  /** The head branch of a pull request (the docs PR, for its preview). */
  pullBranch(pr: PullRequestRef, signal: AbortSignal): Promise<string> {
    return pullBranch(() => this.client(), pr, signal)
  }

  /** The open pull requests of `owner/name`, newest first (the first 100); its requests counted in `count`. */
  openPulls(repository: string, signal: AbortSignal, count?: RequestCount): Promise<DocsPull[]> {
    return openPulls(() => this.client(), repository, { signal, count })
  }

  /** Whether pull request `number` of `owner/name` is open, closed or merged; its requests counted in `count`. */
  pullState(repository: string, number: number, signal: AbortSignal, count?: RequestCount) {
    return pullState(() => this.client(), repository, number, { signal, count })
  }

  /** Reviewers, assignees and merge of the docs pull request; `signal` bounds each request. */
  owner(pr: PullRequestRef, signal: () => AbortSignal): OwnerApi {
    if (!this.token) throw new Error(this.empty)
    return ownerApi(() => this.client(), pr, signal)
  }

  /** The checks on the docs pull request's head; `signal` bounds each request, `count` counts them. */
  docsChecks(pr: PullRequestRef, signal: () => AbortSignal, count?: RequestCount): DocsChecksApi {
    if (!this.token) throw new Error("the 'github-token' input is empty")
    return docsChecksApi(() => this.client(), pr, signal, count)
  }

  /** Comments, reactions and release notes of `owner/name`; their requests counted in `count`. */
  conversation(repository: string, count?: RequestCount): ConversationApi {
    return conversationApi(() => this.client(), repository, count)
  }

  /** Check runs of `owner/name`, and the commits they go on. */
  checkRuns(repository: string): CheckRunApi {
    return checkRunApi(() => this.client(), repository)
  }

  /**
   * `GET /repos/{owner}/{repo}/collaborators/{username}/permission`: `none` for a login GitHub does
   * not know (404); throws on any other failure, and on an answer naming no role we know.
   */
  async permission(repository: string, login: string, signal: AbortSignal): Promise<RepoPermission> {
    if (!this.token) throw new Error(this.empty)
    const [owner = '', repo = ''] = repository.split('/')
    const octokit = await this.client()
    try {
      const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({
        owner,
        repo,
        username: login,
        request: { signal }
      })
      const permission = toRepoPermission(data.role_name, data.permission)
      if (permission === undefined) {
        throw new Error(`GitHub answered role '${data.role_name}', permission '${data.permission}'`)
      }
      return permission
    } catch (error) {
      if ((error as { status?: unknown }).status === 404) return 'none'
      throw error
    }
  }

  /** `POST /repos/{owner}/{repo}/issues/{number}/labels`; throws when GitHub refuses. */
  async addLabels(pr: PullRequestRef, labels: string[]): Promise<void> {
    if (!this.token) throw new Error(this.empty)
    const octokit = await this.client()
    await octokit.rest.issues.addLabels({
      owner: pr.owner,
      repo: pr.repo,
      issue_number: pr.number,
      labels,
      request: { signal: AbortSignal.timeout(LABEL_TIMEOUT_MS) }
    })
  }
}
