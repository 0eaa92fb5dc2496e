import { nodeId, type Release, type ReleaseSeed, type Repo, Store, type Tag, type TagSeed, WEB } from './state.js'
import { actorJson } from './repository.js'
import { UNVERIFIED } from './commits.js'
import { type Handlers, invalid, jsonField, notFound, ok, paginate } from './answers.js'

/**
 * GitHub refuses release notes over 125,000 characters: 422 "body is too long (maximum is 125000
 * characters)" (undocumented; GitHub's answer as quoted in ncipollo/release-action#493 and
 * softprops/action-gh-release#374).
 */
const MAX_RELEASE_BODY_CHARS = 125_000

export const DEFAULT_TAGGER = { name: 'Mona Lisa Octocat', email: 'mona@github.com' }

export function releaseJson(s: Store, r: Repo, x: Release): Record<string, unknown> {
  const api = `${s.url}/repos/${r.fullName}`
  return {
    url: `${api}/releases/${x.id}`,
    assets_url: `${api}/releases/${x.id}/assets`,
    upload_url: `https://uploads.github.com/repos/${r.fullName}/releases/${x.id}/assets{?name,label}`,
    html_url: x.html_url,
    id: x.id,
    author: actorJson(s, { login: 'github-actions[bot]' }),
    node_id: nodeId('RE', String(x.id)),
    tag_name: x.tag_name,
    target_commitish: 'main',
    name: x.name,
    draft: x.draft,
    immutable: false,
    prerelease: x.prerelease,
    created_at: x.created_at,
    updated_at: x.created_at,
    published_at: x.published_at,
    assets: [],
    tarball_url: `${api}/tarball/${encodeURIComponent(x.tag_name)}`,
    zipball_url: `${api}/zipball/${encodeURIComponent(x.tag_name)}`,
    body: x.body
  }
}

export function tagListJson(s: Store, r: Repo, t: Tag): Record<string, unknown> {
  const api = `${s.url}/repos/${r.fullName}`
  return {
    name: t.name,
    zipball_url: `${api}/zipball/refs/tags/${encodeURIComponent(t.name)}`,
    tarball_url: `${api}/tarball/refs/tags/${encodeURIComponent(t.name)}`,
    commit: { sha: t.commit, url: `${api}/commits/${t.commit}` },
    node_id: nodeId('REF', `${r.fullName}:refs/tags/${t.name}`)
  }
}

export function refJson(
  s: Store,
  r: Repo,
  t: Tag
): { ref: string; node_id: string; url: string; object: Record<string, string> } {
  const api = `${s.url}/repos/${r.fullName}`
  const object = t.object
    ? { sha: t.object.sha, type: 'tag', url: `${api}/git/tags/${t.object.sha}` }
    : { sha: t.commit, type: 'commit', url: `${api}/git/commits/${t.commit}` }
  return {
    ref: `refs/tags/${t.name}`,
    node_id: nodeId('REF', `${r.fullName}:refs/tags/${t.name}`),
    url: `${api}/git/refs/tags/${t.name}`,
    object
  }
}

export function tagObjectJson(s: Store, r: Repo, t: Tag): Record<string, unknown> {
  const api = `${s.url}/repos/${r.fullName}`
  const object = t.object as NonNullable<Tag['object']>
  return {
    node_id: nodeId('TAG', object.sha),
    sha: object.sha,
    url: `${api}/git/tags/${object.sha}`,
    tagger: object.tagger,
    object: { sha: t.commit, type: 'commit', url: `${api}/git/commits/${t.commit}` },
    tag: t.name,
    message: object.message,
    verification: UNVERIFIED
  }
}

/** The answers of release-by-tag, releases, latest-release, tags, matching-refs, ref, tag-object, release-update. */
export const RELEASE_ROUTES: Handlers<
  'release-by-tag' | 'releases' | 'latest-release' | 'tags' | 'matching-refs' | 'ref' | 'tag-object' | 'release-update'
