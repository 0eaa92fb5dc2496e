// Which of the baseline's tests a change can alter. Stryker records a test by its suite, its full
// title and the line of its `it` call in the test file the suite imported, but not that file: the
// baseline's tests are matched to the test files as they were at the baseline's commit (line and
// title, scripts/mutation/test-blocks.ts), and each changed line of a test file is traced to the
// tests around it. A changed helper, fixture or simulator file touches every test of the test files
// that import it; a changed suite file, the tests it no longer imports.
import ts from 'typescript'
import type { FileChange } from './diff.js'
import { oldSpans } from './diff.js'
import {
  CONFIGURATION,
  READ_BY,
  references,
  SUITES,
  suiteGraphs,
  importers,
  type Reader,
  type SuiteGraph
} from './suites.js'
import { testBlocks, touchedTests, type LineSpan, type TestBlock } from './test-blocks.js'
import type { IncrementalReport, TestDefinition } from '../mutation-baseline.js'

/** The baseline's tests, traced to the test files of the baseline's commit. */
export interface TestIndex {
  /** Per test file (path at the baseline's commit), its test and describe calls, with the ids of the tests each `it` made. */
  byFile: Map<string, Array<TestBlock & { ids: string[] }>>
  /** Per test id, the test files (paths at the baseline's commit) it was matched to. */
  fileOf: Map<string, string[]>
  /** Per suite, the ids of its tests that match no `it` call. */
  unmatched: Map<string, string[]>
  /** Per suite, every test id. */
  bySuite: Map<string, string[]>
}

function suiteTests(report: IncrementalReport, suite: string): TestDefinition[] {
  const entry = Object.entries(report.testFiles ?? {}).find(([name]) => name.replaceAll('\\', '/').endsWith(suite))
  return entry?.[1].tests ?? []
}

// Jest reports a line inside the call, not always its first: through the transform's source map it
// can be the line of the call, of its callback or of the body's first statement.
const within = (test: TestDefinition, block: TestBlock): boolean =>
  test.location !== undefined && test.location.start.line >= block.start && test.location.start.line <= block.end

export function indexTests(report: IncrementalReport, then: Reader, graphs: SuiteGraph[]): TestIndex {
  const index: TestIndex = { byFile: new Map(), fileOf: new Map(), unmatched: new Map(), bySuite: new Map() }
  for (const graph of graphs) {
    const tests = suiteTests(report, graph.suite)
    index.bySuite.set(
      graph.suite,
      tests.map((test) => test.id)
    )
    for (const file of graph.testFiles) {
      const calls = testBlocks(then(file) ?? '', file).map((block) => ({
        ...block,
        ids:
          block.kind === 'test'
            ? tests.filter((test) => within(test, block) && block.title.test(test.name)).map((test) => test.id)
            : []
      }))
      index.byFile.set(file, calls)
      for (const call of calls) for (const id of call.ids) index.fileOf.set(id, [...(index.fileOf.get(id) ?? []), file])
    }
    index.unmatched.set(
      graph.suite,
      tests.filter((test) => !index.fileOf.has(test.id)).map((test) => test.id)
    )
  }
  return index
}

/** What a change does to the baseline's tests. */
export interface TouchedTests {
  /** Baseline test ids whose verdicts the change can alter. */
  ids: Set<string>
  /** Test files (paths now) to run with the change: the edited and the new ones. */
  testFiles: Set<string>
  /** Changed configuration files, which no trace covers. */
  configuration: string[]
  /** Per changed file the suites reach, what it was traced to. */
  notes: string[]
}

/** The lines of `text` inside import and re-export declarations, with what each imports. */
function imports(read: Reader, path: string, text: string): { lines: Set<number>; targets: string[] } {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)
  const lines = new Set<number>()
  const targets: string[] = []
  for (const statement of file.statements) {
    if (!(ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement))) continue
    const specifier = statement.moduleSpecifier
    if (specifier === undefined || !ts.isStringLiteral(specifier)) continue
    const first = file.getLineAndCharacterOfPosition(statement.getStart(file)).line + 1
    const last = file.getLineAndCharacterOfPosition(statement.getEnd()).line + 1
    for (let line = first; line <= last; line++) lines.add(line)
    const clause = ts.isImportDeclaration(statement) ? statement.importClause : statement.exportClause
    const target = specifier.text.startsWith('.')
      ? (references(read, path, `from '${specifier.text}'`)[0] ?? '')
      : specifier.text
    targets.push(`${(clause?.getText(file) ?? '').replace(/\s+/g, '')} ${target}`)
  }
  return { lines, targets: targets.sort() }
}

