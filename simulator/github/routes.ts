// The fake GitHub's routes: their names, how a request's method and path map to one, and each one's docs page.

export type RouteName =
  | 'release-by-tag'
  | 'releases'
  | 'latest-release'
  | 'tags'
  | 'matching-refs'
  | 'ref'
  | 'tag-object'
  | 'compare'
  | 'commits'
  | 'tree'
  | 'contents'
  | 'pulls'
  | 'pull'
  | 'pull-files'
  | 'workflow-runs'
  | 'collaborator-permission'
  | 'labels'
  | 'comments'
  | 'comment-create'
  | 'comment-update'
  | 'comment-delete'
  | 'reaction'
  | 'release-update'
  | 'user'
  | 'graphql'
  | 'requested-reviewers'
  | 'assignees'
  | 'issue-events'
  | 'merge'
  | 'check-create'
  | 'check-update'
  | 'check-runs'
  | 'check-suites'
  | 'check-annotations'
  | 'commit-status'

/** A request the fake serves, with what its path names. */
export type Route =
  | { name: 'release-by-tag'; repo: string; tag: string }
  | { name: 'releases' | 'latest-release' | 'tags' | 'pulls'; repo: string }
  | { name: 'matching-refs' | 'ref'; repo: string; ref: string }
  | { name: 'tag-object'; repo: string; sha: string }
  | { name: 'compare'; repo: string; basehead: string }
  | { name: 'commits'; repo: string }
  | { name: 'tree'; repo: string; ref: string }
  | { name: 'contents'; repo: string; path: string }
  | { name: 'pull' | 'pull-files' | 'labels'; repo: string; number: number }
  | { name: 'workflow-runs'; repo: string; workflow: string }
  | { name: 'pull' | 'pull-files' | 'labels' | 'comments' | 'comment-create'; repo: string; number: number }
  | { name: 'collaborator-permission'; repo: string; login: string }
  | { name: 'comment-update' | 'comment-delete'; repo: string; id: number }
  | { name: 'reaction'; repo: string; id: number; on: 'issue' | 'review' }
  | { name: 'release-update'; repo: string; id: number }
  | { name: 'user'; repo: undefined }
  | { name: 'graphql'; repo: undefined }
  | { name: 'requested-reviewers' | 'assignees' | 'issue-events' | 'merge'; repo: string; number: number }
  | { name: 'check-create'; repo: string }
  | { name: 'check-update'; repo: string; id: number }
  | { name: 'check-runs' | 'check-suites'; repo: string; ref: string }
  | { name: 'check-annotations'; repo: string; id: number }
  | { name: 'commit-status'; repo: string; ref: string }

/** The route named `N`, with what its path names. */
export type RouteOf<N extends RouteName> = Route & { name: N }

