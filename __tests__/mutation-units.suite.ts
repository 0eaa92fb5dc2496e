// The suites Stryker runs (stryker.config.json), in two files that Jest runs in this order
// (mutation-sequencer.cjs): the unit suites here, then the scenarios in mutation-scenarios.suite.ts.
// Jest loads the module graph once per file and mutant instead of once per test file, and a mutant
// killed here skips the scenarios' heavier graph altogether (stryker-environment.cjs).
// npm test runs the same files one by one.
//
// A mutant stops at its first failing test: these kill most mutants in a few milliseconds each.
import './text.test.js'
import './duration.test.js'
import './schedule.test.js'
import './pr-link.test.js'
import './version.test.js'
import './errors.test.js'
import './settings.test.js'
import './event.test.js'
import './outcome.test.js'
import './summary.test.js'
import './context-format.test.js'
import './rerun-record.test.js'
import './clock.test.js'
