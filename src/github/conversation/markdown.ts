/**
 * Markdown the action writes on GitHub about a job, with untrusted text made inert, and the
 * marker-delimited block it keeps in release notes. Pure.
 */
import { inline } from '../../base/text.js'
import { httpUrl } from '../pr-link.js'

const RELEASE_START = '<!-- docs-agent-action:release:start -->'
const RELEASE_END = '<!-- docs-agent-action:release:end -->'

/** A link in markdown: the label made inert; a URL that is not http(s) is shown as code. */
export function markdownLink(label: string, url: string | undefined): string {
  const href = httpUrl(url)
  const text = inline(label, 200).replace(/[\\[\]`*_<>|~]/g, '\\$&')
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

/** Release notes with the docs block replaced, or appended once when there is none. */
export function withReleaseBlock(notes: string, block: string): string {
  const section = `${RELEASE_START}\n${block}\n${RELEASE_END}`
  const start = notes.indexOf(RELEASE_START)
  const end = start < 0 ? -1 : notes.indexOf(RELEASE_END, start)
  if (start >= 0 && end >= 0) return `${notes.slice(0, start)}${section}${notes.slice(end + RELEASE_END.length)}`
  return notes.trim() ? `${notes.trimEnd()}\n\n${section}` : section
}

/**
 * Whether `before` and `after` differ only in the action's block: a `release: edited` that is
 * the action's own link-back, which has nothing to document (and would otherwise run it again).
 */
export function onlyReleaseBlockChanged(before: string, after: string): boolean {
  const without = (notes: string): string => {
    const start = notes.indexOf(RELEASE_START)
    const end = start < 0 ? -1 : notes.indexOf(RELEASE_END, start)
    const rest = start >= 0 && end >= 0 ? notes.slice(0, start) + notes.slice(end + RELEASE_END.length) : notes
    return rest.replace(/\r\n/g, '\n').trim()
  }
  return before !== after && without(before) === without(after)
}
