// The fake GitHub's HTTP server: each request recorded, its faults, latency and pauses, its token checked, routed to its answer and sent as GitHub sends it.
import { dotComPath, parseRoute, type Route, type RouteName } from './routes.js'
import {
  type Answer,
  errorBody,
  type Handler,
  type Handlers,
  notFound,
  type Paged,
  paginate,
  type RepoRouteName
} from './answers.js'
import { RELEASE_ROUTES } from './releases.js'
import { COMMIT_ROUTES } from './commits.js'
import { PULL_ROUTES } from './pulls.js'
import { ISSUE_ROUTES } from './issues.js'
import { CHECK_ROUTES } from './checks.js'
import { SUITE_ROUTES } from './suites.js'
import { REPOSITORY_ROUTES, userAnswer } from './repository.js'
import { Store } from './state.js'
import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http'
import { graphql } from './graphql.js'
import { exchanged } from '../github-exchanges.js'

export type Fault =
  /**
   * Answer `status` with a GitHub error body (`message` default: the status text) and extra headers;
   * `effect`: do the request's work first (a write that took effect, then failed on the way back).
   */
  | { kind: 'status'; status: number; message?: string; headers?: Record<string, string>; effect?: boolean }
  /** Answer normally after `ms`. */
  | { kind: 'delay'; ms: number }
  /** Never answer, until the client gives up or the fake closes. */
  | { kind: 'hang' }
  /** Read the request, then reset the connection without answering (`effect`: after doing its work). */
  | { kind: 'reset'; effect?: boolean }
  /**
   * Send the answer's status, headers and half its body, then nothing, until the client gives up or
   * the fake closes: a connection lost mid-body, for which undici waits 300 s (its `bodyTimeout`).
   */
  | { kind: 'stall' }

export interface RecordedRequest {
  method: string
  /** The request target as received, query included. */
  rawPath: string
  route: RouteName | 'unknown'
  /** `owner/name` as decoded from the path. */
  repo?: string
  authorization: string | undefined
  /** The Accept header (a GraphQL preview asks for its media type there). */
  accept?: string | undefined
  body: string
  /** performance.now() at arrival, to measure intervals between requests. */
  at: number
  /** The fake's clock at arrival (virtual time under a `VirtualClock`). */
  time: number
  /** Status sent, if any (none for reset, hang or a client that went away first). */
  answeredStatus?: number
  /** performance.now() when the exchange ended: its answer sent, or its connection closed. */
  endedAt?: number
  fault?: Fault['kind']
}

/** Every repository route's answer, by route. */
const ROUTES: Handlers<RepoRouteName> = {
  ...RELEASE_ROUTES,
  ...COMMIT_ROUTES,
  ...PULL_ROUTES,
  ...ISSUE_ROUTES,
  ...CHECK_ROUTES,
  ...SUITE_ROUTES,
  ...REPOSITORY_ROUTES
}

export function handle(s: Store, req: IncomingMessage, res: ServerResponse): void {
  const rec: RecordedRequest = {
    method: req.method ?? '',
    rawPath: req.url ?? '',
    route: 'unknown',
    authorization: req.headers.authorization,
    accept: req.headers.accept,
    body: '',
    at: performance.now(),
    time: s.time.now()
  }
  s.requests.push(rec)
  // Ends this request's delays when the client goes away or the fake closes.
  const gone = new AbortController()
  res.once('close', () => {
    rec.endedAt = performance.now()
    gone.abort()
  })
  const signal = AbortSignal.any([s.closing.signal, gone.signal])
  exchange(s, req, res, rec, signal).catch(() => {
    // An unexpected error, or an exchange cut short by close() or by the client.
    if (res.headersSent || res.destroyed || signal.aborted) res.destroy()
    else send(s, res, rec, { status: 500, json: errorBody(500, 'Fake error', 'unknown') })
  })
}

