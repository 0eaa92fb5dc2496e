// Jest environment for mutation runs only (stryker.config.json): a mutant is killed by its first
// failing test, so the tests after it are skipped rather than run. Jest's own bail counts files,
// and the mutation suite is one file.
const { TestEnvironment } = require('jest-environment-node')

class BailOnFirstFailure extends TestEnvironment {
  failed = false

  handleTestEvent(event) {
    if (event.name === 'test_fn_failure' || event.name === 'hook_failure') this.failed = true
    else if (event.name === 'test_start' && this.failed) event.test.mode = 'skip'
  }
}

module.exports = BailOnFirstFailure
