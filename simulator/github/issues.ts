import { type CommentSeed, nodeId, type Repo, Store, type StoredComment, WEB } from './state.js'
import { type Answer, errorBody, type Handlers, invalid, jsonField, notFound, ok } from './answers.js'
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
  // A label name is at most 50 characters; a longer one fails the whole request (github/docs#32156,
  // semantic-release/github#518).
  if ((labels as string[]).some((label) => codePoints(label) > 50))
    return invalid('labels', 'Validation Failed: {"resource":"Label","code":"invalid","field":"name"}')
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
    // A string: a pull request in a list (pull-request-simple) has no null description in GitHub's description.
    description: ''
  }
}

/**
 * GitHub refuses a comment body over 65,536 characters with a 422, "Body is too long (maximum is
 * 65536 characters)" (as quoted in danger/danger#424 and peter-evans/create-or-update-comment#182);
 * counted here in code points, as a Ruby string's length counts them.
 */
const MAX_BODY_CHARS = 65_536
const tooLong = (text: string): boolean => codePoints(text) > MAX_BODY_CHARS
// Surrogate pairs count once: UTF-16 units less the low halves.
const codePoints = (text: string): number => text.length - (text.match(/[\uDC00-\uDFFF]/g)?.length ?? 0)

/** The answers of labels, comments, comment-create, comment-update, comment-delete, reaction. */
export const ISSUE_ROUTES: Handlers<
  'labels' | 'comments' | 'comment-create' | 'comment-update' | 'comment-delete' | 'reaction'
> = {
  labels: (s, r, route, { body }) => addLabels(s, r, route.number, body),
  comments: (s, r, route, { page }) => {
    const all = r.comments.filter((c) => c.issue === route.number)
    const paged = page(all.length)
    return ok(
      all.slice(paged.start, paged.end).map((c) => commentJson(s, r, c)),
      paged.headers
    )
  },
  'comment-create': (s, r, route, { body }) => {
    const text = jsonField(body, 'body')
    if (text === undefined) return invalid(route.name, '"body" must be a string.')
    if (tooLong(text)) return invalid(route.name, `Body is too long (maximum is ${MAX_BODY_CHARS} characters)`)
    const id = seedComment(s, r.fullName, route.number, { body: text, user: { login: s.identity.login } })
    return { status: 201, json: commentJson(s, r, r.comments.at(-1) ?? ({ id } as StoredComment)) }
  },
  'comment-update': (s, r, route, { body }) => {
    const comment = r.comments.find((c) => c.id === route.id)
    if (!comment) return notFound(route.name)
    if (comment.user.login !== s.identity.login)
      return { status: 403, json: errorBody(403, 'Resource not accessible by integration', route.name) }
    const text = jsonField(body, 'body')
    if (text === undefined) return invalid(route.name, '"body" must be a string.')
    if (tooLong(text)) return invalid(route.name, `Body is too long (maximum is ${MAX_BODY_CHARS} characters)`)
    comment.body = text
    comment.updated_at = s.tick()
    return ok(commentJson(s, r, comment))
  },
  'comment-delete': (s, r, route) => {
    const index = r.comments.findIndex((c) => c.id === route.id)
    if (index < 0) return notFound(route.name)
    r.comments.splice(index, 1)
    return { status: 204, json: '' }
  },
  reaction: (s, r, route, { body }) => {
    const content = jsonField(body, 'content')
    if (content === undefined) return invalid(route.name, '"content" must be a string.')
    const id = s.nextId()
    const list = r.reactions.get(route.id) ?? []
    list.push({ on: route.on, content, user: s.identity.login })
    r.reactions.set(route.id, list)
    return {
      status: 201,
      json: {
        id,
        node_id: nodeId('REA', String(id)),
        content,
        user: actorJson(s, { login: s.identity.login }),
        created_at: s.tick()
      }
    }
  }
}

/** Adds a comment written by `seed.user` on issue or pull request `number`; returns its id. */
export function seedComment(s: Store, repo: string, number: number, seed: CommentSeed): number {
  const date = s.tick()
  const comment = { id: s.nextId(), issue: number, ...seed, created_at: date, updated_at: date }
  s.repo(repo).comments.push(comment)
  return comment.id
}
