import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { changesSince } from '../../scripts/mutation/diff.js'
import { commitReader, treeReader } from '../../scripts/mutation/suites.js'
import { touchedBy } from '../../scripts/mutation/touched-tests.js'
import { A_TEST, C_TEST, FILES, report, TESTS, UNITS_SUITE } from './mutation-fixture.js'
import { gitRepo, type Repo } from './mutation-repo.js'

let repo: Repo
let base = ''

beforeEach(() => {
  repo = gitRepo(FILES)
  base = repo.commit('baseline')
})

afterEach(() => repo.dispose())

function touched(): { ids: string[]; testFiles: string[]; configuration: string[]; notes: string[] } {
  const { ids, testFiles, configuration, notes } = touchedBy(
    changesSince(repo.root, base),
    report(),
    treeReader(repo.root),
    commitReader(repo.root, base)
  )
  return { ids: [...ids].sort(), testFiles: [...testFiles].sort(), configuration, notes: notes.sort() }
}

const edit = (text: string, from: string, to: string): string => {
  if (!text.includes(from)) throw new Error(`no ${from}`)
  return text.replace(from, to)
}

describe('touchedBy', () => {
  it('touches nothing when nothing changed, or only files the suites do not reach', () => {
    expect(touched()).toEqual({ ids: [], testFiles: [], configuration: [], notes: [] })
    repo.write({ 'docs/readme.md': 'more docs\n', 'src/x.ts': '// src is mutated, not traced\n' })
    expect(touched()).toEqual({ ids: [], testFiles: [], configuration: [], notes: [] })
  })

  it('touches the one test whose body changed, committed or not, and runs its file', () => {
    repo.write({ '__tests__/a.test.ts': edit(A_TEST, 'twice(2)).toBe(4)', 'twice(2)).toEqual(4)') })
    expect(touched()).toEqual({
      ids: [TESTS.two],
      testFiles: ['__tests__/a.test.ts'],
      configuration: [],
      notes: ['__tests__/a.test.ts: 1 test edited']
    })
    repo.commit()
    expect(touched().ids).toEqual([TESTS.two])
  })

  it("touches a describe's tests for a change in the describe outside them, and the file's for one outside every test", () => {
    repo.write({ '__tests__/a.test.ts': edit(A_TEST, 'const base = 1', 'const base = 1 * 1') })
    expect(touched().ids).toEqual([TESTS.one, TESTS.two])
    repo.write({
      '__tests__/a.test.ts': edit(
        A_TEST,
        "import { twice } from '../src/x.js'",
        "import { twice } from '../src/index.js'"
      )
    })
    expect(touched().ids).toEqual([TESTS.one, TESTS.two, TESTS.helper])
  })

  it('ignores blank lines, and imports that still bring the same things from a moved file', () => {
    repo.remove('__tests__/fixtures/helper.ts')
    repo.write({
      '__tests__/support/helper.ts': FILES['__tests__/fixtures/helper.ts'] ?? '',
      '__tests__/a.test.ts': edit(A_TEST, "from './fixtures/helper.js'", "from './support/helper.js'").replace(
        '\n\n  it(',
        '\n\n\n  it('
      ),
      '__tests__/c.test.ts': edit(C_TEST, "from './fixtures/helper.js'", "from './support/helper.js'")
    })
    const result = touched()
    expect(result.ids).toEqual([])
    expect(result.notes).toContain(
      '__tests__/fixtures/helper.ts → __tests__/support/helper.ts: only moved imports or blank lines'
    )
    expect(result.notes).toContain('__tests__/a.test.ts: 0 tests edited (only moved imports or blank lines)')
  })

  it('touches every test of the test files that import a changed helper, in both suites', () => {
    repo.write({ '__tests__/fixtures/helper.ts': 'export const helper = (): number => 2 - 1\n' })
    expect(touched()).toEqual({
      ids: [TESTS.one, TESTS.two, TESTS.helper, TESTS.scenario].sort(),
      testFiles: ['__tests__/a.test.ts', '__tests__/c.test.ts'],
      configuration: [],
      notes: ['__tests__/fixtures/helper.ts: imported by 2 test files, 4 tests']
    })
  })

  it('counts a changed binary file as changed throughout, though git shows no line of it', () => {
    const { ids, notes } = touchedBy(
      [{ oldPath: '__tests__/fixtures/helper.ts', newPath: '__tests__/fixtures/helper.ts', hunks: [], binary: true }],
      report(),
      treeReader(repo.root),
      commitReader(repo.root, base)
    )
    expect([...ids].sort()).toEqual([TESTS.one, TESTS.two, TESTS.helper, TESTS.scenario].sort())
    expect(notes).toEqual(['__tests__/fixtures/helper.ts: imported by 2 test files, 4 tests'])
  })

  it('runs a new test file with the change, and touches the tests of one a suite no longer imports', () => {
    repo.write({
      '__tests__/d.test.ts': "import { it } from '@jest/globals'\nit('is new', () => undefined)\n",
      '__tests__/mutation-units.suite.ts': edit(UNITS_SUITE, "import './b.test.js'", "import './d.test.js'")
    })
    expect(touched()).toEqual({
      ids: [TESTS.zero],
      testFiles: ['__tests__/d.test.ts'],
      configuration: [],
      notes: [
        '__tests__/d.test.ts: a new test file, run with the change (no baseline verdicts)',
        '__tests__/mutation-units.suite.ts: no longer imports __tests__/b.test.ts, 1 test'
      ].sort()
    })
  })

  it("touches every test of a suite whose code besides its imports changed, and a deleted test file's tests", () => {
    repo.write({
      '__tests__/mutation-scenarios.suite.ts':
        FILES['__tests__/mutation-scenarios.suite.ts']?.replace('__mutantKilled', '__killed') ?? ''
    })
    expect(touched().ids).toEqual([TESTS.scenario])
    repo.remove('__tests__/b.test.ts')
    repo.write({ '__tests__/mutation-units.suite.ts': "import './a.test.js'\n" })
    expect(touched().ids).toEqual([TESTS.zero, TESTS.scenario].sort())
  })

  it("counts in a suite's tests that match no test call when its test side changed, and only then", () => {
    const lost = report()
    lost.testFiles?.['__tests__/mutation-units.suite.ts']?.tests.push({
      id: '9',
      name: 'a test no call declares',
      location: { start: { line: 2, column: 1 } }
    })
    const trace = (): { ids: string[]; notes: string[] } => {
      const found = touchedBy(changesSince(repo.root, base), lost, treeReader(repo.root), commitReader(repo.root, base))
      return { ids: [...found.ids].sort(), notes: found.notes }
    }
    repo.write({ '__tests__/c.test.ts': C_TEST.replace('toBe(1)', 'toEqual(1)') })
    expect(trace().ids).toEqual([TESTS.scenario])
    repo.write({ '__tests__/a.test.ts': A_TEST.replace('twice(2)).toBe(4)', 'twice(2)).toEqual(4)') })
    expect(trace()).toEqual({
      ids: ['9', TESTS.two, TESTS.scenario].sort(),
      notes: [
        '__tests__/a.test.ts: 1 test edited',
        '__tests__/c.test.ts: 1 test edited',
        '__tests__/mutation-units.suite.ts: 1 test matching no test call, counted in'
      ]
    })
  })

  it('names a changed configuration file without tracing it to tests', () => {
    repo.write({ 'jest.config.js': 'export default { testTimeout: 1 }\n' })
    expect(touched()).toEqual({ ids: [], testFiles: [], configuration: ['jest.config.js'], notes: [] })
  })
})
