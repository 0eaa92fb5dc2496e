import { describe, expect, it } from '@jest/globals'
import { readReport, readRecord } from '../../scripts/mutation-baseline.js'
import { ROOT } from '../../scripts/action-metadata.js'
import { commitReader, suiteGraphs } from '../../scripts/mutation/suites.js'
import { testBlocks, touchedTests } from '../../scripts/mutation/test-blocks.js'
import { indexTests } from '../../scripts/mutation/touched-tests.js'

const SOURCE = `import { describe, expect, it, test } from '@jest/globals'

describe('parse', () => {
  beforeEach(() => reset())

  it('reads a number', () => {
    expect(parse('1')).toBe(1)
  })

  it.each([
    ['a', 1],
    ['b', 2]
  ])('reads %s as %d', (text, value) => {
    expect(parse(text)).toBe(value)
  })

  describe(\`nested \${kind}\`, () => {
    test.skip('a $name row', () => undefined)
  })
})

function scenario(title: string): void {
  it(title, () => undefined)
}

it('stands alone (100%)', () => undefined)
`

describe('testBlocks', () => {
  const blocks = testBlocks(SOURCE)

  it('finds each describe and test call with the lines it spans, a describe before what it holds', () => {
    expect(blocks.map(({ kind, start, end }) => [kind, start, end])).toEqual([
      ['describe', 3, 20],
      ['test', 6, 8],
      ['test', 10, 15],
      ['describe', 17, 19],
      ['test', 18, 18],
      ['test', 23, 23],
      ['test', 26, 26]
    ])
  })

  it("matches the full names Jest gives: describes' titles first, .each placeholders and template parts as any text", () => {
    const [, number, table, , row, helper, alone] = blocks
    expect(number?.title.test('parse reads a number')).toBe(true)
    expect(number?.title.test('reads a number')).toBe(false)
    expect(number?.title.test('parse reads a number twice')).toBe(false)
    expect(table?.title.test('parse reads "a" as 1')).toBe(true)
    expect(row?.title.test('parse nested anything a $name row')).toBe(true)
    // A test declared in a function can be called under any describe, or none.
    expect(helper?.title.test('flow some title')).toBe(true)
    expect(alone?.title.test('stands alone (100%)')).toBe(true)
    expect(alone?.title.test('x stands alone (100%)')).toBe(false)
  })
})

describe('touchedTests', () => {
  const blocks = testBlocks(SOURCE)
  const titles = (spans: Array<{ from: number; to: number }>): number[] =>
    touchedTests(blocks, spans).map((block) => block.start)

  it('maps a line inside a test to that test, the .each table included', () => {
    expect(titles([{ from: 7, to: 7 }])).toEqual([6])
    expect(titles([{ from: 12, to: 12 }])).toEqual([10])
  })

  it('maps a line of a describe outside its tests (a hook, its title) to every test it holds, and only those', () => {
    expect(titles([{ from: 4, to: 4 }])).toEqual([6, 10, 18])
    expect(titles([{ from: 17, to: 17 }])).toEqual([18])
  })

  it('maps a line outside every describe and test (an import, a helper) to every test of the file', () => {
    expect(titles([{ from: 1, to: 1 }])).toEqual([6, 10, 18, 23, 26])
  })

  it('maps lines added between two lines to the innermost block holding both', () => {
    expect(titles([{ from: 7, to: 6 }])).toEqual([6]) // inside the test, after its first line
    expect(titles([{ from: 9, to: 8 }])).toEqual([6, 10, 18]) // after a test's last line, inside the describe
    expect(titles([{ from: 27, to: 26 }])).toEqual([6, 10, 18, 23, 26]) // at the end of the file
  })

  it('maps a stretch line by line', () => {
    expect(titles([{ from: 8, to: 10 }])).toEqual([6, 10, 18])
    expect(
      titles([
        { from: 18, to: 18 },
        { from: 26, to: 26 }
      ])
    ).toEqual([18, 26])
    expect(titles([])).toEqual([])
  })
})

describe("the committed baseline's tests", () => {
  it("each match exactly one test call of their suite's test files at the baseline's commit", () => {
    const { commit } = readRecord(ROOT)
    const then = commitReader(ROOT, commit)
    const index = indexTests(readReport(ROOT), then, suiteGraphs(then))
    const all = [...index.bySuite.values()].flat()
    expect(all.length).toBeGreaterThan(1000)
    expect([...index.unmatched.values()].flat()).toEqual([])
    expect(all.filter((id) => index.fileOf.get(id)?.length !== 1)).toEqual([])
    const calls = [...index.byFile.values()].flat().filter((block) => block.kind === 'test')
    expect(calls.filter((call) => call.ids.length === 0)).toEqual([])
  })
})
