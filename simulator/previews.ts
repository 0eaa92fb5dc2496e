/**
 * The preview deployments of the Agent API simulator (the Mintlify External API v1, contract:
 * /work/shared/agent-api/preview-openapi.json), served by the same server and key:
 *
 *   POST /v1/project/preview/{projectId} {"branch": "..."} → 202 {statusId, previewUrl}
 *   GET  /v1/project/update-status/{statusId}              → 200 {_id, status, summary, …}
 *
 * A deployment is `queued`, then `in_progress`, then ends as the scenario says, on the simulator's
 * clock. A branch deployed again keeps its URL (the service redeploys it). The organization may
 * ask 5 times a minute (rolling), as documented; a plan without previews answers 403.
 */
export interface PreviewScenario {
  /** `pro` builds previews; `hobby` answers 403 as a plan without them does. */
  plan: 'pro' | 'hobby'
  /** How a deployment ends; `stuck` stays `in_progress` for ever. */
  outcome: 'success' | 'failure' | 'stuck'
  /** Time spent `queued`, then `in_progress` (ms). */
  queuedMs: number
  buildMs: number
  /** POSTs allowed per organization per rolling minute. */
  perMinute: number
  /** Whether a 429 carries Retry-After (seconds until a request leaves the window). */
  retryAfter: boolean
}

export const DEFAULT_PREVIEW_SCENARIO: PreviewScenario = {
  plan: 'pro',
  outcome: 'success',
  queuedMs: 2_000,
  buildMs: 20_000,
  perMinute: 5,
  // The contract (README.md): "No `Retry-After` or rate-limit headers are documented; treat them as
  // possible, never as guaranteed"; the preview pages document their limit only. A scenario that wants one asks for it.
  retryAfter: false
}

export type PreviewRoute = { op: 'preview'; projectId: string } | { op: 'preview-status'; statusId: string }

export interface PreviewAnswer {
  status: number
  json: unknown
  headers?: Record<string, string>
}

export interface Deployment {
  statusId: string
  projectId: string
  branch: string
  previewUrl: string
  createdAt: number
  outcome: PreviewScenario['outcome']
  queuedMs: number
  buildMs: number
}

const WINDOW_MS = 60_000

/** The preview routes of `segments` (the path after the prefix, decoded), or undefined when not one. */
export function previewRoute(segments: readonly string[]): PreviewRoute | undefined {
  const [v1, project, kind, id, ...rest] = segments
  if (v1 !== 'v1' || project !== 'project' || !id || rest.length > 0) return undefined
  if (kind === 'preview') return { op: 'preview', projectId: id }
  if (kind === 'update-status') return { op: 'preview-status', statusId: id }
  return undefined
}

export class PreviewService {
  scenario: PreviewScenario
  private readonly deployments = new Map<string, Deployment>()
  private readonly uses: number[] = []
  private counter = 0

  constructor(
    scenario: Partial<PreviewScenario>,
    private readonly now: () => number
  ) {
    this.scenario = { ...DEFAULT_PREVIEW_SCENARIO, ...scenario }
  }

  /** Every deployment asked for, oldest first. */
  list(): Deployment[] {
    return [...this.deployments.values()]
  }

  /** The answer to an authorized request on `route` with `body`. */
  answer(route: PreviewRoute, body: string): PreviewAnswer {
    return route.op === 'preview' ? this.deploy(route.projectId, body) : this.read(route.statusId)
  }

  private deploy(projectId: string, body: string): PreviewAnswer {
    const branch = parseBranch(body)
    if (branch === undefined)
      return { status: 400, json: { error: 'Invalid request. The `branch` field is required.' } }
    const now = this.now()
    while (this.uses.length > 0 && (this.uses[0] ?? 0) <= now - WINDOW_MS) this.uses.shift()
    if (this.uses.length >= this.scenario.perMinute) {
      const wait = Math.max(1, Math.ceil(((this.uses[0] ?? now) + WINDOW_MS - now) / 1000))
      return {
        status: 429,
        json: { error: 'Rate limit exceeded' },
        ...(this.scenario.retryAfter ? { headers: { 'retry-after': String(wait) } } : {})
      }
    }
    if (this.scenario.plan !== 'pro') {
      return { status: 403, json: { error: 'Preview deployments are not available on your current plan.' } }
    }
    this.uses.push(now)
    const existing = this.list().find((d) => d.projectId === projectId && d.branch === branch)
    const deployment: Deployment = {
      statusId: `status_${String(++this.counter).padStart(4, '0')}`,
      projectId,
      branch,
      previewUrl: existing?.previewUrl ?? `https://${slug(projectId)}-${slug(branch)}.mintlify.app`,
      createdAt: now,
      outcome: this.scenario.outcome,
      queuedMs: this.scenario.queuedMs,
      buildMs: this.scenario.buildMs
    }
    this.deployments.set(deployment.statusId, deployment)
    return { status: 202, json: { statusId: deployment.statusId, previewUrl: deployment.previewUrl } }
  }

  private read(statusId: string): PreviewAnswer {
    const d = this.deployments.get(statusId)
    if (!d) return { status: 404, json: { error: 'Status not found' } }
    const age = this.now() - d.createdAt
    const ended = d.outcome !== 'stuck' && age >= d.queuedMs + d.buildMs
    const status = ended ? d.outcome : age < d.queuedMs ? 'queued' : 'in_progress'
    return {
      status: 200,
      json: {
        _id: d.statusId,
        projectId: d.projectId,
        createdAt: new Date(d.createdAt).toISOString(),
        ...(ended ? { endedAt: new Date(d.createdAt + d.queuedMs + d.buildMs).toISOString() } : {}),
        status,
        summary: status === 'failure' ? 'Build failed: mint.json is not valid' : `Preview of ${d.branch}`,
        logs: [],
        commit: { ref: d.branch }
      }
    }
  }
}

function parseBranch(body: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body)
    const branch = (parsed as { branch?: unknown } | null)?.branch
    return typeof branch === 'string' && branch.length > 0 ? branch : undefined
  } catch {
    return undefined
  }
}

function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'x'
  )
}
