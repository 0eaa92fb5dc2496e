/**
 * A package's own commits between two releases: those that touch its directory, read with the
 * commits API's `path` from the tag down to the previous release. Compare lists at most 250
 * commits of a range; this lists every one of the package's, however long the range.
 */
import type { Commit } from '../commit.js'

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
 * The commits reachable from `tag` and not from `previous` that touch the directory: the tag's
 * pages less the previous release's first page, read at once with the tag's first. GitHub lists by
 * date, so a commit merged from an older branch sits among the previous release's: a page holding
 * any of those is the last read, and the previous release's page, covering the same dates, tells
 * the two apart. Undefined when a read failed.
 */
export async function listOwnCommits(tag: string, previous: string, page: PathPage): Promise<OwnCommits | undefined> {
  const [before, first] = await Promise.all([page(previous, 1, PAGE_SIZE), page(tag, 1, PAGE_SIZE)])
  if (!before || !first) return undefined
  const old = new Set(before.map((commit) => commit.sha))
  const commits: Commit[] = []
  let current: Commit[] = first
  for (let number = 1; ; number++) {
    commits.push(...current.filter((commit) => !old.has(commit.sha)))
    if (current.length < PAGE_SIZE || current.some((commit) => old.has(commit.sha))) return { commits, complete: true }
    // The previous release's page counts among the COMMIT_PAGES.
    if (number + 1 >= COMMIT_PAGES) return { commits, complete: false }
    const next = await page(tag, number + 1, PAGE_SIZE)
    if (!next) return undefined
    current = next
  }
}
