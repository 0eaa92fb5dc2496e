// `paths` and `paths-ignore` patterns as GitHub's "Filter pattern cheat sheet" (workflow syntax for
// GitHub Actions, "Patterns to match file paths" and the special characters above it) defines them:
// every example of its table, the inner-`**` cases picomatch got wrong, and the malformed patterns
// refused before any request. path-filters.test.ts runs a release through `main`.
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { filterRegExp, matchesList, parsePatterns } from '../../src/step/skip/patterns.js'

const matching = (patterns: string, paths: string[], input: 'paths' | 'paths-ignore' = 'paths'): string[] =>
  paths.filter((path) => matchesList(parsePatterns(patterns, input), path))

describe("GitHub's filter pattern cheat sheet", () => {
  // [pattern(s), the cheat sheet's example matches (then ours), not matched]: its table, row by row.
  it.each<[string, string[], string[]]>([
    ['*', ['README.md', 'server.rb', '.env'], ['docs/README.md']],
    ['*.jsx?', ['page.js', 'page.jsx'], ['page.jsxx', 'page.j', 'src/page.js']],
    ['**', ['all/the/files.md', '.github/workflows/ci.yml'], []],
    ['*.js', ['app.js', 'index.js'], ['src/app.js', 'app.jsx']],
    ['**.js', ['index.js', 'js/index.js', 'src/js/app.js'], ['index.ts']],
    ['docs/*', ['docs/README.md', 'docs/file.txt'], ['docs/mona/octocat.txt', 'README.md']],
    ['docs/**', ['docs/README.md', 'docs/mona/octocat.txt'], ['src/docs.md', 'docs']],
    ['docs/**/*.md', ['docs/README.md', 'docs/mona/hello-world.md', 'docs/a/markdown/file.md'], ['docs/a.txt']],
    ['**/docs/**', ['docs/hello.md', 'dir/docs/my-file.txt', 'space/docs/plan/space.doc'], ['mydocs/a.md']],
    ['**/README.md', ['README.md', 'js/README.md'], ['README.mdx', 'js/MY-README.md']],
    ['**/*src/**', ['a/src/app.js', 'my-src/code/js/app.js'], ['source/app.js']],
    ['**/*-post.md', ['my-post.md', 'path/their-post.md'], ['post.md']],
    ['**/migrate-*.sql', ['migrate-10909.sql', 'db/migrate-v1.0.sql', 'db/sept/migrate-v1.sql'], ['migrate.sql']],
    ['*.md\n!README.md', ['hello.md'], ['README.md', 'docs/hello.md']],
    ['*.md\n!README.md\nREADME*', ['hello.md', 'README.md', 'README.doc'], ['docs/README.md']],
    // The special characters' own examples, and the branch table's pattern with ? and + (they apply to paths too).
    ['Octo*', ['Octocat'], ['Octo/cat']],
    ['[CB]at', ['Cat', 'Bat'], ['Hat', 'cat']],
    ['[1-2]00', ['100', '200'], ['300']],
    ['[0-9a-z]', ['7', 'q'], ['Q', '-']],
    ['v[12].[0-9]+.[0-9]+', ['v1.10.1', 'v2.0.0'], ['v3.0.0', 'v1..1', 'v1.x.1']]
  ])('%j matches %j and not %j', (patterns, yes, no) => {
    expect(matching(patterns, [...yes, ...no])).toEqual(yes)
  })

  // `**` is "zero or more of any character" wherever it stands, not only as a whole path segment.
  it.each<[string, string[], string[]]>([
    ['src/**.ts', ['src/a.ts', 'src/lib/a.ts', 'src/lib/deep/b.ts'], ['src/a.tsx', 'lib/a.ts']],
    ['src/a**', ['src/a', 'src/a/b/c', 'src/ab.md'], ['src/b/a']],
    ['**test**', ['test', 'a/test/b', 'src/latest.md'], ['src/tes.t']],
    ['docs/**/index.md', ['docs/index.md', 'docs/a/b/index.md'], ['docs/a/b/xindex.md']],
    ['a/**b', ['a/b', 'a/x/b', 'a/xb'], ['a/x/c']],
    // A file name may hold a line break (git and GitHub's API take one): "any character" includes it.
    ['docs/**', ['docs/a\nb.md', 'docs/a\r/b\u2028c.md'], ['doc\ns/a.md']]
  ])('inner **: %j matches %j and not %j', (patterns, yes, no) => {
    expect(matching(patterns, [...yes, ...no])).toEqual(yes)
  })

  it('** matches every path * matches, in any pattern', () => {
    const pieces = fc.constantFrom('a', 'b', '/', '.', '*')
    const paths = fc.stringMatching(/^[ab./\n\r\u2028]{0,8}$/)
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 6 }), paths, (parts, path) => {
        const glob = parts.join('').replace(/\*+/g, '*')
        const wide = glob.replace(/\*/g, '**')
        fc.pre(typeof filterRegExp(glob) === 'string')
        if (matching(glob, [path]).length) expect(matching(wide, [path])).toEqual([path])
      })
    )
  })

  it('takes parentheses, braces without a comma and escaped characters literally', () => {
    expect(matching('app/(marketing)/**', ['app/(marketing)/page.tsx', 'app/marketing/page.tsx'])).toEqual([
      'app/(marketing)/page.tsx'
    ])
    expect(matching('pages/\\[slug\\]/{id}.tsx', ['pages/[slug]/{id}.tsx', 'pages/s/{id}.tsx'])).toEqual([
      'pages/[slug]/{id}.tsx'
    ])
    expect(matching('docs/\\*.md', ['docs/*.md', 'docs/a.md'])).toEqual(['docs/*.md'])
    expect(matching('a\\?', ['a?', 'a'])).toEqual(['a?'])
    expect(matching('a(?b', ['ab', 'a(b', 'a((b'])).toEqual(['ab', 'a(b'])
    expect(matching('a)+', ['a)', 'a))', 'a'])).toEqual(['a)', 'a))'])
    expect(matching('a/?b', ['ab', 'a/b', 'a//b'])).toEqual(['ab', 'a/b'])
  })

  it('applies the patterns in order: the last that matches decides', () => {
    expect(
      matching('src/**\n!src/**/*.test.ts\nsrc/keep.test.ts', ['src/a.ts', 'src/b.test.ts', 'src/keep.test.ts'])
    ).toEqual(['src/a.ts', 'src/keep.test.ts'])
  })

  it('reads one pattern a line, blank lines and surrounding spaces left out', () => {
    expect(parsePatterns('\n  .github/**  \r\n\n**/*.test.ts\n', 'paths-ignore').map((p) => p.text)).toEqual([
      '.github/**',
      '**/*.test.ts'
    ])
    expect(parsePatterns('', 'paths')).toEqual([])
  })
})

