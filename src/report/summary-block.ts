/**
 * A collapsed block of the summary (the prompt, the context, the files judged): preformatted text in
 * `<details>`, cut to what fits, with the cut said in its title.
 */
import { escapeHtml, formatCount, neutralizeFormatChars, normalizeLineEndings, plural, truncate } from '../base/text.js'

/**
 * A collapsed block of untrusted text (open in a dry run, where it is the point): the start of
 * `body` that fits in `maxChars` characters and, as written, `maxBytes` bytes, and the number of
 * characters shown when that is not all. The cut is made on the text the agent got, so what is
 * shown is exactly its start.
 */
export function block(title: string, body: string, maxChars: number, maxBytes: number, open: boolean): string {
  const html = (shown: string, note: string): string => {
    const summary = `${escapeHtml(title)} (${escapeHtml(plural(body.length, 'character'))}${note})`
    return `<details${open ? ' open' : ''}><summary>${summary}</summary><pre>\n${preformatted(shown)}</pre></details>`
  }
  const whole = html(body, '')
  if (body.length <= maxChars && byteLength(whole) <= maxBytes) return whole
  // The frame with the longest note it can get; the body has the rest.
  const frame = byteLength(html('', `, first ${formatCount(body.length)} shown`))
  const shown = truncate(truncate(body, maxChars), Math.max(0, maxBytes - frame), shownBytes)
  return html(shown, `, first ${formatCount(shown.length - 1)} shown`)
}

/**
 * Bytes that text takes in a block at most: escaped, direction controls named, every line end
 * counted as the `&#10;` it may become.
 */
function shownBytes(text: string): number {
  const lines = normalizeLineEndings(text).split('\n')
  return byteLength(escapeHtml(neutralizeFormatChars(lines.join('')))) + 5 * (lines.length - 1)
}

export function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8')
}

/**
 * Text for a `<pre>` inside the HTML block, one line per line so the raw file reads well. Every
 * line end is made `\n` first: the runner rewrites the summary line by line, ending a line at a
 * lone `\r` too. Only a blank line would end the block: where one would appear, the newline is
 * written as `&#10;` (which also keeps a leading newline, which the parser drops right after
 * `<pre>`).
 */
function preformatted(body: string): string {
  let out = ''
  let lineHasText = false
  for (const [index, line] of escapeHtml(neutralizeFormatChars(normalizeLineEndings(body)))
    .split('\n')
    .entries()) {
    const blank = line.trim() === ''
    if (index > 0) {
      if (blank || !lineHasText) {
        out += '&#10;'
        lineHasText = true
      } else {
        out += '\n'
        lineHasText = false
      }
    }
    if (!blank) {
      out += line
      lineHasText = true
    }
  }
  return out
}
