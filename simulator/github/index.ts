// The fake GitHub: GitHubApiFake, what tests seed into it and read back, and the types they use.
/**
 * GitHub REST API fake: a real HTTP server on loopback standing in for https://api.github.com (or a
 * GHES API root) for the tests that read release and pull-request context through Octokit and add labels.
 * Source: GitHub's REST API docs (https://docs.github.com/rest, each route's page in DOC_URLS) and its
 * OpenAPI description (@octokit/openapi), which every answer in a test is checked against
 * (simulator/openapi-contract.ts; the operation of each route: simulator/github-operations.ts).
 *
 *   const gh = await GitHubApiFake.start({ token: 'tok' })
 *   const [a, b] = gh.addCommits('acme/app', [{ message: 'feat: x' }, { message: 'fix: y', author: null }])
 *   gh.addTag('acme/app', { name: 'v1.0.0', at: a, annotated: { message: 'First' } })
 *   gh.addRelease('acme/app', { tag_name: 'v1.0.0', body: 'Notes' })
 *   gh.addPull('acme/app', { number: 7, title: 'Docs', head: 'docs', base: 'main', files: [] })
 *   gh.addRun('acme/app', { workflow: 'docs.yml', branch: 'main', event: 'schedule', headSha: a })
 *   gh.matchingRefsPageSize = 100             // cut matching-refs answers into pages (GitHub does not today)
 *   gh.addCommits('acme/app', [{ message: 'init', contents: { 'packages/cli/package.json': '{"name":"@acme/cli"}' } }])
 *   gh.treeLimit = 1000                       // recursive trees past this many entries come back truncated
 *   gh.setPullState('acme/docs', 7, 'merged')          // or 'closed', 'open'
 *   gh.setPermission('acme/app', 'mona', 'maintain')    // or { role_name: 'docs-editor', permission: 'write' }
 *   const octokit = getOctokit('tok', { baseUrl: gh.url })
 *   gh.fail('compare', { kind: 'status', status: 403, headers: { 'x-ratelimit-remaining': '0' } })
 *   gh.failAlways('labels', { kind: 'hang' })   // until failAlways('labels', null)
 *   gh.fail('releases', { kind: 'stall' })      // status, headers, half the body, then nothing
 *   gh.latencyMs = 100                          // every answer from now on
 *   gh.time = virtualClock                      // latency, delays and hangs in virtual time
 *   gh.labelsOf('acme/app', 7)                  // labels added through the API
 *   await gh.close()                            // also destroys hanging connections, cancels delays
 *
 * Routes (GET unless said): /repos/{o}/{r}/releases/tags/{tag}, …/releases, …/releases/latest, …/tags,
 * …/git/matching-refs/{ref}, …/git/ref/{ref}, …/git/tags/{sha}, …/compare/{base}...{head},
 * …/commits (`sha`, `path`, paginated), …/git/trees/{ref} (`recursive`), …/contents/{path} (`ref`),
 * …/pulls (open, closed or all; newest first unless asked otherwise), …/pulls/{n}, …/pulls/{n}/files, …/actions/workflows/{id}/runs, …/collaborators/{user}/permission,
 * POST …/issues/{n}/labels;
 * the conversation: GET and POST
 * …/issues/{n}/comments, PATCH and DELETE …/issues/comments/{id}, POST …/issues/comments/{id}/reactions
 * and …/pulls/comments/{id}/reactions, PATCH …/releases/{id}; check runs: POST …/check-runs, PATCH
 * …/check-runs/{id}, GET …/commits/{ref}/check-runs (check-runs.ts), GET …/commits/{ref}/check-suites
 * (check-suites.ts); and the token's identity: GET /user
 * (403 for an installation token, as GitHub answers) and POST /graphql (`viewer`). The owner of a
 * pull request (simulator/github-owner.ts): POST …/pulls/{n}/requested_reviewers, POST
 * …/issues/{n}/assignees, GET …/issues/{n}/events, PUT …/pulls/{n}/merge, and on /graphql a pull
 * request's merge state and `enablePullRequestAutoMerge`.
 * Anything else is 404. A login without a permission set is 404 there, as GitHub answers for a
 * login with no account; GitHub answers `read` for anyone else on a public repository: set it.
 * matching-refs answers every ref starting with the prefix at once, as GitHub does, unless
 * `matchingRefsPageSize` is set. A comparison's files are those its commits were seeded with.
 * The tree at a commit holds every file its history wrote (`contents`) or changed (`files`, a
 * placeholder text unless written), less those removed; a commit touches a path when one of them
 * is at or under it.
 *
 *   gh.identity = { login: 'docs-bot', kind: 'user' }    // default: the workflow token, github-actions[bot]
 *   gh.addComment('acme/app', 7, { body: '/docs fix', user: { login: 'mona' } })
 *   gh.commentsOf('acme/app', 7); gh.reactionsOf('acme/app', id); gh.releaseBody('acme/app', 'v1')
 *   gh.checkRunsOf('acme/app', sha)                   // check runs on a commit (a pull request's head counts)
 *   gh.addCheckRun('acme/app', { name: 'Lint', head_sha: sha })   // one made by someone else
 *   gh.addCheckRun('acme/docs', { name: 'Vale', head_sha: sha }, app)   // made by another app, in its suite
 *   gh.addCheckSuite('acme/docs', sha, app)           // what a push does for an app with checks:write: a suite, queued, no run
 *   gh.fail('check-create', { kind: 'status', status: 502, effect: true })   // the run is made, the client sees 502
 *   gh.annotateCheckRun(id, [{ path: 'a.mdx', start_line: 3, message: '…' }])   // GET …/check-runs/{id}/annotations
 *   gh.addStatus('acme/docs', sha, { state: 'failure', context: 'ci/build' })    // GET …/commits/{ref}/status
 *   gh.pushToPull('acme/docs', 1)                     // a new head commit on the pull request's branch
 *   gh.at(clock.now() + 30_000, () => …)              // a change made once the fake's clock gets there
 *
 * Path segments are split on `/` in the raw path, then percent-decoded one by one, so a ref or tag
 * with `/` is served whether the client sent it raw or as `%2F` (Octokit sends `%2F`).
 * Order of checks: fault (queued before always), auth (401), route (404), repository (404), data.
 * Each repository has one linear history; its tags and releases are listed newest added first.
 * Annotated tag messages come back with a trailing newline, as git stores them.
 * Errors are JSON `{"message", "documentation_url", "status"}` as GitHub sends them.
 */
