import { describe, expect, it } from '@jest/globals'
import { loadMicromark, removeHidden, removeHiddenWith, visibleText } from '../../src/base/hidden.js'
import { finishesWithin } from './watchdog.js'

const KIB_64 = 1 << 16

describe('removeHidden', () => {
  it.each([
    ['a<!-- hidden -->b', 'ab', 15],
    ['a<!--\nline\n-->b', 'ab', 13],
    ['a\n\n<!-- x --!>\nb', 'a\n\n\nb', 11],
    ['a<!-->b', 'ab', 5],
    ['a<!--->b', 'ab', 6],
    ['a<!---->b', 'ab', 7],
    ['a\n\n<!-- never closed\nb', 'a\n\n', 19],
    ['a<!-- one --> b <!-- two -->c', 'a b c', 24],
    ['a\u{E0041}\u{E0042}\u{E007F}b', 'ab', 3],
    ['a\u200B\u200C\u200D\u2060\uFEFF\u00AD\u034F\u180E\uFE0F\u{E0100}b', 'ab', 10],
    ['a\u202Eb\u2066c\u200Ed', 'abcd', 3]
  ])('removes what %j hides', async (text, visible, removed) => {
    expect(await removeHidden(text)).toEqual({ text: visible, removed })
  })

  it('leaves what a reader sees: letters with accents, scripts, symbols, comment-like text', async () => {
    // GitHub shows an inline comment that CommonMark does not end as text, escaped.
    const text = 'e\u0301 שלום 日本 😀 <!- x -> <! -- y --> &lt;!-- z --&gt; a<!-- x --!>b c<!-- open\n\t\n'
    expect(await removeHidden(text)).toEqual({ text, removed: 0 })
  })

  it('needs no parser for text without `<` or `]:`, and refuses text with them without one', () => {
    expect(removeHiddenWith(undefined, 'a\u200Bb [x] (y): z')).toEqual({ text: 'ab [x] (y): z', removed: 1 })
    // Fails closed: a text that may hide something is never passed on unparsed.
    expect(() => removeHiddenWith(undefined, 'a\u200B<!-- x -->')).toThrow('needs the parser')
  })
})

describe('visibleText', () => {
  it('cleans every string in arrays and plain objects, counts what went, and leaves other values alone', async () => {
    const counts: number[] = []
    const date = new Date(0)
    const value = {
      title: 'a\u200Bb',
      n: 3,
      none: undefined,
      empty: null,
      nested: { list: ['x\r\ny', '<!-- c -->z', 7], date }
    }
    const clean = await visibleText(value, (removed) => counts.push(removed))
    expect(clean).toEqual({ title: 'ab', n: 3, none: undefined, empty: null, nested: { list: ['x\ny', 'z', 7], date } })
    expect(clean.nested.date).toBe(date)
    expect(counts).toEqual([1, 10])
    expect(value.title).toBe('a\u200Bb')
  })
})

describe('removeHidden, with a CommonMark parser', () => {
  it.each([
    ['link reference definitions', 'a\n\n[//]: # (hidden words)\n[x]: https://e.test "title"\n\nb', 'a\n\n\n\n\nb'],
    [
      'HTML attributes, inline',
      'see <span title="hidden" data-x=\'h\'>this</span> <img alt=hidden src="x.png" />',
      'see <span>this</span> <img/>'
    ],
    [
      'HTML attributes, in a block',
      '<div data-note="hidden">\nshown <b title="h">too</b>\n</div>',
      '<div>\nshown <b>too</b>\n</div>'
    ],
    ['processing instructions', 'a <?php hidden ?> b', 'a  b'],
    ['CDATA', 'a <![CDATA[ hidden ]]> b', 'a  b'],
    ['declarations', 'a <!DOCTYPE hidden> b', 'a  b'],
    ['comments and the rest in an HTML block', '<div>\n<!-- h --><?h?><![CDATA[h]]>\n</div>', '<div>\n\n</div>']
  ])('removes %s', async (_what, text, visible) => {
    expect((await removeHidden(text)).text).toBe(visible)
  })

  it('counts the characters that went', async () => {
    expect(await removeHidden('<b title="x">a</b>')).toEqual({ text: '<b>a</b>', removed: 10 })
    expect(await removeHidden('[//]: # (x)')).toEqual({ text: '', removed: 11 })
  })

  it('leaves code as GitHub shows it: spans, fenced and indented blocks; and footnotes, which GitHub shows', async () => {
    const text = [
      'Use `<!-- x -->` and `<b title="t">`.',
      '',
      '```html',
      '<!-- shown -->',
      '[//]: # (shown)',
      '```',
      '',
      '    <?shown?>',
      '',
      'Text[^1].',
      '',
      '[^1]: A footnote.'
    ].join('\n')
    expect(await removeHidden(text)).toEqual({ text, removed: 0 })
  })

  it('still removes invisible characters inside code', async () => {
    expect(await removeHidden('`a\u200Bb`')).toEqual({ text: '`ab`', removed: 1 })
  })

  // micromark's emphasis and nested block quotes are quadratic (102 s and 32 s at 64 KiB):
  // those constructs are not parsed. Linear, each takes about a second under load.
  it.each([
    ['emphasis', '*a'.repeat(KIB_64 / 2)],
    ['nested block quotes', '> '.repeat(KIB_64 / 2)],
    ['unclosed tags', '<a b '.repeat(KIB_64 / 5)],
    ['unclosed comments', '<!--'.repeat(KIB_64 / 4)],
    ['brackets', '['.repeat(KIB_64)]
  ])('is linear on %s', async (_what, text) => {
    const parser = await loadMicromark()
    expect(finishesWithin(20_000, () => removeHiddenWith(parser, text).text.length)).toBeLessThanOrEqual(text.length)
  })
})
