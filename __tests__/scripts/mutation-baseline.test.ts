import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import {
  changedSuites,
  reachableFiles,
  SHARED_INPUTS,
  SUITES,
  suiteInputs,
  withoutTests
} from '../../scripts/mutation-baseline.js'
import { ROOT } from '../../scripts/action-metadata.js'

const [UNITS = '', SCENARIOS = ''] = SUITES
let root = ''

function write(files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, dirname(path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mutation-baseline-'))
  write({
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
    'src/index.ts': "import './base/a.js'\n",
    'package-lock.json': '{}'
  })
})

afterEach(() => rmSync(root, { recursive: true, force: true }))

describe('reachableFiles', () => {
  it('follows static and dynamic imports and import.meta.url files, .js to .ts, but not into mutated code', () => {
    expect(reachableFiles(root, UNITS)).toEqual([
      '__tests__/base/a.test.ts',
      '__tests__/helper.ts',
      UNITS,
      'simulator/fake.ts',
      'src/index.ts' // not mutated, so Stryker does not diff it
    ])
    expect(reachableFiles(root, SCENARIOS)).toEqual([
      '__tests__/fixtures/k.pem',
      SCENARIOS,
      '__tests__/step/flow.test.ts',
      'scripts/in-process.ts',
      'simulator/fake.ts'
    ])
  })

  it('fails on a reference to a file that does not exist, naming both', () => {
    write({ '__tests__/helper.ts': "import './gone.js'\n" })
    expect(() => reachableFiles(root, UNITS)).toThrow('__tests__/helper.ts refers to ./gone.js, which does not exist')
  })

  it("reaches this repository's own tests, simulator and fixtures", () => {
    const scenarios = reachableFiles(ROOT, SCENARIOS)
    expect(scenarios).toEqual(
      expect.arrayContaining([
        '__tests__/step/flow.test.ts',
        'simulator/github.ts',
        '__tests__/fixtures/self-signed.key'
      ])
    )
    expect(scenarios.filter((file) => file.startsWith('src/'))).toEqual([])
    expect(reachableFiles(ROOT, UNITS)).toContain('__tests__/base/duration.test.ts')
  })
})

describe('suiteInputs and changedSuites', () => {
  it('hashes each suite with the shared inputs; an absent one hashes as empty', () => {
    const inputs = suiteInputs(root)
    expect(Object.keys(inputs)).toEqual(SUITES)
    const units = inputs[UNITS] ?? {}
    expect(Object.keys(units)).toEqual(expect.arrayContaining([...SHARED_INPUTS, '__tests__/base/a.test.ts']))
    expect(units['package-lock.json']).toMatch(/^[0-9a-f]{64}$/)
    expect(units['stryker.config.json']).toBe('')
  })

  it('finds nothing changed in the same tree', () => {
    expect(changedSuites(suiteInputs(root), suiteInputs(root))).toEqual(new Map())
  })

  it('names only the suite whose test changed', () => {
    const before = suiteInputs(root)
    write({ '__tests__/step/flow.test.ts': "import { f } from '../../scripts/in-process.js'\n// changed\n" })
    expect(changedSuites(before, suiteInputs(root))).toEqual(
      new Map([[SCENARIOS, ['__tests__/fixtures/k.pem', '__tests__/step/flow.test.ts']]])
    )
  })

  it('names both suites when a shared input or a shared helper changed', () => {
    const before = suiteInputs(root)
    write({ 'package-lock.json': '{"lockfileVersion": 3}', 'simulator/fake.ts': 'export const x = 2\n' })
    expect(changedSuites(before, suiteInputs(root))).toEqual(
      new Map([
        [UNITS, ['package-lock.json', 'simulator/fake.ts']],
        [SCENARIOS, ['package-lock.json', 'simulator/fake.ts']]
      ])
    )
  })

  it('ignores a change in mutated code, which Stryker diffs itself', () => {
    const before = suiteInputs(root)
    write({ 'src/base/a.ts': 'export const a = 2\n' })
    expect(changedSuites(before, suiteInputs(root))).toEqual(new Map())
  })

  it('counts a suite the baseline does not know as changed: every input is new', () => {
    const now = suiteInputs(root)
    const changed = changedSuites({ [UNITS]: now[UNITS] ?? {} }, now)
    expect([...changed.keys()]).toEqual([SCENARIOS])
    expect(changed.get(SCENARIOS)).toEqual(Object.keys(now[SCENARIOS] ?? {}))
  })
})

describe('withoutTests', () => {
  const report = {
    files: { 'src/a.ts': {} },
    testFiles: { [UNITS]: { tests: [1] }, [SCENARIOS]: { tests: [2] } }
  }

  it('drops the tests of the named suites only, leaving the report as it was', () => {
    expect(withoutTests(report, [SCENARIOS])).toEqual({
      files: { 'src/a.ts': {} },
      testFiles: { [UNITS]: { tests: [1] } }
    })
    expect(Object.keys(report.testFiles)).toEqual([UNITS, SCENARIOS])
  })

  it('keeps everything when no suite changed, and copes with a report without tests', () => {
    expect(withoutTests(report, [])).toEqual(report)
    expect(withoutTests({}, [UNITS])).toEqual({ testFiles: {} })
  })
})
