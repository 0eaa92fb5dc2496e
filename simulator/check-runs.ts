/**
 * Source: GitHub's checks API docs (https://docs.github.com/rest/checks/runs) and its OpenAPI
 * description (@octokit/openapi, the check-run schema), which the answers are checked against.
 * Check runs of the GitHub fake, kept as GitHub's checks API keeps them: created on a commit of the
 * repository, updated in place, listed for a commit. The list filters by `check_name` and `status`,
 * and by default (`filter=latest`) shows only the newest run of each name; there is no filter on
 * `external_id` (GitHub has none): a client finds its own run by reading the field. A run is made
 * by an app (the token's: GitHub Actions for a workflow token) and goes in that app's check suite
 * on its commit (check-suites.ts), whose status follows its runs (`suiteState`).
 *
 *   const checks = new CheckRuns(() => tick(), (sha) => known(sha))
 *   checks.create('acme/app', body)            // { status: 201, json } or { status: 422, message }
 *   checks.update('acme/app', id, body); checks.list('acme/app', sha, query); checks.of('acme/app')
 *
 * Validation as GitHub answers it: `name` and `head_sha` are required, the sha must be a commit of
 * the repository (422 "No commit found for SHA"), `status` and `conclusion` must be known values, a
 * conclusion completes the run, `completed` needs a conclusion, and an output needs a title and a
 * summary of at most 65,535 UTF-8 bytes.
 *
 * A completed run is final: GitHub staff say that once a check run is `completed` its status and
 * conclusion can no longer change (community discussion "Re-run a completed check run", and why
 * Atlantis and Mergify create a new run per re-run). GitHub's answer to such a PATCH is not
 * documented; the strictest rule is modelled: 200 with the run unchanged, no field written.
 */

import { ACTIONS_APP, appJson, type CheckApp } from './github-objects.js'
import { CheckSuites, type StoredCheckSuite } from './check-suites.js'

const STATUSES = ['queued', 'in_progress', 'completed'] as const
const CONCLUSIONS = ['action_required', 'cancelled', 'failure', 'neutral', 'success', 'skipped', 'timed_out'] as const
/**
 * A suite's conclusion is its runs' of highest priority: GitHub's example puts timed_out over
 * success and neutral (https://docs.github.com/en/rest/guides/using-the-rest-api-to-interact-with-checks);
 * the rest of this order is the fake's (the action never reads a suite's conclusion).
 */
const SUITE_PRIORITY = [
  'action_required',
  'timed_out',
  'failure',
  'cancelled',
  'neutral',
  'success',
  'skipped'
] as const
/**
 * GitHub's limit on `output.summary` and `output.text`, in UTF-8 bytes: the docs say characters,
 * the API refuses "summary exceeds a maximum bytesize of 65535" (github/docs issue 35252, with the
 * answer's body).
 */
export const MAX_OUTPUT_BYTES = 65_535
const WEB = 'https://github.com'

export interface StoredCheckRun {
  id: number
  repo: string
  name: string
  head_sha: string
  /** The app that made the run (the token's), and the suite GitHub put it in. */
  app: CheckApp
  check_suite: number
  status: (typeof STATUSES)[number]
  conclusion: (typeof CONCLUSIONS)[number] | null
  external_id: string | null
  details_url: string | null
  output: { title: string | null; summary: string | null; text: string | null }
  started_at: string
  completed_at: string | null
  /** Each state the run was written with, in order: `in_progress`, then a conclusion. */
  states: string[]
}

export type CheckAnswer = { status: 200 | 201; json: unknown } | { status: 404 | 422; message: string }

/** An annotation as `GET …/check-runs/{id}/annotations` lists it. */
export interface AnnotationSeed {
  path: string
  start_line: number
  message: string
  annotation_level?: 'notice' | 'warning' | 'failure'
}

export class CheckRuns {
  private readonly runs: StoredCheckRun[] = []
  /** By check run id, in the order written. */
  private readonly annotations = new Map<number, AnnotationSeed[]>()
  private serial = 0
  readonly suites: CheckSuites

