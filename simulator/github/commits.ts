import {
  type Actor,
  type Commit,
  type CommitSeed,
  DEFAULT_AUTHOR,
  nodeId,
  type PullFileSeed,
  type Repo,
  sha1,
  Store,
  WEB
} from './state.js'
import { type Answer, errorBody, type Handlers, notFound, ok, type Paged } from './answers.js'
import { actorJson } from './repository.js'

// Unpaginated compare answers stop here; pull files are cut here, as GitHub documents.
export const COMPARE_LIMIT = 250

export const PULL_FILES_LIMIT = 3000

export const COMPARE_FILES_LIMIT = 300

export const UNVERIFIED = { verified: false, reason: 'unsigned', signature: null, payload: null, verified_at: null }

export function compare(
  s: Store,
  r: Repo,
  basehead: string,
  query: URLSearchParams,
  pageLink: (total: number) => Paged
): Answer {
  const dots = basehead.indexOf('...')
  const base = dots < 0 ? '' : basehead.slice(0, dots)
  const head = dots < 0 ? '' : basehead.slice(dots + 3)
  const b = resolve(r, base)
  const h = resolve(r, head)
  if (b === undefined || h === undefined) return notFound('compare')
  const baseCommit = r.commits[b] as Commit
  const headCommit = r.commits[h] as Commit
  const ahead = Math.max(0, h - b)
  const behind = Math.max(0, b - h)
  const all = r.commits.slice(b + 1, b + 1 + ahead)
  let commits = all.slice(0, COMPARE_LIMIT)
  let headers: Record<string, string> | undefined
  if (query.has('per_page') || query.has('page')) {
    const paged = pageLink(all.length)
    commits = all.slice(paged.start, paged.end)
    headers = paged.headers
  }
  const short = (c: Commit): string => `${r.fullName.split('/')[0] ?? ''}:${c.sha.slice(0, 7)}`
  return ok(
    {
      url: `${s.url}/repos/${r.fullName}/compare/${basehead}`,
      html_url: `${WEB}/${r.fullName}/compare/${basehead}`,
      permalink_url: `${WEB}/${r.fullName}/compare/${short(baseCommit)}...${short(headCommit)}`,
      diff_url: `${WEB}/${r.fullName}/compare/${basehead}.diff`,
      patch_url: `${WEB}/${r.fullName}/compare/${basehead}.patch`,
      base_commit: commitJson(s, r, baseCommit),
      merge_base_commit: commitJson(s, r, ahead > 0 ? baseCommit : headCommit),
      status: ahead > 0 ? 'ahead' : behind > 0 ? 'behind' : 'identical',
      ahead_by: ahead,
      behind_by: behind,
      total_commits: ahead,
      commits: commits.map((c) => commitJson(s, r, c)),
      files: compareFiles(all).map((f) => fileJson(s, r, headCommit.sha, f))
    },
    headers
  )
}

/** The commits reachable from `sha` (default: the newest), newest first, those touching `path` only. */
export function commits(s: Store, r: Repo, query: URLSearchParams, pageLink: (total: number) => Paged): Answer {
  const at = resolve(r, query.get('sha') ?? r.commits.at(-1)?.sha ?? '')
  if (at === undefined) return { status: 404, json: errorBody(404, 'No commit found for SHA', 'commits') }
  const path = (query.get('path') ?? '').replace(/^\/+|\/+$/g, '')
  const all = r.commits
    .slice(0, at + 1)
    .reverse()
    .filter((c) => path === '' || touched(c).some((name) => name === path || name.startsWith(`${path}/`)))
  const paged = pageLink(all.length)
  return ok(
    all.slice(paged.start, paged.end).map((c) => commitJson(s, r, c)),
    paged.headers
  )
}

