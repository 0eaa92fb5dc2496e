// Jest test sequencer for mutation runs only (stryker.config.json): the unit suites' file runs
// before the scenarios', so the scenarios can be skipped for a mutant a unit test has killed.
// Jest's own sequencer orders by the durations of earlier runs.
class UnitsFirst {
  sort(tests) {
    const rank = (test) => (test.path.endsWith('mutation-units.suite.ts') ? 0 : 1)
    return [...tests].sort((a, b) => rank(a) - rank(b))
  }

  cacheResults() {}
}

module.exports = UnitsFirst
