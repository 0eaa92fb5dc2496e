/**
 * Fake GitHub Actions cache service, protocol v1 (`_apis/artifactcache`), on loopback: what
 * @actions/cache 6.x talks to when ACTIONS_CACHE_URL is set and ACTIONS_CACHE_SERVICE_V2 is not.
 *
 *   const fake = await CacheServiceFake.start()
 *   const restoreEnv = applyEnv(fake.env())          // @actions/cache reads the env at call time
 *   await cache.saveCache([dir], 'deps-1')            // reserve, upload chunks, commit
 *   await cache.restoreCache([dir], 'deps-2', ['deps-'])   // prefix match: 'deps-1'
 *   fake.fail('lookup', { status: 500 })              // the next lookup answers 500
 *   fake.failAlways('reserve', 'hang')                // every reserve hangs, until failAlways('reserve', null)
 *   fake.fail('download', { delayMs: 500 })           // the next archive download answers late
 *   fake.time = virtualClock                          // delays in virtual time
 *   await fake.down(); await fake.up()                // connection refused, then back on the same port
 *   fake.evict()                                      // drops every entry
 *   fake.entries; fake.requests
 *   restoreEnv(); await fake.close()                  // close also destroys hanging connections
 *
 * Routes under `{url}_apis/artifactcache/`, all requiring `Authorization: Bearer {token}` (else 401):
 *   GET   cache?keys=k1,k2&version=v   → 200 {cacheKey, cacheVersion, scope, creationTime, archiveLocation} | 204
 *   GET   caches?key=k                 → 200 {totalCount, artifactCaches} (asked only with RUNNER_DEBUG=1, after a miss)
 *   POST  caches {key, version, cacheSize?} → 201 {cacheId} | 409 when that key and version exist
 *   PATCH caches/{id}, Content-Range: bytes a-b/*, the chunk as body → 204
 *   POST  caches/{id} {size}           → 204, commits; 400 unless bytes 0..size-1 were all received
 * plus the archive, unauthenticated like the blob SAS URL it stands for: GET {url}_archives/{id}.
 * Order of checks: route (404), fault (queued before always), auth (401), body (400), entry (404, 409).
 * Errors are JSON `{"message": "..."}`, the field @actions/http-client turns into the error text.
 */
import { once } from 'node:events'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { realTime, type SimulatorClock } from './agent-api.js'
import { FaultPlan } from './faults.js'

export type CacheOperation = 'lookup' | 'list' | 'reserve' | 'upload' | 'commit' | 'download'

export type CacheFault =
  /**
   * Never answer, until the client gives up or down()/close() drops the connection. @actions/cache
   * gives up after 3 min, then tries once more: 2 × (180 s + 5 s) = 370 s before it returns.
   */
  | 'hang'
  /** Answer this status with `{"message": message}` instead of doing the work. */
  | { status: number; message?: string }
  /** Do the work and answer after `delayMs`. */
  | { delayMs: number }

export interface CacheEntry {
  id: number
  key: string
  version: string
  /** Bytes received so far; once committed, the archive size. */
  size: number
  committed: boolean
  /** Creation order, from 1: a prefix lookup picks the highest. */
  created: number
  /** The committed archive, empty until then. */
  archive: Buffer
}

export interface CacheRequest {
  method: string
  /** The request target as received, query included. */
  path: string
  operation: CacheOperation | 'unknown'
  headers: Record<string, string | string[] | undefined>
  /** Status sent, if any (none for a hang or a connection dropped first). */
  status?: number
  fault?: 'hang' | 'status' | 'delay'
}

export interface CacheServiceOptions {
  /** Default 127.0.0.1. */
  host?: string
  /** Default 0: any free port. */
  port?: number
}

type Route =
  | { op: 'lookup'; query: URLSearchParams }
  | { op: 'list'; query: URLSearchParams }
  | { op: 'reserve' }
  | { op: 'upload' | 'commit' | 'download'; id: number }
type Answer = { status: number; json?: unknown; archive?: Buffer }

interface StoredEntry {
  id: number
  key: string
  version: string
  created: number
  creationTime: string
  committed: boolean
  /** Uploaded chunks by start offset: a retried chunk replaces the first try. */
  chunks: Map<number, Buffer>
  archive: Buffer
}