const DOCS = 'https://docs.github.com/rest'
export const DOC_URLS: Record<RouteName | 'unknown', string> = {
  'release-by-tag': `${DOCS}/releases/releases#get-a-release-by-tag-name`,
  releases: `${DOCS}/releases/releases#list-releases`,
  'latest-release': `${DOCS}/releases/releases#get-the-latest-release`,
  tags: `${DOCS}/repos/repos#list-repository-tags`,
  'matching-refs': `${DOCS}/git/refs#list-matching-references`,
  ref: `${DOCS}/git/refs#get-a-reference`,
  'tag-object': `${DOCS}/git/tags#get-a-tag`,
  compare: `${DOCS}/commits/commits#compare-two-commits`,
  commits: `${DOCS}/commits/commits#list-commits`,
  tree: `${DOCS}/git/trees#get-a-tree`,
  contents: `${DOCS}/repos/contents#get-repository-content`,
  pulls: `${DOCS}/pulls/pulls#list-pull-requests`,
  pull: `${DOCS}/pulls/pulls#get-a-pull-request`,
  'pull-files': `${DOCS}/pulls/pulls#list-pull-requests-files`,
  'workflow-runs': `${DOCS}/actions/workflow-runs#list-workflow-runs-for-a-workflow`,
  'collaborator-permission': `${DOCS}/collaborators/collaborators#get-repository-permissions-for-a-user`,
  labels: `${DOCS}/issues/labels#add-labels-to-an-issue`,
  comments: `${DOCS}/issues/comments#list-issue-comments`,
  'comment-create': `${DOCS}/issues/comments#create-an-issue-comment`,
  'comment-update': `${DOCS}/issues/comments#update-an-issue-comment`,
  'comment-delete': `${DOCS}/issues/comments#delete-an-issue-comment`,
  reaction: `${DOCS}/reactions/reactions`,
  'release-update': `${DOCS}/releases/releases#update-a-release`,
  user: `${DOCS}/users/users#get-the-authenticated-user`,
  graphql: 'https://docs.github.com/graphql',
  'requested-reviewers': `${DOCS}/pulls/review-requests#request-reviewers-for-a-pull-request`,
  assignees: `${DOCS}/issues/assignees#add-assignees-to-an-issue`,
  'issue-events': `${DOCS}/issues/events#list-issue-events`,
  merge: `${DOCS}/pulls/pulls#merge-a-pull-request`,
  'check-create': `${DOCS}/checks/runs#create-a-check-run`,
  'check-update': `${DOCS}/checks/runs#update-a-check-run`,
  'check-runs': `${DOCS}/checks/runs#list-check-runs-for-a-git-reference`,
  'check-suites': `${DOCS}/checks/suites#list-check-suites-for-a-git-reference`,
  'check-annotations': `${DOCS}/checks/runs#list-check-run-annotations`,
  'commit-status': `${DOCS}/commits/statuses#get-the-combined-status-for-a-specific-reference`,
  unknown: DOCS
}

/** The route of a request, from its method and its path (github.com's, without the query). */
export function parseRoute(method: string, path: string): Route | undefined {
  if (path === '/user') return method === 'GET' ? { name: 'user', repo: undefined } : undefined
  if (path === '/graphql') return method === 'POST' ? { name: 'graphql', repo: undefined } : undefined
  let segments: string[]
  try {
    segments = path.split('/').map((s) => decodeURIComponent(s))
  } catch {
    return undefined // malformed percent-encoding: no route matches
  }
  const [empty, repos, owner, name, ...rest] = segments
  if (empty !== '' || repos !== 'repos' || !owner || !name) return undefined
  const [a, b, c, ...more] = rest
  const parts: Parts = {
    repo: `${owner}/${name}`,
    rest,
    a,
    b,
    c,
    more,
    tail: rest.slice(2).join('/'),
    issue: b !== undefined && /^\d+$/.test(b) ? Number(b) : undefined,
    id: c !== undefined && /^\d+$/.test(c) ? Number(c) : undefined
  }
  return method === 'GET' ? readRoute(parts) : writeRoute(method, parts)
}

/** A repository path cut up: `/repos/{repo}/{a}/{b}/{c}/{more…}`; `tail` is `c` onwards. */
interface Parts {
  repo: string
  rest: string[]
  a: string | undefined
  b: string | undefined
  c: string | undefined
  more: string[]
  tail: string
  /** `b` when it is a number (an issue, a pull request, a release or a check run). */
  issue: number | undefined
  /** `c` when it is a number (a comment). */
  id: number | undefined
}

/** The routes that write: POST, PUT, PATCH and DELETE. */
function writeRoute(method: string, { repo, a, b, c, more, issue, id }: Parts): Route | undefined {
  const onComment = b === 'comments' && id !== undefined
  if (method === 'POST') {
    if (a === 'check-runs' && b === undefined) return { name: 'check-create', repo }
    if (a === 'issues' && issue !== undefined && c === 'comments' && more.length === 0)
      return { name: 'comment-create', repo, number: issue }
    if ((a === 'issues' || a === 'pulls') && onComment && more.join('/') === 'reactions')
      return { name: 'reaction', repo, id, on: a === 'issues' ? 'issue' : 'review' }
    if (a === 'pulls' && issue !== undefined && c === 'requested_reviewers' && more.length === 0)
      return { name: 'requested-reviewers', repo, number: issue }
    if (a === 'issues' && issue !== undefined && c === 'assignees' && more.length === 0)
      return { name: 'assignees', repo, number: issue }
    return a === 'issues' && issue !== undefined && c === 'labels' && more.length === 0
      ? { name: 'labels', repo, number: issue }
      : undefined
  }
  if (method === 'PUT')
    return a === 'pulls' && issue !== undefined && c === 'merge' && more.length === 0
      ? { name: 'merge', repo, number: issue }
      : undefined
  if (method === 'PATCH' || method === 'DELETE') {
    if (a === 'issues' && onComment && more.length === 0)
      return { name: method === 'PATCH' ? 'comment-update' : 'comment-delete', repo, id }
    if (method === 'PATCH' && a === 'releases' && issue !== undefined && c === undefined)
      return { name: 'release-update', repo, id: issue }
    if (method === 'PATCH' && a === 'check-runs' && issue !== undefined && c === undefined)
      return { name: 'check-update', repo, id: issue }
  }
  return undefined
}