describe('patterns refused before any request', () => {
  it.each<['paths' | 'paths-ignore', string, string]>([
    ['paths', 'src/[abc', 'has a [ with no ] to close it'],
    ['paths', 'a[]b', 'has an empty []'],
    ['paths', '[z-a]', 'has the range z-a, where ranges are a-z, A-Z or 0-9, low to high'],
    ['paths', '[a-Z]', 'has the range a-Z, where ranges are a-z, A-Z or 0-9, low to high'],
    ['paths', '[!a]', 'has ! in [...], which lists letters, digits and ranges only'],
    ['paths', '*?', 'has a ? with no character or [...] before it to repeat'],
    ['paths', '+a', 'has a + with no character or [...] before it to repeat'],
    ['paths', 'a??', 'has a ? with no character or [...] before it to repeat'],
    ['paths', 'a+?', 'has a ? with no character or [...] before it to repeat'],
    ['paths', '**+', 'has a + with no character or [...] before it to repeat'],
    ['paths', 'a\\', 'ends with \\, which escapes nothing'],
    ['paths', '**/*.{md,mdx}', 'has {a,b} alternatives, which GitHub does not expand: write each a line'],
    ['paths', 'src/**, docs/**', 'looks like a comma-separated list'],
    ['paths', '"src/**"', 'is written as a YAML list item or quoted: the input is text'],
    ['paths', "'src/**'", 'is written as a YAML list item or quoted: the input is text'],
    ['paths', '- src/**', 'is written as a YAML list item or quoted: the input is text'],
    ['paths', '!', 'is empty after !'],
    [
      'paths-ignore',
      '**\n!docs/**',
      'starts with !, which only paths takes (GitHub says the same): use paths with ! patterns instead'
    ],
    ['paths-ignore', 'docs/[ab', 'has a [ with no ] to close it']
  ])('%s: %j', (input, value, why) => {
    const bad = value.split('\n').find((line) => line !== '**') ?? value
    const form =
      input === 'paths'
        ? "expected one of GitHub's filter patterns a line, as on.push.paths takes them: * (not /), ** (anything), ? and + after a character or [...], [a-z0-9] (letters, digits, ranges), ! first to take files back."
        : "expected one of GitHub's filter patterns a line, as on.push.paths-ignore takes them: * (not /), ** (anything), ? and + after a character or [...], [a-z0-9] (letters, digits, ranges)."
    expect(() => parsePatterns(value, input)).toThrow(`Input '${input}': "${bad}" ${why}; ${form}`)
  })

  it('never shows a regular expression', () => {
    for (const value of ['[z-a]', 'a\\', 'src/[abc', '*?', '[a-Z]']) {
      let message = ''
      try {
        parsePatterns(value, 'paths')
      } catch (error) {
        message = String(error)
      }
      expect(message).toMatch(/^InputError: Input 'paths': /)
      expect(message).not.toMatch(/regular expression|\(\?:|\[\^\/\]|\.\*/)
    }
  })

  it('paths made only of ! patterns can match nothing', () => {
    expect(() => parsePatterns('!docs/**\n!README.md', 'paths')).toThrow(
      /^Input 'paths': every pattern starts with !, so none can match/
    )
  })
})
