// The fake GitHub's GraphQL endpoint: the viewer, a pull request's merge state and the auto-merge mutations.
import { nodeId, Store } from './state.js'
import { type Answer, jsonField, ok, parseJson } from './answers.js'

/**
 * GraphQL: the `viewer`, as GitHub answers it (a bot's login without `[bot]`); a pull request's
 * merge state, `enablePullRequestAutoMerge` and `disablePullRequestAutoMerge` (simulator/github-owner.ts).
 */
export function graphql(s: Store, body: string): Answer {
  const query = jsonField(body, 'query') ?? ''
  const owned = ownerGraphql(s, query, body)
  if (owned) return owned
  if (!/\bviewer\b/.test(query)) return { status: 200, json: { errors: [{ message: 'Only viewer is faked' }] } }
  const { login, kind } = s.identity
  const bot = kind === 'installation'
  return ok({
    data: { viewer: { login: bot ? login.replace(/\[bot\]$/, '') : login, __typename: bot ? 'Bot' : 'User' } }
  })
}

/** A pull request's merge state, or the auto-merge mutations; undefined for any other query. */
export function ownerGraphql(s: Store, query: string, body: string): Answer | undefined {
  const variables = parseJson(body) as { variables?: Record<string, unknown> } | undefined
  const vars = variables?.variables ?? {}
  const mutation = /\b(enable|disable)PullRequestAutoMerge\b/.exec(query)?.[1]
  if (mutation) {
    const id = String(vars.pullRequestId)
    for (const r of s.repos.values())
      for (const p of r.pulls.values())
        if (nodeId('PR', String(p.id)) === id)
          return ok(
            mutation === 'enable'
              ? s.owners.enableAutoMerge(r.fullName, p, vars.mergeMethod, vars.expectedHeadOid)
              : s.owners.disableAutoMerge(r.fullName, p)
          )
    return ok({
      data: null,
      errors: [{ type: 'NOT_FOUND', message: `Could not resolve to a node with the global id of '${id}'` }]
    })
  }
  if (!/\bmergeStateStatus\b/.test(query)) return undefined
  const r = s.repos.get(`${String(vars.owner)}/${String(vars.repo)}`.toLowerCase())
  const p = r?.pulls.get(Number(vars.number))
  if (!r || !p)
    return ok({
      data: { repository: r ? { pullRequest: null } : null },
      errors: [{ type: 'NOT_FOUND', message: 'Could not resolve to a PullRequest.' }]
    })
  return ok({
    data: {
      repository: { pullRequest: { id: nodeId('PR', String(p.id)), ...s.owners.mergeFacts(r.fullName, p) } }
    }
  })
}
