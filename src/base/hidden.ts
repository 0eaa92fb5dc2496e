/**
 * Hidden text: what GitHub's renderer never shows a reader of markdown, found with micromark (a
 * CommonMark parser) rather than guessed by regular expressions, so that code stays code.
 */
import { parse, postprocess, preprocess } from 'micromark'
import type { Event } from 'micromark-util-types'
import { normalizeLineEndings } from './text.js'

// Tag characters (U+E0000–U+E007F) are among them, as are zero-width characters, soft hyphens,
// direction controls and variation selectors: nothing a reader sees, in code or out of it.
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu

// Only what decides hiddenness is parsed: emphasis, links and containers are off. Emphasis and
// nested block quotes make micromark quadratic (102 s for 64 KiB of `*a`, 32 s for 32,768 `> `);
// without them it is linear. The cost: a definition inside a block quote or a list item is read
// as text and kept.
const ONLY_WHAT_HIDES = {
  disable: {
    null: [
      'attention',
      'autolink',
      'blockQuote',
      'characterEscape',
      'characterReference',
      'hardBreakEscape',
      'headingAtx',
      'labelEnd',
      'labelStartImage',
      'labelStartLink',
      'list',
      'setextUnderline',
      'thematicBreak'
    ]
  }
}

// Inside an HTML block: comments (as a browser ends them, or never), processing instructions,
// CDATA, declarations, and a tag's attributes (its name stays, and the text between tags).
const HTML_HIDDEN =
  /<!--(?:-?>|[\s\S]*?(?:--!?>|$))|<\?[\s\S]*?(?:\?>|$)|<!\[CDATA\[[\s\S]*?(?:\]\]>|$)|<![A-Za-z][^>]*(?:>|$)|<(\/?[A-Za-z][A-Za-z0-9-]*)(?:\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*\s*(\/?)>/g

/**
 * Text as GitHub shows it rendered, for the agent to read no more than a reviewer does: HTML
 * comments, processing instructions, CDATA and declarations, the attributes of HTML tags (`title`,
 * `alt`, `data-*`), link reference definitions (`[//]: # (…)`; a footnote's, which GitHub shows,
 * stays) and default-ignorable characters removed. Code spans and code blocks keep all but the
 * last. `removed` counts the characters (code points) that went.
 */
export function removeHidden(text: string): { text: string; removed: number } {
  let out = ''
  let at = 0
  for (const [start, end, kept] of hiddenRanges(text)) {
    out += text.slice(at, start) + kept
    at = end
  }
  out += text.slice(at)
  const visible = out.replace(IGNORABLE, '')
  return { text: visible, removed: codePoints(text) - codePoints(visible) }
}

// Every hidden construct holds `<` (HTML) or `]:` (a definition): other text, most of what GitHub
// answers (tag names, shas, most commit messages), skips the parser, which costs about 0.2 ms a string.
const MAY_HIDE = /<|\]:/

/** `[start, end, what stays]` of each hidden construct, in order. */
function* hiddenRanges(text: string): Generator<[number, number, string]> {
  if (!MAY_HIDE.test(text)) return
  let after = 0
  for (const [kind, token] of events(text)) {
    if (kind !== 'enter') continue
    const start = token.start.offset
    const end = token.end.offset
    if (start < after) continue
    const raw = text.slice(start, end)
    if (token.type === 'definition' && !raw.startsWith('[^')) yield [start, end, '']
    else if (token.type === 'htmlText' || token.type === 'htmlFlow') yield [start, end, withoutHiddenHtml(raw)]
    else continue
    after = end
  }
}

function events(text: string): Event[] {
  return postprocess(
    parse({ extensions: [ONLY_WHAT_HIDES] })
      .document()
      .write(preprocess()(text, undefined, true))
  )
}

function withoutHiddenHtml(html: string): string {
  return html.replace(HTML_HIDDEN, (_found, name: string | undefined, close: string | undefined) =>
    name === undefined ? '' : `<${name}${close ?? ''}>`
  )
}

function codePoints(text: string): number {
  let count = 0
  for (const _ of text) count++
  return count
}

/**
 * `value` with `normalizeLineEndings` and `removeHidden` applied to every string in it, arrays
 * and plain objects walked; `removed` is told each count.
 */
export function visibleText<T>(value: T, removed: (count: number) => void): T {
  if (typeof value === 'string') {
    const visible = removeHidden(normalizeLineEndings(value))
    if (visible.removed) removed(visible.removed)
    return visible.text as T
  }
  if (Array.isArray(value)) return value.map((item: unknown) => visibleText(item, removed)) as T
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, visibleText(item, removed)])) as T
  }
  return value
}
