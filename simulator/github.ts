import { once } from 'node:events'
import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http'
import { performance } from 'node:perf_hooks'
import { closeServer } from './loopback.js'
import type { SimulatorClock } from './agent-api.js'
import type { MergeRules, PullOwner } from './github-owner.js'
import type { AnnotationSeed, CheckAnswer, StoredCheckRun } from './check-runs.js'
import type { StatusSeed } from './commit-statuses.js'
import { exchanged } from './github-exchanges.js'
import { publicUserJson, pullAsIssueJson, pullUrls, repositoryJson, teamJson } from './github-objects.js'
import { dotComPath, parseRoute, type Route, type RouteName } from './github/routes.js'
import {
  type CommentSeed,
  type Commit,
  type CommitSeed,
  type CustomRole,
  DEFAULT_AUTHOR,
  type GitHubApiFakeOptions,
  nodeId,
  ownerOf,
  type Pull,
  type PullSeed,
  type Reaction,
  type Release,
  type ReleaseSeed,
  type Repo,
  type RoleName,
  type Run,
  type RunSeed,
  sha1,
  Store,
  type StoredComment,
  type Tag,
  type TagSeed,
  type TokenIdentity,
  WEB
} from './github/state.js'
import {
  type Answer,
  errorBody,
  invalid,
  jsonField,
  notFound,
  ok,
  type Paged,
  paginate,
  parseJson
} from './github/answers.js'
import { actorJson, LEGACY_PERMISSION, permissionJson } from './github/repository.js'
import {
  commits,
  compare,
  contentJson,
  fileJson,
  PULL_FILES_LIMIT,
  resolve,
  tree,
  treeAt,
  UNVERIFIED
} from './github/commits.js'

export type {
  Actor,
  CommentSeed,
  CommitSeed,
  CustomRole,
  GitHubApiFakeOptions,
  PullFileSeed,
  PullSeed,
  Reaction,
  ReleaseSeed,
  RoleName,
  RunSeed,
  TagSeed,
  TokenIdentity
} from './github/state.js'
export type { RouteName } from './github/routes.js'

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
  fault?: Fault['kind']
}

const DEFAULT_TAGGER = { name: 'Mona Lisa Octocat', email: 'mona@github.com' }

export class GitHubApiFake {
  private readonly s: Store

  private constructor(options: GitHubApiFakeOptions) {
    this.s = new Store(options, (_s, req, res) => {
      this.handle(req, res)
    })
  }

  static async start(options: GitHubApiFakeOptions = {}): Promise<GitHubApiFake> {
    const fake = new GitHubApiFake(options)
    fake.s.server.listen(0, options.host ?? '127.0.0.1')
    await once(fake.s.server, 'listening')
    return fake
  }

  /** Every request received, in order of arrival. */
  get requests(): RecordedRequest[] {
    return this.s.requests
  }

  /** Delay before every answer, read when a request arrives. */
  get latencyMs(): number {
    return this.s.latencyMs
  }
  set latencyMs(ms: number) {
    this.s.latencyMs = ms
  }

  /** The clock latency, delays and hangs run on. */
  get time(): SimulatorClock {
    return this.s.time
  }
  set time(clock: SimulatorClock) {
    this.s.time = clock
  }

  /** When set, matching-refs answers are cut into pages of this many, with a Link header. */
  get matchingRefsPageSize(): number | undefined {
    return this.s.matchingRefsPageSize
  }
  set matchingRefsPageSize(size: number | undefined) {
    this.s.matchingRefsPageSize = size
  }

  /** Entries a recursive tree lists before it is cut short with `truncated` (GitHub: 100,000). */
  get treeLimit(): number {
    return this.s.treeLimit
  }
  set treeLimit(limit: number) {
    this.s.treeLimit = limit
  }

  /** Who the token writes as (comments are created in this name). */
  get identity(): TokenIdentity {
    return this.s.identity
  }
  set identity(identity: TokenIdentity) {
    this.s.identity = identity
  }

  /** API root for `getOctokit(token, { baseUrl })`, no trailing slash. */
  get url(): string {
    return this.s.url
  }

  /** Registers a repository with no data, for routes that need nothing else (labels). */
  addRepo(repo: string): void {
    this.s.repo(repo)
  }

  /** Appends commits to the linear history of `repo`; returns their shas, in order. */
  addCommits(repo: string, commits: CommitSeed[]): string[] {
    const r = this.s.repo(repo)
    return commits.map((seed) => {
      const previous = r.commits.at(-1)?.sha
      const parents = Array.from({ length: seed.parents ?? 1 }, (_, i) =>
        // The first parent continues the history (or one older than it); others are side branches.
        i === 0 && previous !== undefined ? previous : this.s.sha()
      )
      const commit: Commit = {
        sha: this.s.sha(),
        message: seed.message,
        author: seed.author === undefined ? DEFAULT_AUTHOR : seed.author,
        parents,
        date: this.s.tick(),
        files: seed.files ?? [],
        contents: seed.contents ?? {}
      }
      r.commits.push(commit)
      return commit.sha
    })
  }

