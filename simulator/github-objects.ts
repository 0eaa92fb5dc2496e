// The shared objects of the fake GitHub's answers (simulator/github/), whole: every field GitHub's
// OpenAPI description (@octokit/openapi, components.schemas) requires of a simple-user, a repository,
// an app, a pull request's `_links` and an issue, with GitHub's own values where it has them
// (https://docs.github.com/rest/users/users, …/repos/repos#get-a-repository, …/apps/apps#get-an-app),
// so that an answer the action reads is one GitHub could send (simulator/openapi-contract.ts checks it).

import { createHash } from 'node:crypto'

const WEB = 'https://github.com'
// Fixed times for what the fake never changes (an account, a repository, the Actions app).
const CREATED = '2024-01-01T00:00:00Z'

/** A `simple-user`: a user or a bot, as GitHub lists one in every answer that names an account. */
export function userJson(api: string, login: string, id: number, type: string): Record<string, unknown> {
  const url = `${api}/users/${encodeURIComponent(login)}`
  return {
    login,
    id,
    node_id: nodeId('U', login),
    avatar_url: `https://avatars.githubusercontent.com/u/${id}?v=4`,
    gravatar_id: '',
    url,
    html_url: `${WEB}/${encodeURIComponent(login)}`,
    followers_url: `${url}/followers`,
    following_url: `${url}/following{/other_user}`,
    gists_url: `${url}/gists{/gist_id}`,
    starred_url: `${url}/starred{/owner}{/repo}`,
    subscriptions_url: `${url}/subscriptions`,
    organizations_url: `${url}/orgs`,
    repos_url: `${url}/repos`,
    events_url: `${url}/events{/privacy}`,
    received_events_url: `${url}/received_events`,
    type,
    user_view_type: 'public',
    site_admin: false
  }
}

/** A `public-user`: what GET /user answers for a person's token, without the private counts. */
export function publicUserJson(user: Record<string, unknown>): Record<string, unknown> {
  const none = { name: null, company: null, blog: '', location: null, email: null, hireable: null, bio: null }
  const counts = { public_repos: 0, public_gists: 0, followers: 0, following: 0 }
  return { ...user, ...none, ...counts, created_at: CREATED, updated_at: CREATED }
}

/** A `repository` (a pull request's head and base carry one whole): public, owned by `owner`. */
export function repositoryJson(
  api: string,
  fullName: string,
  id: number,
  owner: Record<string, unknown>
): Record<string, unknown> {
  const url = `${api}/repos/${fullName}`
  return {
    id,
    node_id: nodeId('R', fullName),
    name: fullName.split('/')[1],
    full_name: fullName,
    private: false,
    owner,
    html_url: `${WEB}/${fullName}`,
    description: null,
    fork: false,
    url,
    ...Object.fromEntries(Object.entries(REPOSITORY_URLS).map(([name, tail]) => [`${name}_url`, `${url}/${tail}`])),
    git_url: `git://github.com/${fullName}.git`,
    ssh_url: `git@github.com:${fullName}.git`,
    clone_url: `${WEB}/${fullName}.git`,
    svn_url: `${WEB}/${fullName}`,
    mirror_url: null,
    homepage: null,
    language: null,
    license: null,
    size: 0,
    forks: 0,
    forks_count: 0,
    stargazers_count: 0,
    watchers: 0,
    watchers_count: 0,
    open_issues: 0,
    open_issues_count: 0,
    default_branch: 'main',
    has_issues: true,
    has_projects: true,
    has_wiki: true,
    has_pages: false,
    has_downloads: true,
    archived: false,
    disabled: false,
    visibility: 'public',
    pushed_at: CREATED,
    created_at: CREATED,
    updated_at: CREATED
  }
}

// A repository's `…_url` fields, as paths (RFC 6570 templates) under its API URL.
const REPOSITORY_URLS: Record<string, string> = {
  archive: '{archive_format}{/ref}',
  assignees: 'assignees{/user}',
  blobs: 'git/blobs{/sha}',
  branches: 'branches{/branch}',
  collaborators: 'collaborators{/collaborator}',
  comments: 'comments{/number}',
  commits: 'commits{/sha}',
  compare: 'compare/{base}...{head}',
  contents: 'contents/{+path}',
  contributors: 'contributors',
  deployments: 'deployments',
  downloads: 'downloads',
  events: 'events',
  forks: 'forks',
  git_commits: 'git/commits{/sha}',
  git_refs: 'git/refs{/sha}',
  git_tags: 'git/tags{/sha}',
  hooks: 'hooks',
  issue_comment: 'issues/comments{/number}',
  issue_events: 'issues/events{/number}',
  issues: 'issues{/number}',
  keys: 'keys{/key_id}',
  labels: 'labels{/name}',
  languages: 'languages',
  merges: 'merges',
  milestones: 'milestones{/number}',
  notifications: 'notifications{?since,all,participating}',
  pulls: 'pulls{/number}',
  releases: 'releases{/id}',
  stargazers: 'stargazers',
  statuses: 'statuses/{sha}',
  subscribers: 'subscribers',
  subscription: 'subscription',
  tags: 'tags',
  teams: 'teams',
  trees: 'git/trees{/sha}'
}

