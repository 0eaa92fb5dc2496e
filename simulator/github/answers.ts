// What every answer of the fake GitHub is made of: a status and JSON, pages and their Link header, GitHub's error bodies.
import { DOC_URLS, type RouteName, type RouteOf } from './routes.js'
import type { Repo, Store } from './state.js'

export interface Answer {
  status: number
  json: unknown
  headers?: Record<string, string>
}

export interface Paged {
  start: number
  end: number
  headers?: Record<string, string>
}

/** The slice of `total` items a `per_page`/`page` query asks for, and the Link header GitHub sends. */
export function paginate(total: number, query: URLSearchParams, url: string): Paged {
  const perPage = Math.min(100, positive(query.get('per_page')) ?? 30)
  const page = positive(query.get('page')) ?? 1
  const last = Math.max(1, Math.ceil(total / perPage))
  const start = (page - 1) * perPage
  if (last === 1 && page === 1) return { start, end: start + perPage }
  const link = (p: number, rel: string): string => {
    const q = new URLSearchParams(query)
    q.set('page', String(p))
    return `<${url}?${q.toString()}>; rel="${rel}"`
  }
  const links = [
    ...(page > 1 ? [link(Math.min(page - 1, last), 'prev')] : []),
    ...(page < last ? [link(page + 1, 'next'), link(last, 'last')] : []),
    ...(page > 1 ? [link(1, 'first')] : [])
  ]
  return { start, end: start + perPage, headers: { link: links.join(', ') } }
}

function positive(value: string | null): number | undefined {
  const n = Number(value ?? '')
  return Number.isInteger(n) && n > 0 ? n : undefined
}

/** A string field of a JSON request body; undefined when the body or the field is not one. */
export function jsonField(body: string, name: string): string | undefined {
  try {
    const value: unknown = (JSON.parse(body) as Record<string, unknown> | null)?.[name]
    return typeof value === 'string' ? value : undefined
  } catch {
    return undefined
  }
}

export function parseJson(body: string): unknown {
  try {
    return JSON.parse(body) as unknown
  } catch {
    return undefined
  }
}

export function invalid(route: RouteName, message: string): Answer {
  return { status: 422, json: errorBody(422, `Invalid request.\n\n${message}`, route) }
}

export function ok(json: unknown, headers?: Record<string, string>): Answer {
  return { status: 200, json, headers }
}

export function notFound(route: RouteName | 'unknown'): Answer {
  return { status: 404, json: errorBody(404, 'Not Found', route) }
}

export function errorBody(status: number, message: string, route: RouteName | 'unknown'): Record<string, string> {
  return { message, documentation_url: DOC_URLS[route], status: String(status) }
}

/** What an answer reads of its request besides the route: the query, the body, the path, and its page. */
export interface Asked {
  query: URLSearchParams
  body: string
  /** The path requested, without the query (GitHub Enterprise Server's /api/v3 taken off). */
  path: string
  /** The slice of `total` items the query asks for, and the Link header. */
  page: (total: number) => Paged
}

/** The routes of a repository (every one but `user` and `graphql`). */
export type RepoRouteName = Exclude<RouteName, 'user' | 'graphql'>

/** The answer to route `N` of repository `r`. */
export type Handler<N extends RepoRouteName> = (s: Store, r: Repo, route: RouteOf<N>, asked: Asked) => Answer

/** The answers of routes `N`, one function each. */
export type Handlers<N extends RepoRouteName> = { [K in N]: Handler<K> }
