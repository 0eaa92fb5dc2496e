/**
 * Commit statuses of the GitHub fake, and the combined status of a commit, as GitHub documents
 * them (https://docs.github.com/rest/commits/statuses#get-the-combined-status-for-a-specific-reference):
 * the newest status of each context; `state` is `failure` when any is `error` or `failure`,
 * `pending` when there are none or any is `pending`, else `success`; `statuses` paginated with
 * `per_page` (at most 100) and `page`, `total_count` counting them all.
 */

export type StatusState = 'error' | 'failure' | 'pending' | 'success'

export interface StatusSeed {
  state: StatusState
  context: string
  description?: string
  target_url?: string
}

interface StoredStatus extends Required<StatusSeed> {
  id: number
  repo: string
  sha: string
  created_at: string
}

export class CommitStatuses {
  private readonly statuses: StoredStatus[] = []
  private serial = 0

  constructor(private readonly now: () => string) {}

  clear(): void {
    this.statuses.length = 0
  }

  add(repo: string, sha: string, seed: StatusSeed): void {
    this.statuses.push({
      description: '',
      target_url: '',
      ...seed,
      id: 900_000 + ++this.serial,
      repo: repo.toLowerCase(),
      sha,
      created_at: this.now()
    })
  }

  /** The newest status of each context on `sha`, newest first. */
  latest(repo: string, sha: string): StoredStatus[] {
    const all = this.statuses.filter((s) => s.repo === repo.toLowerCase() && s.sha === sha).reverse()
    return all.filter((s, index) => all.findIndex((other) => other.context === s.context) === index)
  }

  /** The combined status's JSON, `statuses` being the slice a page asks for. */
  combined(
    repo: string,
    sha: string,
    slice: { start: number; end: number }
  ): Record<string, unknown> & { statuses: Array<Record<string, unknown> & { id: number }> } {
    const latest = this.latest(repo, sha)
    const states = latest.map((s) => s.state)
    const state =
      states.includes('error') || states.includes('failure')
        ? 'failure'
        : states.length === 0 || states.includes('pending')
          ? 'pending'
          : 'success'
    return {
      state,
      sha,
      total_count: latest.length,
      statuses: latest.slice(slice.start, slice.end).map((s) => ({
        id: s.id,
        state: s.state,
        description: s.description || null,
        target_url: s.target_url || null,
        context: s.context,
        created_at: s.created_at,
        updated_at: s.created_at
      }))
    }
  }
}
