/**
 * The records kept in the link-back comment: the re-run record on triggers whose Actions cache is
 * read-only, and the command the step handled.
 */
import { errorMessage } from '../../base/error-message.js'
import { markdownLink } from '../../github/conversation/markdown.js'
import { commentBody, MAX_RECORDS, remarked, type HandledCommand } from '../../github/conversation/marker.js'
import type { LinkBackThread } from '../../github/conversation/thread.js'
import { prefixOf, type RecordStore } from '../../rerun/record.js'
import type { Settings } from '../settings.js'

/** The re-run records kept in the link-back comment, and whether the one found is not the latest run's. */
export interface CommentRecords extends RecordStore {
  /** A later run has recorded since the one this run resumes: this run reports, and leaves the comment alone. */
  readonly superseded: () => boolean
}

/**
 * The re-run records in the link-back comment, for triggers whose Actions cache is read-only: a
 * re-run reads the job from its own run's record and resumes instead of creating or messaging
 * again. The marker holds the last runs' keys, each the record itself, sealed (rerun/record.ts), as
 * in the cache, so a re-run of an older run finds its own too.
 */
export function commentRecords(
  thread: LinkBackThread,
  runUrl: string | undefined,
  command: HandledCommand | undefined
): CommentRecords {
  let superseded = false
  return {
    available: true,
    superseded: () => superseded,
    lookup: async (prefix) => {
      try {
        const records = (await thread.marker())?.records ?? []
        const at = records.findLastIndex((entry) => entry.key.startsWith(prefix))
        superseded = at >= 0 && at < records.length - 1
        const key = records[at]?.key
        return key === undefined ? { kind: 'missing' } : { kind: 'found', key }
      } catch (error) {
        return { kind: 'failed', message: errorMessage(error) }
      }
    },
    save: async (key) => {
      try {
        const lines = ['**Docs agent:** working on the job; this comment is updated when the step ends.']
        if (runUrl) lines.push('', markdownLink('workflow run', runUrl))
        await thread.update((previous, body) => {
          const kept = previous?.records ?? []
          const at = kept.findIndex((entry) => prefixOf(entry.key) === prefixOf(key))
          // An attempt replaces its run's record in place; a new run's comes last, the oldest goes.
          const records = at >= 0 ? kept.with(at, { key, command }) : [...kept, { key, command }].slice(-MAX_RECORDS)
          // What the comment says is the progress's (written with the record: progress.ts) or a later run's.
          if (body !== undefined) return remarked(body, { job: previous?.job, ...previous, records }, thread.seal)
          return commentBody(lines, { job: previous?.job, records, command }, thread.seal)
        })
        return { kind: 'saved' }
      } catch (error) {
        return { kind: 'failed', message: errorMessage(error) }
      }
    }
  }
}

/** What the marker remembers of the command that drove the step. */
export function handledCommand(settings: Settings): HandledCommand | undefined {
  const { command } = settings
  if (!command) return undefined
  return { id: command.id, kind: command.kind, job: settings.mode === 'message' ? settings.jobId : undefined }
}
