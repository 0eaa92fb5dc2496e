// The two mutation suites and the files they reach. Stryker runs our tests through the two suite
// files that import them (stryker.config.json), so it knows a test by its suite, never by the test
// file, simulator or fixture it comes from: this graph is how a changed file is traced to the tests
// it can change, in the working tree or at the baseline's commit.
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join, posix } from 'node:path'

/** The suites stryker.config.json runs, relative to the root, the unit suites' first. */
export const SUITES = ['__tests__/mutation-units.suite.ts', '__tests__/mutation-scenarios.suite.ts']

/**
 * What every mutant's verdict depends on besides the files the suites import: the harness. A change
 * to one of these is not traced to tests (it can change any verdict); the full run measures it.
 */
export const CONFIGURATION = [
  'package-lock.json',
  'tsconfig.json',
  'jest.config.js',
  '__tests__/fixtures/transform.cjs',
  'stryker.config.json',
  '__tests__/fixtures/environment.cjs',
  '__tests__/stryker-environment.cjs',
  '__tests__/mutation-sequencer.cjs'
]

/** Data files the tests read through a script rather than an import: a change to one is a change to its reader. */
export const READ_BY: Record<string, string> = { 'action.yml': 'scripts/action-metadata.ts' }

/** A file's text by path relative to the root, or undefined when there is no such file. */
export type Reader = (path: string) => string | undefined

export function treeReader(root: string): Reader {
  return (path) => (existsSync(join(root, path)) ? readFileSync(join(root, path), 'utf8') : undefined)
}

/** Where the tests, their helpers and the code they import live: read at a commit in one go. */
const TEST_SIDE = ['__tests__', 'simulator', 'scripts', 'src']

/**
 * The files of `commit`: those under TEST_SIDE through one `git cat-file --batch` on first use
 * (a test index reads a hundred of them), any other through `git show`.
 */
export function commitReader(root: string, commit: string): Reader {
  let files: Map<string, string> | undefined
  const load = (): Map<string, string> => {
    const entries = execFileSync('git', ['ls-tree', '-r', '-z', commit, '--', ...TEST_SIDE], {
      cwd: root,
      encoding: 'utf8'
    })
      .split('\0')
      .filter((entry) => entry.includes(' blob '))
      .map((entry) => {
        const [meta = '', path = ''] = entry.split('\t')
        return { sha: meta.split(' ')[2] ?? '', path }
      })
    const batch = execFileSync('git', ['cat-file', '--batch'], {
      cwd: root,
      input: entries.map((entry) => entry.sha).join('\n') + '\n',
      maxBuffer: 256 * 1024 * 1024
    })
    const map = new Map<string, string>()
    let offset = 0
    for (const { path } of entries) {
      // Each object: "<sha> blob <size>\n<content>\n".
      const header = batch.indexOf(10, offset)
      const size = Number(batch.subarray(offset, header).toString('latin1').split(' ')[2])
      map.set(path, batch.subarray(header + 1, header + 1 + size).toString('utf8'))
      offset = header + 1 + size + 1
    }
    return map
  }
  const others = new Map<string, string | undefined>()
  return (path) => {
    files ??= load()
    if (TEST_SIDE.some((folder) => path.startsWith(`${folder}/`))) return files.get(path)
    if (!others.has(path)) {
      try {
        others.set(
          path,
          execFileSync('git', ['show', `${commit}:${path}`], {
            cwd: root,
            encoding: 'utf8',
            stdio: ['ignore', 'pipe', 'ignore'],
            maxBuffer: 64 * 1024 * 1024
          })
        )
      } catch {
        others.set(path, undefined)
      }
    }
    return others.get(path)
  }
}

// `from './x.js'`, `import './x.js'`, `import('./x.js')` and `new URL('../x', import.meta.url)`.
const REFERENCE = /(?:\bfrom\s+|\bimport\s*\(?\s*|new URL\(\s*)'(\.{1,2}\/[^']+)'/g

/** Files Stryker mutates (stryker.config.json: src/**\/*.ts but src/index.ts). */
export function mutated(path: string): boolean {
  return path.startsWith('src/') && path.endsWith('.ts') && path !== 'src/index.ts'
}

/** The files `path` refers to by relative path, resolved (`./x.js` is `./x.ts` where that exists), in order. */
export function references(read: Reader, path: string, text: string): string[] {
  return [...text.matchAll(REFERENCE)].map((match) => {
    const target = posix.normalize(posix.join(posix.dirname(path), match[1] ?? ''))
    const ts = target.replace(/\.js$/, '.ts')
    const file = read(ts) === undefined ? target : ts
    if (read(file) === undefined) throw new Error(`${path} refers to ${match[1] ?? ''}, which does not exist`)
    return file
  })
}

/** The files `entry` reaches through its references, itself included, but not into mutated code. */
export function reachableFiles(read: Reader, entry: string): string[] {
  const seen = new Set<string>()
  const visit = (path: string): void => {
    if (seen.has(path) || mutated(path)) return
    seen.add(path)
    if (!/\.[cm]?[jt]s$/.test(path)) return
    for (const file of references(read, path, read(path) ?? '')) visit(file)
  }
  visit(entry)
  return [...seen].sort()
}

/** One suite's shape: its test files (the `.test.ts` files the suite file imports) and every file it reaches. */
export interface SuiteGraph {
  suite: string
  testFiles: string[]
  reached: string[]
}

export function suiteGraphs(read: Reader): SuiteGraph[] {
  return SUITES.map((suite) => {
    const text = read(suite)
    return {
      suite,
      testFiles: text === undefined ? [] : references(read, suite, text).filter((file) => file.endsWith('.test.ts')),
      reached: text === undefined ? [] : reachableFiles(read, suite)
    }
  })
}

// Per reader, each test file's reach: a change of many helpers asks for the same ones again and again.
const reaches = new WeakMap<Reader, Map<string, Set<string>>>()

/** The test files of `graph` whose reach includes `file` (a test file reaches itself). */
export function importers(read: Reader, graph: SuiteGraph, file: string): string[] {
  const known = reaches.get(read) ?? new Map<string, Set<string>>()
  reaches.set(read, known)
  return graph.testFiles.filter((test) => {
    if (!known.has(test)) known.set(test, new Set(reachableFiles(read, test)))
    return known.get(test)?.has(file) === true
  })
}
