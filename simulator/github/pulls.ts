import { DEFAULT_AUTHOR, nodeId, ownerOf, type Pull, type PullSeed, type Repo, sha1, Store, WEB } from './state.js'
import { type Answer, type Handlers, notFound, ok, type Paged, parseJson } from './answers.js'
import { pullAsIssueJson, pullUrls, repositoryJson, teamJson } from '../github-objects.js'
import { actorJson } from './repository.js'
import { labelJson } from './issues.js'
import { fileJson, PULL_FILES_LIMIT } from './commits.js'

/** The owner routes of pull request `route.number` (simulator/github-owner.ts). */
export function owner(
  s: Store,
  r: Repo,
  route: { name: 'requested-reviewers' | 'assignees' | 'issue-events' | 'merge'; number: number },
  body: string,
  pageLink: (total: number) => Paged
): Answer {
  const pull = r.pulls.get(route.number)
  if (!pull) return notFound(route.name)
  const parsed = parseJson(body)
  const collaborator = (login: string): boolean => {
    const role = r.permissions.get(login.toLowerCase())?.role
    return role !== undefined && role.permission !== 'none'
  }
  const json = (): Record<string, unknown> => pullJson(s, r, pull)
  switch (route.name) {
    case 'requested-reviewers':
      return s.owners.requestReviewers(r.fullName, pull, parsed, collaborator, json)
    case 'assignees':
      // GitHub answers the issue (https://docs.github.com/rest/issues/assignees#add-assignees-to-an-issue).
      return s.owners.assign(r.fullName, pull, parsed, collaborator, () => pullAsIssueJson(s.url, r.fullName, json()))
    case 'merge':
      return s.owners.merge(r.fullName, pull, parsed)
    case 'issue-events': {
      const events = s.owners.of(r.fullName, pull.number).events
      const paged = pageLink(events.length)
      const actor = actorJson(s, { login: s.identity.login })
      return ok(
        events.slice(paged.start, paged.end).map((e, i) => ({
          id: 7_000_000 + paged.start + i,
          node_id: nodeId('IE', String(7_000_000 + paged.start + i)),
          url: `${s.url}/repos/${r.fullName}/issues/events/${7_000_000 + paged.start + i}`,
          event: e.event,
          actor,
          commit_id: null,
          commit_url: null,
          created_at: pull.created_at,
          performed_via_github_app: null,
          ...(e.event === 'assigned'
            ? { assignee: actorJson(s, { login: e.assignee }), assigner: actor }
            : { review_requester: actor }),
          ...(e.event === 'review_requested' && e.reviewer
            ? { requested_reviewer: actorJson(s, { login: e.reviewer }) }
            : {}),
          ...(e.event === 'review_requested' && e.team ? { requested_team: teamJson(s.url, ownerOf(r), e.team) } : {})
        })),
        paged.headers
      )
    }
  }
}

/** The owner fields of a pull request's JSON. */
export function ownerJson(s: Store, r: Repo, p: Pull): Record<string, unknown> {
  const owner = s.owners.of(r.fullName, p.number)
  return {
    assignee: owner.assignees[0] === undefined ? null : actorJson(s, { login: owner.assignees[0] }),
    requested_reviewers: owner.reviewers.map((login) => actorJson(s, { login })),
    requested_teams: owner.teams.map((slug) => teamJson(s.url, ownerOf(r), slug)),
    assignees: owner.assignees.map((login) => actorJson(s, { login })),
    // auto-merge as GitHub's description requires it: who enabled it, and the merge commit's text.
    auto_merge: owner.autoMerge
      ? {
          enabled_by: actorJson(s, { login: s.identity.login }),
          merge_method: owner.autoMerge.method.toLowerCase(),
          commit_title: '',
          commit_message: ''
        }
      : null
  }
}

