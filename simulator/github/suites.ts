// The fake GitHub's check suites of a commit, `GET …/commits/{ref}/check-suites`
// (https://docs.github.com/rest/checks/suites#list-check-suites-for-a-git-reference): each app's
// suite on the commit (simulator/check-suites.ts), with its status, conclusion and latest runs'
// count as its runs sum them up, whole as GitHub's check-suite schema requires it.
import type { StoredCheckSuite } from '../check-suites.js'
import { appJson, repositoryJson } from '../github-objects.js'
import { errorBody, type Handlers, ok } from './answers.js'
import { simpleCommitJson } from './checks.js'
import { resolve } from './commits.js'
import { actorJson } from './repository.js'
import { nodeId, ownerOf, type Repo, type Store } from './state.js'

export const SUITE_ROUTES: Handlers<'check-suites'> = {
  'check-suites': (s, r, route, { query, page }) => {
    const at = resolve(r, route.ref)
    const sha = at === undefined ? route.ref : (r.commits[at]?.sha ?? route.ref)
    // As the check runs of a commit: GitHub answers 422 for a sha it does not know.
    if (!s.commitOf(r.fullName, sha))
      return { status: 422, json: errorBody(422, `No commit found for SHA: ${route.ref}`, route.name) }
    // GitHub's filters: the app's id, and a check run's name in the suite.
    const appId = query.get('app_id')
    const name = query.get('check_name')
    const suites = s.checks.suites
      .on(r.fullName, sha)
      .filter((suite) => appId === null || String(suite.app.id) === appId)
      .filter(
        (suite) =>
          name === null || s.checks.of(r.fullName, sha).some((run) => run.check_suite === suite.id && run.name === name)
      )
    const paged = page(suites.length)
    return ok(
      {
        total_count: suites.length,
        check_suites: suites.slice(paged.start, paged.end).map((suite) => suiteJson(s, r, suite))
      },
      paged.headers
    )
  }
}

function suiteJson(s: Store, r: Repo, suite: StoredCheckSuite): Record<string, unknown> {
  const url = `${s.url}/repos/${r.fullName}/check-suites/${suite.id}`
  const branch = [...r.pulls.values()].find((pull) => pull.head.sha === suite.head_sha)?.head.ref ?? null
  return {
    id: suite.id,
    node_id: nodeId('CS', String(suite.id)),
    head_branch: branch,
    head_sha: suite.head_sha,
    ...s.checks.suiteState(suite),
    url,
    // The push's range: the fake keeps no previous head (GitHub's schema allows null).
    before: null,
    after: suite.head_sha,
    pull_requests: [],
    app: appJson(s.url, suite.app),
    repository: repositoryJson(s.url, r.fullName, r.id, actorJson(s, { login: ownerOf(r) })),
    created_at: suite.created_at,
    updated_at: suite.created_at,
    head_commit: simpleCommitJson(r, suite.head_sha, suite.created_at),
    check_runs_url: `${url}/check-runs`,
    rerequestable: true,
    runs_rerequestable: true
  }
}
