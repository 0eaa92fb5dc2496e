/**
 * A pull request's changed files: the first page for the context, and, when the skip rules judge
 * them, every page up to the 3,000 GitHub lists, so that none is judged on a part of its files.
 */
import type { ChangedFile } from '../changed-file.js'
import type { Trigger } from '../event.js'
import { formatCount } from '../../base/text.js'
import { PULL_FILES_LIMIT, pathsOf, unlisted, type ChangedFiles } from './changed.js'
import type { Read } from './reading.js'

/** Files a page holds: the API's most. */
export const PULL_FILES_PAGE = 100

/** The files read, and the list the skip rules judge. */
export interface PullFiles {
  /** Undefined when the first page could not be read. */
  files: ChangedFile[] | undefined
  changed: ChangedFiles
}

type PullTrigger = Extract<Trigger, { kind: 'pull-request' }>

/** The first page; with `all`, the pages after it as long as there may be more. */
export async function readPullFiles(trigger: PullTrigger, read: Read, all: boolean): Promise<PullFiles> {
  const of = `pull request #${trigger.number}`
  const page = (n: number): Promise<ChangedFile[] | undefined> =>
    read(
      n === 1 ? `the changed files of ${of}` : `page ${n} of the changed files of ${of}`,
      '`pull-requests: read`',
      (r) => r.pullFiles(trigger.number, n)
    )
  const first = await page(1)
  if (!first) return { files: undefined, changed: unlisted(of, 'they could not be read') }
  const files = [...first]
  const total = trigger.changedFiles
  let last = first
  for (let n = 2; all && more(last) && files.length < PULL_FILES_LIMIT; n++) {
    const next = await page(n)
    if (!next) return { files, changed: unlisted(of, `page ${n} of them could not be read`) }
    files.push(...next)
    last = next
  }
  return { files, changed: { of, paths: pathsOf(files), incomplete: shortOf(files.length, last, total) } }
}

/**
 * Whether a page after `last` may hold files: it was full. The payload's count is the event's, and a
 * re-run reads the files of the pull request as it is now: a full page is never taken as the last.
 */
function more(last: readonly ChangedFile[]): boolean {
  return last.length === PULL_FILES_PAGE
}

/** Why `read` files may not be all of them; undefined when they are. */
function shortOf(read: number, last: readonly ChangedFile[], total: number | undefined): string | undefined {
  const counted = total ?? 0
  if (counted > PULL_FILES_LIMIT) {
    return `GitHub lists at most ${formatCount(PULL_FILES_LIMIT)} files of a pull request, and it changes ${formatCount(counted)}`
  }
  // The list is read to a short page, or to GitHub's most: then the event's count is all there is to go by.
  if (read >= (total ?? Infinity) || (!more(last) && total === undefined)) return undefined
  return read >= PULL_FILES_LIMIT
    ? `GitHub lists at most ${formatCount(PULL_FILES_LIMIT)} files of a pull request, and the event gives no total`
    : `only ${formatCount(read)} of them were read`
}
