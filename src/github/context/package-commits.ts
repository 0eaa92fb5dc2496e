/**
 * A package's own commits between two releases: those that touch its directory, read with the
 * commits API's `path` from the tag down to the previous release. Compare lists at most 250
 * commits of a range; this lists every one of the package's, however long the range.
 */
import type { Commit } from '../commit.js'

/**
 * Commit pages read at most per package, the tag's and the previous release's: 8 requests at
 * worst, enough for 700 commits of the package, or for one merged from a branch a few pages down.
 */
export const COMMIT_PAGES = 8
/** Commits a page holds: the API's most. */
export const PAGE_SIZE = 100

export interface OwnCommits {
  /** Newest first, as the API lists them. */
  commits: Commit[]
  /** Whether they are all of the range's: a page held none of them, or the history ended. */
  complete: boolean
}

/** `page(ref, number, size)`: one page of the commits reachable from `ref` that touch the directory; undefined when it failed. */
export type PathPage = (ref: string, number: number, size: number) => Promise<Commit[] | undefined>

/**
 * The commits reachable from `tag` and not from `previous` that touch the directory: the tag's
 * pages less the previous release's. GitHub lists them newest first by date, an order its
 * documentation does not state further; so a commit merged from an older branch sits among the
 * previous release's, on any page. The tag's pages are read until one holds none of the range's
 * (one dated below a whole page of the previous release's is not looked for). Page n of them holds
 * at most n pages of the previous release's commits, less the range's found above it: those pages
 * are read with it, at once. A previous release on another branch has commits of its own that
 * shift its pages; `splitRange` tells those apart when compare lists the whole range. Stopped by
 * COMMIT_PAGES: not complete. Undefined when a read failed.
 */
export async function listOwnCommits(tag: string, previous: string, page: PathPage): Promise<OwnCommits | undefined> {
  const old = new Set<string>()
  const commits: Commit[] = []
  let previousPages = 0
  let previousEnded = false
  let reads = 0
  for (let number = 1; ; number++) {
    const needed = previousEnded ? 0 : Math.ceil((number * PAGE_SIZE - commits.length) / PAGE_SIZE) - previousPages
    const numbers = Array.from({ length: Math.max(0, needed) }, (_, i) => previousPages + 1 + i)
    // A page judged without the previous release's pages it may hold could list theirs as new.
    if (reads + numbers.length + 1 > COMMIT_PAGES) return { commits, complete: false }
    reads += numbers.length + 1
    const [before, current] = await Promise.all([
      Promise.all(numbers.map((n) => page(previous, n, PAGE_SIZE))),
      page(tag, number, PAGE_SIZE)
    ])
    const lists = before.filter((list) => list !== undefined)
    if (!current || lists.length < before.length) return undefined
    for (const list of lists) {
      for (const commit of list) old.add(commit.sha)
      if (list.length < PAGE_SIZE) previousEnded = true
    }
    previousPages += numbers.length
    const fresh = current.filter((commit) => !old.has(commit.sha))
    commits.push(...fresh)
    if (current.length < PAGE_SIZE || fresh.length === 0) return { commits, complete: true }
  }
}