/** A tree-ish's tree: the top level, or every entry (`recursive`) up to `treeLimit`. */
export function tree(s: Store, r: Repo, ref: string, recursive: boolean): Answer {
  const at = resolve(r, ref)
  if (at === undefined) return notFound('tree')
  const files = [...treeAt(r.commits, at).entries()].sort(([a], [b]) => (a < b ? -1 : 1))
  const dirs = new Set(files.flatMap(([path]) => parents(path)))
  const entries = [
    ...[...dirs].map((path) => ({ path, mode: '040000', type: 'tree', sha: sha1(`tree-${path}`) })),
    ...files.map(([path, text]) => ({
      path,
      mode: '100644',
      type: 'blob',
      sha: sha1(`blob-${path}-${text}`),
      size: Buffer.byteLength(text)
    }))
  ]
    .filter((e) => recursive || !e.path.includes('/'))
    .sort((a, b) => (a.path < b.path ? -1 : 1))
  const sha = sha1(`tree-${r.commits[at]?.sha ?? ''}`)
  return ok({
    sha,
    url: `${s.url}/repos/${r.fullName}/git/trees/${sha}`,
    tree: entries.slice(0, s.treeLimit).map((e) => ({ ...e, url: `${s.url}/repos/${r.fullName}/git/blobs/${e.sha}` })),
    truncated: entries.length > s.treeLimit
  })
}

export function contentJson(s: Store, r: Repo, path: string, text: string): Record<string, unknown> {
  const encoded = Buffer.from(text).toString('base64')
  const sha = sha1(`blob-${path}-${text}`)
  // The links GitHub's content-file carries: the API, the blob, the page.
  const links = {
    self: `${s.url}/repos/${r.fullName}/contents/${path}`,
    git: `${s.url}/repos/${r.fullName}/git/blobs/${sha}`,
    html: `${WEB}/${r.fullName}/blob/main/${path}`
  }
  return {
    type: 'file',
    encoding: 'base64',
    size: Buffer.byteLength(text),
    name: path.slice(path.lastIndexOf('/') + 1),
    path,
    // GitHub wraps the base64 text at 60 characters.
    content: `${encoded.match(/.{1,60}/g)?.join('\n') ?? ''}\n`,
    sha,
    url: links.self,
    git_url: links.git,
    html_url: links.html,
    download_url: `https://raw.githubusercontent.com/${r.fullName}/main/${path}`,
    _links: links
  }
}

/** Index in the history of a tag name, a full sha or an unambiguous sha prefix of 7+ digits. */
export function resolve(r: Repo, refish: string): number | undefined {
  const tag = r.tags.get(refish)
  const sha = tag ? tag.commit : refish.toLowerCase()
  if (!/^[0-9a-f]{7,40}$/.test(sha)) return undefined
  const found = r.commits.flatMap((c, i) => (c.sha.startsWith(sha) ? [i] : []))
  return found.length === 1 ? found[0] : undefined
}

export function gitPerson(s: Store, actor: Actor | null, date: string): { name: string; email: string; date: string } {
  if (!actor) return { name: 'A. Contributor', email: 'contributor@example.com', date }
  const { id } = actorJson(s, actor) as { id: number }
  return { name: actor.login, email: `${id}+${actor.login}@users.noreply.github.com`, date }
}

export function commitJson(s: Store, r: Repo, c: Commit): Record<string, unknown> {
  const api = `${s.url}/repos/${r.fullName}`
  const person = gitPerson(s, c.author, c.date)
  return {
    sha: c.sha,
    node_id: nodeId('C', c.sha),
    commit: {
      author: person,
      committer: { name: 'GitHub', email: 'noreply@github.com', date: c.date },
      message: c.message,
      tree: { sha: sha1(`tree-${c.sha}`), url: `${api}/git/trees/${sha1(`tree-${c.sha}`)}` },
      url: `${api}/git/commits/${c.sha}`,
      comment_count: 0,
      verification: UNVERIFIED
    },
    url: `${api}/commits/${c.sha}`,
    html_url: `${WEB}/${r.fullName}/commit/${c.sha}`,
    comments_url: `${api}/commits/${c.sha}/comments`,
    author: c.author ? actorJson(s, c.author) : null,
    committer: actorJson(s, { login: 'web-flow', type: 'User' }),
    parents: c.parents.map((sha) => ({
      sha,
      url: `${api}/commits/${sha}`,
      html_url: `${WEB}/${r.fullName}/commit/${sha}`
    }))
  }
}