> = {
  'release-by-tag': (s, r, route) => {
    // Drafts have no tag yet as far as GitHub is concerned.
    const release = r.releases.find((x) => !x.draft && x.tag_name === route.tag)
    return release ? ok(releaseJson(s, r, release)) : notFound(route.name)
  },
  releases: (s, r, _route, { page }) => {
    const newestFirst = [...r.releases].reverse()
    const paged = page(newestFirst.length)
    return ok(
      newestFirst.slice(paged.start, paged.end).map((x) => releaseJson(s, r, x)),
      paged.headers
    )
  },
  'latest-release': (s, r, route) => {
    const latest = r.releases.findLast((x) => !x.draft && !x.prerelease)
    return latest ? ok(releaseJson(s, r, latest)) : notFound(route.name)
  },
  tags: (s, r, _route, { page }) => {
    const newestFirst = [...r.tags.values()].reverse()
    const paged = page(newestFirst.length)
    return ok(
      newestFirst.slice(paged.start, paged.end).map((t) => tagListJson(s, r, t)),
      paged.headers
    )
  },
  'matching-refs': (s, r, route, { query, path }) => {
    // Filtered before the JSON is built, so a large repository costs what the answer holds.
    const refs = [...r.tags.values()]
      .filter((t) => `refs/tags/${t.name}`.startsWith(`refs/${route.ref}`))
      .map((t) => refJson(s, r, t))
      .sort((a, b) => (a.ref < b.ref ? -1 : 1))
    if (s.matchingRefsPageSize === undefined) return ok(refs)
    const sized = new URLSearchParams(query)
    sized.set('per_page', String(s.matchingRefsPageSize))
    const paged = paginate(refs.length, sized, `${s.url}${path}`)
    return ok(refs.slice(paged.start, paged.end), paged.headers)
  },
  ref: (s, r, route) => {
    const tag = route.ref.startsWith('tags/') ? r.tags.get(route.ref.slice('tags/'.length)) : undefined
    return tag ? ok(refJson(s, r, tag)) : notFound(route.name)
  },
  'tag-object': (s, r, route) => {
    const tag = [...r.tags.values()].find((t) => t.object?.sha === route.sha)
    return tag ? ok(tagObjectJson(s, r, tag)) : notFound(route.name)
  },
  'release-update': (s, r, route, { body }) => {
    const release = r.releases.find((x) => x.id === route.id)
    if (!release) return notFound(route.name)
    const text = jsonField(body, 'body')
    if (text !== undefined && text.length > MAX_RELEASE_BODY_CHARS)
      return invalid(route.name, `body is too long (maximum is ${MAX_RELEASE_BODY_CHARS} characters)`)
    if (text !== undefined) release.body = text
    return ok(releaseJson(s, r, release))
  }
}

/** Tags commit `seed.at` of `repo`, lightweight or annotated. */
export function seedTag(s: Store, repo: string, seed: TagSeed): void {
  const r = s.repo(repo)
  if (!r.commits.some((c) => c.sha === seed.at)) throw new Error(`addTag: ${seed.at} is not a commit of ${repo}`)
  const tag: Tag = { name: seed.name, commit: seed.at }
  if (seed.annotated) {
    const { message, tagger = DEFAULT_TAGGER } = seed.annotated
    tag.object = {
      sha: s.sha(),
      message: message.endsWith('\n') ? message : `${message}\n`,
      tagger: { ...tagger, date: s.tick() }
    }
  }
  r.tags.set(seed.name, tag)
}

/** A release of `repo`, published unless a draft. */
export function seedRelease(s: Store, repo: string, seed: ReleaseSeed): void {
  const r = s.repo(repo)
  const date = s.tick()
  r.releases.push({
    id: s.nextId(),
    tag_name: seed.tag_name,
    name: seed.name ?? null,
    body: seed.body ?? null,
    draft: seed.draft ?? false,
    prerelease: seed.prerelease ?? false,
    html_url: seed.html_url ?? `${WEB}/${r.fullName}/releases/tag/${encodeURIComponent(seed.tag_name)}`,
    created_at: date,
    published_at: seed.draft ? null : date
  })
}
