// `paths` and `paths-ignore` patterns as GitHub's filter cheat sheet defines them ("Patterns to match
// file paths", workflow syntax for GitHub Actions): every row of its table, then the malformed
// patterns refused before any request.
import { describe, expect, it } from '@jest/globals'
import { loadPatternMatcher, matchesList, parsePatterns, picomatchGlob } from '../../src/step/skip/patterns.js'

// The steps with path rules load picomatch before their inputs are read (main.ts); so do these tests.
await loadPatternMatcher()

const matching = (patterns: string, paths: string[]): string[] =>
  paths.filter((path) => matchesList(parsePatterns(patterns, 'paths'), path))

describe("GitHub's filter patterns", () => {
  // [pattern(s), matched, not matched]: the cheat sheet's rows, with counter-examples.
  it.each<[string, string[], string[]]>([
    ['*', ['README.md', 'server.rb', '.env'], ['docs/README.md']],
    ['*.jsx?', ['page.js', 'page.jsx'], ['page.jsxx', 'page.j', 'src/page.js']],
    ['**', ['all/the/files.md', '.github/workflows/ci.yml'], []],
    ['*.js', ['app.js', 'index.js'], ['src/app.js', 'app.jsx']],
    ['**.js', ['index.js', 'js/index.js', 'src/js/app.js'], ['index.ts']],
    ['docs/*', ['docs/README.md', 'docs/file.txt'], ['docs/mona/octocat.txt', 'README.md']],
    ['docs/**', ['docs/README.md', 'docs/mona/octocat.txt'], ['src/docs.md']],
    ['docs/**/*.md', ['docs/README.md', 'docs/mona/hello-world.md', 'docs/a/markdown/file.md'], ['docs/a.txt']],
    ['**/docs/**', ['docs/hello.md', 'dir/docs/my-file.txt', 'space/docs/plan/space.doc'], ['mydocs/a.md']],
    ['**/README.md', ['README.md', 'js/README.md'], ['README.mdx']],
    ['**/*src/**', ['a/src/app.js', 'my-src/code/js/app.js'], ['source/app.js']],
    ['**/*-post.md', ['my-post.md', 'path/their-post.md'], ['post.md']],
    ['**/migrate-*.sql', ['migrate-10909.sql', 'db/migrate-v1.0.sql', 'db/sept/migrate-v1.sql'], ['migrate.sql']],
    ['*.md\n!README.md', ['hello.md'], ['README.md', 'docs/hello.md']],
    ['*.md\n!README.md\nREADME*', ['hello.md', 'README.md', 'README.doc'], ['docs/README.md']],
    ['v[12].[0-9]+.[0-9]+', ['v1.10.1', 'v2.0.0'], ['v3.0.0', 'v1..1']],
    ['[CB]at', ['Cat', 'Bat'], ['Hat', 'cat']],
    ['[1-2]00', ['100', '200'], ['300']],
    ['Octo*', ['Octocat'], ['Octo/cat']]
  ])('%j matches %j and not %j', (patterns, yes, no) => {
    expect(matching(patterns, [...yes, ...no])).toEqual(yes)
  })

  it('takes parentheses literally, as GitHub does (route groups)', () => {
    expect(matching('app/(marketing)/**', ['app/(marketing)/page.tsx', 'app/marketing/page.tsx'])).toEqual([
      'app/(marketing)/page.tsx'
    ])
  })

  it('expands braces, beyond GitHub, and keeps escapes', () => {
    expect(matching('**/*.{md,mdx}', ['a/b.md', 'c.mdx', 'd.txt'])).toEqual(['a/b.md', 'c.mdx'])
    expect(matching('docs/\\*.md', ['docs/*.md', 'docs/a.md'])).toEqual(['docs/*.md'])
    expect(matching('a\\?', ['a?', 'a'])).toEqual(['a?'])
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

  it('writes GitHub quantifiers as extglobs and escapes parentheses', () => {
    expect(picomatchGlob('*.jsx?')).toBe('*.js?(x)')
    expect(picomatchGlob('[0-9]+.x')).toBe('+([0-9]).x')
    expect(picomatchGlob('[]a]?')).toBe('?([]a])')
    expect(picomatchGlob('\\*?')).toBe('?(\\*)')
    expect(picomatchGlob('a(b)')).toBe('a\\(b\\)')
    expect(picomatchGlob('[ab')).toBe('[ab')
    expect(picomatchGlob('[!a]?[^]b]+')).toBe('?([!a])+([^]b])')
    expect(picomatchGlob('[a\\]]+')).toBe('+([a\\]])')
    expect(picomatchGlob('a\\')).toBe('a\\')
  })

  it('repeats a parenthesis, which is a character like any other', () => {
    expect(matching('a(?b', ['ab', 'a(b', 'a((b'])).toEqual(['ab', 'a(b'])
    expect(matching('a)+', ['a)', 'a))', 'a'])).toEqual(['a)', 'a))'])
  })

  it('takes quotes and dashes inside a pattern as characters', () => {
    const paths = ['docs/a - b.md', "docs/'q'.md", "'a'b", "docs/'q'"]
    expect(matching(paths.join('\n'), paths)).toEqual(paths)
  })
})

describe('patterns refused before any request', () => {
  it.each<[string, string, RegExp]>([
    ['paths', 'src/[abc', /^Input 'paths': "src\/\[abc" is not a valid pattern \(Missing closing: "\]"/],
    [
      'paths-ignore',
      'docs/{a,b',
      /^Input 'paths-ignore': "docs\/\{a,b" is not a valid pattern \(Missing closing: "\}"/
    ],
    ['paths', '[z-a]', /"\[z-a\]" is not a valid pattern \(Invalid regular expression/],
    ['paths', 'a[]b', /"a\[\]b" is not a valid pattern/],
    ['paths', '*?', /"\*\?" is not a valid pattern \(\? repeats the character or \[class\] before it/],
    ['paths', '+a', /"\+a" is not a valid pattern \(\+ repeats/],
    ['paths', 'a/?', /"a\/\?" is not a valid pattern/],
    ['paths', 'a??', /"a\?\?" is not a valid pattern \(\? repeats/],
    ['paths', 'a+?', /"a\+\?" is not a valid pattern \(\? repeats/],
    ['paths', 'a\\', /"a\\" is not a valid pattern \(Invalid regular expression/],
    ['paths', 'a, {b}', /looks like a comma-separated list/],
    ['paths', '"src/**"', /is written as a YAML list item or quoted/],
    [
      'paths',
      "'src/**'",
      /"'src\/\*\*'" is written as a YAML list item or quoted: the input is text; expected one pattern a line/
    ],
    ['paths', '- src/**', /is written as a YAML list item or quoted/],
    ['paths', 'src/**, docs/**', /"src\/\*\*, docs\/\*\*" looks like a comma-separated list/],
    ['paths', '!', /"!" is empty after !/],
    ['paths', '!docs/**\n!README.md', /^Input 'paths': every pattern starts with !, so none can match/],
    ['paths-ignore', '!docs/**', /^Input 'paths-ignore': every pattern starts with !/]
  ])('%s: %j', (input, value, message) => {
    expect(() => parsePatterns(value, input)).toThrow(message)
  })

  it('keeps commas inside braces', () => {
    expect(matching('src/{a, b}.ts', ['src/a.ts', 'src/ b.ts'])).toEqual(['src/a.ts', 'src/ b.ts'])
    expect(matching('src/{a, bc}.ts', ['src/a.ts', 'src/ bc.ts'])).toEqual(['src/a.ts', 'src/ bc.ts'])
  })
})
