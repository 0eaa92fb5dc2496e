/** Untrusted text (prompts, GitHub and server text) passes through here before a person sees it. */

// Bidi embeddings, overrides and isolates, and the directional marks: invisible, and able to make
// `main\u202Egnp.exe` read as `mainexe.png`.
const FORMAT_CHARS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g

/** Invisible direction controls shown as a visible code point name (`[U+202E]`) instead. */
export function neutralizeFormatChars(text: string): string {
  return text.replace(FORMAT_CHARS, (char) => `[U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}]`)
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

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' })

/**
 * At most `max` UTF-16 units, `…` included, cut between graphemes: never inside a surrogate
 * pair, an emoji sequence or a letter with its accents.
 */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text
  let kept = 0
  // Only the neighbourhood of the cut needs segmenting; a grapheme longer than 64 units is cut
  // before it rather than read to its end.
  for (const { segment } of graphemes.segment(text.slice(0, max + 64))) {
    if (kept + segment.length > max - 1) break
    kept += segment.length
  }
  return `${text.slice(0, kept)}…`
}

/** Text as inert HTML: the characters HTML gives a meaning to, and no others, as entities. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (char) => ENTITIES[char as keyof typeof ENTITIES])
}

const ENTITIES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' } as const

/** Replaces every occurrence of each secret with `***`. */
export function redact(text: string, secrets: readonly string[]): string {
  let result = text
  for (const secret of secrets) if (secret) result = result.split(secret).join('***')
  return result
}

/** `12,345`: thousands separated, the same on every runner whatever its locale. */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US')
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
