// The tests a test file declares, read with the TypeScript compiler: where each `it`/`test` call and
// each `describe` spans, and the full names it can give its tests. Stryker knows a test by its full
// name and a line inside its call, but by the suite file that imported it, not the test file: this is
// how a line of an imported test file is traced back to the tests it belongs to.
import ts from 'typescript'

/** An `it`/`test` call (`.each`, `.skip`, … included) or a `describe`, by 1-based lines. */
export interface TestBlock {
  kind: 'test' | 'describe'
  /** First and last line of the whole call, the title and an `.each` table included. */
  start: number
  end: number
  /** Matches the full names the call can give its tests (describes' titles first), as far as the source says. */
  title: RegExp
}

const TESTS = new Set(['it', 'test'])
const SUITES = new Set(['describe'])

/** `it`, `it.each`, `it.skip.each`, `it.each(table)`: the base name, and whether it is a table. */
function callee(expression: ts.Expression): { name: string; each: boolean } | undefined {
  if (ts.isIdentifier(expression)) return { name: expression.text, each: false }
  if (ts.isPropertyAccessExpression(expression)) {
    const inner = callee(expression.expression)
    return inner && { name: inner.name, each: inner.each || expression.name.text === 'each' }
  }
  // `it.each(table)` and `it.each\`table\`` return the function that takes the title.
  if (ts.isCallExpression(expression) || ts.isTaggedTemplateExpression(expression)) {
    const target = ts.isCallExpression(expression) ? expression.expression : expression.tag
    const inner = callee(target)
    return inner?.each === true ? inner : undefined
  }
  return undefined
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** What a literal title can render to: `.each` fills `%s`-style and `$name` placeholders. */
function literal(text: string, each: boolean): string {
  if (!each) return escape(text)
  return text
    .split(/(%[sdifjopc#%]|\$[A-Za-z_][\w.]*)/)
    .map((part, index) => (index % 2 === 1 ? (part === '%%' ? '%' : '.*') : escape(part)))
    .join('')
}

function titlePattern(title: ts.Expression | undefined, each: boolean): string {
  if (title !== undefined && (ts.isStringLiteral(title) || ts.isNoSubstitutionTemplateLiteral(title))) {
    return literal(title.text, each)
  }
  if (title !== undefined && ts.isTemplateExpression(title)) {
    return (
      literal(title.head.text, each) +
      title.templateSpans.map((span) => '.*' + literal(span.literal.text, each)).join('')
    )
  }
  return '.*'
}

// Where a function that is no describe's own body sits between a test and its describes, the test
// may be declared from anywhere: its name's start is not known here.
const ANYWHERE = '(?:.* )?'

/** The test and describe calls of a test file, in source order (a describe before what it holds). */
export function testBlocks(source: string, fileName = 'test.ts'): TestBlock[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)
  const line = (position: number): number => file.getLineAndCharacterOfPosition(position).line + 1
  const blocks: TestBlock[] = []
  // Jest's full name: the describes' titles and the test's, joined by spaces.
  const visit = (node: ts.Node, prefix: string): void => {
    const called = ts.isCallExpression(node) ? callee(node.expression) : undefined
    const kind = called && (TESTS.has(called.name) ? 'test' : SUITES.has(called.name) ? 'describe' : undefined)
    if (ts.isCallExpression(node) && called && kind) {
      const title = titlePattern(node.arguments[0], called.each)
      blocks.push({
        kind,
        start: line(node.getStart(file)),
        end: line(node.getEnd()),
        title: new RegExp(`^${prefix}${title}$`, 's')
      })
      ts.forEachChild(node.expression, (child) => visit(child, prefix))
      for (const argument of node.arguments) {
        const body = kind === 'describe' && ts.isFunctionLike(argument)
        ts.forEachChild(argument, (child) => visit(child, body ? `${prefix}${title} ` : prefix))
      }
      return
    }
    const inner = ts.isFunctionLike(node) && !prefix.endsWith(ANYWHERE) ? prefix + ANYWHERE : prefix
    ts.forEachChild(node, (child) => visit(child, inner))
  }
  visit(file, '')
  return blocks
}

/** A changed stretch of the old file: lines `from`..`to`, or (to = from - 1) a point after line `to`. */
export interface LineSpan {
  from: number
  to: number
}

/**
 * The tests a change touches: a line inside a test is that test; a line inside a describe but no
 * test is every test of that describe (its hooks and helpers are its own); any other line, an import
 * or a helper at the top, is every test of the file. A point (lines inserted) is inside a block when
 * lines of the block are on both sides of it.
 */
export function touchedTests<Block extends Pick<TestBlock, 'kind' | 'start' | 'end'>>(
  blocks: readonly Block[],
  spans: readonly LineSpan[]
): Block[] {
  const tests = blocks.filter((block) => block.kind === 'test')
  const touched = new Set<Block>()
  const inside = (block: Block, span: LineSpan): boolean =>
    span.to < span.from
      ? block.start <= span.to && span.from <= block.end
      : block.start <= span.from && span.to <= block.end
  for (const span of spans) {
    const lines = span.to < span.from ? [span] : range(span.from, span.to).map((at) => ({ from: at, to: at }))
    for (const at of lines) {
      // The innermost block holding the line: blocks nest, so it is the last one that starts first.
      const holder = blocks.filter((block) => inside(block, at)).at(-1)
      const within =
        holder === undefined ? tests : tests.filter((test) => holder.start <= test.start && test.end <= holder.end)
      for (const test of within) touched.add(test)
    }
  }
  return tests.filter((test) => touched.has(test))
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, index) => from + index)
}