/** The routes that read (GET). */
function readRoute({ repo, rest, a, b, c, more, tail, issue }: Parts): Route | undefined {
  if (a === 'releases' && b === undefined) return { name: 'releases', repo }
  if (a === 'releases' && b === 'latest' && c === undefined) return { name: 'latest-release', repo }
  if (a === 'releases' && b === 'tags' && tail !== '') return { name: 'release-by-tag', repo, tag: tail }
  if (a === 'tags' && b === undefined) return { name: 'tags', repo }
  if (a === 'git' && b === 'matching-refs') return { name: 'matching-refs', repo, ref: tail }
  if (a === 'git' && b === 'ref' && tail !== '') return { name: 'ref', repo, ref: tail }
  if (a === 'git' && b === 'tags' && c !== undefined && more.length === 0) return { name: 'tag-object', repo, sha: c }
  if (a === 'compare' && b !== undefined) return { name: 'compare', repo, basehead: rest.slice(1).join('/') }
  if (a === 'commits' && b === undefined) return { name: 'commits', repo }
  if (a === 'commits' && b !== undefined && c === 'check-runs' && more.length === 0)
    return { name: 'check-runs', repo, ref: b }
  if (a === 'commits' && b !== undefined && c === 'check-suites' && more.length === 0)
    return { name: 'check-suites', repo, ref: b }
  if (a === 'commits' && b !== undefined && c === 'status' && more.length === 0)
    return { name: 'commit-status', repo, ref: b }
  if (a === 'check-runs' && issue !== undefined && c === 'annotations' && more.length === 0)
    return { name: 'check-annotations', repo, id: issue }
  if (a === 'git' && b === 'trees' && tail !== '') return { name: 'tree', repo, ref: tail }
  if (a === 'contents' && rest.length > 1) return { name: 'contents', repo, path: rest.slice(1).join('/') }
  if (a === 'actions' && b === 'workflows' && c !== undefined && more.length === 1 && more[0] === 'runs')
    return { name: 'workflow-runs', repo, workflow: c }
  if (a === 'issues' && issue !== undefined && c === 'comments' && more.length === 0)
    return { name: 'comments', repo, number: issue }
  if (a === 'issues' && issue !== undefined && c === 'events' && more.length === 0)
    return { name: 'issue-events', repo, number: issue }
  if (a === 'pulls' && b === undefined) return { name: 'pulls', repo }
  if (a === 'pulls' && issue !== undefined && c === undefined) return { name: 'pull', repo, number: issue }
  if (a === 'pulls' && issue !== undefined && c === 'files' && more.length === 0)
    return { name: 'pull-files', repo, number: issue }
  if (a === 'collaborators' && b && c === 'permission' && more.length === 0)
    return { name: 'collaborator-permission', repo, login: b }
  return undefined
}

/**
 * The path as github.com serves it: GitHub Enterprise Server serves REST under /api/v3 and GraphQL at
 * /api/graphql (GitHub docs, "Default environment variables": GITHUB_API_URL, GITHUB_GRAPHQL_URL).
 * The recorded raw path is kept as received.
 */
export function dotComPath(raw: string): string {
  const [path = '', query] = raw.split('?', 2)
  const bare = path === '/api/graphql' ? '/graphql' : path.replace(/^\/api\/v3(?=\/)/, '')
  return query === undefined ? bare : `${bare}?${query}`
}
