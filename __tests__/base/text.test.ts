import { describe, expect, it } from '@jest/globals'
import { finishesWithin } from './watchdog.js'
import {
  escapeHtml,
  formatCount,
  formatTime,
  inline,
  neutralizeCommands,
  neutralizeFormatChars,
  normalizeLineEndings,
  plural,
  redact,
  SECRET_FRAGMENT_CHARS,
  truncate
} from '../../src/base/text.js'

const MIB = 1 << 20

describe('neutralizeFormatChars', () => {
  it.each([
    ['\u202A', '[U+202A]'],
    ['\u202B', '[U+202B]'],
    ['\u202C', '[U+202C]'],
    ['\u202D', '[U+202D]'],
    ['\u202E', '[U+202E]'],
    ['\u2066', '[U+2066]'],
    ['\u2067', '[U+2067]'],
    ['\u2068', '[U+2068]'],
    ['\u2069', '[U+2069]'],
    ['\u200E', '[U+200E]'],
    ['\u200F', '[U+200F]'],
    ['\u061C', '[U+061C]'],
    ['\u200B', '[U+200B]'],
    ['\u2060', '[U+2060]'],
    ['\u2064', '[U+2064]'],
    ['\uFEFF', '[U+FEFF]'],
    ['\u{E0000}', '[U+E0000]'],
    ['\u{E0048}', '[U+E0048]'],
    ['\u{E007F}', '[U+E007F]']
  ])('shows %j as %s', (char, shown) => {
    expect(neutralizeFormatChars(`a${char}b`)).toBe(`a${shown}b`)
  })

  it('leaves other text alone, joiners and marks of scripts included', () => {
    const text = 'main\u200Dx שלום 👩‍💻 e\u0301 \u2065\u2029 می\u200Cخواهم \u200A \u{E0080} 👍\uFE0F'
    expect(neutralizeFormatChars(text)).toBe(text)
  })
})

describe('inline', () => {
  it('puts text on one line: control characters and line separators become one space', () => {
    expect(inline('a\nb\r\n\tc\u0000d\u007fe\u0085f\u2028g\u2029h')).toBe('a b c d e f g h')
    expect(inline('::error::x\n::warning::y')).toBe('::error::x ::warning::y')
  })

  it('trims unless told not to, and caps the length', () => {
    expect(inline('  a  ')).toBe('a')
    expect(inline('  a  ', 300, false)).toBe('  a  ')
    expect(inline('x'.repeat(301))).toBe(`${'x'.repeat(299)}…`)
    expect(inline('x'.repeat(300))).toBe('x'.repeat(300))
    expect(inline('abcdef', 4)).toBe('abc…')
  })

  it('shows direction controls', () => {
    expect(inline('main\u202Egnp.exe')).toBe('main[U+202E]gnp.exe')
  })
})

describe('truncate', () => {
  it('keeps text of at most max units as it is', () => {
    expect(truncate('abc', 3)).toBe('abc')
    expect(truncate('', 0)).toBe('')
  })

  it('never splits a surrogate pair, an emoji sequence or a letter from its accent', () => {
    expect(truncate('ab😀cd', 4)).toBe('ab…')
    expect(truncate('ab😀cd', 5)).toBe('ab😀…')
    expect(truncate('a👩‍💻b', 6)).toBe('a…')
    expect(truncate('a👩‍💻b', 7)).toBe('a👩‍💻b')
    expect(truncate('a👩‍💻bc', 7)).toBe('a👩‍💻…')
    expect(truncate('ae\u0301e\u0301', 3)).toBe('a…')
    expect(truncate('x'.repeat(100_000), 4000)).toHaveLength(4000)
    expect(truncate(`${'x'.repeat(3998)}😀😀`, 4000)).toBe(`${'x'.repeat(3998)}…`)
  })
})

describe('escapeHtml', () => {
  it('escapes what HTML gives a meaning to, and only that', () => {
    expect(escapeHtml('<a href="x">&</a>')).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;')
    expect(escapeHtml("job_1 *x* [a](b) `c` # ! ~ | \\ '")).toBe("job_1 *x* [a](b) `c` # ! ~ | \\ '")
  })
})

