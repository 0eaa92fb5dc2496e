// A small project for the mutation scripts' tests: two suites, three test files, a shared helper,
// one source file, and a baseline report whose tests carry the names and lines Stryker records.
import type { IncrementalReport, MutantResult } from '../../scripts/mutation-baseline.js'

export const UNITS_SUITE = "import './a.test.js'\nimport './b.test.js'\n"
export const SCENARIOS_SUITE = `import { it } from '@jest/globals'
if (globalThis.__mutantKilled) {
  it.skip('the scenarios: not loaded', () => undefined)
} else {
  await import('./c.test.js')
}
`

export const A_TEST = `import { describe, expect, it } from '@jest/globals'
import { twice } from '../src/x.js'
import { helper } from './fixtures/helper.js'

describe('twice', () => {
  const base = 1

  it('doubles one', () => {
    expect(twice(base)).toBe(2)
  })

  it('doubles two', () => {
    expect(twice(2)).toBe(4)
  })
})

it('uses the helper', () => {
  expect(helper()).toBe(1)
})
`

export const B_TEST = `import { expect, it } from '@jest/globals'
import { twice } from '../src/x.js'

it('doubles zero', () => {
  expect(twice(0)).toBe(0)
})
`

export const C_TEST = `import { expect, it } from '@jest/globals'
import { helper } from './fixtures/helper.js'

it('scenario', () => {
  expect(helper()).toBe(1)
})
`

export const SOURCE = `export function twice(n: number): number {
  return n * 2
}

export function half(n: number): number {
  return n / 2
}
`

export const FILES: Record<string, string> = {
  '__tests__/mutation-units.suite.ts': UNITS_SUITE,
  '__tests__/mutation-scenarios.suite.ts': SCENARIOS_SUITE,
  '__tests__/a.test.ts': A_TEST,
  '__tests__/b.test.ts': B_TEST,
  '__tests__/c.test.ts': C_TEST,
  '__tests__/fixtures/helper.ts': 'export const helper = (): number => 1\n',
  'src/x.ts': SOURCE,
  'src/index.ts': "export * from './x.js'\n",
  'jest.config.js': 'export default {}\n',
  'docs/readme.md': 'docs\n'
}

/** The tests' ids: Stryker's, unique across the report. */
export const TESTS = { one: '0', two: '1', helper: '2', zero: '3', scenario: '4' }

const mutant = (
  id: string,
  line: number,
  columns: [number, number],
  status: string,
  covered: string[],
  killed: string[] = []
): MutantResult => ({
  id,
  mutatorName: 'ArithmeticOperator',
  replacement: 'n / 2',
  status,
  coveredBy: covered,
  killedBy: killed,
  location: { start: { line, column: columns[0] }, end: { line, column: columns[1] } }
})

/**
 * twice's mutants: killed by "doubles one", by "doubles zero", one that lived through a unit test and
 * a scenario, one that lived through a unit test alone; half's: covered by nothing.
 */
export const MUTANTS = {
  byOne: mutant('10', 2, [10, 15], 'Killed', [TESTS.one, TESTS.two, TESTS.zero], [TESTS.one]),
  byZero: mutant('11', 2, [3, 15], 'Killed', [TESTS.one, TESTS.zero], [TESTS.zero]),
  lived: mutant('12', 1, [40, 42], 'Survived', [TESTS.two, TESTS.scenario]),
  livedQuick: mutant('14', 1, [17, 18], 'Survived', [TESTS.two]),
  uncovered: mutant('13', 6, [10, 15], 'NoCoverage', [])
}

export function report(): IncrementalReport {
  return {
    files: { 'src/x.ts': { source: SOURCE, mutants: structuredClone(Object.values(MUTANTS)) } },
    testFiles: {
      '__tests__/mutation-units.suite.ts': {
        source: UNITS_SUITE,
        tests: [
          { id: TESTS.one, name: 'twice doubles one', location: { start: { line: 9, column: 5 } } },
          { id: TESTS.two, name: 'twice doubles two', location: { start: { line: 12, column: 3 } } },
          { id: TESTS.helper, name: 'uses the helper', location: { start: { line: 18, column: 3 } } },
          { id: TESTS.zero, name: 'doubles zero', location: { start: { line: 5, column: 3 } } }
        ]
      },
      '__tests__/mutation-scenarios.suite.ts': {
        source: SCENARIOS_SUITE,
        tests: [{ id: TESTS.scenario, name: 'scenario', location: { start: { line: 4, column: 1 } } }]
      }
    }
  }
}
