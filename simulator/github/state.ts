// The fake GitHub's state: what tests seed (repositories, commits, tags, releases, pull requests, runs) and the Store every route reads and writes.
import { createHash } from 'node:crypto'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { FaultPlan } from '../faults.js'
import { fakeServer } from '../loopback.js'
import { realTime, type SimulatorClock } from '../agent-api.js'
import { OwnerFake } from '../github-owner.js'
import { CheckRuns } from '../check-runs.js'
import { CommitStatuses } from '../commit-statuses.js'
import type { RouteName } from './routes.js'
import type { Fault, RecordedRequest } from './server.js'

export interface GitHubApiFakeOptions {
  /** The token accepted (`token <t>` or `Bearer <t>`), or the tokens; without it any request is accepted. */
  token?: string | readonly string[]
  /** Delay before every answer; also settable later through `latencyMs`. */
  latencyMs?: number
  /** Default 127.0.0.1. */
  host?: string
  /** Latency, delays and hangs run on this clock (default: real time); also settable later through `time`. */
  time?: SimulatorClock
}

/** A GitHub account; `type` defaults to Bot for logins ending in `[bot]`, else User. */
export interface Actor {
  login: string
  type?: 'User' | 'Bot'
}

export interface CommitSeed {
  message: string
  /** The GitHub account of the author (default octocat); null: an author email tied to no account. */
  author?: Actor | null
  /** Default 1 (the previous commit of the history); 2 makes a merge commit. */
  parents?: number
  /** What the commit changes, as a comparison over it lists it. */
  files?: PullFileSeed[]
  /** Files this commit writes, path to text (null removes one), without listing them as changes. */
  contents?: Record<string, string | null>
}

export interface TagSeed {
  name: string
  /** Sha of a commit added with addCommits. */
  at: string
  /** Makes an annotated tag: the ref points at a tag object that points at the commit. */
  annotated?: { message: string; tagger?: { name: string; email: string } }
}

export interface ReleaseSeed {
  tag_name: string
  name?: string | null
  body?: string | null
  draft?: boolean
  prerelease?: boolean
  html_url?: string
}

/** A role as `role_name` names it; the legacy `permission` follows from it (maintain → write, triage → read). */
export type RoleName = 'admin' | 'maintain' | 'write' | 'triage' | 'read' | 'none'

/** A custom repository role: its own name, and the base permission it builds on. */
export interface CustomRole {
  role_name: string
  permission: 'admin' | 'write' | 'read' | 'none'
}

export interface PullFileSeed {
  filename: string
  status: 'added' | 'removed' | 'modified' | 'renamed' | 'copied' | 'changed' | 'unchanged'
  additions: number
  deletions: number
  previous_filename?: string
  /** Omitted from the answer when unset, as GitHub does for binary and very large diffs. */
  patch?: string
}

export interface RunSeed {
  /** The workflow's file name (`docs.yml`), as the action asks for it. */
  workflow: string
  branch: string
  event: string
  /** Sha of the commit the run ran on. */
  headSha: string
  /** Default success; a run without one is still in progress. */
  conclusion?: 'success' | 'failure' | 'cancelled' | null
}

export interface PullSeed {
  number: number
  title: string
  body?: string | null
  /** A branch name (sha generated) or a branch and its sha. */
  head: string | { ref: string; sha: string }
  base: string | { ref: string; sha: string }
  files: PullFileSeed[]
  /** Default octocat. */
  user?: Actor
  /** A merged pull request is closed. */
  merged?: boolean
  /** Default open (closed when merged). */
  state?: 'open' | 'closed'
}

/** Who the token writes as: a person's token reads `/user`; an installation token (the workflow's, an App's) cannot. */
export interface TokenIdentity {
  login: string
  kind: 'user' | 'installation'
}

export interface CommentSeed {
  body: string
  user: Actor
}

export interface StoredComment {
  id: number
  issue: number
  body: string
  user: Actor
  created_at: string
  updated_at: string
}

export interface Reaction {
  /** `issue` comment or pull request `review` comment. */
  on: 'issue' | 'review'
  content: string
  user: string
}

export interface Commit {
  sha: string
  message: string
  author: Actor | null
  parents: string[]
  date: string
  files: PullFileSeed[]
  contents: Record<string, string | null>
}

export interface Tag {
  name: string
  commit: string
  object?: { sha: string; message: string; tagger: { name: string; email: string; date: string } }
}

export interface Release {
  id: number
  tag_name: string
  name: string | null
  body: string | null
  draft: boolean
  prerelease: boolean
  html_url: string
  created_at: string
  published_at: string | null
}

export interface Pull extends Omit<PullSeed, 'head' | 'base'> {
  id: number
  head: { ref: string; sha: string }
  base: { ref: string; sha: string }
  created_at: string
}