  addTag(repo: string, seed: TagSeed): void {
    const r = this.s.repo(repo)
    if (!r.commits.some((c) => c.sha === seed.at)) throw new Error(`addTag: ${seed.at} is not a commit of ${repo}`)
    const tag: Tag = { name: seed.name, commit: seed.at }
    if (seed.annotated) {
      const { message, tagger = DEFAULT_TAGGER } = seed.annotated
      tag.object = {
        sha: this.s.sha(),
        message: message.endsWith('\n') ? message : `${message}\n`,
        tagger: { ...tagger, date: this.s.tick() }
      }
    }
    r.tags.set(seed.name, tag)
  }

  addRelease(repo: string, seed: ReleaseSeed): void {
    const r = this.s.repo(repo)
    const date = this.s.tick()
    r.releases.push({
      id: this.s.nextId(),
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

  addPull(repo: string, seed: PullSeed): void {
    const r = this.s.repo(repo)
    const branch = (b: PullSeed['head']): { ref: string; sha: string } =>
      typeof b === 'string' ? { ref: b, sha: this.s.sha() } : b
    r.pulls.set(seed.number, {
      ...seed,
      id: this.s.nextId(),
      head: branch(seed.head),
      base: branch(seed.base),
      created_at: this.s.tick()
    })
  }

  /** Opens, closes or merges pull request `number` of `repo` (a merged one is closed). */
  setPullState(repo: string, number: number, state: 'open' | 'closed' | 'merged'): void {
    const pull = this.s.repo(repo).pulls.get(number)
    if (!pull) throw new Error(`setPullState: no pull request #${number} in ${repo}`)
    pull.merged = state === 'merged'
    pull.state = state === 'open' ? 'open' : 'closed'
  }

  /** Records a run of a workflow; runs are listed newest added first. */
  addRun(repo: string, seed: RunSeed): void {
    const r = this.s.repo(repo)
    r.runs.push({ conclusion: 'success', ...seed, id: this.s.nextId(), created_at: this.s.tick() })
  }

  /** The role of `login` on `repo` (logins are case-insensitive, as on GitHub). */
  setPermission(repo: string, login: string, role: RoleName | CustomRole): void {
    const custom = typeof role === 'string' ? { role_name: role, permission: LEGACY_PERMISSION[role] } : role
    this.s.repo(repo).permissions.set(login.toLowerCase(), { login, role: custom })
  }

  /** How `repo` merges: auto-merge allowed, required checks and reviews, refusals (simulator/github-owner.ts). */
  setMergeRules(repo: string, rules: MergeRules): void {
    this.s.owners.setRules(repo, rules)
  }

  /** A team (`org/slug`) the token can see, so reviews may be requested from it. */
  addTeam(team: string): void {
    this.s.owners.addTeam(team)
  }

  /** Who was asked to review pull request `number` of `repo`, who is assigned, auto-merge, the events. */
  ownerOf(repo: string, number: number): PullOwner {
    return this.s.owners.of(repo, number)
  }

  /** Whether pull request `number` of `repo` is merged. */
  isMerged(repo: string, number: number): boolean {
    return this.s.repos.get(repo.toLowerCase())?.pulls.get(number)?.merged === true
  }

  /** Labels added to issue or pull request `number` through the API, in order. */
  labelsOf(repo: string, number: number): string[] {
    return [...(this.s.repos.get(repo.toLowerCase())?.labels.get(number) ?? [])]
  }

  /** Adds a comment written by `seed.user` (someone else's, or a pasted copy); returns its id. */
  addComment(repo: string, number: number, seed: CommentSeed): number {
    const date = this.s.tick()
    const comment = { id: this.s.nextId(), issue: number, ...seed, created_at: date, updated_at: date }
    this.s.repo(repo).comments.push(comment)
    return comment.id
  }

  /** The comments of issue or pull request `number`, oldest first, as authored. */
  commentsOf(repo: string, number: number): { id: number; body: string; author: string }[] {
    return (this.s.repos.get(repo.toLowerCase())?.comments ?? [])
      .filter((c) => c.issue === number)
      .map((c) => ({ id: c.id, body: c.body, author: c.user.login }))
  }

  /** Reactions added to comment `id`. */
  reactionsOf(repo: string, id: number): Reaction[] {
    return [...(this.s.repos.get(repo.toLowerCase())?.reactions.get(id) ?? [])]
  }

  /** The notes of the release of `tag` as they are now. */
  releaseBody(repo: string, tag: string): string | null | undefined {
    return this.s.repos.get(repo.toLowerCase())?.releases.find((x) => x.tag_name === tag)?.body
  }

  /** Makes a check run as `POST …/check-runs` with this body would (another app's, an earlier run's); its id. */
  addCheckRun(repo: string, body: Record<string, unknown>): number {
    const made = this.s.checks.create(this.s.repo(repo).fullName, JSON.stringify(body))
    if (!('json' in made)) throw new Error(`addCheckRun: ${made.message}`)
    return (made.json as { id: number }).id
  }

  /** The check runs of `repo` (on `sha` only, when given), oldest first. */
  checkRunsOf(repo: string, sha?: string): StoredCheckRun[] {
    return this.s.checks.of(repo, sha)
  }

  /** Updates check run `id` as `PATCH …/check-runs/{id}` with this body would (another app finishing its run). */
  updateCheckRun(repo: string, id: number, body: Record<string, unknown>): void {
    const made = this.s.checks.update(this.s.repo(repo).fullName, id, JSON.stringify(body))
    if (!('json' in made)) throw new Error(`updateCheckRun: ${made.message}`)
  }

  /** Adds annotations to check run `id` (as `output.annotations` of a create or update would). */
  annotateCheckRun(id: number, annotations: AnnotationSeed[]): void {
    this.s.checks.annotate(id, annotations)
  }

  /** A commit status on `sha` (`POST …/statuses/{sha}`, as a CI would write it). */
  addStatus(repo: string, sha: string, seed: StatusSeed): void {
    this.s.statuses.add(this.s.repo(repo).fullName, sha, seed)
  }

  /** Makes `change` at `at` on the fake's clock: before the first request that arrives from then on. */
  at(at: number, change: () => void): void {
    this.s.due.push({ at, change })
  }

  /** A new commit on pull request `number`'s head branch (an agent's push); its sha. The old head stays a commit. */
  pushToPull(repo: string, number: number): string {
    const r = this.s.repo(repo)
    const pull = r.pulls.get(number)
    if (!pull) throw new Error(`pushToPull: no pull request #${number} in ${repo}`)
    r.pastHeads.push(pull.head.sha)
    pull.head = { ...pull.head, sha: this.s.sha() }
    return pull.head.sha
  }

  /** The head commit of pull request `number` of `repo`. */
  pullHead(repo: string, number: number): string | undefined {
    return this.s.repos.get(repo.toLowerCase())?.pulls.get(number)?.head.sha
  }

  /** Queues faults: each of the next requests to `route` consumes one, in order. */
  fail(route: RouteName, ...faults: Fault[]): void {
    this.s.faults.fail(route, ...faults)
  }

  /** Every request to `route` gets `fault` (after any queued ones) until called with null. */
  failAlways(route: RouteName, fault: Fault | null): void {
    this.s.faults.failAlways(route, fault)
  }

  /** Forgets every repository, the request log and all faults; latency stays. */
  reset(): void {
    this.s.repos.clear()
    this.s.requests.length = 0
    this.s.faults.clear()
    this.s.owners.reset()
    this.s.checks.clear()
    this.s.statuses.clear()
    this.s.due.length = 0
  }

  async close(): Promise<void> {
    this.s.closing.abort()
    await closeServer(this.s.server)
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const rec: RecordedRequest = {
      method: req.method ?? '',
      rawPath: req.url ?? '',
      route: 'unknown',
      authorization: req.headers.authorization,
      accept: req.headers.accept,
      body: '',
      at: performance.now(),
      time: this.s.time.now()
    }
    this.s.requests.push(rec)
    // Ends this request's delays when the client goes away or the fake closes.
    const gone = new AbortController()
    res.once('close', () => gone.abort())
    const signal = AbortSignal.any([this.s.closing.signal, gone.signal])
    this.exchange(req, res, rec, signal).catch(() => {
      // An unexpected error, or an exchange cut short by close() or by the client.
      if (res.headersSent || res.destroyed || signal.aborted) res.destroy()
      else this.send(res, rec, { status: 500, json: errorBody(500, 'Fake error', 'unknown') })
    })
  }

  private async exchange(
    req: IncomingMessage,
    res: ServerResponse,
    rec: RecordedRequest,
    signal: AbortSignal
  ): Promise<void> {
    rec.body = await readBody(req)
    const latency = this.s.latencyMs
    if (latency > 0) await this.pause(latency, signal)

    const [path = '', query = ''] = dotComPath(rec.rawPath).split('?', 2)
    const route = parseRoute(rec.method, path)
    if (route) {
      rec.route = route.name
      if (route.repo !== undefined) rec.repo = route.repo
      const fault = this.s.faults.next(route.name)
      if (fault) {
        rec.fault = fault.kind
        switch (fault.kind) {
          case 'status':
            if (fault.effect) this.answer(route, req.headers.authorization, path, new URLSearchParams(query), rec.body)
            this.send(res, rec, {
              status: fault.status,
              json: errorBody(fault.status, fault.message ?? STATUS_CODES[fault.status] ?? 'Error', route.name),
              headers: fault.headers
            })
            return
          case 'reset':
            if (fault.effect) this.answer(route, req.headers.authorization, path, new URLSearchParams(query), rec.body)
            req.socket.resetAndDestroy()
            return
          case 'hang':
            // The socket stays open until the client gives up or close() destroys it.
            await this.s.time.hold(signal)
            return
          case 'delay':
            await this.pause(fault.ms, signal)
            break
          default:
            fault satisfies never
        }
      }
    }
    this.send(res, rec, this.answer(route, req.headers.authorization, path, new URLSearchParams(query), rec.body))
  }

  /** Waits `ms` on the fake's clock; throws when the client goes away or the fake closes first. */
  private async pause(ms: number, signal: AbortSignal): Promise<void> {
    await this.s.time.hold(AbortSignal.any([signal, this.s.time.timeout(ms)]))
    signal.throwIfAborted()
  }

  private answer(
    route: Route | undefined,
    authorization: string | undefined,
    path: string,
    query: URLSearchParams,
    body: string
  ): Answer {
    const now = this.s.time.now()
    for (const due of this.s.due.filter((d) => d.at <= now)) {
      this.s.due.splice(this.s.due.indexOf(due), 1)
      due.change()
    }
    if (!this.authorized(authorization)) return { status: 401, json: errorBody(401, 'Bad credentials', 'unknown') }
    if (!route) return notFound('unknown')
    if (route.name === 'user') {
      // A person's token: the public-user fields (the private ones need the user scope).
      if (this.s.identity.kind === 'user')
        return ok(publicUserJson(actorJson(this.s, { login: this.s.identity.login })))
      return { status: 403, json: errorBody(403, 'Resource not accessible by integration', 'user') }
    }
    if (route.name === 'graphql') return this.graphql(body)
    const r = this.s.repos.get(route.repo.toLowerCase())
    if (!r) return notFound(route.name)
    const pageLink = (total: number): Paged => paginate(total, query, `${this.s.url}${path}`)

    switch (route.name) {
      case 'release-by-tag': {
        // Drafts have no tag yet as far as GitHub is concerned.
        const release = r.releases.find((x) => !x.draft && x.tag_name === route.tag)
        return release ? ok(this.releaseJson(r, release)) : notFound(route.name)
      }
      case 'releases': {
        const newestFirst = [...r.releases].reverse()
        const paged = pageLink(newestFirst.length)
        return ok(
          newestFirst.slice(paged.start, paged.end).map((x) => this.releaseJson(r, x)),
          paged.headers
        )
      }
      case 'latest-release': {
        const latest = r.releases.findLast((x) => !x.draft && !x.prerelease)
        return latest ? ok(this.releaseJson(r, latest)) : notFound(route.name)
      }
      case 'tags': {
        const newestFirst = [...r.tags.values()].reverse()
        const paged = pageLink(newestFirst.length)
        return ok(
          newestFirst.slice(paged.start, paged.end).map((t) => this.tagListJson(r, t)),
          paged.headers
        )
      }
      case 'matching-refs': {
        // Filtered before the JSON is built, so a large repository costs what the answer holds.
        const refs = [...r.tags.values()]
          .filter((t) => `refs/tags/${t.name}`.startsWith(`refs/${route.ref}`))
          .map((t) => this.refJson(r, t))
          .sort((a, b) => (a.ref < b.ref ? -1 : 1))
        if (this.s.matchingRefsPageSize === undefined) return ok(refs)
        const sized = new URLSearchParams(query)
        sized.set('per_page', String(this.s.matchingRefsPageSize))
        const paged = paginate(refs.length, sized, `${this.s.url}${path}`)
        return ok(refs.slice(paged.start, paged.end), paged.headers)
      }
      case 'ref': {
        const tag = route.ref.startsWith('tags/') ? r.tags.get(route.ref.slice('tags/'.length)) : undefined
        return tag ? ok(this.refJson(r, tag)) : notFound(route.name)
      }
      case 'tag-object': {
        const tag = [...r.tags.values()].find((t) => t.object?.sha === route.sha)
        return tag ? ok(this.tagObjectJson(r, tag)) : notFound(route.name)
      }
      case 'compare':
        return compare(this.s, r, route.basehead, query, pageLink)
      case 'commits':
        return commits(this.s, r, query, pageLink)
      case 'tree':
        return tree(this.s, r, route.ref, query.get('recursive') !== null)
      case 'contents': {
        const at = resolve(r, query.get('ref') ?? r.commits.at(-1)?.sha ?? '')
        const text = at === undefined ? undefined : treeAt(r.commits, at).get(route.path)
        return text === undefined ? notFound(route.name) : ok(contentJson(this.s, r, route.path, text))
      }
      case 'pulls': {
        const state = query.get('state') ?? 'open'
        const sort = query.get('sort') ?? 'created'
        const direction = query.get('direction') ?? (sort === 'created' ? 'desc' : 'asc')
        const all = [...r.pulls.values()]
          .filter((p) => state === 'all' || pullState(p) === state)
          .sort((a, b) => (direction === 'desc' ? b.id - a.id : a.id - b.id))
        const paged = pageLink(all.length)
        return ok(
          all.slice(paged.start, paged.end).map((p) => this.pullJson(r, p)),
          paged.headers
        )
      }
      case 'pull': {
        const pull = r.pulls.get(route.number)
        return pull ? ok(this.pullJson(r, pull)) : notFound(route.name)
      }
      case 'pull-files': {
        const pull = r.pulls.get(route.number)
        if (!pull) return notFound(route.name)
        const files = pull.files.slice(0, PULL_FILES_LIMIT)
        const paged = pageLink(files.length)
        return ok(
          files.slice(paged.start, paged.end).map((f) => fileJson(this.s, r, pull.head.sha, f)),
          paged.headers
        )
      }
      case 'workflow-runs': {
        const wanted = (name: string, value: string): boolean => !query.has(name) || query.get(name) === value
        const runs = [...r.runs]
          .reverse()
          .filter(
            (run) =>
              run.workflow === route.workflow &&
              wanted('branch', run.branch) &&
              wanted('event', run.event) &&
              (!query.has('status') || query.get('status') === (run.conclusion ?? 'in_progress'))
          )
        const paged = pageLink(runs.length)
        return ok(
          {
            total_count: runs.length,
            workflow_runs: runs.slice(paged.start, paged.end).map((x) => this.runJson(r, x))
          },
          paged.headers
        )
      }
      case 'collaborator-permission': {
        const entry = r.permissions.get(route.login.toLowerCase())
        return entry ? ok(permissionJson(this.s, entry.login, entry.role)) : notFound(route.name)
      }
      case 'labels':
        return this.addLabels(r, route.number, body)
      case 'comments': {
        const all = r.comments.filter((c) => c.issue === route.number)
        const paged = pageLink(all.length)
        return ok(
          all.slice(paged.start, paged.end).map((c) => this.commentJson(r, c)),
          paged.headers
        )
      }
      case 'comment-create': {
        const text = jsonField(body, 'body')
        if (text === undefined) return invalid(route.name, '"body" must be a string.')
        const id = this.addComment(r.fullName, route.number, { body: text, user: { login: this.s.identity.login } })
        return { status: 201, json: this.commentJson(r, r.comments.at(-1) ?? ({ id } as StoredComment)) }
      }
      case 'comment-update': {
        const comment = r.comments.find((c) => c.id === route.id)
        if (!comment) return notFound(route.name)
        if (comment.user.login !== this.s.identity.login)
          return { status: 403, json: errorBody(403, 'Resource not accessible by integration', route.name) }
        const text = jsonField(body, 'body')
        if (text === undefined) return invalid(route.name, '"body" must be a string.')
        comment.body = text
        comment.updated_at = this.s.tick()
        return ok(this.commentJson(r, comment))
      }
      case 'comment-delete': {
        const index = r.comments.findIndex((c) => c.id === route.id)
        if (index < 0) return notFound(route.name)
        r.comments.splice(index, 1)
        return { status: 204, json: '' }
      }
      case 'reaction': {
        const content = jsonField(body, 'content')
        if (content === undefined) return invalid(route.name, '"content" must be a string.')
        const id = this.s.nextId()
        const list = r.reactions.get(route.id) ?? []
        list.push({ on: route.on, content, user: this.s.identity.login })
        r.reactions.set(route.id, list)
        return {
          status: 201,
          json: {
            id,
            node_id: nodeId('REA', String(id)),
            content,
            user: actorJson(this.s, { login: this.s.identity.login }),
            created_at: this.s.tick()
          }
        }
      }
      case 'requested-reviewers':
      case 'assignees':
      case 'issue-events':
      case 'merge':
        return this.owner(r, route, body, pageLink)
      case 'release-update': {
        const release = r.releases.find((x) => x.id === route.id)
        if (!release) return notFound(route.name)
        const text = jsonField(body, 'body')
        if (text !== undefined) release.body = text
        return ok(this.releaseJson(r, release))
      }
      case 'check-create':
        return this.checkAnswer(route.name, this.s.checks.create(r.fullName, body))
      case 'check-update':
        return this.checkAnswer(route.name, this.s.checks.update(r.fullName, route.id, body))
      case 'check-runs': {
        const at = resolve(r, route.ref)
        const sha = at === undefined ? route.ref : (r.commits[at]?.sha ?? route.ref)
        if (!this.s.commitOf(r.fullName, sha))
          return { status: 422, json: errorBody(422, `No commit found for SHA: ${route.ref}`, route.name) }
        const runs = this.s.checks.list(r.fullName, sha, query)
        const paged = pageLink(runs.length)
        return ok(
          {
            total_count: runs.length,
            check_runs: runs.slice(paged.start, paged.end).map((run) => this.s.checks.json(run))
          },
          paged.headers
        )
      }
      case 'check-annotations': {
        const all = this.s.checks.annotationsOf(r.fullName, route.id)
        if (!all) return notFound(route.name)
        const paged = pageLink(all.length)
        return ok(all.slice(paged.start, paged.end), paged.headers)
      }
      case 'commit-status': {
        const at = resolve(r, route.ref)
        const sha = at === undefined ? route.ref : (r.commits[at]?.sha ?? route.ref)
        if (!this.s.commitOf(r.fullName, sha))
          return { status: 404, json: errorBody(404, `No commit found for SHA: ${route.ref}`, route.name) }
        const paged = pageLink(this.s.statuses.latest(r.fullName, sha).length)
        const combined = this.s.statuses.combined(r.fullName, sha, paged)
        // GitHub's combined-commit-status names the repository and the commit, and each status its own
        // URL, node id and avatar (the OpenAPI description requires them).
        const url = `${this.s.url}/repos/${r.fullName}`
        return ok(
          {
            ...combined,
            statuses: combined.statuses.map((s) => ({
              ...s,
              node_id: nodeId('SC', `${r.fullName}:${String(s.id)}`),
              url: `${url}/statuses/${sha}`,
              avatar_url: null
            })),
            commit_url: `${url}/commits/${sha}`,
            url: `${url}/commits/${sha}/status`,
            repository: repositoryJson(this.s.url, r.fullName, r.id, actorJson(this.s, { login: ownerOf(r) }))
          },
          paged.headers
        )
      }
      default:
        return route satisfies never
    }
  }

  private checkAnswer(route: RouteName, answer: CheckAnswer): Answer {
    return 'json' in answer ? answer : { status: answer.status, json: errorBody(answer.status, answer.message, route) }
  }

  private authorized(header: string | undefined): boolean {
    const { token } = this.s
    if (token === undefined) return true
    const given = /^(?:token|bearer) (.+)$/i.exec(header ?? '')?.[1] ?? ''
    // Several: a run's two tokens (github-token, docs-token), each of which GitHub accepts.
    return typeof token === 'string' ? given === token : token.includes(given)
  }

  private addLabels(r: Repo, number: number, body: string): Answer {
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
    return ok(current.map((name) => this.labelJson(r, name)))
  }

  /**
   * GraphQL: the `viewer`, as GitHub answers it (a bot's login without `[bot]`); a pull request's
   * merge state, `enablePullRequestAutoMerge` and `disablePullRequestAutoMerge` (simulator/github-owner.ts).
   */
  private graphql(body: string): Answer {
    const query = jsonField(body, 'query') ?? ''
    const owned = this.ownerGraphql(query, body)
    if (owned) return owned
    if (!/\bviewer\b/.test(query)) return { status: 200, json: { errors: [{ message: 'Only viewer is faked' }] } }
    const { login, kind } = this.s.identity
    const bot = kind === 'installation'
    return ok({
      data: { viewer: { login: bot ? login.replace(/\[bot\]$/, '') : login, __typename: bot ? 'Bot' : 'User' } }
    })
  }

  /** The owner routes of pull request `route.number` (simulator/github-owner.ts). */
  private owner(
    r: Repo,
    route: { name: 'requested-reviewers' | 'assignees' | 'issue-events' | 'merge'; number: number },
    body: string,
    pageLink: (total: number) => Paged
  ): Answer {
    const pull = r.pulls.get(route.number)
    if (!pull) return notFound(route.name)
    const parsed = parseJson(body)
    const collaborator = (login: string): boolean => {
      const role = r.permissions.get(login.toLowerCase())?.role
      return role !== undefined && role.permission !== 'none'
    }
    const json = (): Record<string, unknown> => this.pullJson(r, pull)
    switch (route.name) {
      case 'requested-reviewers':
        return this.s.owners.requestReviewers(r.fullName, pull, parsed, collaborator, json)
      case 'assignees':
        // GitHub answers the issue (https://docs.github.com/rest/issues/assignees#add-assignees-to-an-issue).
        return this.s.owners.assign(r.fullName, pull, parsed, collaborator, () =>
          pullAsIssueJson(this.s.url, r.fullName, json())
        )
      case 'merge':
        return this.s.owners.merge(r.fullName, pull, parsed)
      case 'issue-events': {
        const events = this.s.owners.of(r.fullName, pull.number).events
        const paged = pageLink(events.length)
        const actor = actorJson(this.s, { login: this.s.identity.login })
        return ok(
          events.slice(paged.start, paged.end).map((e, i) => ({
            id: 7_000_000 + paged.start + i,
            node_id: nodeId('IE', String(7_000_000 + paged.start + i)),
            url: `${this.s.url}/repos/${r.fullName}/issues/events/${7_000_000 + paged.start + i}`,
            event: e.event,
            actor,
            commit_id: null,
            commit_url: null,
            created_at: pull.created_at,
            performed_via_github_app: null,
            ...(e.event === 'assigned'
              ? { assignee: actorJson(this.s, { login: e.assignee }), assigner: actor }
              : { review_requester: actor }),
            ...(e.event === 'review_requested' && e.reviewer
              ? { requested_reviewer: actorJson(this.s, { login: e.reviewer }) }
              : {}),
            ...(e.event === 'review_requested' && e.team
              ? { requested_team: teamJson(this.s.url, ownerOf(r), e.team) }
              : {})
          })),
          paged.headers
        )
      }
    }
  }

  /** The owner fields of a pull request's JSON. */
  private ownerJson(r: Repo, p: Pull): Record<string, unknown> {
    const owner = this.s.owners.of(r.fullName, p.number)
    return {
      assignee: owner.assignees[0] === undefined ? null : actorJson(this.s, { login: owner.assignees[0] }),
      requested_reviewers: owner.reviewers.map((login) => actorJson(this.s, { login })),
      requested_teams: owner.teams.map((slug) => teamJson(this.s.url, ownerOf(r), slug)),
      assignees: owner.assignees.map((login) => actorJson(this.s, { login })),
      // auto-merge as GitHub's description requires it: who enabled it, and the merge commit's text.
      auto_merge: owner.autoMerge
        ? {
            enabled_by: actorJson(this.s, { login: this.s.identity.login }),
            merge_method: owner.autoMerge.method.toLowerCase(),
            commit_title: '',
            commit_message: ''
          }
        : null
    }
  }

  /** A pull request's merge state, or the auto-merge mutations; undefined for any other query. */
  private ownerGraphql(query: string, body: string): Answer | undefined {
    const variables = parseJson(body) as { variables?: Record<string, unknown> } | undefined
    const vars = variables?.variables ?? {}
    const mutation = /\b(enable|disable)PullRequestAutoMerge\b/.exec(query)?.[1]
    if (mutation) {
      const id = String(vars.pullRequestId)
      for (const r of this.s.repos.values())
        for (const p of r.pulls.values())
          if (nodeId('PR', String(p.id)) === id)
            return ok(
              mutation === 'enable'
                ? this.s.owners.enableAutoMerge(r.fullName, p, vars.mergeMethod, vars.expectedHeadOid)
                : this.s.owners.disableAutoMerge(r.fullName, p)
            )
      return ok({
        data: null,
        errors: [{ type: 'NOT_FOUND', message: `Could not resolve to a node with the global id of '${id}'` }]
      })
    }
    if (!/\bmergeStateStatus\b/.test(query)) return undefined
    const r = this.s.repos.get(`${String(vars.owner)}/${String(vars.repo)}`.toLowerCase())
    const p = r?.pulls.get(Number(vars.number))
    if (!r || !p)
      return ok({
        data: { repository: r ? { pullRequest: null } : null },
        errors: [{ type: 'NOT_FOUND', message: 'Could not resolve to a PullRequest.' }]
      })
    return ok({
      data: {
        repository: { pullRequest: { id: nodeId('PR', String(p.id)), ...this.s.owners.mergeFacts(r.fullName, p) } }
      }
    })
  }

  private commentJson(r: Repo, c: StoredComment): Record<string, unknown> {
    const api = `${this.s.url}/repos/${r.fullName}`
    return {
      id: c.id,
      node_id: nodeId('IC', String(c.id)),
      url: `${api}/issues/comments/${c.id}`,
      html_url: `${WEB}/${r.fullName}/pull/${c.issue}#issuecomment-${c.id}`,
      issue_url: `${api}/issues/${c.issue}`,
      body: c.body,
      user: actorJson(this.s, c.user),
      created_at: c.created_at,
      updated_at: c.updated_at,
      author_association: 'NONE'
    }
  }

  private releaseJson(r: Repo, x: Release): Record<string, unknown> {
    const api = `${this.s.url}/repos/${r.fullName}`
    return {
      url: `${api}/releases/${x.id}`,
      assets_url: `${api}/releases/${x.id}/assets`,
      upload_url: `https://uploads.github.com/repos/${r.fullName}/releases/${x.id}/assets{?name,label}`,
      html_url: x.html_url,
      id: x.id,
      author: actorJson(this.s, { login: 'github-actions[bot]' }),
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

  private tagListJson(r: Repo, t: Tag): Record<string, unknown> {
    const api = `${this.s.url}/repos/${r.fullName}`
    return {
      name: t.name,
      zipball_url: `${api}/zipball/refs/tags/${encodeURIComponent(t.name)}`,
      tarball_url: `${api}/tarball/refs/tags/${encodeURIComponent(t.name)}`,
      commit: { sha: t.commit, url: `${api}/commits/${t.commit}` },
      node_id: nodeId('REF', `${r.fullName}:refs/tags/${t.name}`)
    }
  }

  private refJson(r: Repo, t: Tag): { ref: string; node_id: string; url: string; object: Record<string, string> } {
    const api = `${this.s.url}/repos/${r.fullName}`
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

  private tagObjectJson(r: Repo, t: Tag): Record<string, unknown> {
    const api = `${this.s.url}/repos/${r.fullName}`
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

  private pullJson(r: Repo, p: Pull): Record<string, unknown> {
    const api = `${this.s.url}/repos/${r.fullName}`
    const html = `${WEB}/${r.fullName}/pull/${p.number}`
    const owner = ownerOf(r)
    const branch = (b: Pull['head']): Record<string, unknown> => ({
      label: `${owner}:${b.ref}`,
      ref: b.ref,
      sha: b.sha,
      user: actorJson(this.s, { login: owner }),
      repo: repositoryJson(this.s.url, r.fullName, r.id, actorJson(this.s, { login: owner }))
    })
    const merged = p.merged ?? false
    return {
      url: `${api}/pulls/${p.number}`,
      id: p.id,
      node_id: nodeId('PR', String(p.id)),
      html_url: html,
      diff_url: `${html}.diff`,
      patch_url: `${html}.patch`,
      issue_url: `${api}/issues/${p.number}`,
      number: p.number,
      state: pullState(p),
      locked: false,
      title: p.title,
      user: actorJson(this.s, p.user ?? DEFAULT_AUTHOR),
      body: p.body ?? null,
      labels: (r.labels.get(p.number) ?? []).map((name) => this.labelJson(r, name)),
      created_at: p.created_at,
      updated_at: p.created_at,
      closed_at: pullState(p) === 'closed' ? p.created_at : null,
      merged_at: merged ? p.created_at : null,
      merge_commit_sha: merged ? sha1(`merge-${String(p.id)}`) : null,
      draft: false,
      head: branch(p.head),
      base: branch(p.base),
      author_association: 'MEMBER',
      merged,
      mergeable: null,
      ...this.ownerJson(r, p),
      comments: 0,
      review_comments: 0,
      additions: p.files.reduce((n, f) => n + f.additions, 0),
      deletions: p.files.reduce((n, f) => n + f.deletions, 0),
      changed_files: p.files.length,
      // The rest of what GitHub's pull-request schema requires.
      ...pullUrls(this.s.url, r.fullName, p.number, p.head.sha),
      milestone: null,
      merged_by: merged ? actorJson(this.s, { login: this.s.identity.login }) : null,
      mergeable_state: 'unknown',
      maintainer_can_modify: false,
      commits: 1
    }
  }

  private runJson(r: Repo, run: Run): Record<string, unknown> {
    const api = `${this.s.url}/repos/${r.fullName}/actions/runs/${run.id}`
    const repository = repositoryJson(this.s.url, r.fullName, r.id, actorJson(this.s, { login: ownerOf(r) }))
    const commit = r.commits.find((c) => c.sha === run.headSha)
    const person = { name: 'Mona Lisa Octocat', email: 'mona@github.com' }
    return {
      id: run.id,
      node_id: nodeId('WFR', String(run.id)),
      name: run.workflow,
      display_title: commit?.message.split('\n')[0] ?? run.workflow,
      run_number: run.id % 1000,
      head_branch: run.branch,
      head_sha: run.headSha,
      path: `.github/workflows/${run.workflow}`,
      workflow_id: 161335,
      event: run.event,
      status: run.conclusion === null ? 'in_progress' : 'completed',
      conclusion: run.conclusion,
      url: api,
      html_url: `${WEB}/${r.fullName}/actions/runs/${run.id}`,
      created_at: run.created_at,
      updated_at: run.created_at,
      // The rest of what GitHub's workflow-run schema requires.
      pull_requests: [],
      head_commit: {
        id: run.headSha,
        tree_id: sha1(`tree-${run.headSha}`),
        message: commit?.message ?? '',
        timestamp: commit?.date ?? run.created_at,
        author: person,
        committer: person
      },
      repository,
      head_repository: repository,
      jobs_url: `${api}/jobs`,
      logs_url: `${api}/logs`,
      check_suite_url: `${this.s.url}/repos/${r.fullName}/check-suites/${run.id}`,
      artifacts_url: `${api}/artifacts`,
      cancel_url: `${api}/cancel`,
      rerun_url: `${api}/rerun`,
      workflow_url: `${this.s.url}/repos/${r.fullName}/actions/workflows/161335`
    }
  }

  private labelJson(r: Repo, name: string): Record<string, unknown> {
    const key = `${r.fullName.toLowerCase()}\n${name}`
    let id = this.s.labelIds.get(key)
    if (id === undefined) {
      id = 5_000_000 + this.s.labelIds.size
      this.s.labelIds.set(key, id)
    }
    return {
      id,
      node_id: nodeId('LA', String(id)),
      url: `${this.s.url}/repos/${r.fullName}/labels/${encodeURIComponent(name)}`,
      name,
      color: 'ededed',
      default: false,
      description: null
    }
  }

  private send(res: ServerResponse, rec: RecordedRequest, answer: Answer): void {
    const body = answer.status === 204 ? '' : JSON.stringify(answer.json)
    rec.answeredStatus = answer.status
    exchanged({ method: rec.method, rawPath: dotComPath(rec.rawPath), route: rec.route, status: answer.status, body })
    res.setHeader('content-type', 'application/json; charset=utf-8')
    res.setHeader('content-length', Buffer.byteLength(body))
    res.setHeader('x-github-api-version-selected', '2022-11-28')
    res.setHeader('x-github-media-type', 'github.v3; format=json')
    res.setHeader('x-github-request-id', `FAKE:${String(this.s.requests.length)}`)
    res.setHeader('x-ratelimit-limit', '5000')
    res.setHeader('x-ratelimit-remaining', '4990')
    res.setHeader('x-ratelimit-used', '10')
    res.setHeader('x-ratelimit-reset', this.s.rateReset)
    res.setHeader('x-ratelimit-resource', 'core')
    // setHeader is case-insensitive, so a fault's headers replace the defaults whatever their case.
    for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value)
    res.writeHead(answer.status)
    res.end(body)
  }
}

function pullState(p: Pull): 'open' | 'closed' {
  return p.merged ? 'closed' : (p.state ?? 'open')
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}
