/**
 * GitHub requests counted as they leave: every try of a read and every page, which is what "N
 * GitHub requests" in the log means. Octokit sends each request with `request.fetch` when given.
 */
export class RequestCount {
  /** Requests sent so far. */
  sent = 0

  /** The fetch to give Octokit in a request's options. */
  readonly fetch: typeof fetch = (input, init) => {
    this.sent++
    return fetch(input, init)
  }
}