/** A GitHub App that makes check runs: the owner of a check run and of its check suite. */
export interface CheckApp {
  id: number
  slug: string
  name: string
  owner: { login: string; id: number }
}

/** The GitHub Actions app, which makes a workflow token's check runs (GitHub's own values). */
export const ACTIONS_APP: CheckApp = {
  id: 15368,
  slug: 'github-actions',
  name: 'GitHub Actions',
  owner: { login: 'github', id: 9919 }
}

/** App `app` as an `integration`; GitHub Actions with its own description and dates. */
export function appJson(api: string, app: CheckApp): Record<string, unknown> {
  const actions = app.slug === ACTIONS_APP.slug
  return {
    id: app.id,
    slug: app.slug,
    // GitHub's legacy node id of an app: base64 of `03:App{id}` (GitHub Actions' is MDM6QXBwMTUzNjg=).
    node_id: Buffer.from(`03:App${app.id}`).toString('base64'),
    owner: userJson(api, app.owner.login, app.owner.id, 'Organization'),
    name: app.name,
    description: actions ? 'Automate your workflow from idea to production' : null,
    external_url: actions ? 'https://help.github.com/en/actions' : `${WEB}/${app.owner.login}`,
    html_url: `${WEB}/apps/${app.slug}`,
    created_at: actions ? '2018-07-30T09:30:17Z' : CREATED,
    updated_at: actions ? '2019-12-10T19:04:12Z' : CREATED,
    permissions: { checks: 'write', contents: 'write', issues: 'write', metadata: 'read', pull_requests: 'write' },
    events: ['check_run', 'check_suite', 'pull_request', 'push', 'release']
  }
}

/** A `team` of organization `org` (a pull request's requested team, a review request event's). */
export function teamJson(api: string, org: string, slug: string): Record<string, unknown> {
  const id = parseInt(createHash('sha1').update(`${org}/${slug}`).digest('hex').slice(0, 6), 16)
  const url = `${api}/organizations/${encodeURIComponent(org)}/team/${id}`
  return {
    id,
    node_id: nodeId('T', `${org}/${slug}`),
    url,
    html_url: `${WEB}/orgs/${encodeURIComponent(org)}/teams/${slug}`,
    name: slug,
    slug,
    description: null,
    privacy: 'closed',
    notification_setting: 'notifications_enabled',
    permission: 'pull',
    members_url: `${url}/members{/member}`,
    repositories_url: `${url}/repos`,
    parent: null,
    type: 'organization'
  }
}

/** A pull request's `_links`, and the URLs a `pull-request-simple` lists beside them. */
export function pullUrls(api: string, fullName: string, number: number, headSha: string): Record<string, unknown> {
  const repo = `${api}/repos/${fullName}`
  const urls = {
    self: `${repo}/pulls/${number}`,
    html: `${WEB}/${fullName}/pull/${number}`,
    issue: `${repo}/issues/${number}`,
    comments: `${repo}/issues/${number}/comments`,
    review_comments: `${repo}/pulls/${number}/comments`,
    review_comment: `${repo}/pulls/comments{/number}`,
    commits: `${repo}/pulls/${number}/commits`,
    statuses: `${repo}/statuses/${headSha}`
  }
  return {
    commits_url: urls.commits,
    review_comments_url: urls.review_comments,
    review_comment_url: urls.review_comment,
    comments_url: urls.comments,
    statuses_url: urls.statuses,
    _links: Object.fromEntries(Object.entries(urls).map(([key, href]) => [key, { href }]))
  }
}

/** The `issue` a pull request also is (what POST …/issues/{n}/assignees answers for one). */
export function pullAsIssueJson(api: string, fullName: string, pull: Record<string, unknown>): Record<string, unknown> {
  const url = `${api}/repos/${fullName}/issues/${String(pull.number)}`
  const keep = ['id', 'node_id', 'number', 'title', 'user', 'labels', 'state', 'locked', 'assignee', 'assignees']
  return {
    ...Object.fromEntries(keep.map((key) => [key, pull[key]])),
    url,
    repository_url: `${api}/repos/${fullName}`,
    labels_url: `${url}/labels{/name}`,
    comments_url: `${url}/comments`,
    events_url: `${url}/events`,
    html_url: pull.html_url,
    milestone: null,
    comments: 0,
    created_at: pull.created_at,
    updated_at: pull.updated_at,
    closed_at: pull.closed_at,
    author_association: pull.author_association,
    body: pull.body,
    pull_request: {
      url: pull.url,
      html_url: pull.html_url,
      diff_url: pull.diff_url,
      patch_url: pull.patch_url,
      merged_at: pull.merged_at
    }
  }
}

/** A node id in GitHub's current format: a type prefix and an opaque key (as simulator/github/state.ts makes them). */
function nodeId(prefix: string, key: string): string {
  return `${prefix}_kwDO${createHash('sha1').update(key).digest('base64url').slice(0, 16)}`
}
