import type { RouteName } from './routes.js'
import type { CheckAnswer } from '../check-runs.js'
import { type Answer, errorBody, type Handlers, notFound, ok } from './answers.js'
import { nodeId, ownerOf, type Repo, type Run, sha1, Store, WEB } from './state.js'
import { repositoryJson } from '../github-objects.js'
import { actorJson } from './repository.js'
import { resolve } from './commits.js'

export function checkAnswer(route: RouteName, answer: CheckAnswer): Answer {
  return 'json' in answer ? answer : { status: answer.status, json: errorBody(answer.status, answer.message, route) }
}

/** GitHub's simple-commit schema (a workflow run's or a check suite's `head_commit`) of `sha`. */
export function simpleCommitJson(r: Repo, sha: string, at: string): Record<string, unknown> {
  const commit = r.commits.find((c) => c.sha === sha)
  const person = { name: 'Mona Lisa Octocat', email: 'mona@github.com' }
  return {
    id: sha,
    tree_id: sha1(`tree-${sha}`),
    message: commit?.message ?? '',
    timestamp: commit?.date ?? at,
    author: person,
    committer: person
  }
}

export function runJson(s: Store, r: Repo, run: Run): Record<string, unknown> {
  const api = `${s.url}/repos/${r.fullName}/actions/runs/${run.id}`
  const repository = repositoryJson(s.url, r.fullName, r.id, actorJson(s, { login: ownerOf(r) }))
  const commit = r.commits.find((c) => c.sha === run.headSha)
  return {
    id: run.id,
    node_id: nodeId('WFR', String(run.id)),
    name: run.workflow,
    display_title: commit?.message.split('\n')[0] ?? run.workflow,
    run_number: run.id % 1000,
    head_branch: run.branch,
    head_sha: run.headSha,
    path: `.github/workflows/${run.workflow}`,
    workflow_id: 161335,
    event: run.event,
    status: run.conclusion === null ? 'in_progress' : 'completed',
    conclusion: run.conclusion,
    url: api,
    html_url: `${WEB}/${r.fullName}/actions/runs/${run.id}`,
    created_at: run.created_at,
    updated_at: run.created_at,
    // The rest of what GitHub's workflow-run schema requires.
    pull_requests: [],
    head_commit: simpleCommitJson(r, run.headSha, run.created_at),
    repository,
    head_repository: repository,
    jobs_url: `${api}/jobs`,
    logs_url: `${api}/logs`,
    check_suite_url: `${s.url}/repos/${r.fullName}/check-suites/${run.id}`,
    artifacts_url: `${api}/artifacts`,
    cancel_url: `${api}/cancel`,
    rerun_url: `${api}/rerun`,
    workflow_url: `${s.url}/repos/${r.fullName}/actions/workflows/161335`
  }
}

/** The answers of workflow-runs, check-create, check-update, check-runs, check-annotations, commit-status. */
export const CHECK_ROUTES: Handlers<
  'workflow-runs' | 'check-create' | 'check-update' | 'check-runs' | 'check-annotations' | 'commit-status'
> = {
  'workflow-runs': (s, r, route, { query, page }) => {
    const wanted = (name: string, value: string): boolean => !query.has(name) || query.get(name) === value
    const runs = [...r.runs]
      .reverse()
      .filter(
        (run) =>
          run.workflow === route.workflow &&
          wanted('branch', run.branch) &&
          wanted('event', run.event) &&
          (!query.has('status') || query.get('status') === (run.conclusion ?? 'in_progress'))
      )
    const paged = page(runs.length)
    return ok(
      {
        total_count: runs.length,
        workflow_runs: runs.slice(paged.start, paged.end).map((x) => runJson(s, r, x))
      },
      paged.headers
    )
  },
  'check-create': (s, r, route, { body }) => checkAnswer(route.name, s.checks.create(r.fullName, body)),
  'check-update': (s, r, route, { body }) => checkAnswer(route.name, s.checks.update(r.fullName, route.id, body)),
  'check-runs': (s, r, route, { query, page }) => {
    const at = resolve(r, route.ref)
    const sha = at === undefined ? route.ref : (r.commits[at]?.sha ?? route.ref)
    if (!s.commitOf(r.fullName, sha))
      return { status: 422, json: errorBody(422, `No commit found for SHA: ${route.ref}`, route.name) }
    const runs = s.checks.list(r.fullName, sha, query)
    const paged = page(runs.length)
    return ok(
      {
        total_count: runs.length,
        check_runs: runs.slice(paged.start, paged.end).map((run) => s.checks.json(run))
      },
      paged.headers
    )
  },
  'check-annotations': (s, r, route, { page }) => {
    const all = s.checks.annotationsOf(r.fullName, route.id)
    if (!all) return notFound(route.name)
    const paged = page(all.length)
    return ok(all.slice(paged.start, paged.end), paged.headers)
  },
  'commit-status': (s, r, route, { page }) => {
    const at = resolve(r, route.ref)
    const sha = at === undefined ? route.ref : (r.commits[at]?.sha ?? route.ref)
    if (!s.commitOf(r.fullName, sha))
      return { status: 404, json: errorBody(404, `No commit found for SHA: ${route.ref}`, route.name) }
    const paged = page(s.statuses.latest(r.fullName, sha).length)
    const combined = s.statuses.combined(r.fullName, sha, paged)
    // GitHub's combined-commit-status names the repository and the commit, and each status its own
    // URL, node id and avatar (the OpenAPI description requires them).
    const url = `${s.url}/repos/${r.fullName}`
    return ok(
      {
        ...combined,
        statuses: combined.statuses.map((s) => ({
          ...s,
          node_id: nodeId('SC', `${r.fullName}:${String(s.id)}`),
          url: `${url}/statuses/${sha}`,
          avatar_url: null
        })),
        commit_url: `${url}/commits/${sha}`,
        url: `${url}/commits/${sha}/status`,
        repository: repositoryJson(s.url, r.fullName, r.id, actorJson(s, { login: ownerOf(r) }))
      },
      paged.headers
    )
  }
}
