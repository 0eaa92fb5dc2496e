/**
 * The records the action keeps in its own comments: a hidden marker (the job, the re-run record,
 * the last command handled) by which its comment is found again among those written by the
 * action's own identity. Pure: encoding, decoding, finding.
 */

const MARKER = /<!-- docs-agent-action:link-back ([A-Za-z0-9_-]*) -->/

/** What the marker of a link-back comment carries. */
export interface LinkMarker {
  /** The job the comment reports; later commands send their follow-ups to it. */
  job: string | undefined
  /** The re-run record (opaque here) on triggers whose Actions cache is read-only. */
  record?: unknown
  /** The last command handled: a re-run of its workflow run makes the same request again. */
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

/** The marker as hidden HTML: base64url, so no text in it can close the comment. */
export function encodeMarker(marker: LinkMarker): string {
  return `<!-- docs-agent-action:link-back ${Buffer.from(JSON.stringify(marker)).toString('base64url')} -->`
}

/** The marker of a comment body; undefined when it has none, or one that does not parse. */
export function decodeMarker(body: string): LinkMarker | undefined {
  const match = MARKER.exec(body)
  if (!match) return undefined
  try {
    const json: unknown = JSON.parse(Buffer.from(match[1] ?? '', 'base64url').toString('utf8'))
    if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined
    const { job, record, command } = json as Record<string, unknown>
    return { job: typeof job === 'string' && job ? job : undefined, record, command: handled(command) }
  } catch {
    return undefined
  }
}

function handled(value: unknown): HandledCommand | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const { id, kind, job } = value as Record<string, unknown>
  if (typeof id !== 'number' || (kind !== 'follow-up' && kind !== 'create')) return undefined
  return { id, kind, job: typeof job === 'string' ? job : undefined }
}

/**
 * The action's comments among `comments`, oldest first: those by `identity` with a marker. A
 * marker in anyone else's comment is ignored (it can be pasted to point at another job).
 */
export function ownComments(comments: readonly IssueComment[], identity: string): IssueComment[] {
  const me = identity.toLowerCase()
  return comments
    .filter((comment) => comment.author.toLowerCase() === me && decodeMarker(comment.body) !== undefined)
    .sort((a, b) => a.id - b.id)
}

/** The lines of a comment body, then its marker. */
export function commentBody(lines: readonly string[], marker: LinkMarker): string {
  return `${lines.join('\n')}\n\n${encodeMarker(marker)}`
}