export function fileJson(s: Store, r: Repo, head: string, f: PullFileSeed): Record<string, unknown> {
  const path = f.filename.split('/').map(encodeURIComponent).join('/')
  return {
    sha: sha1(`blob-${head}-${f.filename}`),
    filename: f.filename,
    status: f.status,
    additions: f.additions,
    deletions: f.deletions,
    changes: f.additions + f.deletions,
    blob_url: `${WEB}/${r.fullName}/blob/${head}/${path}`,
    raw_url: `${WEB}/${r.fullName}/raw/${head}/${path}`,
    contents_url: `${s.url}/repos/${r.fullName}/contents/${path}?ref=${head}`,
    ...(f.patch === undefined ? {} : { patch: f.patch }),
    ...(f.previous_filename === undefined ? {} : { previous_filename: f.previous_filename })
  }
}

/** The directories above a path: `a/b/c.txt` → `a`, `a/b`. */
export function parents(path: string): string[] {
  const parts = path.split('/').slice(0, -1)
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'))
}

/** The paths a commit writes, changes or removes. */
export function touched(c: Commit): string[] {
  return [
    ...Object.keys(c.contents),
    ...c.files.flatMap((f) => (f.previous_filename ? [f.filename, f.previous_filename] : [f.filename]))
  ]
}

// History is only appended to, so a commit's tree never changes: each is built once.
export const trees = new WeakMap<Commit, Map<string, string>>()

/** The files at commit `at` (an index in the history) and their text. */
export function treeAt(commits: readonly Commit[], at: number): Map<string, string> {
  const key = commits[at]
  const known = key && trees.get(key)
  if (known) return known
  const tree = new Map<string, string>()
  for (const c of commits.slice(0, at + 1)) {
    for (const f of c.files) {
      if (f.previous_filename) tree.delete(f.previous_filename)
      if (f.status === 'removed') tree.delete(f.filename)
      else if (!tree.has(f.filename)) tree.set(f.filename, `placeholder text of ${f.filename}\n`)
    }
    for (const [path, text] of Object.entries(c.contents)) {
      if (text === null) tree.delete(path)
      else tree.set(path, text)
    }
  }
  if (key) trees.set(key, tree)
  return tree
}

/** The files of a range of commits: a file changed twice counts once, its patches joined. */
export function compareFiles(commits: Commit[]): PullFileSeed[] {
  const files = new Map<string, PullFileSeed>()
  for (const file of commits.flatMap((c) => c.files)) {
    const seen = files.get(file.filename)
    if (!seen) {
      files.set(file.filename, { ...file })
      continue
    }
    seen.additions += file.additions
    seen.deletions += file.deletions
    seen.patch = seen.patch === undefined || file.patch === undefined ? undefined : `${seen.patch}\n${file.patch}`
  }
  return [...files.values()].slice(0, COMPARE_FILES_LIMIT)
}

/** The answers of compare, commits, tree, contents. */
export const COMMIT_ROUTES: Handlers<'compare' | 'commits' | 'tree' | 'contents'> = {
  compare: (s, r, route, { query, page }) => compare(s, r, route.basehead, query, page),
  commits: (s, r, _route, { query, page }) => commits(s, r, query, page),
  tree: (s, r, route, { query }) => tree(s, r, route.ref, query.get('recursive') !== null),
  contents: (s, r, route, { query }) => {
    const at = resolve(r, query.get('ref') ?? r.commits.at(-1)?.sha ?? '')
    const text = at === undefined ? undefined : treeAt(r.commits, at).get(route.path)
    return text === undefined ? notFound(route.name) : ok(contentJson(s, r, route.path, text))
  }
}

/** Appends commits to the linear history of `repo`; returns their shas, in order. */
export function seedCommits(s: Store, repo: string, commits: CommitSeed[]): string[] {
  const r = s.repo(repo)
  return commits.map((seed) => {
    const previous = r.commits.at(-1)?.sha
    const parents = Array.from({ length: seed.parents ?? 1 }, (_, i) =>
      // The first parent continues the history (or one older than it); others are side branches.
      i === 0 && previous !== undefined ? previous : s.sha()
    )
    const commit: Commit = {
      sha: s.sha(),
      message: seed.message,
      author: seed.author === undefined ? DEFAULT_AUTHOR : seed.author,
      parents,
      date: s.tick(),
      files: seed.files ?? [],
      contents: seed.contents ?? {}
    }
    r.commits.push(commit)
    return commit.sha
  })
}
