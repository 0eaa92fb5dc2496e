/**
 * Every page of a list GitHub answers in pages, each read with the request options of the first:
 * Octokit's own `paginate` sends every page, the first too, without them, so without its signal
 * (no time limit, and waits between tries that nothing ends).
 */
import type { getOctokit } from '@actions/github'

import type { CountedRequest } from './requests.js'

type Octokit = ReturnType<typeof getOctokit>

/** A page as Octokit answers it: a list, or (check runs, workflow runs) an object that holds one. */
interface Page<D> {
  data: D
  headers: { link?: string | undefined }
}

/**
 * The first page, then each page its Link header names as next, with `request`, up to `maxPages`;
 * `keep` takes what is used of each page as it comes, and may end the listing by throwing. The one
 * way the action reads pages: a lint rule bans `octokit.paginate` in src/.
 */
export async function allPages<D, R>(
  octokit: Octokit,
  first: Promise<Page<D>>,
  request: CountedRequest,
  keep: (page: D) => R[],
  maxPages = Infinity
): Promise<R[]> {
  const all: R[] = []
  for (let page = await first, read = 1; ; read++) {
    all.push(...keep(page.data))
    const next = /<([^<>]+)>;\s*rel="next"/.exec(page.headers.link ?? '')?.[1]
    if (!next || read >= maxPages) return all
    page = await octokit.request({ method: 'GET', url: next, request })
  }
}