/**
 * The old file's changed stretches that change something: not blank lines alone, and not imports
 * that still import the same things from the same (perhaps moved) files.
 */
export function meaningfulSpans(
  change: FileChange,
  before: { read: Reader; path: string; text: string },
  after: { read: Reader; path: string; text: string },
  renamed: (oldPath: string) => string
): LineSpan[] {
  const oldLines = before.text.split('\n')
  const newLines = after.text.split('\n')
  const oldImports = imports(before.read, before.path, before.text)
  const newImports = imports(after.read, after.path, after.text)
  const sameImports =
    JSON.stringify(
      oldImports.targets.map((entry) => entry.replace(/ (.*)$/, (_, target: string) => ` ${renamed(target)}`))
    ) === JSON.stringify(newImports.targets)
  const spans = oldSpans(change)
  return change.hunks
    .map((hunk, index) => ({ hunk, span: spans[index] ?? { from: 0, to: 0 } }))
    .filter(({ hunk }) => {
      const removed = oldLines.slice(hunk.oldStart - 1, hunk.oldStart - 1 + hunk.oldCount)
      const added = newLines.slice(hunk.newStart - 1, hunk.newStart - 1 + hunk.newCount)
      const content = (lines: string[]): string => lines.filter((line) => line.trim() !== '').join('\n')
      if (content(removed) === content(added)) return false
      const within = (start: number, lines: string[], set: Set<number>): boolean =>
        lines.every((line, offset) => line.trim() === '' || set.has(start + offset))
      return !(
        sameImports &&
        within(hunk.oldStart, removed, oldImports.lines) &&
        within(hunk.newStart, added, newImports.lines)
      )
    })
    .map(({ span }) => span)
}

const plural = (count: number, word: string): string => `${String(count)} ${word}${count === 1 ? '' : 's'}`

