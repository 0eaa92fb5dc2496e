/**
 * `paths` and `paths-ignore`: GitHub's filter patterns (`on.push.paths`), matched by picomatch. Its
 * options give GitHub's `*` (never `/`), `**` (anything, `/` included, dotfiles too) and `[...]`;
 * GitHub's `?` and `+` repeat the character or [class] before them, as in a regular expression, so
 * they become picomatch's `?(x)` and `+(x)`; parentheses are GitHub's literals, so they are escaped.
 * Braces (`{a,b}`) are picomatch's own, beyond GitHub's. Patterns apply in order, `!` un-matching.
 */
import type Picomatch from 'picomatch'
import { InputError } from '../inputs.js'

let picomatch: typeof Picomatch | undefined
let loading: Promise<void> | undefined

/** picomatch, loaded before the inputs are read when `paths` or `paths-ignore` is set: most steps never load it. */
export function loadPatternMatcher(): Promise<void> {
  return (loading ??= import('picomatch').then((module) => {
    picomatch = module.default
  }))
}

/** One pattern of the list, compiled. */
export interface FilterPattern {
  /** As written, `!` included. */
  text: string
  negated: boolean
  test: (path: string) => boolean
}

/**
 * Strict: a malformed pattern (an unclosed `[`, `{` or `(`, a range out of order, a trailing `\`)
 * throws, where picomatch would otherwise quietly match nothing. Never the platform's separators:
 * GitHub's paths use `/`, on Windows runners too.
 */
const OPTIONS = { dot: true, windows: false, strictBrackets: true, debug: true, nonegate: true } as const

/** The patterns of `value`, one a line (blank lines left out), compiled; throws an InputError naming `input`. */
export function parsePatterns(value: string, input: string): FilterPattern[] {
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

function compile(text: string, input: string): FilterPattern {
  const refuse = (why: string): never => {
    throw new InputError(input, `"${text}" ${why}; expected one pattern a line, as under on.push.paths.`)
  }
  if (/^-\s|^(['"]).*\1$/.test(text)) refuse('is written as a YAML list item or quoted: the input is text')
  // A comma and a space outside braces: `src/**, docs/**` written on one line.
  if (/,\s(?![^{]*\})/.test(text)) refuse('looks like a comma-separated list')
  const negated = text.startsWith('!')
  const glob = negated ? text.slice(1) : text
  if (!glob) refuse('is empty after !')
  // A caller that forgot to load the matcher fails here, never with a rule that matches nothing.
  if (!picomatch) throw new Error('paths and paths-ignore are compiled once loadPatternMatcher() has loaded picomatch')
  const match = picomatch
  try {
    return { text, negated, test: match(picomatchGlob(glob), OPTIONS) }
  } catch (error) {
    return refuse(`is not a valid pattern (${error instanceof Error ? error.message : String(error)})`)
  }
}

/**
 * A pattern's tokens: an escaped character, a closed `[...]` class (`]` may come first in it), or
 * one character (an unclosed `[` is one, which picomatch then refuses).
 */
const TOKENS = /\\[\s\S]?|\[[!^]?\]?(?:\\[\s\S]|[^\]\\])*\]|[\s\S]/g

/** GitHub's pattern in picomatch's syntax: `x?` is `?(x)`, `x+` is `+(x)`, `(` and `)` are literal. */
export function picomatchGlob(glob: string): string {
  const atoms: { text: string; repeatable: boolean }[] = []
  for (const [token] of glob.matchAll(TOKENS)) {
    if (token === '?' || token === '+') {
      const last = atoms.pop()
      if (!last?.repeatable) {
        throw new Error(`${token} repeats the character or [class] before it, and there is none to repeat here`)
      }
      atoms.push({ text: `${token}(${last.text})`, repeatable: false })
    } else if (token === '(' || token === ')') {
      atoms.push({ text: `\\${token}`, repeatable: true })
    } else {
      atoms.push({ text: token, repeatable: !'*/{},'.includes(token) })
    }
  }
  return atoms.map((atom) => atom.text).join('')
}
