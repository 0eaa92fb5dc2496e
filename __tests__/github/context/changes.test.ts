/** The change itself: which patches come first, how each is capped, and how the rest is named. */
import { describe, expect, it } from '@jest/globals'
import { PATCH_CHARS, rankFiles, renderChanges, usefulness } from '../../../src/github/context/changes.js'
import type { ChangedFile } from '../../../src/github/changed-file.js'

const file = (filename: string, over: Partial<ChangedFile> = {}): ChangedFile => ({
  filename,
  status: 'modified',
  additions: 1,
  deletions: 1,
  previousFilename: undefined,
  patch: '@@ -1 +1 @@\n-a\n+b',
  ...over
})
const patchOf = (lines: number, width = 20) =>
  Array.from({ length: lines }, (_, i) => `+${String(i).padStart(width, 'x')}`).join('\n')
const none = { unread: 0, listedUnder: '' }

describe('usefulness', () => {
  // A row per kind of file: add one for a layout a repository uses.
  it.each([
    ['types/index.d.ts', 0],
    ['api/openapi.yaml', 0],
    ['proto/widgets.proto', 0],
    ['schema/config.schema.json', 0],
    ['action.yml', 0],
    ['src/cli.ts', 1],
    ['pkg/server/handler.go', 1],
    ['crates/core/src/lib.rs', 1],
    ['widgets/render.py', 1],
    ['README.md', 2],
    ['docs/guide/intro.mdx', 2],
    ['docs/config.json', 2],
    ['package.json', 3],
    ['.github/workflows/ci.yml', 3],
    ['__tests__/cli.test.ts', 4],
    ['src/cli.spec.ts', 4],
    ['pkg/server/handler_test.go', 4],
    ['tests/test_render.py', 4],
    ['testdata/golden.txt', 4],
    ['package-lock.json', 5],
    ['go.sum', 5],
    ['Cargo.lock', 5],
    ['dist/index.js', 5],
    ['web/app.min.js', 5],
    ['api/widgets.pb.go', 5],
    ['vendor/github.com/x/y.go', 5],
    ['third_party/lib/a.c', 5],
    ['assets/logo.png', 6],
    ['fonts/Inter.woff2', 6],
    // Names that only look like one of the kinds: the patterns hold to whole folders and endings.
    ['src/image.png.ts', 1],
    ['redist/setup.ts', 1],
    ['src/build.ts', 1],
    ['src/vendors/x.ts', 1],
    ['src/latest.ts', 1],
    ['src/contest/x.ts', 1],
    ['src/schemas.ts', 1],
    ['config/schema.yaml', 0],
    ['types/index.d.ts.map', 5],
    ['README.md.bak', 3],
    ['mydocs/x.yml', 3],
    ['notes.mdx', 2],
    ['go.sum.txt', 2],
    ['a.ts.orig', 3]
  ])('%s: %i', (name, rank) => {
    expect(usefulness(name)).toBe(rank)
  })
})

describe('rankFiles', () => {
  it('most useful first, then the larger change, then by name; the input is left as it was', () => {
    const files = [
      file('z.test.ts', { additions: 500 }),
      file('b.ts', { additions: 2 }),
      file('a.ts', { additions: 2 }),
      file('big.ts', { additions: 3 }),
      file('openapi.json'),
      file('README.md', { additions: 900 })
    ]
    const before = files.map((f) => f.filename)
    expect(rankFiles(files).map((f) => f.filename)).toEqual([
      'openapi.json',
      'big.ts',
      'a.ts',
      'b.ts',
      'README.md',
      'z.test.ts'
    ])
    expect(files.map((f) => f.filename)).toEqual(before)
  })
})