  constructor(
    /** The fake's time, as ISO 8601. */
    private readonly now: () => string,
    /** Whether `sha` is a commit of `repo`. */
    private readonly known: (repo: string, sha: string) => boolean,
    private readonly apiUrl: () => string
  ) {
    this.suites = new CheckSuites(now)
  }

  /** The check runs of `repo`, oldest first (those on `sha` only, when given). */
  of(repo: string, sha?: string): StoredCheckRun[] {
    return this.runs.filter((run) => same(run.repo, repo) && (sha === undefined || run.head_sha === sha))
  }

  clear(): void {
    this.runs.length = 0
    this.annotations.clear()
    this.suites.clear()
  }

  /** Adds annotations to run `id` (GitHub takes 50 a request; the fake any number at once). */
  annotate(id: number, annotations: AnnotationSeed[]): void {
    this.annotations.set(id, [...(this.annotations.get(id) ?? []), ...annotations])
  }

  /** `GET …/check-runs/{id}/annotations`: undefined for a run `repo` does not have. */
  annotationsOf(repo: string, id: number): Record<string, unknown>[] | undefined {
    if (!this.runs.some((r) => r.id === id && same(r.repo, repo))) return undefined
    return (this.annotations.get(id) ?? []).map((a) => ({
      path: a.path,
      blob_href: `${WEB}/${repo}/blob/main/${a.path}`,
      start_line: a.start_line,
      end_line: a.start_line,
      start_column: null,
      end_column: null,
      annotation_level: a.annotation_level ?? 'failure',
      title: null,
      message: a.message,
      raw_details: null
    }))
  }

  /** `app`: whose token makes the run (a workflow token's: GitHub Actions). */
  create(repo: string, text: string, app: CheckApp = ACTIONS_APP): CheckAnswer {
    const body = parse(text)
    if (typeof body?.name !== 'string' || body.name === '') return invalid('"name" wasn\'t supplied.')
    if (typeof body.head_sha !== 'string') return invalid('"head_sha" wasn\'t supplied.')
    if (!this.known(repo, body.head_sha)) return invalid(`No commit found for SHA: ${body.head_sha}`)
    const run: StoredCheckRun = {
      id: 700_000 + ++this.serial,
      repo,
      name: body.name,
      head_sha: body.head_sha,
      app,
      check_suite: 0,
      status: 'queued',
      conclusion: null,
      external_id: null,
      details_url: null,
      output: { title: null, summary: null, text: null },
      started_at: this.now(),
      completed_at: null,
      states: []
    }
    const problem = this.apply(run, body)
    if (problem) return invalid(problem)
    run.check_suite = this.suites.of(repo, run.head_sha, app).id
    this.runs.push(run)
    return { status: 201, json: this.json(run) }
  }

  update(repo: string, id: number, text: string): CheckAnswer {
    const run = this.runs.find((r) => r.id === id && same(r.repo, repo))
    if (!run) return { status: 404, message: 'Not Found' }
    const body = parse(text)
    if (!body) return invalid('Problems parsing JSON')
    if (run.status === 'completed') return { status: 200, json: this.json(run) }
    const copy = { ...run, output: { ...run.output }, states: [...run.states] }
    const problem = this.apply(copy, body)
    if (problem) return invalid(problem)
    Object.assign(run, copy)
    return { status: 200, json: this.json(run) }
  }

  /** `GET …/commits/{sha}/check-runs`: newest first, filtered as the query asks. */
  list(repo: string, sha: string, query: URLSearchParams): StoredCheckRun[] {
    const name = query.get('check_name')
    const status = query.get('status')
    const all = this.of(repo, sha)
      .filter((run) => (name === null || run.name === name) && (status === null || run.status === status))
      .reverse()
    if (query.get('filter') === 'all') return all
    return latest(all)
  }

