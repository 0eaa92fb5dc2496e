/** The head branch of a pull request, through an Octokit loaded on demand. */
import type { getOctokit } from '@actions/github'
import type { PullRequestRef } from './pr-link.js'

type Octokit = ReturnType<typeof getOctokit>

/** `GET /repos/{owner}/{repo}/pulls/{number}`: the branch the pull request's changes are on. */
export async function pullBranch(
  client: () => Promise<Octokit>,
  { owner, repo, number }: PullRequestRef,
  signal: AbortSignal
): Promise<string> {
  const octokit = await client()
  const { data } = await octokit.rest.pulls.get({ owner, repo, pull_number: number, request: { signal } })
  return data.head.ref
}