describe('renderChanges', () => {
  it('a patch whole in a diff fence, with its heading', () => {
    expect(renderChanges([file('src/a.ts', { additions: 3, deletions: 2 })], 10_000, none)).toBe(
      '#### src/a.ts (modified, +3 −2)\n\n```diff\n@@ -1 +1 @@\n-a\n+b\n```'
    )
  })

  it('a fence longer than any run of backticks in the patch, and renames named both ways', () => {
    const patch = '@@ -1 +1 @@\n+const s = ````x````'
    expect(renderChanges([file('b.md', { patch, previousFilename: 'a.md', status: 'renamed' })], 10_000, none)).toBe(
      `#### a.md → b.md (renamed, +1 −1)\n\n\`\`\`\`\`diff\n${patch}\n\`\`\`\`\``
    )
  })

  it('says when GitHub left the patch out', () => {
    expect(renderChanges([file('logo.png', { patch: undefined })], 10_000, none)).toBe(
      '#### logo.png (modified, +1 −1)\n\nPatch left out by GitHub (a binary file, or a diff too large to show).'
    )
  })

  it(`cuts a patch longer than ${PATCH_CHARS} characters at a line, and says how many lines are left`, () => {
    const patch = patchOf(400)
    const text = renderChanges([file('src/a.ts', { patch })], 100_000, none)
    const body = text.slice(text.indexOf('```diff\n') + 8, text.lastIndexOf('\n```'))
    expect(patch.startsWith(`${body}\n`)).toBe(true)
    const kept = body.split('\n').length
    expect(text.endsWith(`\n\`\`\`\n\n… and ${400 - kept} more lines of this file's patch.`)).toBe(true)
    expect(body.length).toBeLessThanOrEqual(PATCH_CHARS)
    expect(body.length).toBeGreaterThan(PATCH_CHARS - 100)
  })

  it(`keeps a patch of exactly ${PATCH_CHARS} characters whole, and cuts one a character longer`, () => {
    // 39 lines of 99 characters and a last one of 100 (or 101), newlines between.
    const lines = (last: number) => [
      ...Array.from({ length: 39 }, () => `+${'y'.repeat(98)}`),
      `+${'z'.repeat(last - 1)}`
    ]
    const exact = lines(100).join('\n')
    expect(exact.length).toBe(PATCH_CHARS)
    expect(renderChanges([file('a.ts', { patch: exact })], 100_000, none)).toBe(
      `#### a.ts (modified, +1 −1)\n\n\`\`\`diff\n${exact}\n\`\`\``
    )
    const longer = lines(101).join('\n')
    expect(renderChanges([file('a.ts', { patch: longer })], 100_000, none)).toBe(
      `#### a.ts (modified, +1 −1)\n\n\`\`\`diff\n${lines(101).slice(0, 39).join('\n')}\n\`\`\`\n\n… and 1 more line of this file's patch.`
    )
  })

  it('names the files past the room, most useful first, then counts what no longer fits', () => {
    const files = [
      file('src/a.ts', { patch: patchOf(60) }),
      ...Array.from({ length: 30 }, (_, i) => file(`test/t${i}.test.ts`, { patch: patchOf(30) }))
    ]
    const text = renderChanges(files, 1_800, none)
    expect(text.startsWith('#### src/a.ts')).toBe(true)
    expect(text).toMatch(
      /\n\nFiles changed without their patch here \(\d+\):\n- test\/t0\.test\.ts \(modified, \+1 −1\)\n/
    )
    expect(text).toMatch(/\n- … and \d+ more files$/)
    expect(text.length).toBeLessThanOrEqual(1_800)
    expect(text.length).toBeGreaterThan(1_700)
  })

  it('counts the files it did not read, or points to where the names are', () => {
    expect(renderChanges([file('a.ts')], 10_000, { unread: 2, listedUnder: '' })).toMatch(
      /```\n\nFiles changed without their patch here \(2\):\n- … and 2 more files$/
    )
    expect(renderChanges([file('a.ts')], 10_000, { unread: 1, listedUnder: 'Changed files' })).toMatch(
      /```\n\nThe patches of 1 more file are left out; they are listed under Changed files\.$/
    )
  })

  it('shows a cut patch only when a useful part of it fits, and nothing when not even the count does', () => {
    const big = file('src/a.ts', { patch: patchOf(100) })
    const heading = '#### src/a.ts (modified, +1 −1)\n\n```diff\n'
    const small = renderChanges([big], 700, none)
    expect(small.startsWith(heading)).toBe(true)
    expect(renderChanges([big], 200, none)).toBe(
      'Files changed without their patch here (1):\n- src/a.ts (modified, +1 −1)'
    )
    expect(renderChanges([big], 20, none)).toBe('')
  })
})