const API = '/_apis/artifactcache/'
const ARCHIVES = '/_archives/'
// What the hosted service reports; the library only logs it.
const SCOPE = 'refs/heads/main'

export class CacheServiceFake {
  readonly token = 'fake-actions-runtime-token'
  readonly requests: CacheRequest[] = []
  /** The clock delays run on (default: real time). */
  time: SimulatorClock = realTime
  private stored: StoredEntry[] = []
  private nextId = 1
  private readonly server: Server
  private readonly faults = new FaultPlan<CacheOperation, CacheFault>()
  // Aborted by down() and close(), so no delayed answer outlives the connection it was for.
  private dropping = new AbortController()
  private address: AddressInfo | undefined

  private constructor(private readonly host: string) {
    this.server = createServer((req, res) => this.handle(req, res))
  }

  static async start(options: CacheServiceOptions = {}): Promise<CacheServiceFake> {
    const fake = new CacheServiceFake(options.host ?? '127.0.0.1')
    await fake.listen(options.port ?? 0)
    return fake
  }

  /** Base URL, ending with `/`: the value of ACTIONS_CACHE_URL. Still valid while down. */
  get url(): string {
    if (!this.address) throw new Error('CacheServiceFake never listened')
    const { address, port } = this.address
    return `http://${address.includes(':') ? `[${address}]` : address}:${port}/`
  }

  /**
   * The variables @actions/cache needs to pick this service; undefined means unset. The v2 switch
   * and its URL are unset so v1 is used, and ACTIONS_CACHE_MODE so that reads and writes are allowed.
   */
  env(): Record<string, string | undefined> {
    return {
      ACTIONS_CACHE_URL: this.url,
      ACTIONS_RUNTIME_TOKEN: this.token,
      ACTIONS_CACHE_SERVICE_V2: undefined,
      ACTIONS_RESULTS_URL: undefined,
      ACTIONS_CACHE_MODE: undefined
    }
  }

  /** Every entry, reserved or committed, in creation order. */
  get entries(): CacheEntry[] {
    return this.stored.map((e) => ({
      id: e.id,
      key: e.key,
      version: e.version,
      size: e.committed ? e.archive.length : receivedBytes(e),
      committed: e.committed,
      created: e.created,
      archive: e.archive
    }))
  }

  /** Queues faults: each of the next requests for `op` consumes one, in order. */
  fail(op: CacheOperation, ...faults: CacheFault[]): void {
    this.faults.fail(op, ...faults)
  }

  /** Every request for `op` gets `fault` (after any queued ones) until called with null. */
  failAlways(op: CacheOperation, fault: CacheFault | null): void {
    this.faults.failAlways(op, fault)
  }

  /** Drops every entry, as the service's eviction would; pending uploads then get 404. */
  evict(): void {
    this.stored = []
  }

  /** Drops entries, requests and faults, and ids restart at 1; does not bring a down service back up. */
  reset(): void {
    this.evict()
    this.nextId = 1
    this.requests.length = 0
    this.faults.clear()
  }

  /** Stops listening and drops every connection: clients get connection refused until up(). */
  async down(): Promise<void> {
    if (!this.server.listening) return
    this.dropping.abort()
    this.dropping = new AbortController()
    const closed = new Promise<void>((resolve, reject) => this.server.close((err) => (err ? reject(err) : resolve())))
    this.server.closeAllConnections()
    await closed
  }

  /** Listens again on the same host and port. */
  async up(): Promise<void> {
    if (this.server.listening) return
    await this.listen(this.address?.port ?? 0)
  }

  close(): Promise<void> {
    return this.down()
  }

  private async listen(port: number): Promise<void> {
    this.server.listen(port, this.host)
    await once(this.server, 'listening')
    this.address = this.server.address() as AddressInfo
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const rec: CacheRequest = {
      method: req.method ?? '',
      path: req.url ?? '',
      operation: 'unknown',
      headers: { ...req.headers }
    }
    this.requests.push(rec)
    this.answer(req, rec).then(
      // No answer: a hang, the socket stays open until the client gives up or down()/close() destroys it.
      (answer) => answer && send(res, rec, answer),
      // A delay cut short by down()/close(), or a client that went away mid-body.
      () => res.destroy()
    )
  }

