/**
 * The two tokens of a run: `github-token` for the workflow's repository (the context, its
 * link-back, `/docs` commands, the check run), `docs-token` for the docs repository (the group's
 * lookup and comment, labels, reviewers, assignees, merge, the preview's branch, the docs pull
 * request's link-back). The docs repository is often in another organization, where the workflow's
 * token cannot write and a personal access token cannot make the source's check run.
 */
import type { Clock } from '../base/clock.js'
import { GitHubClient } from './client.js'
import type { RetryPace } from './retry.js'

/** How messages name the docs repository's token. */
export const DOCS_TOKEN = "'docs-token' input (github-token when not given)"

export interface Tokens {
  githubToken: string
  /** Already `github-token` when `docs-token` was not given (settings.ts). */
  docsToken: string
}

interface Where {
  apiUrl: string | undefined
  clock?: Clock
  pace?: RetryPace
  /** The secrets no write carries (redact-writes.ts). */
  secrets?: readonly string[]
}

/** The client of the workflow's repository, with `github-token`. */
export function sourceClient(tokens: Tokens, where: Where): GitHubClient {
  return new GitHubClient(tokens.githubToken, where.apiUrl, {
    clock: where.clock,
    pace: where.pace,
    secrets: where.secrets
  })
}

/**
 * The client of the docs repository, with `docs-token`: `source` itself when both tokens are the
 * same, so that one token's identity is read once.
 */
export function docsClient(tokens: Tokens, where: Where, source: GitHubClient): GitHubClient {
  if (tokens.docsToken === tokens.githubToken) return source
  return new GitHubClient(tokens.docsToken, where.apiUrl, {
    clock: where.clock,
    pace: where.pace,
    secrets: where.secrets,
    input: 'docs-token'
  })
}
