// The fake GitHub's releases, tags and refs: release by tag, releases, latest, tags, matching-refs, ref, tag objects, release updates.
import { nodeId, type Release, type Repo, Store, type Tag } from './state.js'
import { actorJson } from './repository.js'
import { UNVERIFIED } from './commits.js'

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