export function pullJson(s: Store, r: Repo, p: Pull): Record<string, unknown> {
  const api = `${s.url}/repos/${r.fullName}`
  const html = `${WEB}/${r.fullName}/pull/${p.number}`
  const owner = ownerOf(r)
  const branch = (b: Pull['head']): Record<string, unknown> => ({
    label: `${owner}:${b.ref}`,
    ref: b.ref,
    sha: b.sha,
    user: actorJson(s, { login: owner }),
    repo: repositoryJson(s.url, r.fullName, r.id, actorJson(s, { login: owner }))
  })
  const merged = p.merged ?? false
  return {
    url: `${api}/pulls/${p.number}`,
    id: p.id,
    node_id: nodeId('PR', String(p.id)),
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    issue_url: `${api}/issues/${p.number}`,
    number: p.number,
    state: pullState(p),
    locked: false,
    title: p.title,
    user: actorJson(s, p.user ?? DEFAULT_AUTHOR),
    body: p.body ?? null,
    labels: (r.labels.get(p.number) ?? []).map((name) => labelJson(s, r, name)),
    created_at: p.created_at,
    updated_at: p.created_at,
    closed_at: pullState(p) === 'closed' ? p.created_at : null,
    merged_at: merged ? p.created_at : null,
    merge_commit_sha: merged ? sha1(`merge-${String(p.id)}`) : null,
    draft: false,
    head: branch(p.head),
    base: branch(p.base),
    author_association: 'MEMBER',
    merged,
    mergeable: null,
    ...ownerJson(s, r, p),
    comments: 0,
    review_comments: 0,
    additions: p.files.reduce((n, f) => n + f.additions, 0),
    deletions: p.files.reduce((n, f) => n + f.deletions, 0),
    changed_files: p.files.length,
    // The rest of what GitHub's pull-request schema requires.
    ...pullUrls(s.url, r.fullName, p.number, p.head.sha),
    milestone: null,
    merged_by: merged ? actorJson(s, { login: s.identity.login }) : null,
    mergeable_state: 'unknown',
    maintainer_can_modify: false,
    commits: 1
  }
}

export function pullState(p: Pull): 'open' | 'closed' {
  return p.merged ? 'closed' : (p.state ?? 'open')
}

/** The answers of pulls, pull, pull-files, requested-reviewers, assignees, issue-events, merge. */
export const PULL_ROUTES: Handlers<
  'pulls' | 'pull' | 'pull-files' | 'requested-reviewers' | 'assignees' | 'issue-events' | 'merge'
> = {
  pulls: (s, r, _route, { query, page }) => {
    const state = query.get('state') ?? 'open'
    const sort = query.get('sort') ?? 'created'
    const direction = query.get('direction') ?? (sort === 'created' ? 'desc' : 'asc')
    const all = [...r.pulls.values()]
      .filter((p) => state === 'all' || pullState(p) === state)
      .sort((a, b) => (direction === 'desc' ? b.id - a.id : a.id - b.id))
    const paged = page(all.length)
    return ok(
      all.slice(paged.start, paged.end).map((p) => pullJson(s, r, p)),
      paged.headers
    )
  },
  pull: (s, r, route) => {
    const pull = r.pulls.get(route.number)
    return pull ? ok(pullJson(s, r, pull)) : notFound(route.name)
  },
  'pull-files': (s, r, route, { page }) => {
    const pull = r.pulls.get(route.number)
    if (!pull) return notFound(route.name)
    const files = pull.files.slice(0, PULL_FILES_LIMIT)
    const paged = page(files.length)
    return ok(
      files.slice(paged.start, paged.end).map((f) => fileJson(s, r, pull.head.sha, f)),
      paged.headers
    )
  },
  'requested-reviewers': (s, r, route, { body, page }) => owner(s, r, route, body, page),
  assignees: (s, r, route, { body, page }) => owner(s, r, route, body, page),
  'issue-events': (s, r, route, { body, page }) => owner(s, r, route, body, page),
  merge: (s, r, route, { body, page }) => owner(s, r, route, body, page)
}

/** Pull request `seed.number` of `repo`. */
export function seedPull(s: Store, repo: string, seed: PullSeed): void {
  const r = s.repo(repo)
  const branch = (b: PullSeed['head']): { ref: string; sha: string } =>
    typeof b === 'string' ? { ref: b, sha: s.sha() } : b
  r.pulls.set(seed.number, {
    ...seed,
    id: s.nextId(),
    head: branch(seed.head),
    base: branch(seed.base),
    created_at: s.tick()
  })
}
