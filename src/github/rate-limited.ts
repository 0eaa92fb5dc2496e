/**
 * A GitHub request that one of GitHub's rate limits refused is worded as that limit: GitHub did
 * nothing, and no permission would have helped. GitHub answers 403 or 429, with
 * `x-ratelimit-remaining: 0` and the reset in `x-ratelimit-reset` when the primary limit is spent,
 * or a message naming the secondary limit (docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api,
 * "Exceeding the rate limit"). The workflow's GITHUB_TOKEN has 1,000 requests an hour per
 * repository, shared by its workflows.
 */

/** How the warnings name the workflow token's limit, for what would help. */
export const TOKEN_LIMIT = "the workflow's GITHUB_TOKEN has 1,000 requests an hour per repository"

/**
 * `GitHub's API rate limit for the token is spent until 11:05 UTC`, or `GitHub's secondary rate
 * limit`, when `error` is such a refusal; undefined for any other failure.
 */
export function rateLimited(error: unknown): string | undefined {
  const { status, message, response } = (error ?? {}) as {
    status?: unknown
    message?: unknown
    response?: { headers?: Record<string, unknown> }
  }
  if (status !== 403 && status !== 429) return undefined
  const headers = response?.headers ?? {}
  if (String(headers['x-ratelimit-remaining']) === '0') {
    const reset = new Date(Number(headers['x-ratelimit-reset']) * 1000)
    const until = reset.getTime() > 0 ? ` until ${reset.toISOString().slice(11, 16)} UTC` : ''
    return `GitHub's API rate limit for the token is spent${until}`
  }
  return /\bsecondary rate limit\b/i.test(String(message)) ? "GitHub's secondary rate limit" : undefined
}
