// The fake GitHub's checks: check runs and their annotations, combined commit statuses, and workflow runs.
import type { RouteName } from './routes.js'
import type { CheckAnswer } from '../check-runs.js'
import { type Answer, errorBody } from './answers.js'
import { nodeId, ownerOf, type Repo, type Run, sha1, Store, WEB } from './state.js'
import { repositoryJson } from '../github-objects.js'
import { actorJson } from './repository.js'

export function checkAnswer(route: RouteName, answer: CheckAnswer): Answer {
  return 'json' in answer ? answer : { status: answer.status, json: errorBody(answer.status, answer.message, route) }
}

export function runJson(s: Store, r: Repo, run: Run): Record<string, unknown> {
  const api = `${s.url}/repos/${r.fullName}/actions/runs/${run.id}`
  const repository = repositoryJson(s.url, r.fullName, r.id, actorJson(s, { login: ownerOf(r) }))
  const commit = r.commits.find((c) => c.sha === run.headSha)
  const person = { name: 'Mona Lisa Octocat', email: 'mona@github.com' }
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
    head_commit: {
      id: run.headSha,
      tree_id: sha1(`tree-${run.headSha}`),
      message: commit?.message ?? '',
      timestamp: commit?.date ?? run.created_at,
      author: person,
      committer: person
    },
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
