/**
 * Hidden text: what GitHub's renderer never shows a reader of markdown, found with micromark (a
 * CommonMark parser) rather than guessed by regular expressions, so that code stays code.
 */
import type { parse, postprocess, preprocess } from 'micromark'
import type { Event } from 'micromark-util-types'
import { normalizeLineEndings } from './text.js'

/** The parser's steps that `events` drives. */
export interface Micromark {
  parse: typeof parse
  postprocess: typeof postprocess
  preprocess: typeof preprocess
}

let loading: Promise<Micromark> | undefined

/**
 * micromark, loaded the first time a text may hide something: most runs read no such text, and
 * never load the parser's 0.28 MB.
 */
export function loadMicromark(): Promise<Micromark> {
  return (loading ??= import('micromark'))
}

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
export async function removeHidden(text: string): Promise<Visible> {
  return removeHiddenWith(MAY_HIDE.test(text) ? await loadMicromark() : undefined, text)
}

export interface Visible {
  text: string
  removed: number
}

/**
 * `removeHidden` with the parser at hand: `parser` may be undefined only when no text it is given
 * may hide anything; a text that may, without it, throws rather than pass hidden text on.
 */
export function removeHiddenWith(parser: Micromark | undefined, text: string): Visible {
  let out = ''
  let at = 0
  if (MAY_HIDE.test(text)) {
    if (!parser) throw new Error('removeHiddenWith: a text that may hide something needs the parser')
    for (const [start, end, kept] of hiddenRanges(parser, text)) {
      out += text.slice(at, start) + kept
      at = end
    }
  }
  out += text.slice(at)
  const visible = out.replace(IGNORABLE, '')
  return { text: visible, removed: codePoints(text) - codePoints(visible) }
}

// Every hidden construct holds `<` (HTML) or `]:` (a definition): other text, most of what GitHub
// answers (tag names, shas, most commit messages), skips the parser, which costs about 0.2 ms a
// string, and never loads it.
const MAY_HIDE = /<|\]:/

/** `[start, end, what stays]` of each hidden construct, in order. */
function* hiddenRanges(parser: Micromark, text: string): Generator<[number, number, string]> {
  let after = 0
  for (const [kind, token] of events(parser, text)) {
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

function events({ parse, postprocess, preprocess }: Micromark, text: string): Event[] {
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
export async function visibleText<T>(value: T, removed: (count: number) => void): Promise<T> {
  const parser = mayHide(value) ? await loadMicromark() : undefined
  const walk = <V>(item: V): V => {
    if (typeof item === 'string') {
      const visible = removeHiddenWith(parser, normalizeLineEndings(item))
      if (visible.removed) removed(visible.removed)
      return visible.text as V
    }
    if (Array.isArray(item)) return item.map(walk) as V
    if (isPlainObject(item)) return Object.fromEntries(Object.entries(item).map(([key, v]) => [key, walk(v)])) as V
    return item
  }
  return walk(value)
}

/** Whether a string in `value` may hide something, arrays and plain objects walked. */
function mayHide(value: unknown): boolean {
  if (typeof value === 'string') return MAY_HIDE.test(value)
  if (Array.isArray(value)) return value.some(mayHide)
  return isPlainObject(value) && Object.values(value).some(mayHide)
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype
}