  private async answer(req: IncomingMessage, rec: CacheRequest): Promise<Answer | undefined> {
    const body = await readBody(req)
    const route = parseRoute(rec.method, rec.path)
    if (!route) return { status: 404, json: { message: `No route for ${rec.method} ${rec.path}` } }
    rec.operation = route.op

    const fault = this.faults.next(route.op)
    if (fault === 'hang') {
      rec.fault = 'hang'
      return undefined
    }
    if (fault && 'status' in fault) {
      rec.fault = 'status'
      return { status: fault.status, json: { message: fault.message ?? `Simulated HTTP ${fault.status}` } }
    }
    if (fault) {
      rec.fault = 'delay'
      const dropping = this.dropping.signal
      await this.time.hold(AbortSignal.any([dropping, this.time.timeout(fault.delayMs)]))
      dropping.throwIfAborted()
    }
    // The archive URL stands for a pre-signed blob URL: the library sends it no token.
    if (route.op !== 'download' && req.headers.authorization !== `Bearer ${this.token}`) {
      return { status: 401, json: { message: 'Bad or missing runtime token' } }
    }
    return this.perform(route, req, body)
  }

  private perform(route: Route, req: IncomingMessage, body: Buffer): Answer {
    switch (route.op) {
      case 'lookup':
        return this.lookup(route.query)
      case 'list':
        return this.list(route.query)
      case 'reserve':
        return this.reserve(body)
      case 'upload':
        return this.upload(route.id, req.headers['content-range'], body)
      case 'commit':
        return this.commit(route.id, body)
      case 'download': {
        const entry = this.stored.find((e) => e.id === route.id && e.committed)
        return entry ? { status: 200, archive: entry.archive } : notFound(route.id)
      }
    }
  }

  /** For each key in order: the exact key, else the newest key starting with it; same version, committed only. */
  private lookup(query: URLSearchParams): Answer {
    const keys = (query.get('keys') ?? '').split(',').filter((k) => k !== '')
    const version = query.get('version') ?? ''
    if (keys.length === 0 || version === '') return badRequest('Query needs keys and version')
    const candidates = this.stored.filter((e) => e.committed && e.version === version).reverse()
    for (const key of keys) {
      const hit = candidates.find((e) => e.key === key) ?? candidates.find((e) => e.key.startsWith(key))
      if (hit) {
        return {
          status: 200,
          json: {
            cacheKey: hit.key,
            cacheVersion: hit.version,
            scope: SCOPE,
            creationTime: hit.creationTime,
            archiveLocation: `${this.url}${ARCHIVES.slice(1)}${hit.id}`
          }
        }
      }
    }
    return { status: 204 }
  }

  private list(query: URLSearchParams): Answer {
    const key = query.get('key') ?? ''
    const matching = this.stored.filter((e) => e.committed && e.key === key)
    return {
      status: 200,
      json: {
        totalCount: matching.length,
        artifactCaches: matching.map((e) => ({
          cacheKey: e.key,
          cacheVersion: e.version,
          scope: SCOPE,
          creationTime: e.creationTime
        }))
      }
    }
  }

  private reserve(body: Buffer): Answer {
    const { key, version } = parseObject(body) ?? {}
    if (typeof key !== 'string' || key === '' || typeof version !== 'string' || version === '') {
      return badRequest('Body must be JSON {"key": string, "version": string, "cacheSize"?: number}')
    }
    // Keys are immutable: a second reserve of the same key and version is refused, committed or not.
    if (this.stored.some((e) => e.key === key && e.version === version)) {
      return {
        status: 409,
        json: { message: `Cache already exists. Scope: ${SCOPE}, Key: ${key}, Version: ${version}` }
      }
    }
    const id = this.nextId++
    this.stored.push({
      id,
      key,
      version,
      created: id,
      creationTime: new Date().toISOString(),
      committed: false,
      chunks: new Map(),
      archive: Buffer.alloc(0)
    })
    return { status: 201, json: { cacheId: id } }
  }