/** Traces every change the suites can see to the baseline's tests. */
export function touchedBy(
  changes: FileChange[],
  report: IncrementalReport,
  now: Reader,
  then: Reader
): TouchedTests & { index: TestIndex } {
  const graphsThen = suiteGraphs(then)
  const graphsNow = suiteGraphs(now)
  const index = indexTests(report, then, graphsThen)
  const result: TouchedTests = { ids: new Set(), testFiles: new Set(), configuration: [], notes: [] }
  const renames = new Map(
    changes.flatMap((change) => (change.oldPath && change.newPath ? [[change.oldPath, change.newPath]] : []))
  )
  const renamed = (path: string): string => renames.get(path) ?? path
  const isTestThen = (path: string | undefined): boolean =>
    graphsThen.some((graph) => path !== undefined && graph.testFiles.includes(path))
  const isTestNow = (path: string | undefined): boolean =>
    graphsNow.some((graph) => path !== undefined && graph.testFiles.includes(path))
  const reached = (graphs: SuiteGraph[], path: string | undefined): boolean =>
    graphs.some((graph) => path !== undefined && graph.reached.includes(path))
  const touchFile = (file: string): number => {
    const ids = (index.byFile.get(file) ?? []).flatMap((call) => call.ids)
    for (const id of ids) result.ids.add(id)
    return ids.length
  }

  // The suites whose test side changed: a test of theirs that matches no test call may be any one.
  const suites = new Set<string>()
  for (const change of changes) {
    const path = change.newPath ?? change.oldPath ?? ''
    for (const graph of [...graphsThen, ...graphsNow]) {
      const side = [READ_BY[path] ?? path, change.oldPath ?? '']
      if (side.some((file) => file === graph.suite || graph.reached.includes(file))) suites.add(graph.suite)
    }
    const shown =
      change.oldPath && change.newPath && change.oldPath !== change.newPath
        ? `${change.oldPath} → ${change.newPath}`
        : path
    if (CONFIGURATION.includes(path)) {
      result.configuration.push(path)
      continue
    }
    const reader = READ_BY[path]
    if (SUITES.includes(path)) {
      const before =
        change.oldPath === undefined ? [] : references(then, change.oldPath, then(change.oldPath) ?? '').map(renamed)
      const after = references(now, path, now(path) ?? '')
      const rest = (text: string): string =>
        text
          .split('\n')
          .filter((line) => line.trim() !== '' && !/^\s*(?:await\s+)?import\b.*'\.{1,2}\//.test(line))
          .join('\n')
      if (rest(then(change.oldPath ?? '') ?? '') !== rest(now(path) ?? '')) {
        for (const id of index.bySuite.get(path) ?? []) result.ids.add(id)
        result.notes.push(`${shown}: more than its imports changed, every test of the suite`)
        continue
      }
      const dropped = (
        change.oldPath === undefined ? [] : references(then, change.oldPath, then(change.oldPath) ?? '')
      ).filter((file) => !after.includes(renamed(file)))
      const count = dropped.reduce((sum, file) => sum + touchFile(file), 0)
      for (const file of after.filter((file) => !before.includes(file))) result.testFiles.add(file)
      if (dropped.length > 0)
        result.notes.push(`${shown}: no longer imports ${dropped.join(', ')}, ${plural(count, 'test')}`)
    } else if (isTestThen(change.oldPath) || isTestNow(change.newPath)) {
      if (!isTestThen(change.oldPath)) {
        if (change.newPath) result.testFiles.add(change.newPath)
        result.notes.push(`${shown}: a new test file, run with the change (no baseline verdicts)`)
      } else if (!isTestNow(change.newPath)) {
        result.notes.push(`${shown}: no longer a test file, ${plural(touchFile(change.oldPath ?? ''), 'test')}`)
      } else {
        const oldPath = change.oldPath ?? ''
        const spans = meaningfulSpans(
          change,
          { read: then, path: oldPath, text: then(oldPath) ?? '' },
          { read: now, path, text: now(path) ?? '' },
          renamed
        )
        const touched = touchedTests(index.byFile.get(oldPath) ?? [], spans)
        result.testFiles.add(path)
        let count = 0
        for (const call of touched)
          for (const id of call.ids) {
            result.ids.add(id)
            count++
          }
        result.notes.push(
          `${shown}: ${plural(count, 'test')} edited${spans.length === 0 ? ' (only moved imports or blank lines)' : ''}`
        )
      }
    } else if (reached(graphsThen, change.oldPath) || reached(graphsNow, change.newPath) || reader !== undefined) {
      const helper = reader ?? path
      const users = graphsThen.flatMap((graph) => importers(then, graph, renamedBack(renames, helper)))
      const usersNow = graphsNow.flatMap((graph) => importers(now, graph, helper))
      // A binary file's change has no lines: it is a change of the whole file.
      const spans = change.binary
        ? [{ from: 1, to: 1 }]
        : reader !== undefined || change.oldPath === undefined || change.newPath === undefined
          ? oldSpans(change)
          : meaningfulSpans(
              change,
              { read: then, path: change.oldPath, text: then(change.oldPath) ?? '' },
              { read: now, path, text: now(path) ?? '' },
              renamed
            )
      if (spans.length === 0) {
        result.notes.push(`${shown}: only moved imports or blank lines`)
        continue
      }
      const count = users.reduce((sum, file) => sum + touchFile(file), 0)
      for (const file of usersNow) result.testFiles.add(file)
      result.notes.push(
        `${shown}: imported by ${plural(new Set([...users, ...usersNow]).size, 'test file')}, ${plural(count, 'test')}`
      )
    }
  }
  for (const suite of suites) {
    const unmatched = index.unmatched.get(suite) ?? []
    for (const id of unmatched) result.ids.add(id)
    if (unmatched.length > 0)
      result.notes.push(`${suite}: ${plural(unmatched.length, 'test')} matching no test call, counted in`)
  }
  return { ...result, index }
}

function renamedBack(renames: Map<string, string>, path: string): string {
  for (const [from, to] of renames) if (to === path) return from
  return path
}
