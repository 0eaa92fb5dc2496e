// The committed mutation baseline: Stryker's incremental report of the last full run, and what the
// two mutation suites were made of then. Stryker diffs the mutated code itself, and it diffs a test
// file's source to tell which tests changed; but it sees our tests through the two suite files that
// import them, so an edit inside an imported test, a simulator or a fixture is invisible to it.
// Here each suite's inputs (the files it reaches, the configuration, the lock file) are hashed,
// and a suite whose inputs changed since the baseline loses its tests from the report Stryker
// reads: its tests count as new, and every mutant they cover runs again. Stale means slower, never
// a verdict kept from tests that are no longer the same.
import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, normalize, relative, sep } from 'node:path'

/** The suites stryker.config.json runs, relative to the root. */
export const SUITES = ['__tests__/mutation-units.suite.ts', '__tests__/mutation-scenarios.suite.ts']

/** What every suite depends on besides the files it imports. */
export const SHARED_INPUTS = [
  'package-lock.json',
  'tsconfig.json',
  'jest.config.js',
  'stryker.config.json',
  'action.yml', // read by scripts/action-metadata.ts
  '__tests__/stryker-environment.cjs',
  '__tests__/mutation-sequencer.cjs'
]

/** Per suite, the sha-256 of each input file, by path relative to the root. */
export type SuiteInputs = Record<string, Record<string, string>>

// `from './x.js'`, `import './x.js'`, `import('./x.js')` and `new URL('../x', import.meta.url)`.
const REFERENCE = /(?:\bfrom\s+|\bimport\s*\(?\s*|new URL\(\s*)'(\.{1,2}\/[^']+)'/g

/** Files Stryker mutates and diffs itself (stryker.config.json: src/**\/*.ts but src/index.ts). */
function mutated(path: string): boolean {
  return path.startsWith('src/') && path.endsWith('.ts') && path !== 'src/index.ts'
}

/** The files `entry` reaches through relative imports and `new URL(…, import.meta.url)`, itself included. */
export function reachableFiles(root: string, entry: string): string[] {
  const seen = new Set<string>()
  const visit = (path: string): void => {
    if (seen.has(path) || mutated(path)) return
    seen.add(path)
    if (!/\.[cm]?[jt]s$/.test(path)) return
    for (const match of readFileSync(join(root, path), 'utf8').matchAll(REFERENCE)) {
      const target = relative(root, normalize(join(root, dirname(path), match[1] ?? '')))
        .split(sep)
        .join('/')
      // The sources are TypeScript imported by their built name (`./x.js` is `./x.ts`).
      const ts = target.replace(/\.js$/, '.ts')
      const file = existsSync(join(root, ts)) ? ts : target
      if (!existsSync(join(root, file))) throw new Error(`${path} refers to ${match[1] ?? ''}, which does not exist`)
      visit(file)
    }
  }
  visit(entry)
  return [...seen].sort()
}

function sha256(root: string, path: string): string {
  return existsSync(join(root, path))
    ? createHash('sha256')
        .update(readFileSync(join(root, path)))
        .digest('hex')
    : ''
}

/** What each suite is made of now. */
export function suiteInputs(root: string): SuiteInputs {
  return Object.fromEntries(
    SUITES.map((suite) => {
      const files = [...new Set([...SHARED_INPUTS, ...reachableFiles(root, suite)])].sort()
      return [suite, Object.fromEntries(files.map((file) => [file, sha256(root, file)]))]
    })
  )
}

/** Per suite whose inputs differ from the baseline's, the files that were added, changed or removed. */
export function changedSuites(baseline: SuiteInputs, current: SuiteInputs): Map<string, string[]> {
  const changed = new Map<string, string[]>()
  for (const suite of SUITES) {
    const before = baseline[suite] ?? {}
    const now = current[suite] ?? {}
    const files = [...new Set([...Object.keys(before), ...Object.keys(now)])]
      .filter((file) => before[file] !== now[file])
      .sort()
    if (files.length > 0) changed.set(suite, files)
  }
  return changed
}

interface IncrementalReport {
  testFiles?: Record<string, unknown>
}

/**
 * The baseline report without the tests of `suites`, for Stryker to read: their tests are then new
 * to it, so the mutants they cover or killed run again.
 */
export function withoutTests(report: IncrementalReport, suites: Iterable<string>): IncrementalReport {
  const testFiles = { ...report.testFiles }
  for (const suite of suites) {
    const key = Object.keys(testFiles).find((name) => name.split(sep).join('/').endsWith(suite))
    if (key !== undefined) Reflect.deleteProperty(testFiles, key)
  }
  return { ...report, testFiles }
}
