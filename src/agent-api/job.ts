import { fingerprint } from '../base/fingerprint.js'

/** The job statuses the API documents. */
export const JOB_STATUSES = ['active', 'completed', 'archived', 'failed'] as const
export type JobStatus = (typeof JOB_STATUSES)[number]
export type TerminalStatus = Exclude<JobStatus, 'active'>

/** A job record as the server sent it. Every field is optional in the API's schema. */
export interface AgentJob {
  id?: string
  /** Kept as sent: an unknown value is warned about, not rejected. */
  status?: string
  source?: { repository?: string; ref?: string }
  model?: string
  prLink?: string
  createdAt?: string
  archivedAt?: string
  /** The record as received, for the `job` output. */
  raw: Record<string, unknown>
}

/** A job as a create or message answer must carry it: with its id. */
export type IdentifiedJob = AgentJob & { id: string }

/** The record as sent, fingerprinted: a later read with the same fingerprint shows nothing new. */
export function jobFingerprint(job: AgentJob): string {
  return fingerprint(JSON.stringify(job.raw))
}

export function isKnownStatus(status: string | undefined): status is JobStatus {
  return (JOB_STATUSES as readonly (string | undefined)[]).includes(status)
}

export function isTerminal(status: string | undefined): status is TerminalStatus {
  return status === 'completed' || status === 'archived' || status === 'failed'
}

/**
 * Reads a job from parsed JSON: keeps the fields of the documented types and drops the rest,
 * so a null or a number where a string belongs is treated as missing. Undefined when the body
 * is not an object.
 */
export function parseJob(json: unknown): AgentJob | undefined {
  if (!isRecord(json)) return undefined
  const source = isRecord(json.source) ? json.source : {}
  const job: AgentJob = { raw: json }
  const fields = {
    id: text(json.id),
    status: text(json.status),
    model: text(json.model),
    prLink: text(json.prLink),
    createdAt: text(json.createdAt),
    archivedAt: text(json.archivedAt)
  }
  for (const [key, value] of Object.entries(fields)) {
    if (value !== undefined) job[key as keyof typeof fields] = value
  }
  const repository = text(source.repository)
  const ref = text(source.ref)
  if (repository !== undefined || ref !== undefined) {
    job.source = {}
    if (repository !== undefined) job.source.repository = repository
    if (ref !== undefined) job.source.ref = ref
  }
  return job
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined
}
