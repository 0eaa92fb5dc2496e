/**
 * Re-runs: "Re-run jobs" runs this step again in the same workflow run. A small record saved right
 * after the create or message answer lets a later attempt find the job instead of creating
 * another (a second job, a second pull request, one more of the project's 100 uses an hour).
 *
 * The record lives in the cache key itself, never in an archive: whoever can write the cache scope
 * could plant an archive, and a key is read without extracting anything. The key is bound to the
 * step (run, job, step, matrix leg, project, request) and authenticated with an HMAC keyed from the
 * API key, so a planted or copied record does not verify.
 */
import { timingSafeEqual } from 'node:crypto'
import { derivedKey, mac } from '../base/mac.js'

/** What an attempt remembers of its job. */
export interface RerunRecord {
  /** The job; undefined when a create left but its answer was lost (see `mayHaveActed`). */
  jobId: string | undefined
  /** `GITHUB_RUN_ATTEMPT` of the attempt that created or messaged the job. */
  attempt: number
  /** Epoch ms when its create or message was answered (or, when it was lost, given up on). */
  answeredAt: number
  /** The request left but no usable answer came: it may have taken effect, so no attempt posts again. */
  mayHaveActed: boolean
  /** The prompt that attempt sent (context included), fingerprinted: a re-run shows it only if it builds the same. */
  prompt: string
  /** A follow-up's answer, fingerprinted (`jobFingerprint`), so a resumed wait still tells a stale read from its result. */
  answer: string | undefined
  /** An automation's run (`instanceId`) that the trigger queued, with its job in `jobId`. */
  automationRun?: string | undefined
  /** The job carries text written by someone without write access (step/outsider.ts). */
  outsider?: boolean | undefined
  /** `docs-checks: fix` sent its one follow-up to the job (`answer` is its answer): never sent again. */
  docsFix?: boolean | undefined
}

export type Restored =
  | { kind: 'found'; record: RerunRecord }
  | { kind: 'missing' }
  /** A key under this step's prefix that is not a record this step wrote: the reason says why. */
  | { kind: 'rejected'; reason: string }
  /** The service could not be read: the message says why. */
  | { kind: 'failed'; message: string }

export type Lookup = { kind: 'found'; key: string } | { kind: 'missing' } | { kind: 'failed'; message: string }

export type Saved =
  | { kind: 'saved' }
  /** The cache is read-only for this run (`pull_request_target`, `issue_comment`): a policy, not a fault. */
  | { kind: 'read-only'; message: string }
  | { kind: 'failed'; message: string }

