/**
 * Mintlify's Automations: `POST /v1/workflow/{projectId}/{automationId}/trigger` queues a run of an
 * automation whose trigger is a custom schedule. The trigger is a write with no documented
 * idempotency (a second run costs credits and opens a second pull request), so it is sent again only
 * after a 429, which certainly did nothing.
 */
import { requestTimeout, type Clock } from '../base/clock.js'
import { formatDuration } from '../base/duration.js'
import type { CallOptions } from './call.js'
import { ApiError, mayHaveTakenEffect } from './errors.js'

/**
 * A trigger's answer: the automation, the queued run and the job that processes it. The answer's
 * schema (mintlify/docs openapi.json, the trigger's 202) requires none of the three: the job is what
 * the step follows, so only it must be named.
 */
export interface AutomationRun {
  /** `schemaId`: the automation, when the answer names it. */
  schemaId?: string
  /** `instanceId`: the run, listed on the dashboard's Automation Runs page, when the answer names it. */
  instanceId?: string | undefined
  /** `jobId`: the background job that processes the run. */
  jobId: string
}

/** The trigger as the step uses it; every failure is an `ApiError` or `Cancelled`. */
export interface AutomationApi {
  triggerAutomation(automationId: string, call: CallOptions): Promise<AutomationRun>
}

/** Requests in all when each is answered 429 (the first and two more). */
export const TRIGGER_ATTEMPTS = 3
/**
 * After a 429 without Retry-After: the documented window, 10 requests per 10 seconds per
 * organization (mintlify.com/docs/api/automations/trigger, "Rate limits").
 */
export const TRIGGER_RATE_WAIT_MS = 10_000

/**
 * The 429 the trigger gave up on. `outlastsTimeout`: it stopped because waiting for the limit would
 * pass `timeout` (a longer one would have sent it again), not because its attempts were spent.
 */
export class TriggerRateLimited extends ApiError {
  constructor(
    error: ApiError,
    message: string,
    readonly outlastsTimeout: boolean
  ) {
    super(error.kind, message, error.status, error.retryAfterMs)
  }
}

export interface TriggerOptions {
  clock: Clock
  signal: AbortSignal
  /** Epoch ms by which the step must end: a wait for the limit that does not fit is not made. */
  deadline: number
  /** Told before each wait for the limit. */
  onRateLimited(error: ApiError, waitMs: number, attempt: number): void
}

/** Sends the trigger; after a 429, waits Retry-After (or the 10 s window) and sends it again, at most twice. */
export async function triggerOnce(
  api: AutomationApi,
  automationId: string,
  options: TriggerOptions
): Promise<AutomationRun> {
  const { clock, signal, deadline } = options
  const started = clock.now()
  for (let attempt = 1; ; attempt++) {
    try {
      return await api.triggerAutomation(automationId, { timeoutMs: requestTimeout(deadline, clock.now()), signal })
    } catch (error) {
      if (!(error instanceof ApiError) || error.kind !== 'rate-limited') throw error
      const waitMs = error.retryAfterMs ?? TRIGGER_RATE_WAIT_MS
      if (attempt >= TRIGGER_ATTEMPTS || clock.now() + waitMs >= deadline) {
        const tried = attempt > 1 ? `; ${attempt} attempts over ${formatDuration(clock.now() - started)}` : ''
        const left = attempt < TRIGGER_ATTEMPTS ? `; waiting ${formatDuration(waitMs)} for it would pass timeout` : ''
        throw new TriggerRateLimited(error, `${error.message}${tried}${left}`, attempt < TRIGGER_ATTEMPTS)
      }
      options.onRateLimited(error, waitMs, attempt)
      await clock.sleep(waitMs, signal)
    }
  }
}

/**
 * Whether a trigger that failed this way may have queued a run: any answer but a refusal, or none.
 * Unlike a job's create, a 503 counts: nothing documents that the service did not act on it.
 */
export function triggerMayHaveActed(error: ApiError): boolean {
  return error.kind === 'unavailable' || mayHaveTakenEffect(error)
}

/** A trigger's answer from parsed JSON: the ids that are non-empty strings; undefined when not an object. */
export function parseAutomationRun(json: unknown): Partial<AutomationRun> | undefined {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined
  const record = json as Record<string, unknown>
  const run: Partial<AutomationRun> = {}
  for (const key of ['schemaId', 'instanceId', 'jobId'] as const) {
    const value = record[key]
    if (typeof value === 'string' && value !== '') run[key] = value
  }
  return run
}

/** The run of a parsed answer that names its job, or a `bad-response` naming the ids it lacks. */
export function identifiedRun(run: Partial<AutomationRun>): AutomationRun {
  if (run.jobId === undefined) {
    const missing = (['instanceId', 'jobId'] as const).filter((key) => run[key] === undefined)
    throw new ApiError('bad-response', `answered without ${missing.join(' or ')}`)
  }
  return { ...run, jobId: run.jobId }
}
