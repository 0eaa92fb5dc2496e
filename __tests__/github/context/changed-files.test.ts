// The changed files a context names for the skip rules: a comparison's (and a package's own), a
// pull request's pages, and why a list may not be all of the change's files.
import { describe, expect, it } from '@jest/globals'
import type { ChangedFile } from '../../../src/github/changed-file.js'
import type { Comparison, GitHubReader } from '../../../src/github/reader.js'
import { comparedFiles, pathsOf, rangeName, unlisted } from '../../../src/github/context/changed.js'
import { readPullFiles } from '../../../src/github/context/pull-files.js'
import type { Read } from '../../../src/github/context/reading.js'
import type { Trigger } from '../../../src/github/event.js'

const changed = (filename: string, previousFilename?: string): ChangedFile => ({
  filename,
  previousFilename,
  status: previousFilename ? 'renamed' : 'modified',
  additions: 1,
  deletions: 0,
  patch: undefined
})
const comparison = (files: ChangedFile[]): Comparison => ({
  status: 'ahead',
  commits: [],
  total: 1,
  files,
  url: undefined
})

describe('a comparison’s files', () => {
  it('every path, a renamed file’s old one too', () => {
    expect(pathsOf([changed('a.ts'), changed('src/b.ts', 'lib/b.ts')])).toEqual(['a.ts', 'src/b.ts', 'lib/b.ts'])
    expect(comparedFiles('v1...v2', comparison([changed('a.ts')]))).toEqual({
      of: 'v1...v2',
      paths: ['a.ts'],
      incomplete: undefined
    })
  })

  it("a package's own: under its directory, by either name of a renamed file", () => {
    const files = [
      changed('packages/cli/a.ts'),
      changed('packages/core/b.ts', 'packages/cli/b.ts'),
      changed('packages/cli2/c.ts')
    ]
    expect(comparedFiles('cli', comparison(files), 'packages/cli').paths).toEqual([
      'packages/cli/a.ts',
      'packages/core/b.ts',
      'packages/cli/b.ts'
    ])
  })

  it('300 files may be more, 299 are all; an unread comparison is no list', () => {
    const many = (n: number) => comparison(Array.from({ length: n }, (_, i) => changed(`f${i}`)))
    expect(comparedFiles('r', many(299)).incomplete).toBeUndefined()
    expect(comparedFiles('r', many(300)).incomplete).toBe(
      "GitHub's compare lists at most 300 files, with no total, and it listed 300"
    )
    // A package's few files of a range compare cut short are no more complete.
    expect(comparedFiles('r', many(300), 'none').incomplete).toContain('it listed 300')
    expect(comparedFiles('r', undefined)).toEqual({ of: 'r', paths: [], incomplete: 'they could not be read' })
  })

  it('names a range and a list that was not read, on one line', () => {
    expect(rangeName('v1\nx', 'v2')).toBe('v1 x...v2')
    expect(unlisted('x', 'why')).toEqual({ of: 'x', paths: [], incomplete: 'why' })
  })
})

describe("a pull request's files", () => {
  const pull = (changedFiles: number | undefined): Extract<Trigger, { kind: 'pull-request' }> => ({
    kind: 'pull-request',
    repo: 'acme/app',
    number: 7,
    title: '',
    url: undefined,
    body: '',
    base: 'main',
    head: 'x',
    changedFiles,
    labels: []
  })
  /** A reader of `count` files, 100 a page; `failing` pages fail. */
  function reading(count: number, failing: number[] = []): { read: Read; pages: number[]; asked: string[] } {
    const pages: number[] = []
    const asked: string[] = []
    const reader = {
      pullFiles: (_: number, page = 1) =>
        Promise.resolve(
          Array.from({ length: Math.max(0, Math.min(100, count - (page - 1) * 100)) }, (__, i) =>
            changed(`f${(page - 1) * 100 + i}`)
          )
        )
    } as unknown as GitHubReader
    const read: Read = async (what, _permission, get) => {
      asked.push(what)
      const page = pages.length + 1
      pages.push(page)
      return failing.includes(page) ? undefined : get(reader)
    }
    return { read, pages, asked }
  }

  it('the first page alone for the context; every page for the skip rules, until the total', async () => {
    const first = reading(250)
    const some = await readPullFiles(pull(250), first.read, false)
    expect([some.files?.length, some.changed.incomplete, first.pages]).toEqual([100, 'only 100 of them were read', [1]])
    const every = reading(250)
    const all = await readPullFiles(pull(250), every.read, true)
    expect([all.files?.length, all.changed.incomplete, every.pages]).toEqual([250, undefined, [1, 2, 3]])
    expect(every.asked).toEqual([
      'the changed files of pull request #7',
      'page 2 of the changed files of pull request #7',
      'page 3 of the changed files of pull request #7'
    ])
  })

  it("reads on to a short page, past the count the event gives: a re-run's payload is the first attempt's", async () => {
    const counted = reading(200)
    expect((await readPullFiles(pull(200), counted.read, true)).changed.incomplete).toBeUndefined()
    expect(counted.pages).toEqual([1, 2, 3])
    // The payload said 100; the pull request has 150 now.
    const grown = reading(150)
    const read = await readPullFiles(pull(100), grown.read, true)
    expect([read.files?.length, read.changed.incomplete, grown.pages]).toEqual([150, undefined, [1, 2]])
    const uncounted = reading(200)
    expect((await readPullFiles(pull(undefined), uncounted.read, true)).changed.incomplete).toBeUndefined()
    expect(uncounted.pages).toEqual([1, 2, 3])
    const small = reading(3)
    expect((await readPullFiles(pull(undefined), small.read, false)).changed).toEqual({
      of: 'pull request #7',
      paths: ['f0', 'f1', 'f2'],
      incomplete: undefined
    })
  })

  it("past GitHub's 3,000, or without a total at 3,000: may be more", async () => {
    const huge = reading(3000)
    expect((await readPullFiles(pull(3500), huge.read, true)).changed.incomplete).toBe(
      'GitHub lists at most 3,000 files of a pull request, and it changes 3,500'
    )
    expect(huge.pages).toHaveLength(30)
    const cut = reading(3000)
    expect((await readPullFiles(pull(undefined), cut.read, true)).changed.incomplete).toBe(
      'GitHub lists at most 3,000 files of a pull request, and the event gives no total'
    )
    expect(cut.pages).toHaveLength(30)
    // Exactly GitHub's most, and the event says so: all of them.
    const most = reading(3000)
    expect((await readPullFiles(pull(3000), most.read, true)).changed.incomplete).toBeUndefined()
    // Fewer than the event counts, the last page short: not all of them.
    const short = reading(150)
    expect((await readPullFiles(pull(180), short.read, true)).changed.incomplete).toBe('only 150 of them were read')
  })

  it('a page that fails: no list', async () => {
    const firstFails = reading(250, [1])
    expect(await readPullFiles(pull(250), firstFails.read, true)).toEqual({
      files: undefined,
      changed: { of: 'pull request #7', paths: [], incomplete: 'they could not be read' }
    })
    const laterFails = reading(250, [2])
    const read = await readPullFiles(pull(250), laterFails.read, true)
    expect([read.files?.length, read.changed.incomplete, laterFails.pages]).toEqual([
      100,
      'page 2 of them could not be read',
      [1, 2]
    ])
  })
})
