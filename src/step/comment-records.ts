/**
 * The records kept in the link-back comment: the re-run record on triggers whose Actions cache is
 * read-only, and the command the step handled.
 */
import { errorMessage } from '../base/error-message.js'
import { markdownLink } from '../github/conversation/markdown.js'
import { commentBody, type HandledCommand } from '../github/conversation/marker.js'
import type { LinkBackThread } from '../github/conversation/thread.js'
import type { RecordStore } from '../rerun/record.js'
import type { Settings } from './settings.js'

/**
 * The re-run record in the link-back comment, for triggers whose Actions cache is read-only: a
 * re-run reads the job from it and resumes instead of creating or messaging again. The marker holds
 * the record's key, which is the record itself, sealed (rerun/record.ts), as in the cache.
 */
export function commentRecords(
  thread: LinkBackThread,
  runUrl: string | undefined,
  command: HandledCommand | undefined
): RecordStore {
  return {
    available: true,
    lookup: async (prefix) => {
      try {
        const key = (await thread.marker())?.record
        return typeof key === 'string' && key.startsWith(prefix) ? { kind: 'found', key } : { kind: 'missing' }
      } catch (error) {
        return { kind: 'failed', message: errorMessage(error) }
      }
    },
    save: async (key) => {
      try {
        const lines = ['**Docs agent:** working on the job; this comment is updated when the step ends.']
        if (runUrl) lines.push('', markdownLink('workflow run', runUrl))
        await thread.update((previous) => commentBody(lines, { job: previous?.job, record: key, command }))
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
