import type { PullRequestRef } from './pr-link.js'

const GITHUB_TIMEOUT_MS = 30_000

/**
 * `POST /repos/{owner}/{repo}/issues/{number}/labels` with `github-token`. `@actions/github` is
 * loaded here, on first use, so runs that label nothing never pay for loading Octokit.
 * Octokit takes the API root from `GITHUB_API_URL` (GitHub Enterprise).
 */
export async function addLabels(token: string, pr: PullRequestRef, labels: string[]): Promise<void> {
  if (!token) throw new Error("the 'github-token' input is empty")
  const { getOctokit } = await import('@actions/github')
  const octokit = getOctokit(token)
  await octokit.rest.issues.addLabels({
    owner: pr.owner,
    repo: pr.repo,
    issue_number: pr.number,
    labels,
    request: { signal: AbortSignal.timeout(GITHUB_TIMEOUT_MS) }
  })
}