/** Where record keys live: the Actions cache service in the action, a list in tests. */
export interface RecordStore {
  /** Whether a service is there (the runner provides one; local runs have none). */
  readonly available: boolean
  /** The newest key starting with `prefix`, looked up only: nothing is downloaded. Never throws. */
  lookup(prefix: string): Promise<Lookup>
  /** Makes an entry under `key` (its content is of no account). Never throws. */
  save(key: string): Promise<Saved>
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

/** What of the step's settings names it (the request, the project, the matrix leg) and keys its records. */
export type RecordedStep = { projectId: string; rerunKey: string; apiKey: string } & (
  | { mode: 'create'; prompt: string }
  | { mode: 'message'; jobId: string; prompt: string }
  | { mode: 'wait-only'; jobId: string }
  | { mode: 'automation'; automationId: string }
)

/** The longest key @actions/cache accepts. */
export const MAX_KEY_LENGTH = 512
const NAMESPACE = 'docs-agent-rerun-'
// Lower-case hex and digits only, `-` between fields: nothing a key may not hold (a comma), nothing
// a service could fold (case). An automation's run comes after the job, only when there is one. The
// third field is flags: 1, the request may have acted; 2, the job carries an outsider's text.
const FIELDS =
  /^(\d{1,9})-(\d{1,15})-([0-7])-([0-9a-f]{16})-((?:[0-9a-f]{16})?)-((?:[0-9a-f]{2})*)(?:-((?:[0-9a-f]{2})+))?-([0-9a-f]{32})$/

/** The MAC key: derived from the API key, so neither the key nor anything that reveals it is stored. */
const macKey = (apiKey: string): Buffer => derivedKey(apiKey, 'docs-agent-action re-run record v1')

/**
 * The prefix every attempt of this step saves under: the same run, job, matrix leg (`rerun-key`),
 * step and project, and the same request (mode, job id, the prompt as the user gave it). Keyed, so
 * that the cache's key list says nothing about the prompt.
 */
export function recordPrefix(identity: RunIdentity, step: RecordedStep): string {
  const request =
    step.mode === 'create'
      ? [step.mode, '', step.prompt]
      : step.mode === 'message'
        ? [step.mode, step.jobId, step.prompt]
        : step.mode === 'automation'
          ? [step.mode, step.automationId, '']
          : [step.mode, step.jobId, '']
  const binding = ['step', identity.runId, identity.job, identity.action, step.rerunKey, step.projectId, ...request]
  return `${NAMESPACE}${mac(macKey(step.apiKey), JSON.stringify(binding)).slice(0, 40)}-`
}

/** The prefix a record's key was saved under: the same for every attempt of one run's step and request. */
export const prefixOf = (key: string): string => key.slice(0, NAMESPACE.length + 41)

/** The record as a key under this step's prefix, authenticated; undefined when it does not fit. */
export function sealRecord(identity: RunIdentity, step: RecordedStep, record: RerunRecord): string | undefined {
  const fields = [
    record.attempt,
    record.answeredAt,
    // Flags: 1 the answer was lost, 2 an outsider's text, 4 the docs checks' follow-up was sent (older records hold 0 or 1).
    (record.mayHaveActed ? 1 : 0) + (record.outsider ? 2 : 0) + (record.docsFix ? 4 : 0),
    record.prompt,
    record.answer ?? '',
    Buffer.from(record.jobId ?? '', 'utf8').toString('hex'),
    ...(record.automationRun ? [Buffer.from(record.automationRun, 'utf8').toString('hex')] : [])
  ]
  const body = `${recordPrefix(identity, step)}${fields.join('-')}`
  const key = `${body}-${mac(macKey(step.apiKey), body).slice(0, 32)}`
  return key.length <= MAX_KEY_LENGTH ? key : undefined
}

/** The record a key found under this step's prefix holds, if this step wrote it in an earlier attempt. */
export function openRecord(identity: RunIdentity, step: RecordedStep, key: string): Restored {
  const prefix = recordPrefix(identity, step)
  const fields = key.startsWith(prefix) ? FIELDS.exec(key.slice(prefix.length)) : null
  if (!fields) return { kind: 'rejected', reason: 'not a record of this step' }
  const [, attempt = '', answeredAt = '', flags = '0', prompt = '', answer, job = '', run, tag = ''] = fields
  const expected = Buffer.from(mac(macKey(step.apiKey), key.slice(0, -tag.length - 1)).slice(0, 32))
  if (!timingSafeEqual(expected, Buffer.from(tag))) return { kind: 'rejected', reason: 'its signature is wrong' }
  return {
    kind: 'found',
    record: {
      jobId: Buffer.from(job, 'hex').toString('utf8') || undefined,
      attempt: Number(attempt),
      answeredAt: Number(answeredAt),
      mayHaveActed: (Number(flags) & 1) === 1,
      ...((Number(flags) & 2) === 2 ? { outsider: true } : {}),
      ...((Number(flags) & 4) === 4 ? { docsFix: true } : {}),
      prompt,
      answer: answer || undefined,
      ...(run ? { automationRun: Buffer.from(run, 'hex').toString('utf8') } : {})
    }
  }
}

/** The newest record of an earlier attempt of this step. Never throws. */
export async function restoreRecord(store: RecordStore, identity: RunIdentity, step: RecordedStep): Promise<Restored> {
  const found = await store.lookup(recordPrefix(identity, step))
  return found.kind === 'found' ? openRecord(identity, step, found.key) : found
}

/** Saves this attempt's record. Never throws. */
export async function saveRecord(
  store: RecordStore,
  identity: RunIdentity,
  step: RecordedStep,
  record: RerunRecord
): Promise<Saved> {
  const key = sealRecord(identity, step, record)
  return key === undefined
    ? { kind: 'failed', message: 'the job id is too long to keep in a cache key' }
    : store.save(key)
}
