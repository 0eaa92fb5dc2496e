/**
 * The login a token writes as: `/user` for a person's token; for an installation token (the
 * workflow's, an App's), which GitHub answers 403 "Resource not accessible by integration" there,
 * GraphQL's `viewer`. The workflow token's bot is assumed only when GitHub's answer says the token
 * is an integration's that cannot read it either, never on a 5xx or a lost connection (which throw:
 * a wrong identity would make the action miss its own comments and write them twice).
 */
import type { getOctokit } from '@actions/github'
import type { CountedRequest } from '../requests.js'

type Octokit = ReturnType<typeof getOctokit>

/** The workflow token (`GITHUB_TOKEN`) writes as this account, and cannot read `/user`. */
const WORKFLOW_BOT = 'github-actions[bot]'

const VIEWER = 'query { viewer { login __typename } }'

export async function readIdentity(octokit: Octokit, request: () => CountedRequest): Promise<string> {
  try {
    const { data } = await octokit.rest.users.getAuthenticated({ request: request() })
    return data.login
  } catch (error) {
    if (!integrationAnswer(error)) throw error
  }
  try {
    const answer = await octokit.graphql<{ viewer: { login: string; __typename: string } }>(VIEWER, {
      request: request()
    })
    const { login, __typename: type } = answer.viewer
    return type === 'Bot' && !login.endsWith('[bot]') ? `${login}[bot]` : login
  } catch (error) {
    if (!integrationAnswer(error)) throw error
    return WORKFLOW_BOT
  }
}

/** GitHub's answer that the token is an integration's: REST's 403, or GraphQL's FORBIDDEN error. */
function integrationAnswer(error: unknown): boolean {
  const { status, errors, message } = error as { status?: unknown; errors?: unknown; message?: unknown }
  const graphql = Array.isArray(errors) ? (errors as { type?: unknown; message?: unknown }[]) : []
  if (graphql.some((e) => e.type === 'FORBIDDEN' || /not accessible by integration/i.test(String(e.message))))
    return true
  return status === 403 && /not accessible by integration/i.test(String(message))
}
