/**
 * Check suites of the GitHub fake, kept as GitHub keeps them (https://docs.github.com/en/rest/guides/using-the-rest-api-to-interact-with-checks):
 * a suite holds the check runs one GitHub App made on one commit. At a push GitHub makes a suite
 * on the commit for each app installed with checks:write, `queued` with no run, and sends the app
 * the `check_suite` event; the app then makes its runs, which GitHub adds to that suite (`push`).
 * A run made where its app has no suite gets one ("By default, check suites are automatically
 * created when you create a check run", https://docs.github.com/rest/checks/suites#create-a-check-suite).
 * The suite's status and conclusion follow its runs (check-runs.ts, `suiteState`).
 *
 *   suites.of('acme/docs', sha, app)     // at a push (queued, no run), or the suite a run of `app` goes in
 *   suites.on('acme/docs', sha)          // the suites on a commit
 */
import type { CheckApp } from './github-objects.js'

export interface StoredCheckSuite {
  id: number
  repo: string
  head_sha: string
  app: CheckApp
  created_at: string
}

export class CheckSuites {
  private readonly suites: StoredCheckSuite[] = []
  private serial = 0

  constructor(
    /** The fake's time, as ISO 8601. */
    private readonly now: () => string
  ) {}

  /** The suite of `app` on `sha` of `repo` (a push's, or a run's), made now when there is none. */
  of(repo: string, sha: string, app: CheckApp): StoredCheckSuite {
    const found = this.on(repo, sha).find((suite) => suite.app.id === app.id)
    if (found) return found
    const suite = { id: 800_000 + ++this.serial, repo, head_sha: sha, app, created_at: this.now() }
    this.suites.push(suite)
    return suite
  }

  /** The suites on `sha` of `repo`, oldest first. */
  on(repo: string, sha: string): StoredCheckSuite[] {
    return this.suites.filter((suite) => suite.repo.toLowerCase() === repo.toLowerCase() && suite.head_sha === sha)
  }

  clear(): void {
    this.suites.length = 0
  }
}
