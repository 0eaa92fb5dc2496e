import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT } from '../../scripts/action-metadata.js'
import {
  readRecord,
  readReport,
  score,
  writeBaseline,
  type IncrementalReport
} from '../../scripts/mutation-baseline.js'
import {
  commitReader,
  importers,
  reachableFiles,
  SUITES,
  suiteGraphs,
  treeReader
} from '../../scripts/mutation/suites.js'
import { gitRepo, type Repo } from './mutation-repo.js'

const [UNITS = '', SCENARIOS = ''] = SUITES
let repo: Repo

beforeEach(() => {
  repo = gitRepo({
    [UNITS]: "import './base/a.test.js'\nimport { x } from '../simulator/fake.js'\n",
    [SCENARIOS]: "if (globalThis.x) {} else {\n  await import('./step/flow.test.js')\n}\n",
    '__tests__/base/a.test.ts': "import { a } from '../../src/base/a.js'\nimport { h } from '../helper.js'\n",
    '__tests__/helper.ts': "import { b } from '../src/index.js'\n",
    '__tests__/step/flow.test.ts':
      "import { f } from '../../scripts/in-process.js'\nconst key = new URL('../fixtures/k.pem', import.meta.url)\n",
    '__tests__/fixtures/k.pem': 'key',
    'scripts/in-process.ts': "export * from '../simulator/fake.js'\n",
    'simulator/fake.ts': 'export const x = 1\n',
    'src/base/a.ts': 'export const a = 1\n',
    'src/index.ts': "import './base/a.js'\n"
  })
})

afterEach(() => repo.dispose())

describe('the suites and what they reach', () => {
  it('follows static and dynamic imports and import.meta.url files, .js to .ts, but not into mutated code', () => {
    const read = treeReader(repo.root)
    expect(reachableFiles(read, UNITS)).toEqual([
      '__tests__/base/a.test.ts',
      '__tests__/helper.ts',
      UNITS,
      'simulator/fake.ts',
      'src/index.ts' // not mutated: Stryker leaves it out
    ])
    expect(suiteGraphs(read)).toEqual([
      {
        suite: UNITS,
        testFiles: ['__tests__/base/a.test.ts'], // a helper the suite imports is no test file
        reached: reachableFiles(read, UNITS)
      },
      {
        suite: SCENARIOS,
        testFiles: ['__tests__/step/flow.test.ts'],
        reached: [
          '__tests__/fixtures/k.pem',
          SCENARIOS,
          '__tests__/step/flow.test.ts',
          'scripts/in-process.ts',
          'simulator/fake.ts'
        ]
      }
    ])
  })

  it('names the test files that reach a helper, through other helpers', () => {
    const read = treeReader(repo.root)
    const [units, scenarios] = suiteGraphs(read)
    if (units === undefined || scenarios === undefined) throw new Error('two suites')
    expect(importers(read, units, '__tests__/helper.ts')).toEqual(['__tests__/base/a.test.ts'])
    expect(importers(read, scenarios, 'simulator/fake.ts')).toEqual(['__tests__/step/flow.test.ts'])
    expect(importers(read, scenarios, '__tests__/helper.ts')).toEqual([])
  })

  it('fails on a reference to a file that does not exist, naming both', () => {
    repo.write({ '__tests__/helper.ts': "import './gone.js'\n" })
    expect(() => reachableFiles(treeReader(repo.root), UNITS)).toThrow(
      '__tests__/helper.ts refers to ./gone.js, which does not exist'
    )
  })

  it('reads a commit as it was, the test side in one batch and any other file on its own', () => {
    repo.write({ 'action.yml': 'name: a\n' })
    const base = repo.commit()
    repo.write({ '__tests__/helper.ts': 'changed\n', 'action.yml': 'name: b\n', 'src/new.ts': 'new\n' })
    repo.commit()
    const then = commitReader(repo.root, base)
    expect(then('__tests__/helper.ts')).toBe("import { b } from '../src/index.js'\n")
    expect(then('action.yml')).toBe('name: a\n')
    expect(then('src/new.ts')).toBeUndefined()
    expect(then('nowhere.txt')).toBeUndefined()
    expect(reachableFiles(then, UNITS)).toContain('src/index.ts') // through the helper as it was
    expect(reachableFiles(treeReader(repo.root), UNITS)).not.toContain('src/index.ts')
  })

  it("reaches this repository's own tests, simulator and fixtures", () => {
    const scenarios = reachableFiles(treeReader(ROOT), SCENARIOS)
    expect(scenarios).toEqual(
      expect.arrayContaining([
        '__tests__/step/flow.test.ts',
        'simulator/github/index.ts',
        '__tests__/fixtures/self-signed.key'
      ])
    )
    expect(scenarios.filter((file) => file.startsWith('src/'))).toEqual([])
    expect(reachableFiles(treeReader(ROOT), UNITS)).toContain('__tests__/base/duration.test.ts')
  })
})

