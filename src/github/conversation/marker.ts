/**
 * The records the action keeps in its own comments: a hidden marker (the job, the re-run records,
 * the last command handled) by which its comment is found again. The default token writes as
 * `github-actions[bot]`, which every workflow of the repository shares, so the marker is sealed
 * with a key derived from the API key and bound to its pull request: one that does not verify is
 * not the action's. Pure: encoding, decoding, finding.
 */
import { timingSafeEqual } from 'node:crypto'
import { derivedKey, mac } from '../../base/mac.js'
import { truncate } from '../../base/text.js'

const MARKER = /<!-- docs-agent-action:link-back ([A-Za-z0-9_-]*)\.([0-9a-f]{64}) -->/
/** How many runs' re-run records a marker keeps: a re-run of an older run still finds its own. */
export const MAX_RECORDS = 10

/** What the marker of a link-back comment carries. */
export interface LinkMarker {
  /** The job the comment reports; later commands send their follow-ups to it. */
  job: string | undefined
  /** The re-run records (sealed keys) of the last runs, oldest first, on triggers whose Actions cache is read-only. */
  records?: RunRecord[] | undefined
  /** The last command handled: a re-run of its workflow run makes the same request again. */
  command?: HandledCommand | undefined
  /** The job carries text written by someone without write access (step/outsider.ts): a follow-up inherits it. */
  outsider?: true | undefined
}

/** One run's re-run record, and the command that run handled. */
export interface RunRecord {
  key: string
  command?: HandledCommand | undefined
}

/** A command comment, and what it was turned into. */
export interface HandledCommand {
  /** The comment's (or review's) id. */
  id: number
  kind: 'follow-up' | 'create'
  /** The job a follow-up went to. */
  job?: string | undefined
}

/** A comment as the listing gives it. */
export interface IssueComment {
  id: number
  body: string
  /** Its author's login. */
  author: string
}

/** What a marker is sealed with: the key derived from the API key, and the pull request it is on. */
export interface MarkerSeal {
  key: Buffer
  repository: string
  number: number
}

export const markerKey = (apiKey: string): Buffer => derivedKey(apiKey, 'docs-agent-action link-back marker v1')

const tag = (seal: MarkerSeal, payload: string): string =>
  mac(seal.key, JSON.stringify([seal.repository.toLowerCase(), seal.number, payload]))

/** The marker as hidden HTML: base64url, so no text in it can close the comment, then its seal. */
export function encodeMarker(marker: LinkMarker, seal: MarkerSeal): string {
  const payload = Buffer.from(JSON.stringify(marker)).toString('base64url')
  return `<!-- docs-agent-action:link-back ${payload}.${tag(seal, payload)} -->`
}

/** The marker of a comment body; undefined when it has none, or one that does not verify or parse. */
export function decodeMarker(body: string, seal: MarkerSeal): LinkMarker | undefined {
  const match = MARKER.exec(body)
  if (!match) return undefined
  const [, payload = '', sealed = ''] = match
  if (!timingSafeEqual(Buffer.from(tag(seal, payload)), Buffer.from(sealed))) return undefined
  try {
    const json: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
    if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined
    const { job, records, command, outsider } = json as Record<string, unknown>
    return {
      job: typeof job === 'string' && job ? job : undefined,
      records: runRecords(records),
      command: handled(command),
      ...(outsider === true ? { outsider } : {})
    }
  } catch {
    return undefined
  }
}

function runRecords(value: unknown): RunRecord[] | undefined {
  if (!Array.isArray(value)) return undefined
  return value.flatMap((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null) return []
    const { key, command } = entry as Record<string, unknown>
    return typeof key === 'string' ? [{ key, command: handled(command) }] : []
  })
}

function handled(value: unknown): HandledCommand | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const { id, kind, job } = value as Record<string, unknown>
  if (typeof id !== 'number' || (kind !== 'follow-up' && kind !== 'create')) return undefined
  return { id, kind, job: typeof job === 'string' ? job : undefined }
}

/**
 * The action's comments among `comments`, oldest first: those by `identity` whose marker verifies.
 * A marker in anyone else's comment, or one not sealed with this key for this pull request, is ignored.
 */
export function ownComments(comments: readonly IssueComment[], identity: string, seal: MarkerSeal): IssueComment[] {
  const me = identity.toLowerCase()
  return comments
    .filter((comment) => comment.author.toLowerCase() === me && decodeMarker(comment.body, seal) !== undefined)
    .sort((a, b) => a.id - b.id)
}

/**
 * GitHub's limit on a comment's body: a longer one is refused whole ("Body is too long (maximum is
 * 65536 characters)", 422), and a refused link-back is not written again in the step.
 */
export const MAX_COMMENT_CHARS = 65_536

/** The lines of a comment body, cut to GitHub's limit, then its marker, which is never cut. */
export function commentBody(lines: readonly string[], marker: LinkMarker, seal: MarkerSeal): string {
  const sealed = encodeMarker(marker, seal)
  return `${truncate(lines.join('\n'), MAX_COMMENT_CHARS - sealed.length - 2)}\n\n${sealed}`
}

/** `body` with its marker replaced: what the comment says stays. */
export function remarked(body: string, marker: LinkMarker, seal: MarkerSeal): string {
  return body.replace(MARKER, () => encodeMarker(marker, seal))
}
