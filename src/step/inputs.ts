/**
 * Parsers of single inputs: each takes the input's text and gives its value, or throws an
 * InputError that names the input and the accepted form.
 */
import { formatCount, inline } from '../base/text.js'
import { DURATION_FORM, formatDuration, parseDuration } from '../base/duration.js'
import { FAIL_OUTCOMES, type FailOutcome } from '../report/state.js'
import type { ReleaseTag } from '../github/context/release-set.js'

/** GitHub ends a job after 6 h; longer would also overflow a timer (2^31 ms), which fires at once. */
export const MAX_DURATION_MS = 6 * 3_600_000

export const LINK_BACK_TARGETS = ['pull-request', 'release', 'docs-pr'] as const
export type LinkBackTarget = (typeof LINK_BACK_TARGETS)[number]

/** Bad input: names the input and the accepted form. */
export class InputError extends Error {
  constructor(
    readonly input: string,
    message: string
  ) {
    super(`Input '${input}': ${message}`)
    this.name = 'InputError'
  }
}

/**
 * Longest part of an input's value an error quotes. The reason and the accepted form come after it,
 * and must stay in view: the summary shows the first 2,000 characters of what happened, and the
 * runner keeps the first 4,096 of an annotation, for its log line too (actions/runner,
 * ExecutionContext.cs, `_maxIssueMessageLength`). A long value is a value pasted wrong (the prompt's
 * text in prompt-file): its start is enough to recognise it.
 */
export const QUOTED_CHARS = 200

/** An input's value as an error quotes it: in double quotes, on one line, at most QUOTED_CHARS characters. */
export function quoted(value: string): string {
  return `"${inline(value, QUOTED_CHARS)}"`
}

export function durationInput(get: (name: string) => string, name: string, minMs: number): number {
  const ms = parseDuration(get(name))
  if (ms === undefined) throw new InputError(name, `${quoted(get(name))} is not a duration: expected ${DURATION_FORM}.`)
  if (ms < minMs) {
    const min = formatDuration(minMs)
    throw new InputError(name, `${quoted(get(name))} is shorter than ${min}, the minimum: expected at least ${min}.`)
  }
  if (ms > MAX_DURATION_MS) {
    throw new InputError(name, `${quoted(get(name))} is longer than 6h, GitHub's limit for a job: expected at most 6h.`)
  }
  return ms
}

/** YAML 1.2 core-schema booleans, as `core.getBooleanInput` takes them; anything else throws. */
export function parseBoolean(value: string, name: string): boolean {
  if (['true', 'True', 'TRUE'].includes(value)) return true
  if (['false', 'False', 'FALSE'].includes(value)) return false
  throw new InputError(name, `${quoted(value)} is not a boolean: expected true or false.`)
}

export function parseChoice<T extends string>(value: string, name: string, choices: readonly T[]): T {
  const found = choices.find((choice) => choice === value.toLowerCase())
  if (found === undefined) throw new InputError(name, `${quoted(value)} is not one of ${choices.join(', ')}.`)
  return found
}

/** Comma-, space- or newline-separated outcomes, or `none`. */
export function parseFailOn(value: string): ReadonlySet<FailOutcome> {
  const words = value
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase())
  const accepted = `any of ${FAIL_OUTCOMES.join(', ')} (comma, space or newline separated), or none`
  if (words.length === 1 && words[0] === 'none') return new Set()
  if (words.length === 0) throw new InputError('fail-on', `empty: expected ${accepted}.`)
  const result = new Set<FailOutcome>()
  for (const word of words) {
    const outcome = FAIL_OUTCOMES.find((known) => known === word)
    if (outcome === undefined) throw new InputError('fail-on', `unknown outcome ${quoted(word)}: expected ${accepted}.`)
    result.add(outcome)
  }
  return result
}

/** Any of the targets, or `none`; empty is the default, `pull-request`. */
export function parseLinkBack(value: string): ReadonlySet<LinkBackTarget> {
  const words = parseList(value.replace(/\s+/g, ',')).map((word) => word.toLowerCase())
  if (words.length === 0) return new Set(['pull-request'])
  const accepted = `any of ${LINK_BACK_TARGETS.join(', ')} (comma, space or newline separated), or none`
  if (words.includes('none')) {
    if (words.length > 1)
      throw new InputError('link-back', `none cannot be combined with others: expected ${accepted}.`)
    return new Set()
  }
  const result = new Set<LinkBackTarget>()
  for (const word of words) {
    const target = LINK_BACK_TARGETS.find((known) => known === word)
    if (target === undefined) throw new InputError('link-back', `unknown target ${quoted(word)}: expected ${accepted}.`)
    result.add(target)
  }
  return result
}

/** The longest check run name taken: GitHub shows it in one line among a commit's checks. */
export const MAX_CHECK_NAME_CHARS = 100

