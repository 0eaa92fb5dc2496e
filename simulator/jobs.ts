// Job store of the Agent API simulator: jobs keyed by (projectId, id), their time-based
// lifecycle and the per-project rate limit. No timers: status is derived from the clock on read.
import { randomBytes } from 'node:crypto'

export type JobStatus = 'active' | 'completed' | 'failed' | 'archived'
export type FinalStatus = Exclude<JobStatus, 'active'>

/** How jobs created or messaged from now on behave. */
export interface JobScenario {
  /** How long a job stays `active` after it was created or messaged. */
  runMs: number
  /** Status the job has once `runMs` has passed. */
  finalStatus: FinalStatus
  /** Whether the agent opened a pull request (`prLink` set once the job ends). */
  pr: boolean
  /** Explicit `prLink` once the job ends, whatever `pr` says (for hostile-value tests). */
  prLink?: string | null
  /** The job shows `completed` with `prLink` null for this long before the link appears. */
  prLinkLagMs?: number
  /** Fields merged over every JSON of the job; a key set to `undefined` removes that field. */
  record?: Record<string, unknown>
  /**
   * After a follow-up, the job keeps showing the record it had before the message (its old
   * status and prLink) for this long, as a service that takes the message up late would.
   */
  staleAfterMessageMs?: number
}

export const DEFAULT_SCENARIO: JobScenario = { runMs: 1000, finalStatus: 'completed', pr: true }

/** The job as the real service documents it (`AgentJob` in openapi.json). */
export interface AgentJob {
  id: string
  status: JobStatus
  source: { repository: string; ref: string | null }
  model: string
  prLink: string | null
  createdAt: string
  archivedAt: string | null
}

/** A stored job as tests inspect it: `job` is its JSON before `record` overrides. */
export interface JobSnapshot {
  projectId: string
  prompts: string[]
  job: AgentJob
}

/** A job to pre-seed; `status` defaults to `active` (it then ends after the scenario's `runMs`). */
export interface SeedJob {
  id: string
  status?: JobStatus
  createdAt?: string
  prompt?: string
}

export interface StoredJob {
  projectId: string
  id: string
  createdAt: string
  prompts: string[]
  prNumber: number
  /** now() of the last start (create or message). */
  startedAt: number
  scenario: JobScenario
  /** The record shown instead of the real one until `until` (see `staleAfterMessageMs`). */
  stale?: { until: number; record: AgentJob }
}

/** The docs repository every job's pull request is opened in. */
export const DOCS_REPOSITORY = 'acme/docs'
const REPOSITORY = `https://github.com/${DOCS_REPOSITORY}`
const HOUR_MS = 60 * 60 * 1000

export class JobStore {
  private readonly jobsByKey = new Map<string, StoredJob>()
  /** Date.now() of each use (create or message) per project, oldest first. */
  private readonly uses = new Map<string, number[]>()
  private lastPr = 0

  constructor(
    public scenario: JobScenario,
    private readonly rateLimit: number,
    private readonly now: () => number = () => Date.now()
  ) {}

  create(projectId: string, prompt: string): StoredJob {
    const id = `job_${randomBytes(8).toString('hex')}`
    return this.put(projectId, id, new Date(this.now()).toISOString(), prompt, this.scenario)
  }

  /** Starts another run of an existing job under the current scenario. */
  message(job: StoredJob, prompt: string): void {
    const before = this.view(job)
    job.prompts.push(prompt)
    job.startedAt = this.now()
    job.scenario = this.scenario
    const staleMs = this.scenario.staleAfterMessageMs ?? 0
    job.stale = staleMs > 0 ? { until: job.startedAt + staleMs, record: before } : undefined
  }

  seed(projectId: string, seed: SeedJob, scenario: JobScenario): void {
    const status = seed.status ?? 'active'
    // A terminal seed is a run of zero length that ended with that status.
    const seeded = status === 'active' ? scenario : { ...scenario, runMs: 0, finalStatus: status }
    this.put(projectId, seed.id, seed.createdAt ?? new Date(this.now()).toISOString(), seed.prompt, seeded)
  }

  get(projectId: string, id: string): StoredJob | undefined {
    return this.jobsByKey.get(key(projectId, id))
  }

  /** Counts one use for the project unless its rolling-hour budget is spent; false when it is. */
  use(projectId: string): boolean {
    const now = this.now()
    const recent = (this.uses.get(projectId) ?? []).filter((at) => now - at < HOUR_MS)
    const allowed = recent.length < this.rateLimit
    if (allowed) recent.push(now)
    this.uses.set(projectId, recent)
    return allowed
  }

  snapshots(projectId?: string): JobSnapshot[] {
    return [...this.jobsByKey.values()]
      .filter((j) => projectId === undefined || j.projectId === projectId)
      .map((j) => ({ projectId: j.projectId, prompts: [...j.prompts], job: this.view(j) }))
  }

  private put(
    projectId: string,
    id: string,
    createdAt: string,
    prompt: string | undefined,
    scenario: JobScenario
  ): StoredJob {
    const job: StoredJob = {
      projectId,
      id,
      createdAt,
      prompts: prompt === undefined ? [] : [prompt],
      prNumber: ++this.lastPr,
      startedAt: this.now(),
      scenario
    }
    this.jobsByKey.set(key(projectId, id), job)
    return job
  }

  /** The job's current JSON, `record` overrides included (undefined values vanish in JSON.stringify). */
  toJson(job: StoredJob): Record<string, unknown> {
    return { ...this.view(job), ...job.scenario.record }
  }

  private view(job: StoredJob): AgentJob {
    if (job.stale && this.now() < job.stale.until) return job.stale.record
    return view(job, this.now())
  }
}

function view(job: StoredJob, now: number): AgentJob {
  const { runMs, finalStatus, pr, prLink, prLinkLagMs = 0 } = job.scenario
  const endsAt = job.startedAt + runMs
  const ended = now >= endsAt
  const linked = now >= endsAt + prLinkLagMs
  const status = ended ? finalStatus : 'active'
  const link = prLink !== undefined ? prLink : pr ? `${REPOSITORY}/pull/${job.prNumber}` : null
  return {
    id: job.id,
    status,
    source: { repository: REPOSITORY, ref: 'main' },
    model: 'sim-model-1',
    prLink: linked ? link : null,
    createdAt: job.createdAt,
    archivedAt: status === 'archived' ? new Date(endsAt).toISOString() : null
  }
}

// JSON of the pair: unambiguous whatever characters the ids hold.
const key = (projectId: string, id: string): string => JSON.stringify([projectId, id])
