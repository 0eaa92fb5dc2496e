/**
 * GitHub requests counted as they leave: every try of a read and every page, which is what "N
 * GitHub requests" in the log means. A request is counted when its options carry a count
 * (`request: { signal, count }`), through Octokit's request hook: Octokit's own fetch, the
 * proxy-aware one `@actions/github` gives it, is never replaced.
 */
import type { Octokit } from '@octokit/core'

export class RequestCount {
  /** Requests sent so far. */
  sent = 0
}

/** A request's options, as far as the count goes. */
export interface CountedRequest {
  signal: AbortSignal
  count?: RequestCount | undefined
}

/** Counts each try of a request whose `request.count` is a RequestCount; registered inside the retries. */
export function countRequests(octokit: Pick<Octokit, 'hook'>): void {
  octokit.hook.wrap('request', (request, options) => {
    const count = (options.request as { count?: unknown } | undefined)?.count
    if (count instanceof RequestCount) count.sent++
    return request(options)
  })
}
