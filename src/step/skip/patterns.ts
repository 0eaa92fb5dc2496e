/**
 * `paths` and `paths-ignore`: GitHub's filter patterns, as the "Filter pattern cheat sheet" of
 * GitHub's workflow syntax defines them, compiled to a RegExp here. No glob library matches them:
 * picomatch's `**` crosses `/` only as a whole segment, so `src/**.ts` would miss `src/lib/a.ts`.
 * - `*` matches zero or more characters but `/`; `**` zero or more of any character, `/`
 *   included, wherever it stands; `**` then `/` also matches nothing (`**` + `/README.md` matches
 *   `README.md`, as the cheat sheet's examples do).
 * - `?` and `+`: zero or one, one or more, of the character or `[...]` before them.
 * - `[...]`: one character listed or in a range; letters and digits only, ranges within a-z, A-Z
 *   or 0-9 (the cheat sheet's words).
 * - `\` takes the next character as itself; every other character, `(` and `{` included, is itself.
 * - `!` first negates (in `paths` only); the last pattern that matches a path decides.
 */
import { InputError, quoted } from '../inputs.js'

/** One pattern of the list, compiled. */
export interface FilterPattern {
  /** As written, `!` included. */
  text: string
  negated: boolean
  test: (path: string) => boolean
}

/** The accepted form, as every refusal ends. */
const FORM = (input: string): string =>
  `expected one of GitHub's filter patterns a line, as on.push.${input} takes them: * (not /), ** (anything), ? and + after a character or [...], [a-z0-9] (letters, digits, ranges)${input === 'paths' ? ', ! first to take files back' : ''}.`

/** The patterns of `value`, one a line (blank lines left out), compiled; throws an InputError naming `input`. */
export function parsePatterns(value: string, input: 'paths' | 'paths-ignore'): FilterPattern[] {
  const lines = value
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean)
  const patterns = lines.map((text) => compile(text, input))
  if (patterns.length > 0 && patterns.every((pattern) => pattern.negated)) {
    throw new InputError(
      input,
      'every pattern starts with !, so none can match: a ! pattern takes back files an earlier pattern matched. Add a pattern without ! before it, such as **.'
    )
  }
  return patterns
}

/** Whether `path` matches the list: its last pattern that matches it is not a `!` one. */
export function matchesList(patterns: readonly FilterPattern[], path: string): boolean {
  let matched = false
  for (const pattern of patterns) if (pattern.test(path)) matched = !pattern.negated
  return matched
}

function compile(text: string, input: 'paths' | 'paths-ignore'): FilterPattern {
  const refuse = (why: string): never => {
    throw new InputError(input, `${quoted(text)} ${why}; ${FORM(input)}`)
  }
  if (/^-\s|^(['"]).*\1$/.test(text)) refuse('is written as a YAML list item or quoted: the input is text')
  if (/,\s/.test(text)) refuse('looks like a comma-separated list')
  if (/\{[^}]*,[^}]*\}/.test(text)) refuse('has {a,b} alternatives, which GitHub does not expand: write each a line')
  const negated = text.startsWith('!')
  if (negated && input === 'paths-ignore') {
    refuse('starts with !, which only paths takes (GitHub says the same): use paths with ! patterns instead')
  }
  const glob = negated ? text.slice(1) : text
  if (!glob) refuse('is empty after !')
  const source = filterRegExp(glob)
  if (typeof source !== 'string') return refuse(source.error)
  const regexp = new RegExp(source)
  return { text, negated, test: (path) => regexp.test(path) }
}

/** `[` to its `]`: the class body, or why it is refused. */
const CLASS = /^\[([^\]]*)\]/
const RANGES = [/^[a-z]-[a-z]$/, /^[A-Z]-[A-Z]$/, /^[0-9]-[0-9]$/]

/**
 * One pattern (no `!`) as an anchored RegExp source, or why it is not a filter pattern. Each atom
 * is a literal character or a class; `?` and `+` repeat the atom before them.
 */
export function filterRegExp(glob: string): string | { error: string } {
  let source = ''
  let atom: string | undefined
  let at = 0
  while (at < glob.length) {
    const rest = glob.slice(at)
    const char = rest[0] ?? ''
    if (char === '?' || char === '+') {
      if (atom === undefined) return { error: `has a ${char} with no character or [...] before it to repeat` }
      source += `${atom}${char}`
      atom = undefined
      at += 1
      continue
    }
    source += atom ?? ''
    atom = undefined
    // Any character, line breaks too (which `.` leaves out): a file name may hold them, and `*` takes them.
    if (rest.startsWith('**/')) [source, at] = [`${source}(?:[\\s\\S]*/)?`, at + 3]
    else if (rest.startsWith('**')) [source, at] = [`${source}[\\s\\S]*`, at + 2]
    else if (char === '*') [source, at] = [`${source}[^/]*`, at + 1]
    else if (char === '[') {
      const set = characterClass(rest)
      if (typeof set !== 'string') return set
      atom = set
      at += rest.indexOf(']') + 1
    } else if (char === '\\') {
      if (rest.length < 2) return { error: 'ends with \\, which escapes nothing' }
      atom = literal(rest[1] ?? '')
      at += 2
    } else {
      atom = literal(char)
      at += 1
    }
  }
  return `^${source}${atom ?? ''}$`
}

/** A `[...]` at the start of `rest`, as a RegExp class: letters, digits and ranges of them. */
function characterClass(rest: string): string | { error: string } {
  const body = CLASS.exec(rest)?.[1]
  if (body === undefined) return { error: 'has a [ with no ] to close it' }
  if (body === '') return { error: 'has an empty []' }
  const parts = body.match(/.-.|./gs) ?? []
  for (const part of parts) {
    if (part.length === 3) {
      if (!RANGES.some((range) => range.test(part)) || part.charCodeAt(0) > part.charCodeAt(2))
        return { error: `has the range ${part}, where ranges are a-z, A-Z or 0-9, low to high` }
    } else if (!/^[A-Za-z0-9]$/.test(part)) {
      return { error: `has ${part} in [...], which lists letters, digits and ranges only` }
    }
  }
  return `[${body}]`
}

/** One character, matched as itself. */
function literal(char: string): string {
  return char.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')
}
