// The fake GitHub's issue routes: labels, comments (list, create, update, delete) and reactions.
import { nodeId, type Repo, Store, type StoredComment, WEB } from './state.js'
import { type Answer, errorBody, ok } from './answers.js'
import { actorJson } from './repository.js'

export function addLabels(s: Store, r: Repo, number: number, body: string): Answer {
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    return { status: 400, json: errorBody(400, 'Problems parsing JSON', 'labels') }
  }
  const labels = typeof parsed === 'object' && parsed !== null && 'labels' in parsed ? parsed.labels : undefined
  if (!Array.isArray(labels) || labels.length === 0 || !labels.every((l) => typeof l === 'string' && l !== '')) {
    return {
      status: 422,
      json: errorBody(422, 'Invalid request.\n\n"labels" must be a non-empty array of strings.', 'labels')
    }
  }
  const current = r.labels.get(number) ?? []
  for (const label of labels as string[]) if (!current.includes(label)) current.push(label)
  r.labels.set(number, current)
  return ok(current.map((name) => labelJson(s, r, name)))
}

export function commentJson(s: Store, r: Repo, c: StoredComment): Record<string, unknown> {
  const api = `${s.url}/repos/${r.fullName}`
  return {
    id: c.id,
    node_id: nodeId('IC', String(c.id)),
    url: `${api}/issues/comments/${c.id}`,
    html_url: `${WEB}/${r.fullName}/pull/${c.issue}#issuecomment-${c.id}`,
    issue_url: `${api}/issues/${c.issue}`,
    body: c.body,
    user: actorJson(s, c.user),
    created_at: c.created_at,
    updated_at: c.updated_at,
    author_association: 'NONE'
  }
}

export function labelJson(s: Store, r: Repo, name: string): Record<string, unknown> {
  const key = `${r.fullName.toLowerCase()}\n${name}`
  let id = s.labelIds.get(key)
  if (id === undefined) {
    id = 5_000_000 + s.labelIds.size
    s.labelIds.set(key, id)
  }
  return {
    id,
    node_id: nodeId('LA', String(id)),
    url: `${s.url}/repos/${r.fullName}/labels/${encodeURIComponent(name)}`,
    name,
    color: 'ededed',
    default: false,
    description: null
  }
}