export interface Repo {
  /** Spelling as first added; lookups are case-insensitive as on GitHub. */
  fullName: string
  id: number
  commits: Commit[]
  tags: Map<string, Tag>
  releases: Release[]
  pulls: Map<number, Pull>
  labels: Map<number, string[]>
  comments: StoredComment[]
  reactions: Map<number, Reaction[]>
  /** By lowercase login. */
  permissions: Map<string, { login: string; role: CustomRole }>
  runs: Run[]
  /** Heads its pull requests had before a push (still commits of the repository). */
  pastHeads: string[]
}

export interface Run extends Required<RunSeed> {
  id: number
  created_at: string
}

export const WEB = 'https://github.com'
export const DEFAULT_AUTHOR: Actor = { login: 'octocat', type: 'User' }

/**
 * Everything the fake knows: its repositories, its settings, its clocks and counters. The fake
 * (index.ts) seeds and reads it; the server and each resource's routes take it as `s`.
 */
export class Store {
  readonly requests: RecordedRequest[] = []
  /** Delay before every answer, read when a request arrives. */
  latencyMs: number
  time: SimulatorClock
  /** When set, matching-refs answers are cut into pages of this many, with a Link header. */
  matchingRefsPageSize: number | undefined
  /** Entries a recursive tree lists before it is cut short with `truncated` (GitHub: 100,000). */
  treeLimit = 100_000
  /** Who the token writes as (comments are created in this name). */
  identity: TokenIdentity = { login: 'github-actions[bot]', kind: 'installation' }
  readonly server: Server
  /** The token accepted, or the tokens; without it any request is accepted. */
  readonly token: string | readonly string[] | undefined
  readonly repos = new Map<string, Repo>()
  readonly faults = new FaultPlan<RouteName, Fault>()
  readonly owners = new OwnerFake()
  readonly checks = new CheckRuns(
    () => new Date(this.time.now()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    (repo, sha) => this.commitOf(repo, sha),
    () => this.url
  )
  readonly statuses = new CommitStatuses(() => new Date(this.time.now()).toISOString().replace(/\.\d{3}Z$/, 'Z'))
  /** Changes due at a time of the fake's clock, made before the first request that arrives from then on. */
  readonly due: { at: number; change: () => void }[] = []
  // Aborts pending delays on close, so no timer outlives the fake.
  readonly closing = new AbortController()
  readonly actorIds = new Map<string, number>()
  readonly labelIds = new Map<string, number>()
  private serial = 0
  // Fake time: every commit, tag and release happens one minute after the previous one.
  private clock = Date.parse('2024-05-01T12:00:00Z')
  readonly rateReset = String(Math.floor(Date.now() / 1000) + 3600)

  constructor(options: GitHubApiFakeOptions, serve: (s: Store, req: IncomingMessage, res: ServerResponse) => void) {
    this.latencyMs = options.latencyMs ?? 0
    this.matchingRefsPageSize = undefined
    this.time = options.time ?? realTime
    this.token = options.token
    this.server = fakeServer((req, res) => {
      serve(this, req, res)
    })
  }

  /** API root for `getOctokit(token, { baseUrl })`, no trailing slash. */
  get url(): string {
    const { address, port } = this.server.address() as AddressInfo
    const host = address.includes(':') ? `[${address}]` : address
    return `http://${host}:${port}`
  }

  /** Repository `fullName` (registered, with no data, when new). */
  repo(fullName: string): Repo {
    if (!/^[^/\s]+\/[^/\s]+$/.test(fullName)) throw new Error(`repository must be owner/name, got '${fullName}'`)
    const key = fullName.toLowerCase()
    let r = this.repos.get(key)
    if (!r) {
      r = {
        fullName,
        id: this.nextId(),
        commits: [],
        tags: new Map(),
        releases: [],
        pulls: new Map(),
        labels: new Map(),
        runs: [],
        comments: [],
        reactions: new Map(),
        permissions: new Map(),
        pastHeads: []
      }
      this.repos.set(key, r)
    }
    return r
  }

  /** Whether `sha` is a commit of `repo`: one of its history, or the head or base of one of its pull requests. */
  commitOf(repo: string, sha: string): boolean {
    const r = this.repos.get(repo.toLowerCase())
    if (!r) return false
    const pulls = [...r.pulls.values()].flatMap((p) => [p.head.sha, p.base.sha])
    return r.commits.some((c) => c.sha === sha) || pulls.includes(sha) || r.pastHeads.includes(sha)
  }

  nextId(): number {
    return 100_000 + ++this.serial
  }

  sha(): string {
    return createHash('sha1').update(`fake-object-${++this.serial}`).digest('hex')
  }

  tick(): string {
    this.clock += 60_000
    return new Date(this.clock).toISOString().replace('.000Z', 'Z')
  }
}

export function ownerOf(r: Repo): string {
  return r.fullName.split('/')[0] ?? ''
}

export function nodeId(prefix: string, key: string): string {
  return `${prefix}_kwDO${Buffer.from(sha1(key).slice(0, 12), 'hex').toString('base64url')}`
}

export function sha1(text: string): string {
  return createHash('sha1').update(text).digest('hex')
}