import { once } from 'node:events'
import { closeServer } from '../loopback.js'
import type { SimulatorClock } from '../agent-api.js'
import type { MergeRules, PullOwner } from '../github-owner.js'
import type { AnnotationSeed, StoredCheckRun } from '../check-runs.js'
import type { CheckApp } from '../github-objects.js'
import type { StatusSeed } from '../commit-statuses.js'
import type { RouteName } from './routes.js'
import {
  type CommentSeed,
  type CommitSeed,
  type CustomRole,
  type GitHubApiFakeOptions,
  type PullSeed,
  type Reaction,
  type ReleaseSeed,
  type RoleName,
  type RunSeed,
  Store,
  type TagSeed,
  type TokenIdentity
} from './state.js'
import { LEGACY_PERMISSION } from './repository.js'
import { seedCommits } from './commits.js'
import { seedRelease, seedTag } from './releases.js'
import { seedPull } from './pulls.js'
import { seedComment } from './issues.js'
import { type Fault, handle, type RecordedRequest } from './server.js'

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
} from './state.js'
export type { RouteName } from './routes.js'
export type { Fault, RecordedRequest } from './server.js'

export class GitHubApiFake {
  private readonly s: Store

  private constructor(options: GitHubApiFakeOptions) {
    this.s = new Store(options, handle)
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
    return seedCommits(this.s, repo, commits)
  }

  addTag(repo: string, seed: TagSeed): void {
    seedTag(this.s, repo, seed)
  }

  addRelease(repo: string, seed: ReleaseSeed): void {
    seedRelease(this.s, repo, seed)
  }

  addPull(repo: string, seed: PullSeed): void {
    seedPull(this.s, repo, seed)
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
    return seedComment(this.s, repo, number, seed)
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

  /**
   * Makes a check run as `POST …/check-runs` with this body would (an earlier run's, or `app`'s:
   * GitHub Actions by default); its id.
   */
  addCheckRun(repo: string, body: Record<string, unknown>, app?: CheckApp): number {
    const made = this.s.checks.create(this.s.repo(repo).fullName, JSON.stringify(body), app)
    if (!('json' in made)) throw new Error(`addCheckRun: ${made.message}`)
    return (made.json as { id: number }).id
  }

  /**
   * What GitHub does at a push for `app`, installed with checks:write: a check suite on `sha`,
   * `queued` with no run until the app makes one
   * (https://docs.github.com/en/rest/guides/using-the-rest-api-to-interact-with-checks).
   */
  addCheckSuite(repo: string, sha: string, app: CheckApp): void {
    const { fullName } = this.s.repo(repo)
    if (!this.s.commitOf(fullName, sha)) throw new Error(`addCheckSuite: no commit ${sha} in ${repo}`)
    this.s.checks.suites.of(fullName, sha, app)
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
}
