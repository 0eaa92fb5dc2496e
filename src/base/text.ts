/** Untrusted text (prompts, GitHub and server text) passes through here before a person sees it. */

// Bidi embeddings, overrides and isolates, and the directional marks: invisible, and able to make
// `main\u202Egnp.exe` read as `mainexe.png`. Also the invisible characters that join nothing a
// script needs (zero-width space, word joiner, invisible operators, BOM) and tag characters, which
// spell hidden ASCII: `failed\u200B` would read as `failed`. Joiners (U+200C, U+200D) stay: scripts
// and emoji are made of them.
const FORMAT_CHARS = /[\u061c\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u{e0000}-\u{e007f}]/gu

/** Invisible direction controls and characters shown as a visible code point name (`[U+202E]`) instead. */
export function neutralizeFormatChars(text: string): string {
  return text.replace(
    FORMAT_CHARS,
    (char) => `[U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}]`
  )
}

/**
 * One line of at most `max` characters: control characters (newlines included) become spaces,
 * so the text can neither start a workflow command (`::…`) on a line of its own nor forge log
 * lines, and direction controls are made visible.
 */
export function inline(text: string, max = 300, trim = true): string {
  // eslint-disable-next-line no-control-regex
  const flat = neutralizeFormatChars(text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' '))
  return truncate(trim ? flat.trim() : flat, max)
}

/**
 * Every line ending as `\n`: `\r\n`, a lone `\r` (a line end to the runner, which rewrites the
 * summary line by line, and to markdown), and the Unicode separators U+2028, U+2029 and U+0085.
 */
export function normalizeLineEndings(text: string): string {
  return text.replace(/\r\n?|[\u2028\u2029\u0085]/g, '\n')
}

// The runner reads a legacy command (`##[add-mask]…`) anywhere in a line, and finds `##[` with a
// culture-aware search that skips characters without weight (controls, zero-width and format
// characters, variation selectors): `#\u200B#[` is found too. Combining marks are skipped here as
// well, to be safe.
const LEGACY_COMMAND =
  /#[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\p{Mn}\p{Me}]*#[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\p{Mn}\p{Me}]*\[/gu

/** Log text that cannot hold a legacy workflow command: a space before the `[` of every `##[`. */
export function neutralizeCommands(text: string): string {
  return text.replace(LEGACY_COMMAND, (found) => `${found.slice(0, -1)} [`)
}

// Made at the first cut: ICU's segmenter costs about 10 ms to make, and most runs cut nothing.
let graphemes: Intl.Segmenter | undefined

/**
 * At most `max` UTF-16 units, `…` included, cut between graphemes: never inside a surrogate
 * pair, an emoji sequence or a letter with its accents. With `size`, at most `max` of what it
 * measures (bytes as shown, say), `…` counted as `size('…')`; it must never measure a text as
 * less than its length.
 */
export function truncate(text: string, max: number, size: (text: string) => number = (t) => t.length): string {
  if (size(text) <= max) return text
  const room = max - size('…')
  // The first code point past the room, then back to the start of the grapheme it is in: walking
  // graphemes one by one takes seconds for a megabyte, finding the one at an index does not.
  let end = 0
  let used = 0
  for (const char of text) {
    used += size(char)
    if (used > room) break
    end += char.length
  }
  // Whether a grapheme goes on at `end` depends on the text before it and the code point there.
  graphemes ??= new Intl.Segmenter('en') // graphemes, its default granularity
  const kept = graphemes.segment(text.slice(0, end + 2)).containing(end)?.index ?? end
  return `${text.slice(0, kept)}…`
}

/** Text as inert HTML: the characters HTML gives a meaning to, and no others, as entities. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (char) => ENTITIES[char as keyof typeof ENTITIES])
}

const ENTITIES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' } as const

/**
 * Text as literal markdown: a backslash before each character that would start a link, code,
 * emphasis, HTML or a table cell. GitHub renders `mint\_key` as `mint_key` (CommonMark, "Backslash
 * escapes"), so a secret is found in written markdown in this form too.
 */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\[\]`*_<>|~]/g, '\\$&')
}

/**
 * Replaces every occurrence of each secret with `***`, and the end of a secret's start where text
 * was cut (`…`): a key echoed across a cut leaks no prefix. A start shorter than
 * `SECRET_FRAGMENT_CHARS` is left: it tells nothing, and matching it would blank ordinary words.
 */
export function redact(text: string, secrets: readonly string[]): string {
  let result = text
  for (const secret of secrets) if (secret) result = result.split(secret).join('***')
  if (!result.includes('…')) return result
  // Each part before a cut is checked at its end only: linear in the text, whatever it holds.
  const parts = result.split('…')
  return parts.map((part, index) => (index < parts.length - 1 ? withoutSecretStart(part, secrets) : part)).join('…')
}

function withoutSecretStart(before: string, secrets: readonly string[]): string {
  let longest = 0
  for (const secret of secrets) {
    for (let n = Math.min(secret.length - 1, before.length); n > longest; n--) {
      if (before.endsWith(secret.slice(0, n))) longest = n
    }
  }
  return longest >= SECRET_FRAGMENT_CHARS ? `${before.slice(0, -longest)}***` : before
}

/** Shortest start of a secret that `redact` drops before a cut. */
export const SECRET_FRAGMENT_CHARS = 4

/**
 * `12,345`: a count with its thousands separated, the same on every runner whatever its locale
 * (ICU's number formatting, `toLocaleString`, would cost the first count about 10 ms).
 */
export function formatCount(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+$)/g, ',')
}

/** `2026-11-21 10:00:00 UTC` for an ISO 8601 time; the text itself when it is not one. */
export function formatTime(iso: string): string {
  const ms = Date.parse(iso)
  if (Number.isNaN(ms)) return iso
  return `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`
}

/** `1 change`, `14 changes`. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`
}
