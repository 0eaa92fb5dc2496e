// The suites Stryker runs (stryker.config.json), as one file: Jest then loads the module graph once
// per mutant instead of once per file, and a mutant costs a fraction of a second, not several.
// npm test runs the same files one by one.
//
// Jest runs the tests in this order and a mutant stops at its first failing test: the unit suites
// come first, as they kill most mutants in a few milliseconds each, then the wait loop, then the
// scenarios that run the whole step against the simulator and the fakes.
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
import './http.test.js'
import './wait.test.js'
import './flow.test.js'
import './faults.test.js'
import './context.test.js'
import './rerun.test.js'
import './rerun-cache.test.js'
