/**
 * Finding a group's docs pull request from any event and any ref: the open pull requests of the
 * docs repository, newest first, and in each the comments of the action's own identity, until one
 * holds the group's record sealed with this API key for that very pull request. A record in anyone
 * else's comment (a pasted copy) is ignored, as is one that does not verify. The newest open pull
 * request with the record wins; an older one was marked superseded when the newer one took over.
 */
import { inline } from '../../base/text.js'
import type { IssueComment } from '../conversation/marker.js'
import { unreachable } from '../unreachable.js'
import { openGroupRecord, type GroupKey, type GroupRecord } from './record.js'

/** An open pull request of the docs repository. */
export interface DocsPull {
  number: number
  url: string
  /** Its head branch. */
  head: string
}

/** The reads of the docs repository the search makes. Each throws the Octokit error on failure. */
export interface DocsReads {
  /** Open pull requests, newest first, at most the first page of 100. */
  openPulls(): Promise<DocsPull[]>
  /** Every comment of pull request `number`. */
  comments(number: number): Promise<IssueComment[]>
  /** The login the token writes as. */
  identity(): Promise<string>
  /** The requests the open pull requests and comments reads sent: every try and every page. */
  requests(): number
}

export type Finding =
  | { kind: 'found'; pull: DocsPull; record: GroupRecord; commentId: number; ignored: string[]; requests: number }
  /** `unread`: open pull requests listed past the `MAX_SCANNED` newest, whose comments were not read. */
  | { kind: 'none'; scanned: number; unread: number; ignored: string[]; requests: number }
  /** GitHub could not be read: the state of the group's pull request is unknown; `network` when not reached at all. */
  | { kind: 'unreadable'; message: string; network: boolean; requests: number }

/** Open pull requests whose comments are read, newest first: a group's own is among the newest. */
export const MAX_SCANNED = 30

/** The group's newest open docs pull request; `skip` (a run's own new one) is not read. */
export async function findGroupPull(apiKey: string, key: GroupKey, reads: DocsReads, skip?: number): Promise<Finding> {
  const ignored: string[] = []
  try {
    const me = (await reads.identity()).toLowerCase()
    const listed = await reads.openPulls()
    const pulls = listed.slice(0, MAX_SCANNED).filter((pull) => pull.number !== skip)
    for (const pull of pulls) {
      const where = `${key.docsRepository}#${pull.number}`
      for (const comment of (await reads.comments(pull.number)).sort((a, b) => b.id - a.id)) {
        const opened = openGroupRecord(apiKey, key, pull.number, comment.body)
        if (opened.kind === 'none') continue
        if (comment.author.toLowerCase() !== me) {
          if (opened.kind === 'found') ignored.push(`a copy of the record by ${inline(comment.author, 60)} on ${where}`)
          continue
        }
        if (opened.kind === 'rejected') {
          // Other groups' records are expected; one sealed with another key is worth a word.
          if (opened.reason.includes('api-key')) ignored.push(`a record on ${where} (${opened.reason})`)
          continue
        }
        if (opened.record.supersededBy !== undefined) continue
        return {
          kind: 'found',
          pull,
          record: opened.record,
          commentId: comment.id,
          ignored,
          requests: reads.requests()
        }
      }
    }
    const unread = Math.max(0, listed.length - MAX_SCANNED)
    return { kind: 'none', scanned: pulls.length, unread, ignored, requests: reads.requests() }
  } catch (error) {
    const lost = unreachable(error)
    const status = (error as { status?: unknown }).status
    const message = error instanceof Error ? error.message : String(error)
    return {
      kind: 'unreadable',
      message: lost ?? `${typeof status === 'number' ? `HTTP ${status}: ` : ''}${inline(message, 200)}`,
      network: lost !== undefined,
      requests: reads.requests()
    }
  }
}
