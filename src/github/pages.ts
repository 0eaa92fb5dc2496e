/**
 * Every page of a list GitHub answers in pages, each read with the request options of the first:
 * Octokit's own `paginate` sends every page, the first too, without them, so without its signal
 * (no time limit, and waits between tries that nothing ends).
 */
import type { getOctokit } from '@actions/github'

type Octokit = ReturnType<typeof getOctokit>

/** A page as Octokit answers it. */
interface Page<T> {
  data: T[]
  headers: { link?: string | undefined }
}

/**
 * The first page, then each page its Link header names as next, with `request`; `keep` takes what
 * is used of each page as it comes, and may end the listing by throwing.
 */
export async function allPages<T, R>(
  octokit: Octokit,
  first: Promise<Page<T>>,
  request: { signal: AbortSignal; fetch?: typeof fetch | undefined },
  keep: (page: T[]) => R[]
): Promise<R[]> {
  const all: R[] = []
  for (let page = await first; ;) {
    all.push(...keep(page.data))
    const next = /<([^<>]+)>;\s*rel="next"/.exec(page.headers.link ?? '')?.[1]
    if (!next) return all
    page = await octokit.request({ method: 'GET', url: next, request })
  }
}