  /**
   * A suite's status and conclusion as its runs sum them up: `queued` while it has none (or none
   * has started), `in_progress` while one is not completed, `completed` once all are, with their
   * conclusion of highest priority; `latest_check_runs_count` counts the newest run of each name.
   */
  suiteState(suite: StoredCheckSuite): { status: string; conclusion: string | null; latest_check_runs_count: number } {
    const runs = latest(this.runs.filter((run) => run.check_suite === suite.id).reverse())
    const count = { latest_check_runs_count: runs.length }
    if (runs.every((run) => run.status === 'queued')) return { status: 'queued', conclusion: null, ...count }
    if (runs.some((run) => run.status !== 'completed')) return { status: 'in_progress', conclusion: null, ...count }
    const conclusion = SUITE_PRIORITY.find((c) => runs.some((run) => run.conclusion === c)) ?? null
    return { status: 'completed', conclusion, ...count }
  }

  json(run: StoredCheckRun): Record<string, unknown> {
    const api = `${this.apiUrl()}/repos/${run.repo}/check-runs/${run.id}`
    return {
      id: run.id,
      head_sha: run.head_sha,
      node_id: `CR_kwDO${run.id}`,
      external_id: run.external_id,
      url: api,
      html_url: `${WEB}/${run.repo}/runs/${run.id}`,
      details_url: run.details_url,
      status: run.status,
      conclusion: run.conclusion,
      started_at: run.started_at,
      completed_at: run.completed_at,
      output: {
        ...run.output,
        annotations_count: this.annotations.get(run.id)?.length ?? 0,
        annotations_url: `${api}/annotations`
      },
      name: run.name,
      check_suite: { id: run.check_suite },
      // The app that made the run (the check-run schema requires it whole).
      app: appJson(this.apiUrl(), run.app),
      pull_requests: []
    }
  }

  /** Writes the fields `body` gives into `run`; the problem GitHub would answer 422 with, if any. */
  private apply(run: StoredCheckRun, body: Record<string, unknown>): string | undefined {
    const { status, conclusion, output } = body
    if (status !== undefined && !STATUSES.some((known) => known === status))
      return `Invalid status: ${JSON.stringify(status)}`
    if (conclusion !== undefined && !CONCLUSIONS.some((known) => known === conclusion))
      return `Invalid conclusion: ${JSON.stringify(conclusion)}`
    if (status === 'completed' && conclusion === undefined) return 'Conclusion is required when status is completed.'
    if (output !== undefined) {
      const problem = outputProblem(output)
      if (problem) return problem
      const { title, summary, text } = output as Record<string, string | undefined>
      run.output = { title: title ?? null, summary: summary ?? null, text: text ?? null }
    }
    for (const field of ['external_id', 'details_url', 'name'] as const) {
      const value = body[field]
      if (typeof value === 'string') run[field] = value
    }
    if (conclusion !== undefined) {
      run.status = 'completed'
      run.conclusion = conclusion as StoredCheckRun['conclusion']
      run.completed_at = this.now()
      run.states.push(run.conclusion ?? '')
    } else if (status !== undefined) {
      run.status = status as StoredCheckRun['status']
      run.states.push(run.status)
    }
    return undefined
  }
}

function outputProblem(output: unknown): string | undefined {
  if (typeof output !== 'object' || output === null) return '"output" is not an object.'
  const { title, summary, text } = output as Record<string, unknown>
  if (typeof title !== 'string' || typeof summary !== 'string') return 'Output requires a title and a summary.'
  const bytes = (value: string): number => Buffer.byteLength(value, 'utf8')
  if (bytes(summary) > MAX_OUTPUT_BYTES) return `summary exceeds a maximum bytesize of ${MAX_OUTPUT_BYTES}`
  if (typeof text === 'string' && bytes(text) > MAX_OUTPUT_BYTES)
    return `text exceeds a maximum bytesize of ${MAX_OUTPUT_BYTES}`
  return undefined
}

function parse(text: string): Record<string, unknown> | undefined {
  try {
    const json: unknown = JSON.parse(text)
    return typeof json === 'object' && json !== null && !Array.isArray(json)
      ? (json as Record<string, unknown>)
      : undefined
  } catch {
    return undefined
  }
}

function invalid(message: string): CheckAnswer {
  return { status: 422, message: `Invalid request.\n\n${message}` }
}

/** The newest run of each name, of `runs` listed newest first. */
function latest(runs: StoredCheckRun[]): StoredCheckRun[] {
  return runs.filter((run, index) => runs.findIndex((other) => other.name === run.name) === index)
}

function same(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase()
}
