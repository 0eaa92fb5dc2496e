// The suites Stryker runs (stryker.config.json), in two files that Jest runs in this order
// (mutation-sequencer.cjs): the unit suites here, then the scenarios in mutation-scenarios.suite.ts.
// Jest loads the module graph once per file and mutant instead of once per test file, and a mutant
// killed here skips the scenarios' heavier graph altogether (stryker-environment.cjs).
// npm test runs the same files one by one.
//
// A mutant stops at its first failing test: these kill most mutants in a few milliseconds each.
import './base/text.test.js'
import './base/log.test.js'
import './base/error-message.test.js'
import './base/fingerprint.test.js'
import './base/duration.test.js'
import './agent-api/schedule.test.js'
import './github/pr-link.test.js'
import './github/labels.test.js'
import './github/version.test.js'
import './github/changes.test.js'
import './github/previous-release.test.js'
import './agent-api/errors.test.js'
import './step/settings.test.js'
import './step/defaults.test.js'
import './step/prompt-file.test.js'
import './github/event.test.js'
import './github/command.test.js'
import './github/link-back.test.js'
import './github/trust-facts.test.js'
import './github/withheld-context.test.js'
import './report/outcome.test.js'
import './report/summary.test.js'
import './github/context-format.test.js'
import './rerun/record.test.js'
import './base/clock.test.js'
import './base/bounded.test.js'
import './github/release-set-shares.test.js'
import './step/unevaluated.test.js'
import './github/without-token.test.js'