describe('the baseline record', () => {
  const report = (statuses: string[]): IncrementalReport => ({
    files: {
      'src/a.ts': {
        source: 'a',
        mutants: statuses.map((status, index) => ({
          id: String(index),
          mutatorName: 'StringLiteral',
          status,
          location: { start: { line: 1, column: 1 }, end: { line: 1, column: 2 } }
        }))
      }
    }
  })

  it('scores as Stryker does: killed and timed out over those plus survived and uncovered; errors and ignored left out', () => {
    const counted = score(
      ['Killed', 'Killed', 'Timeout', 'Survived', 'NoCoverage', 'Ignored', 'RuntimeError', 'CompileError'].map(
        (status) => ({
          status
        })
      )
    )
    expect(counted).toEqual({
      score: 60,
      mutants: { killed: 2, timeout: 1, survived: 1, noCoverage: 1, ignored: 1, errors: 2 }
    })
    expect(score([{ status: 'Killed' }, { status: 'Killed' }, { status: 'Survived' }]).score).toBe(66.67)
    expect(score([]).score).toBe(100)
  })

  it('writes a full run as its own full run, and an update keeping the full run it updates', () => {
    mkdirSync(join(repo.root, 'stryker-baseline'))
    const full = writeBaseline(
      repo.root,
      report(['Killed', 'Survived']),
      'full',
      'a'.repeat(40),
      new Date('2026-12-01T23:30:00Z')
    )
    expect(full).toEqual({
      commit: 'a'.repeat(40),
      date: '2026-12-01',
      run: 'full',
      score: 50,
      mutants: { killed: 1, timeout: 0, survived: 1, noCoverage: 0, ignored: 0, errors: 0 },
      fullRun: { commit: 'a'.repeat(40), date: '2026-12-01', score: 50 }
    })
    writeBaseline(repo.root, report(['Killed', 'Killed']), 'update', 'b'.repeat(40), new Date('2026-12-03T08:00:00Z'))
    expect(readRecord(repo.root)).toEqual({
      commit: 'b'.repeat(40),
      date: '2026-12-03',
      run: 'update',
      score: 100,
      mutants: { killed: 2, timeout: 0, survived: 0, noCoverage: 0, ignored: 0, errors: 0 },
      fullRun: { commit: 'a'.repeat(40), date: '2026-12-01', score: 50 }
    })
    expect(readReport(repo.root)).toEqual(report(['Killed', 'Killed']))
  })

  it("is stated in docs/development.md: the last full run's score and date", () => {
    const { fullRun } = readRecord(ROOT)
    const docs = readFileSync(join(ROOT, 'docs/development.md'), 'utf8')
    expect(docs).toContain(`${String(fullRun.score)} %`)
    expect(docs).toContain(fullRun.date)
    expect(docs).toContain(fullRun.commit.slice(0, 7))
  })
})
