/**
 * A package's own commits between two releases: those that touch its directory, read with the
 * commits API's `path` from the tag down to the previous release. Compare lists at most 250
 * commits of a range; this lists every one of the package's, however long the range.
 */
import type { Commit } from '../client.js'

/** Commit pages read at most per package, the previous release's one among them. */
export const COMMIT_PAGES = 5
/** Commits a page holds: the API's most. */
export const PAGE_SIZE = 100

export interface OwnCommits {
  /** Newest first, as the API lists them. */
  commits: Commit[]
  /** Whether they are all of the range's: the previous release was reached, or the history ended. */
  complete: boolean
}

/** `page(ref, number, size)`: one page of the commits reachable from `ref` that touch the directory; undefined when it failed. */
export type PathPage = (ref: string, number: number, size: number) => Promise<Commit[] | undefined>

/**
 * The commits reachable from `tag` and not from `previous` that touch the directory. The newest
 * such commit at `previous` marks where the range ends: it is read with the first page, and the
 * pages stop where it appears. (A commit of the range dated before it, merged from an old branch,
 * is not reached: GitHub lists by date.) Undefined when a read failed.
 */
export async function listOwnCommits(tag: string, previous: string, page: PathPage): Promise<OwnCommits | undefined> {
  const [boundary, first] = await Promise.all([page(previous, 1, 1), page(tag, 1, PAGE_SIZE)])
  if (!boundary || !first) return undefined
  const stop = boundary[0]?.sha
  const commits: Commit[] = []
  let current: Commit[] = first
  for (let number = 1; ; number++) {
    const end = current.findIndex((commit) => commit.sha === stop)
    commits.push(...(end < 0 ? current : current.slice(0, end)))
    if (end >= 0 || current.length < PAGE_SIZE) return { commits, complete: true }
    // The previous release's page counts among the COMMIT_PAGES.
    if (number + 1 >= COMMIT_PAGES) return { commits, complete: false }
    const next = await page(tag, number + 1, PAGE_SIZE)
    if (!next) return undefined
    current = next
  }
}