  private upload(id: number, contentRange: string | undefined, body: Buffer): Answer {
    const match = /^bytes (\d+)-(\d+)\/\*$/.exec(contentRange ?? '')
    if (!match) return badRequest('Content-Range must be "bytes start-end/*"')
    const start = Number(match[1])
    const end = Number(match[2])
    if (end - start + 1 !== body.length) {
      return badRequest(
        `Content-Range ${contentRange ?? ''} announces ${end - start + 1} bytes, body has ${body.length}`
      )
    }
    const entry = this.stored.find((e) => e.id === id)
    if (!entry) return notFound(id)
    if (entry.committed) return { status: 409, json: { message: `Cache ${id} is already committed` } }
    entry.chunks.set(start, body)
    return { status: 204 }
  }

  private commit(id: number, body: Buffer): Answer {
    const { size } = parseObject(body) ?? {}
    if (typeof size !== 'number') return badRequest('Body must be JSON {"size": number}')
    const entry = this.stored.find((e) => e.id === id)
    if (!entry) return notFound(id)
    if (entry.committed) return { status: 409, json: { message: `Cache ${id} is already committed` } }
    const archive = assemble(entry.chunks)
    if (archive?.length !== size) {
      return badRequest(`Commit of ${size} bytes, but received ${receivedBytes(entry)} in chunks that do not make that`)
    }
    entry.archive = archive
    entry.chunks.clear()
    entry.committed = true
    return { status: 204 }
  }
}

/** Sets each variable, or deletes it when undefined; returns a function putting the previous values back. */
export function applyEnv(vars: Record<string, string | undefined>): () => void {
  const previous = Object.fromEntries(Object.keys(vars).map((name) => [name, process.env[name]]))
  const set = (values: Record<string, string | undefined>): void => {
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined) Reflect.deleteProperty(process.env, name)
      else process.env[name] = value
    }
  }
  set(vars)
  return () => set(previous)
}

function parseRoute(method: string, rawPath: string): Route | undefined {
  const url = new URL(rawPath, 'http://fake')
  const path = url.pathname
  if (path.startsWith(ARCHIVES) && method === 'GET') {
    const id = parseId(path.slice(ARCHIVES.length))
    return id === undefined ? undefined : { op: 'download', id }
  }
  if (!path.startsWith(API)) return undefined
  const resource = path.slice(API.length)
  if (resource === 'cache' && method === 'GET') return { op: 'lookup', query: url.searchParams }
  if (resource === 'caches' && method === 'GET') return { op: 'list', query: url.searchParams }
  if (resource === 'caches' && method === 'POST') return { op: 'reserve' }
  if (!resource.startsWith('caches/')) return undefined
  const id = parseId(resource.slice('caches/'.length))
  if (id === undefined) return undefined
  if (method === 'PATCH') return { op: 'upload', id }
  if (method === 'POST') return { op: 'commit', id }
  return undefined
}

function parseId(segment: string): number | undefined {
  return /^\d+$/.test(segment) ? Number(segment) : undefined
}

function parseObject(body: Buffer): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'))
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

function receivedBytes(entry: StoredEntry): number {
  let total = 0
  for (const chunk of entry.chunks.values()) total += chunk.length
  return total
}

/** The chunks joined in offset order, or undefined when they leave a gap or overlap. */
function assemble(chunks: Map<number, Buffer>): Buffer | undefined {
  const ordered = [...chunks.entries()].sort(([a], [b]) => a - b)
  let offset = 0
  for (const [start, chunk] of ordered) {
    if (start !== offset) return undefined
    offset += chunk.length
  }
  return Buffer.concat(ordered.map(([, chunk]) => chunk))
}

const badRequest = (message: string): Answer => ({ status: 400, json: { message } })
const notFound = (id: number): Answer => ({ status: 404, json: { message: `No cache with id ${id}` } })

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

function send(res: ServerResponse, rec: CacheRequest, answer: Answer): void {
  rec.status = answer.status
  if (answer.archive) {
    // The library checks the bytes it saved against Content-Length.
    res.writeHead(answer.status, {
      'content-type': 'application/octet-stream',
      'content-length': answer.archive.length
    })
    res.end(answer.archive)
    return
  }
  if (answer.json === undefined) {
    res.writeHead(answer.status)
    res.end()
    return
  }
  const body = JSON.stringify(answer.json)
  res.writeHead(answer.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
  res.end(body)
}