/** A check run's name on one line; empty (the default) is none. */
export function parseCheckName(value: string): string | undefined {
  if (value === '') return undefined
  if (/[\r\n]/.test(value) || value.length > MAX_CHECK_NAME_CHARS) {
    throw new InputError(
      'check',
      `expected a check run's name on one line, at most ${MAX_CHECK_NAME_CHARS} characters (such as Docs agent), or empty for none.`
    )
  }
  return value
}

/** One word of at most 50 characters; empty is the default, `/docs`. */
export function parsePhrase(value: string): string {
  if (value === '') return '/docs'
  if (/\s/.test(value) || value.length > 50) {
    throw new InputError(
      'trigger-phrase',
      `${quoted(value)} is not one word: expected a phrase such as /docs (at most 50 characters, no spaces).`
    )
  }
  return value
}

const RELEASE_TAGS_FORM =
  'a list of tags (one per line, or separated by commas or spaces), or changesets/action\'s publishedPackages output as is: a JSON array of {"name", "version"} objects'

/**
 * `release-tags`: a list of tags, or changesets' `publishedPackages` (`[{"name","version"}]`),
 * each the tag `name@version`, or `v` + version where that does not exist (a single package).
 */
export function parseReleaseTags(value: string): ReleaseTag[] {
  if (!value.startsWith('[')) return [...new Set(value.split(/[\s,]+/).filter(Boolean))].map((tag) => ({ tag }))
  let parsed: unknown
  try {
    parsed = JSON.parse(value)
  } catch {
    parsed = undefined
  }
  const packages = Array.isArray(parsed) ? parsed : undefined
  const valid = packages?.every(
    (item: unknown) =>
      typeof item === 'object' &&
      item !== null &&
      typeof (item as { name?: unknown }).name === 'string' &&
      typeof (item as { version?: unknown }).version === 'string' &&
      /\S/.test((item as { name: string }).name) &&
      /\S/.test((item as { version: string }).version)
  )
  if (!packages || !valid) {
    throw new InputError(
      'release-tags',
      `starts with "[" but is not a JSON array of {"name", "version"} objects; expected ${RELEASE_TAGS_FORM}.`
    )
  }
  return (packages as { name: string; version: string }[]).map(({ name, version }) => ({
    tag: `${name.trim()}@${version.trim()}`,
    fallback: `v${version.trim()}`
  }))
}

/** Comma- or newline-separated, trimmed, without empties or repeats. */
export function parseList(value: string): string[] {
  return [
    ...new Set(
      value
        .split(/[,\n]/)
        .map((item) => item.trim())
        .filter(Boolean)
    )
  ]
}

/** A GitHub login, a bot's with `[bot]`, written with or without `@`: the login. */
export const LOGIN = /^@?([A-Za-z0-9][A-Za-z0-9-]{0,38}(?:\[bot\])?)$/

/**
 * Logins (`allowed-non-write-users`, `allowed-bots`), or `*`: an entry that cannot be a login (two
 * names with a space between, say) would otherwise match nobody, and the step would refuse the very
 * people the workflow lists, without a word.
 */
export function parseLogins(value: string, input: string): string[] {
  const items = parseList(value)
  const bad = items.filter((item) => item !== '*' && !LOGIN.test(item))
  if (bad.length)
    throw new InputError(
      input,
      `${bad.map((item) => JSON.stringify(inline(item, QUOTED_CHARS))).join(', ')} ${bad.length > 1 ? 'are not logins' : 'is not a login'}: expected logins (mona, dependabot[bot]) separated by commas or new lines, or *.`
    )
  // Each login without its @; `*` as it is.
  return items.map((item) => LOGIN.exec(item)?.[1] ?? item)
}

const BASE_URL_FORM = 'an https:// URL such as https://api.mintlify.com (http:// only for localhost or 127.0.0.1)'

export function parseBaseUrl(value: string): URL {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new InputError('base-url', `${quoted(value)} is not a URL: expected ${BASE_URL_FORM}.`)
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new InputError('base-url', `must not carry credentials, a query or a fragment: expected ${BASE_URL_FORM}.`)
  }
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
    throw new InputError(
      'base-url',
      `plain http:// would send the API key unencrypted to ${url.hostname}: expected ${BASE_URL_FORM}.`
    )
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new InputError('base-url', `unsupported scheme ${url.protocol}: expected ${BASE_URL_FORM}.`)
  }
  return url
}

/** Loopback names only: anchored, so `127.0.0.1.evil.com` is not loopback. */
export function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
}

/**
 * GitHub refuses a label name over 50 characters with a 422, and with it the whole request
 * (github/docs#32156): found only once the job has run.
 */
const MAX_LABEL_CHARS = 50

export function parseLabels(value: string): string[] {
  const labels = parseList(value)
  // Characters as GitHub counts them: a surrogate pair is one.
  const chars = (name: string): number => name.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, '_').length
  const long = labels.find((name) => chars(name) > MAX_LABEL_CHARS)
  if (long !== undefined)
    throw new InputError(
      'labels',
      `"${inline(long, 60)}" has ${formatCount(chars(long))} characters: expected label names of at most ${MAX_LABEL_CHARS}, GitHub's limit.`
    )
  return labels
}
