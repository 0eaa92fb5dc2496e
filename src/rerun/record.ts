/**
 * Re-runs: "Re-run jobs" runs this step again in the same workflow run. A small record saved right
 * after the create or message answer lets a later attempt find the job instead of creating
 * another (a second job, a second pull request, one more of the project's 100 uses an hour).
 */
import { createHash } from 'node:crypto'

/** What an attempt remembers of its job. */
export interface RerunRecord {
  /** The job; undefined when a create left but its answer was lost (see `mayHaveActed`). */
  jobId: string | undefined
  /** `GITHUB_RUN_ATTEMPT` of the attempt that created or messaged the job. */
  attempt: number
  /** Epoch ms when its create or message was answered (or, when it was lost, given up on). */
  answeredAt: number
  /** The prompt that attempt sent (context included), for the outputs and summary of a resume. */
  prompt: string
  /** What the context held, if any. */
  context: { description: string; text: string } | undefined
  /** The request left but no usable answer came: it may have taken effect, so no attempt posts again. */
  mayHaveActed: boolean
  /** A follow-up's answer (the job record as sent), so a resumed wait still tells a stale read from its result. */
  answer: Record<string, unknown> | undefined
}

export type Restored =
  | { kind: 'found'; record: RerunRecord }
  | { kind: 'missing' }
  /** The service could not be read: the message says why. */
  | { kind: 'failed'; message: string }

/** Where records live: the Actions cache service in the action, a map in tests. */
export interface RecordStore {
  /** Whether a service is there (the runner provides one; local runs have none). */
  readonly available: boolean
  /** The newest record saved under a key starting with `prefix`. Never throws. */
  restore(prefix: string): Promise<Restored>
  /** Saves under `key`; resolves to a failure message, or undefined when saved. Never throws. */
  save(key: string, record: RerunRecord): Promise<string | undefined>
}

/** The run this step belongs to, from the runner's variables. */
export interface RunIdentity {
  /** `GITHUB_RUN_ID`: the same in every attempt. */
  runId: string
  /** `GITHUB_RUN_ATTEMPT`: 1, then 2, 3… on re-runs. */
  attempt: number
  /** `GITHUB_JOB`: the job's id in the workflow. */
  job: string
  /** `GITHUB_ACTION`: the step's id (or the runner's name for it). */
  action: string
}

export function runIdentity(env: Record<string, string | undefined>): RunIdentity | undefined {
  const attempt = Number(env.GITHUB_RUN_ATTEMPT ?? '1')
  if (!env.GITHUB_RUN_ID || !Number.isInteger(attempt) || attempt < 1) return undefined
  return { runId: env.GITHUB_RUN_ID, attempt, job: env.GITHUB_JOB ?? '', action: env.GITHUB_ACTION ?? '' }
}

/** What of the step's settings names it: the request, the project and the matrix leg. */
export type RecordedStep = { projectId: string; rerunKey: string } & (
  | { mode: 'create'; prompt: string }
  | { mode: 'message'; jobId: string; prompt: string }
  | { mode: 'wait-only'; jobId: string }
)

/**
 * The cache keys of this step's records. The same step means the same run, job, matrix leg
 * (`rerun-key`), step and project, and the same request: mode, job id and the prompt as the user
 * gave it. Keys are immutable, so each attempt saves under its own; a later one restores by prefix.
 */
export function recordKeys(identity: RunIdentity, settings: RecordedStep): { prefix: string; key: string } {
  const request =
    settings.mode === 'create'
      ? [settings.mode, '', settings.prompt]
      : settings.mode === 'message'
        ? [settings.mode, settings.jobId, settings.prompt]
        : [settings.mode, settings.jobId, '']
  const step = [identity.runId, identity.job, identity.action, settings.rerunKey, settings.projectId, ...request]
  const hash = createHash('sha256').update(JSON.stringify(step)).digest('hex').slice(0, 40)
  const prefix = `docs-agent-rerun-${hash}-attempt-`
  return { prefix, key: `${prefix}${identity.attempt}` }
}

/** A record read back from the service; undefined when it is not one of ours. */
export function parseRecord(text: string): RerunRecord | undefined {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return undefined
  }
  if (typeof json !== 'object' || json === null) return undefined
  const { jobId, attempt, answeredAt, prompt, context, mayHaveActed, answer } = json as Record<string, unknown>
  const lost = mayHaveActed === true
  if ((typeof jobId !== 'string' || !jobId) && !lost) return undefined
  if (typeof attempt !== 'number' || typeof answeredAt !== 'number') return undefined
  const ctx = context as { description?: unknown; text?: unknown } | undefined
  return {
    jobId: typeof jobId === 'string' && jobId ? jobId : undefined,
    attempt,
    answeredAt,
    prompt: typeof prompt === 'string' ? prompt : '',
    context:
      typeof ctx?.description === 'string' && typeof ctx.text === 'string'
        ? { description: ctx.description, text: ctx.text }
        : undefined,
    mayHaveActed: lost,
    answer:
      typeof answer === 'object' && answer !== null && !Array.isArray(answer)
        ? (answer as Record<string, unknown>)
        : undefined
  }
}
