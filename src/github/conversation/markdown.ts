/**
 * Markdown the action writes on GitHub about a job, with untrusted text made inert, and the
 * marker-delimited block it keeps in release notes. Pure.
 */
import { escapeMarkdown, inline } from '../../base/text.js'
import { httpUrl } from '../pr-link.js'

const RELEASE_START = '<!-- docs-agent-action:release:start -->'
const RELEASE_END = '<!-- docs-agent-action:release:end -->'

/** A link in markdown: the label made inert; a URL that is not http(s) is shown as code. */
export function markdownLink(label: string, url: string | undefined): string {
  const href = httpUrl(url)
  const text = escapeMarkdown(inline(label, 200))
  return href ? `[${text}](${href.replace(/[()]/g, (char) => (char === '(' ? '%28' : '%29'))})` : codeSpan(url ?? label)
}

/** Untrusted text as a one-line code span (backticks replaced, so it cannot close the span). */
export function codeSpan(text: string, max = 100): string {
  return `\`${inline(text, max).replace(/`/g, "'")}\``
}

/** `@login` for a GitHub login; anything else as code. */
export function mention(login: string): string {
  return /^[A-Za-z0-9-]{1,39}(?:\[bot\])?$/.test(login) ? `@${login}` : codeSpan(login, 60)
}

/**
 * Where the docs block is: from the start marker nearest before the first end marker, through that
 * end marker. A start marker whose end someone removed is theirs now, and so is the text after it:
 * a block spanning from it would take their text away at the next write.
 */
function releaseBlock(notes: string): { start: number; end: number } | undefined {
  const end = notes.indexOf(RELEASE_END)
  const start = end < 0 ? -1 : notes.lastIndexOf(RELEASE_START, end)
  return start >= 0 ? { start, end: end + RELEASE_END.length } : undefined
}

/** Release notes with the docs block replaced, or appended once when there is none. */
export function withReleaseBlock(notes: string, block: string): string {
  const section = `${RELEASE_START}\n${block}\n${RELEASE_END}`
  const found = releaseBlock(notes)
  if (found) return `${notes.slice(0, found.start)}${section}${notes.slice(found.end)}`
  return notes.trim() ? `${notes.trimEnd()}\n\n${section}` : section
}

/**
 * Whether `before` and `after` differ only in the action's block: a `release: edited` that is
 * the action's own link-back, which has nothing to document (and would otherwise run it again).
 */
export function onlyReleaseBlockChanged(before: string, after: string): boolean {
  const without = (notes: string): string => {
    const found = releaseBlock(notes)
    const rest = found ? notes.slice(0, found.start) + notes.slice(found.end) : notes
    return rest.replace(/\r\n/g, '\n').trim()
  }
  return before !== after && without(before) === without(after)
}
