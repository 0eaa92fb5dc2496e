// The second half of the mutation suites (see mutation-units.suite.ts): the HTTP layer, the wait
// loop, then the scenarios that run the whole step against the simulator and the fakes. Their
// module graph (undici, the simulator) costs more to load than the unit suites' whole run, so it is
// not loaded when a unit test has already killed the mutant.
import { it } from '@jest/globals'

declare global {
  /** Set by stryker-environment.cjs when a test of the unit suites failed in this Jest run. */
  var __mutantKilled: boolean | undefined
}

if (globalThis.__mutantKilled) {
  // Jest refuses a file without tests; this one reports that the scenarios were not loaded.
  it.skip('the scenarios: not loaded, a unit test killed the mutant', () => undefined)
} else {
  await import('./agent-api/http.test.js')
  await import('./agent-api/wait.test.js')
  await import('./agent-api/wait-settle.test.js')
  await import('./agent-api/preview.test.js')
  await import('./agent-api/automation.test.js')
  await import('./step/flow.test.js')
  await import('./step/preview.test.js')
  await import('./step/automation.test.js')
  await import('./step/faults.test.js')
  await import('./github/context/context.test.js')
  await import('./github/context/release-tags.test.js')
  await import('./step/conversation.test.js')
  await import('./step/conversation-concurrent.test.js')
  await import('./step/progress.test.js')
  await import('./step/check.test.js')
  await import('./step/check-skipped.test.js')
  await import('./step/check-attempts.test.js')
  await import('./step/automation-check.test.js')
  await import('./step/docs-checks.test.js')
  await import('./step/docs-checks-fix.test.js')
  await import('./step/docs-checks-suites.test.js')
  await import('./github/context/release-set.test.js')
  await import('./rerun/rerun.test.js')
  await import('./rerun/cache.test.js')
  await import('./github/permissions.test.js')
  await import('./github/retry.test.js')
  await import('./github/check-run.test.js')
  await import('./github/bounded-reads.test.js')
  await import('./github/docs-checks-api.test.js')
  await import('./github/ghes.test.js')
  await import('./github/trust.test.js')
  await import('./github/context/package-reads.test.js')
  await import('./github/context/package-context.test.js')
  await import('./github/context/since-documented.test.js')
  await import('./step/group.test.js')
  await import('./step/no-token.test.js')
  await import('./github/owner-api.test.js')
  await import('./step/owner.test.js')
  await import('./step/owner-merge.test.js')
  await import('./step/docs-token.test.js')
  await import('./step/empty-inputs.test.js')
  await import('./step/long-input-values.test.js')
  await import('./step/offline.test.js')
  await import('./step/skip.test.js')
  await import('./step/path-filters.test.js')
  await import('./step/skip-automation.test.js')
  await import('./step/nothing-to-document.test.js')
  await import('./step/outsider-merge.test.js')
  await import('./step/compare-incomplete.test.js')
  await import('./step/late-link-grace.test.js')
  await import('./step/github-write-redaction.test.js')
}
