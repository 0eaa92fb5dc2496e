// Jest environment for mutation runs only (stryker.config.json): a mutant is killed by its first
// failing test, so the tests after it are skipped rather than run. Jest's own bail counts files,
// and Stryker turns it off.
const Environment = require('./fixtures/environment.cjs')

// Stryker runs one mutant at a time in a worker process, and the sequencer runs the unit suites'
// file first: this module's state spans the two files of one Jest run.
let killedInThisRun = false

class BailOnFirstFailure extends Environment {
  failed = false

  constructor(config, context) {
    super(config, context)
    if (context.testPath.endsWith('mutation-units.suite.ts')) killedInThisRun = false
    else this.global.__mutantKilled = killedInThisRun
  }

  handleTestEvent(event) {
    if (event.name === 'test_fn_failure' || event.name === 'hook_failure') {
      this.failed = true
      killedInThisRun = true
    } else if (event.name === 'test_start' && this.failed) event.test.mode = 'skip'
  }
}

module.exports = BailOnFirstFailure
