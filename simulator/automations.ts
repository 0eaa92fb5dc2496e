/**
 * Mintlify's Automations in the Agent API simulator (the trigger endpoint, contract:
 * /work/shared/agent-api/README.md, "Triggering a scheduled automation"), served by the same server
 * and key:
 *
 *   POST /v1/workflow/{projectId}/{automationId}/trigger (no body) → 200 {schemaId, instanceId, jobId}
 *
 * A known automation with a custom schedule queues a run: its job either is an Agent API job (read
 * with GET /v2/agent/{projectId}/job/{jobId}, as any job) or is not (that GET answers 404 for ever),
 * since the documentation does not say which. Another trigger answers 400, an unknown automation
 * 404. The organization may trigger 10 times in 10 seconds (rolling), as the endpoint's page says
 * (read 2026-11-28; an earlier version said 5 a minute).
 */
import { randomBytes } from 'node:crypto'

export interface Automation {
  id: string
  /** The prompt stored in the dashboard: the job's prompt when it is an Agent API job. */
  prompt: string
  /** Only `schedule` (a custom schedule) can be triggered; the others answer 400. */
  trigger: 'schedule' | 'push' | 'webhook'
  /** Whether the run's job can be read through the Agent API (otherwise its GET answers 404). */
  jobReadable: boolean
}

/** The automations `npm run simulator` knows, one for each answer a user may want to see. */
export const DEFAULT_AUTOMATIONS: readonly Automation[] = [
  {
    id: 'auto-readable-job',
    prompt: 'Update the docs for what changed since the last run.',
    trigger: 'schedule',
    jobReadable: true
  },
  {
    id: 'auto-hidden-job',
    prompt: 'Update the docs for what changed since the last run.',
    trigger: 'schedule',
    jobReadable: false
  },
  { id: 'auto-on-push', prompt: 'Document the pushed changes.', trigger: 'push', jobReadable: true }
]

export interface AutomationScenario {
  automations: readonly Automation[]
  /** Triggers allowed per organization in any WINDOW_MS. */
  perWindow: number
  /** Whether a 429 carries Retry-After (seconds until a request leaves the window). */
  retryAfter: boolean
  /** The success status: 200 as documented, or 202 as a queue may answer. */
  status: 200 | 202
  /**
   * Ids a success answer leaves out: the answer's schema in Mintlify's OpenAPI document
   * (mintlify/docs openapi.json, POST /workflow/{projectId}/{workflowSchemaId}/trigger, 202) lists
   * `schemaId`, `instanceId` and `jobId` and requires none of them.
   */
  omits: readonly ('schemaId' | 'instanceId' | 'jobId')[]
}

export const DEFAULT_AUTOMATION_SCENARIO: AutomationScenario = {
  automations: DEFAULT_AUTOMATIONS,
  perWindow: 10,
  // The contract (README.md): "No `Retry-After` or rate-limit headers are documented; treat them as
  // possible, never as guaranteed"; the trigger's page documents its limit only. A scenario that wants one asks for it.
  retryAfter: false,
  status: 200,
  omits: []
}

export interface AutomationRoute {
  op: 'trigger'
  projectId: string
  automationId: string
}

/** A run the trigger queued. */
export interface AutomationRun {
  projectId: string
  automationId: string
  instanceId: string
  jobId: string
  jobReadable: boolean
  /** The simulator clock's now() when it was queued. */
  at: number
}

export interface AutomationAnswer {
  status: number
  json: unknown
  headers?: Record<string, string>
}

/** The documented window: 10 requests per 10 seconds per organization. */
const WINDOW_MS = 10_000

/** The trigger route of `segments` (the path after the prefix, decoded), or undefined when not it. */
export function automationRoute(segments: readonly string[]): AutomationRoute | undefined {
  const [v1, workflow, projectId, automationId, trigger, ...rest] = segments
  if (v1 !== 'v1' || workflow !== 'workflow' || trigger !== 'trigger' || rest.length > 0) return undefined
  if (!projectId || !automationId) return undefined
  return { op: 'trigger', projectId, automationId }
}

export class AutomationService {
  scenario: AutomationScenario
  private readonly queued: AutomationRun[] = []
  private readonly uses: number[] = []

  constructor(
    scenario: Partial<AutomationScenario>,
    private readonly now: () => number,
    /** Makes the Agent API job of a run whose job is readable; its id. */
    private readonly createJob: (projectId: string, prompt: string) => string
  ) {
    this.scenario = { ...DEFAULT_AUTOMATION_SCENARIO, ...scenario }
  }

  /** Every run queued, oldest first. */
  runs(): AutomationRun[] {
    return [...this.queued]
  }

  /** The answer to an authorized trigger (the body, if any, is ignored as the service does). */
  answer({ projectId, automationId }: AutomationRoute): AutomationAnswer {
    const now = this.now()
    while (this.uses.length > 0 && (this.uses[0] ?? 0) <= now - WINDOW_MS) this.uses.shift()
    if (this.uses.length >= this.scenario.perWindow) {
      const wait = Math.max(1, Math.ceil(((this.uses[0] ?? now) + WINDOW_MS - now) / 1000))
      return {
        status: 429,
        json: { error: 'Rate limit exceeded' },
        ...(this.scenario.retryAfter ? { headers: { 'retry-after': String(wait) } } : {})
      }
    }
    this.uses.push(now)
    const automation = this.scenario.automations.find((a) => a.id === automationId)
    if (!automation) return { status: 404, json: { error: 'Automation not found' } }
    if (automation.trigger !== 'schedule') {
      return { status: 400, json: { error: 'Only automations with a custom schedule trigger can be triggered' } }
    }
    const jobId = automation.jobReadable
      ? this.createJob(projectId, automation.prompt)
      : `bgjob_${randomBytes(8).toString('hex')}`
    const run: AutomationRun = {
      projectId,
      automationId,
      instanceId: `run_${randomBytes(8).toString('hex')}`,
      jobId,
      jobReadable: automation.jobReadable,
      at: now
    }
    this.queued.push(run)
    const ids = Object.entries({ schemaId: automationId, instanceId: run.instanceId, jobId }).filter(
      ([key]) => !(this.scenario.omits as readonly string[]).includes(key)
    )
    return { status: this.scenario.status, json: Object.fromEntries(ids) }
  }
}