async function exchange(
  s: Store,
  req: IncomingMessage,
  res: ServerResponse,
  rec: RecordedRequest,
  signal: AbortSignal
): Promise<void> {
  rec.body = await readBody(req)
  const latency = s.latencyMs
  if (latency > 0) await pause(s, latency, signal)

  const [path = '', query = ''] = dotComPath(rec.rawPath).split('?', 2)
  const route = parseRoute(rec.method, path)
  if (route) {
    rec.route = route.name
    if (route.repo !== undefined) rec.repo = route.repo
    const fault = s.faults.next(route.name)
    if (fault) {
      rec.fault = fault.kind
      switch (fault.kind) {
        case 'status':
          if (fault.effect) answer(s, route, req.headers.authorization, path, new URLSearchParams(query), rec.body)
          send(s, res, rec, {
            status: fault.status,
            json: errorBody(fault.status, fault.message ?? STATUS_CODES[fault.status] ?? 'Error', route.name),
            headers: fault.headers
          })
          return
        case 'reset':
          if (fault.effect) answer(s, route, req.headers.authorization, path, new URLSearchParams(query), rec.body)
          req.socket.resetAndDestroy()
          return
        case 'hang':
          // The socket stays open until the client gives up or close() destroys it.
          await s.time.hold(signal)
          return
        case 'delay':
          await pause(s, fault.ms, signal)
          break
        case 'stall': {
          const body = head(
            s,
            res,
            rec,
            answer(s, route, req.headers.authorization, path, new URLSearchParams(query), rec.body)
          )
          res.write(body.slice(0, body.length >> 1))
          await s.time.hold(signal)
          res.destroy()
          return
        }
        default:
          fault satisfies never
      }
    }
  }
  send(s, res, rec, answer(s, route, req.headers.authorization, path, new URLSearchParams(query), rec.body))
}

/** Waits `ms` on the fake's clock; throws when the client goes away or the fake closes first. */
async function pause(s: Store, ms: number, signal: AbortSignal): Promise<void> {
  await s.time.hold(AbortSignal.any([signal, s.time.timeout(ms)]))
  signal.throwIfAborted()
}

/** The changes now due made, then the answer: 401 without the token, 404 for no route or no repository, else the route's. */
function answer(
  s: Store,
  route: Route | undefined,
  authorization: string | undefined,
  path: string,
  query: URLSearchParams,
  body: string
): Answer {
  const now = s.time.now()
  for (const due of s.due.filter((d) => d.at <= now)) {
    s.due.splice(s.due.indexOf(due), 1)
    due.change()
  }
  if (!authorized(s, authorization)) return { status: 401, json: errorBody(401, 'Bad credentials', 'unknown') }
  if (!route) return notFound('unknown')
  if (route.name === 'user') return userAnswer(s)
  if (route.name === 'graphql') return graphql(s, body)
  const r = s.repos.get(route.repo.toLowerCase())
  if (!r) return notFound(route.name)
  const pageLink = (total: number): Paged => paginate(total, query, `${s.url}${path}`)

  return (ROUTES[route.name] as Handler<RepoRouteName>)(s, r, route, { query, body, path, page: pageLink })
}

function authorized(s: Store, header: string | undefined): boolean {
  const { token } = s
  if (token === undefined) return true
  const given = /^(?:token|bearer) (.+)$/i.exec(header ?? '')?.[1] ?? ''
  // Several: a run's two tokens (github-token, docs-token), each of which GitHub accepts.
  return typeof token === 'string' ? given === token : token.includes(given)
}

function send(s: Store, res: ServerResponse, rec: RecordedRequest, answer: Answer): void {
  const body = head(s, res, rec, answer)
  exchanged({ method: rec.method, rawPath: dotComPath(rec.rawPath), route: rec.route, status: answer.status, body })
  res.end(body)
}

/** Writes the answer's status and headers, GitHub's among them; the body they announce. */
function head(s: Store, res: ServerResponse, rec: RecordedRequest, answer: Answer): string {
  const body = answer.status === 204 ? '' : JSON.stringify(answer.json)
  rec.answeredStatus = answer.status
  res.setHeader('content-type', 'application/json; charset=utf-8')
  res.setHeader('content-length', Buffer.byteLength(body))
  res.setHeader('x-github-api-version-selected', '2022-11-28')
  res.setHeader('x-github-media-type', 'github.v3; format=json')
  res.setHeader('x-github-request-id', `FAKE:${String(s.requests.length)}`)
  res.setHeader('x-ratelimit-limit', '5000')
  res.setHeader('x-ratelimit-remaining', '4990')
  res.setHeader('x-ratelimit-used', '10')
  res.setHeader('x-ratelimit-reset', s.rateReset)
  res.setHeader('x-ratelimit-resource', 'core')
  // setHeader is case-insensitive, so a fault's headers replace the defaults whatever their case.
  for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value)
  res.writeHead(answer.status)
  return body
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}
