/**
 * The group's record: which docs pull request and job a group of runs shares, what fed it, and the
 * last commit it documented. It lives in a hidden marker of the action's comment on that docs pull
 * request, sealed with an HMAC keyed from the API key and bound to the group, the workflow's
 * repository, the project and the docs pull request: a copy pasted elsewhere, an edit, or a record
 * made with another API key does not verify.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto'

/** What a run that added to the docs pull request came from. */
export interface GroupSource {
  kind: 'pull-request' | 'release' | 'push' | 'schedule' | 'manual' | 'other'
  /** Short and plain: `acme/app#41`, `v1.2.0`, `main @ 1a2b3c4`. */
  label: string
  /** The source on GitHub, when it has a page. */
  url?: string | undefined
  /** The workflow run that added it. */
  run?: string | undefined
  /** Whether that run started the job or sent it a follow-up. */
  via: 'created' | 'follow-up'
}

/** Who the record belongs to: each field must match for it to be followed. */
export interface GroupKey {
  group: string
  /** `owner/name` of the workflow's repository. */
  repository: string
  projectId: string
  /** `owner/name` of the docs repository. */
  docsRepository: string
}

export interface GroupRecord {
  /** The docs pull request the record is on. */
  pr: number
  job: string
  /** Oldest first, the newest `MAX_SOURCES` of them. */
  sources: GroupSource[]
  /** Sources dropped from the front to keep the record bounded. */
  earlier: number
  /** The last commit of the workflow's default branch documented (push and schedule runs). */
  last?: string | undefined
  /** A later docs pull request of the group that took over: this record is not followed any more. */
  supersededBy?: number | undefined
  /** A run gave the group's job text written by someone without write access: never merged at once. */
  untrusted?: true | undefined
}

/** The record keeps this many sources; older ones are counted. */
export const MAX_SOURCES = 50
const MARKER = /<!-- docs-agent-action:group ([A-Za-z0-9_-]+)\.([0-9a-f]{32}) -->/
const SOURCE_KINDS: readonly GroupSource['kind'][] = ['pull-request', 'release', 'push', 'schedule', 'manual', 'other']

/** The MAC key: derived from the API key, so neither the key nor anything that reveals it is stored. */
function macKey(apiKey: string): Buffer {
  return Buffer.from(hkdfSync('sha256', apiKey, '', 'docs-agent-action group record v1', 32))
}

const mac = (apiKey: string, text: string): string =>
  createHmac('sha256', macKey(apiKey)).update(text).digest('hex').slice(0, 32)

/** The record as a hidden marker, sealed for `key` and bound to its pull request. */
export function sealGroupRecord(apiKey: string, key: GroupKey, record: GroupRecord): string {
  const payload = Buffer.from(JSON.stringify({ v: 1, ...key, ...record })).toString('base64url')
  return `<!-- docs-agent-action:group ${payload}.${mac(apiKey, payload)} -->`
}

/** Whether `body` holds a group's record: the group's comment, which only the group's runs write. */
export function holdsGroupRecord(body: string): boolean {
  return MARKER.test(body)
}

export type Opened =
  | { kind: 'found'; record: GroupRecord; group: string }
  /** No group marker in the text. */
  | { kind: 'none' }
  /** A marker that is not this group's record on this pull request: the reason says why. */
  | { kind: 'rejected'; reason: string }

/**
 * The record in `body`, if it is `key`'s and sealed with this API key for pull request `pr`; without
 * `key.group`, of whichever group it names.
 */
export function openGroupRecord(
  apiKey: string,
  key: Omit<GroupKey, 'group'> & { group?: string | undefined },
  pr: number,
  body: string
): Opened {
  const match = MARKER.exec(body)
  if (!match) return { kind: 'none' }
  const [, payload = '', tag = ''] = match
  if (!timingSafeEqual(Buffer.from(mac(apiKey, payload)), Buffer.from(tag)))
    return { kind: 'rejected', reason: 'its seal does not verify with this api-key' }
  const json = parseObject(Buffer.from(payload, 'base64url').toString('utf8'))
  if (!json || json.v !== 1) return { kind: 'rejected', reason: 'it is not a record this version reads' }
  for (const field of ['group', 'repository', 'projectId', 'docsRepository'] as const) {
    if (field === 'group' && key.group === undefined && typeof json.group === 'string') continue
    if (json[field] !== key[field]) return { kind: 'rejected', reason: `it is for another ${FIELD_NAMES[field]}` }
  }
  if (json.pr !== pr) return { kind: 'rejected', reason: 'it was written for another pull request' }
  if (typeof json.job !== 'string' || json.job === '') return { kind: 'rejected', reason: 'it names no job' }
  return {
    kind: 'found',
    group: String(json.group),
    record: {
      pr,
      job: json.job,
      sources: Array.isArray(json.sources) ? json.sources.flatMap(source) : [],
      earlier: typeof json.earlier === 'number' ? json.earlier : 0,
      last: typeof json.last === 'string' ? json.last : undefined,
      supersededBy: typeof json.supersededBy === 'number' ? json.supersededBy : undefined,
      untrusted: json.untrusted === true ? true : undefined
    }
  }
}

const FIELD_NAMES = {
  group: 'group',
  repository: 'workflow repository',
  projectId: 'project',
  docsRepository: 'docs repository'
} as const

/** `record` with `added` at the end, the oldest dropped (and counted) beyond `MAX_SOURCES`. */
export function withSource(record: GroupRecord, added: GroupSource): GroupRecord {
  const sources = [...record.sources, added]
  const dropped = Math.max(0, sources.length - MAX_SOURCES)
  return { ...record, sources: sources.slice(dropped), earlier: record.earlier + dropped }
}

/**
 * The record as it is `now`, written meanwhile by another run of the group, with what this run
 * `read` before kept: a source only `read` holds (unless the cap dropped it since), its outsider mark.
 */
export function mergeRecords(read: GroupRecord, now: GroupRecord): GroupRecord {
  const same = (a: GroupSource, b: GroupSource): boolean => a.label === b.label && a.run === b.run
  // The oldest of `read`'s sources the cap dropped from `now` are counted in its `earlier` already.
  const kept = read.sources.slice(Math.max(0, now.earlier - read.earlier))
  const sources = [...kept, ...now.sources.filter((n) => !kept.some((s) => same(s, n)))]
  const dropped = Math.max(0, sources.length - MAX_SOURCES)
  return {
    ...now,
    sources: sources.slice(dropped),
    earlier: now.earlier + dropped,
    untrusted: read.untrusted || now.untrusted ? true : undefined
  }
}

function source(value: unknown): GroupSource[] {
  if (typeof value !== 'object' || value === null) return []
  const { kind, label, url, run, via } = value as Record<string, unknown>
  if (!SOURCE_KINDS.includes(kind as GroupSource['kind']) || typeof label !== 'string') return []
  return [
    {
      kind: kind as GroupSource['kind'],
      label,
      url: typeof url === 'string' ? url : undefined,
      run: typeof run === 'string' ? run : undefined,
      via: via === 'follow-up' ? 'follow-up' : 'created'
    }
  ]
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const json: unknown = JSON.parse(text)
    return typeof json === 'object' && json !== null && !Array.isArray(json)
      ? (json as Record<string, unknown>)
      : undefined
  } catch {
    return undefined
  }
}