describe('redact', () => {
  it('replaces every occurrence of every secret, and ignores empty ones', () => {
    expect(redact('k1 and k1, k2', ['k1', '', 'k2'])).toBe('*** and ***, ***')
    expect(redact('nothing', [])).toBe('nothing')
  })

  it(`drops the start of a secret, ${SECRET_FRAGMENT_CHARS} characters or more, left before a cut`, () => {
    const secret = 'mint_abcdefgh'
    expect(redact('error: key mint_abcd…', [secret])).toBe('error: key ***…')
    expect(redact('key=mint_abcdefg… and more', [secret])).toBe('key=***… and more')
    expect(redact('a mint… b mint_a… c', [secret])).toBe('a ***… b ***… c')
    expect(redact('a min…', [secret])).toBe('a min…')
    expect(redact('a mint_abcdefgh…', [secret])).toBe('a ***…')
    // Not before a cut, or not the start of the secret: left.
    expect(redact('a mint_abcd', [secret])).toBe('a mint_abcd')
    expect(redact('a int_abcd…', [secret])).toBe('a int_abcd…')
    expect(redact('…mint_ab', [secret])).toBe('…mint_ab')
  })

  it('drops the longest start any secret leaves', () => {
    expect(redact('x ghp_12mint_ab…', ['ghp_12mint_abc', 'mint_abc'])).toBe('x ***…')
    expect(redact('x ghp_12mint_ab…', ['mint_abc', 'ghp_12mint_abc'])).toBe('x ***…')
    expect(redact('x tok_ab…', ['', 'tok_abc'])).toBe('x ***…')
  })

  // A server's answer is up to 1 MiB. A scan that backtracks from every position of a run without
  // a cut took 7.8 s at 80,000 characters and about 20 min at a mebibyte; a linear one takes
  // milliseconds. The watchdog stops the quadratic one at 20 s.
  it('is linear on hostile text: a cut, then a mebibyte with none; many cuts; a key echoed at every cut', () => {
    const secret = 'mint_abcdefgh'
    const run = 'x'.repeat(MIB)
    expect(finishesWithin(20_000, () => redact(`a mint_abcd…${run}`, [secret]))).toBe(`a ***…${run}`)
    expect(finishesWithin(20_000, () => redact(`${run}…${run}`, [secret]))).toBe(`${run}…${run}`)
    const echoed = 'mint_abcd…'.repeat(MIB / 10)
    expect(finishesWithin(20_000, () => redact(echoed, [secret, 'other_key']))).toBe('***…'.repeat(MIB / 10))
    expect(finishesWithin(20_000, () => redact('…'.repeat(MIB), [secret]))).toBe('…'.repeat(MIB))
  })
})

describe('truncate by size', () => {
  const bytes = (text: string): number => Buffer.byteLength(text)

  it('keeps text whose size is within max, cuts the rest with `…` counted by the same measure', () => {
    expect(truncate('ééé', 6, bytes)).toBe('ééé')
    // `…` takes 3 bytes: 7 - 3 leaves room for two é.
    expect(truncate('éééé', 7, bytes)).toBe('éé…')
    expect(truncate('éééé', 6, bytes)).toBe('é…')
    expect(truncate('a😀b', 6, bytes)).toBe('a😀b')
    expect(truncate('a😀bcd', 7, bytes)).toBe('a…')
    expect(truncate('a😀bcde', 8, bytes)).toBe('a😀…')
  })
})

describe('normalizeLineEndings', () => {
  it('makes every line end a \\n, a lone CR and the Unicode separators included', () => {
    expect(normalizeLineEndings('a\r\nb\rc\nd\u2028e\u2029f\u0085g\r\rh\n\ri')).toBe('a\nb\nc\nd\ne\nf\ng\n\nh\n\ni')
  })
})

describe('neutralizeCommands', () => {
  // What the runner finds: `##[` with characters of no weight between the signs skipped.
  const runnerFinds = (text: string): boolean =>
    text.replace(/[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\p{Mn}\p{Me}]/gu, '').includes('##[')

  it.each([
    ['##[warning]forged', '## [warning]forged'],
    ['text ##[add-mask]secret', 'text ## [add-mask]secret'],
    ['a##[stop-commands]t ##[error]x', 'a## [stop-commands]t ## [error]x'],
    ['###[x]', '### [x]'],
    ['#\u200B#[warning]x', '#\u200B# [warning]x'],
    ['#\u00AD#\u0000[debug]x', '#\u00AD#\u0000 [debug]x'],
    ['#\u{E0041}#\uFE0F[x]', '#\u{E0041}#\uFE0F [x]']
  ])('puts a space in %j', (text, shown) => {
    expect(runnerFinds(text)).toBe(true)
    expect(neutralizeCommands(text)).toBe(shown)
    expect(runnerFinds(shown)).toBe(false)
  })

  it('leaves anything else alone', () => {
    const text = '# [x] #x#[ ## [ ::warning::x #[y] ##'
    expect(neutralizeCommands(text)).toBe(text)
  })
})

describe('formatting', () => {
  it('separates thousands', () => {
    expect([formatCount(0), formatCount(999), formatCount(1000), formatCount(100_000), formatCount(1_234_567)]).toEqual(
      ['0', '999', '1,000', '100,000', '1,234,567']
    )
    expect([formatCount(-1234), formatCount(-999), formatCount(12_345_678_901)]).toEqual([
      '-1,234',
      '-999',
      '12,345,678,901'
    ])
  })

  it('shows times in UTC to the second, and anything else as it is', () => {
    expect(formatTime('2026-11-21T10:00:00.123Z')).toBe('2026-11-21 10:00:00 UTC')
    expect(formatTime('2026-11-21T12:00:00+02:00')).toBe('2026-11-21 10:00:00 UTC')
    expect(formatTime('yesterday')).toBe('yesterday')
  })

  it('counts in words', () => {
    expect([
      plural(0, 'poll'),
      plural(1, 'poll'),
      plural(2, 'poll'),
      plural(1000, 'change'),
      plural(2, 'more line', 'more lines')
    ]).toEqual(['0 polls', '1 poll', '2 polls', '1,000 changes', '2 more lines'])
  })
})
