/**
 * The run of a merged pull request as the runner starts it (`on: pull_request: types: [closed]`):
 * the runner variables and the event file, for `runAction`. Shared by the grouping demo and its
 * end-to-end test, so both show the same event.
 */
export interface MergedPullRequest {
  repo: string
  number: number
  /** The pull request's head branch. */
  head: string
  /** Its head commit, when the payload names it (GitHub's always does). */
  headSha?: string
  /** Who merged it (GITHUB_ACTOR, the pull request's author). */
  actor: string
  runId: string
}

export function mergedPullRequestRun(pr: MergedPullRequest): {
  env: Record<string, string>
  files: Record<string, string>
} {
  return {
    env: {
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_EVENT_PATH: 'event.json',
      GITHUB_REF: `refs/pull/${pr.number}/merge`,
      GITHUB_REPOSITORY: pr.repo,
      GITHUB_ACTOR: pr.actor,
      GITHUB_RUN_ID: pr.runId,
      GITHUB_RUN_ATTEMPT: '1'
    },
    files: {
      'event.json': JSON.stringify({
        action: 'closed',
        pull_request: {
          number: pr.number,
          title: `Change ${pr.number}`,
          body: '',
          merged: true,
          user: { login: pr.actor },
          head: { ref: pr.head, ...(pr.headSha ? { sha: pr.headSha } : {}), repo: { full_name: pr.repo } },
          base: { ref: 'main', repo: { full_name: pr.repo } },
          html_url: `https://github.com/${pr.repo}/pull/${pr.number}`
        }
      })
    }
  }
}
