import { DURATION_FORM, formatDuration, parseDuration } from '../base/duration.js'
import { formatCount } from '../base/text.js'
import { FAIL_OUTCOMES, type FailOutcome } from '../report/state.js'
import type { ReleaseTag } from '../github/release-set.js'
import { INPUT_DEFAULTS } from './defaults.js'

/** The prompt limit we document and enforce before sending (characters), context included. */
export const MAX_PROMPT_CHARS = 100_000

/** Polls no more often than twice a second; a step has at least a second. */
const MIN_POLL_INTERVAL_MS = 500
const MIN_TIMEOUT_MS = 1000

/** GitHub ends a job after 6 h; longer would also overflow a timer (2^31 ms), which fires at once. */
export const MAX_DURATION_MS = 6 * 3_600_000

/** The inputs every mode has. */
interface CommonSettings {
  /** Admin API key, trimmed. */
  apiKey: string
  projectId: string
  /** Poll until a terminal status; false returns after the create/message answer. */
  wait: boolean
  /** Longest time the step may take, create included (ms). */
  timeoutMs: number
  /** First delay between polls (ms). */
  pollIntervalMs: number
  /** Cap on the delay between polls (ms); never below `pollIntervalMs`. */
  maxPollIntervalMs: number
  failOn: ReadonlySet<FailOutcome>
  /** API root; may carry a path prefix and a trailing slash. */
  baseUrl: URL
  githubToken: string
  /** Labels for the docs PR, trimmed, no empties, no duplicates. */
  labels: string[]
  /** `auto`: a new job's prompt carries what triggered the workflow (release, PR, push). */
  context: 'auto' | 'none'
  /** The tags this run released (`release-tags`): when any, the context is that release set, whatever the event. */
  releaseTags: ReleaseTag[]
  /** Build the prompt and report it; send nothing to the Agent API. */
  dryRun: boolean
  /** `resume`: a re-run picks up the job an earlier attempt of this step created or messaged. */
  onRerun: 'resume' | 'new'
  /** Tells this step's re-run record apart from other matrix legs' (the matrix values by default). */
  rerunKey: string
  /** Logins that may start a job without write access on an event anyone can trigger; `*`: anyone. */
  allowedNonWriteUsers: string[]
  /** Bots that may start a job there (with or without `[bot]`, or `*`). */
  allowedBots: string[]
  /** `withhold`: a pull request's own text reaches the agent only when someone with write access stands behind it. */
  untrustedContext: 'include' | 'withhold'
  /** Where the job is linked back: the pull request, the release notes, the docs pull request. */
  linkBack: ReadonlySet<LinkBackTarget>
  /** A comment whose first line starts with it is a request (`/docs` by default). */
  triggerPhrase: string
}

export const LINK_BACK_TARGETS = ['pull-request', 'release', 'docs-pr'] as const
export type LinkBackTarget = (typeof LINK_BACK_TARGETS)[number]

/** The comment that drove the step, for the summary and the `command` output. */
export interface CommandInfo {
  kind: 'follow-up' | 'create'
  author: string
  /** The request as read (the comment after the phrase). */
  text: string
  /** The comment's (or review's) id. */
  id: number
}

/** What is asked of the Agent API; the prompt and the job id exist exactly in the modes that use them. */
type Request =
  | { mode: 'create'; prompt: string }
  | { mode: 'message'; jobId: string; prompt: string }
  | { mode: 'wait-only'; jobId: string }

/** Every input, parsed once; `command` when a pull request comment drove the step. */
export type Settings = CommonSettings & Request & { command?: CommandInfo | undefined }

/** A comment event with no prompt, prompt-file or job-id: the comment decides what is asked. */
export type CommandSettings = CommonSettings & { mode: 'command' }

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

/** Where inputs come from: `@actions/core` in the action, plain maps in tests. */
export interface InputSource {
  /** The input's value, trimmed; '' when not set. The runner fills in action.yml's defaults when absent. */
  get(name: string): string
  /** Reads `prompt-file` (confined to the workspace: see prompt-file.ts); throws when it cannot. */
  readFile(path: string): string
}

/** With `commands`, a step with no prompt and no job id is driven by the event's comment. */
export function parseSettings(source: InputSource): Settings
export function parseSettings(source: InputSource, options: { commands: boolean }): Settings | CommandSettings
export function parseSettings(source: InputSource, options = { commands: false }): Settings | CommandSettings {
  // Empty (or blank) is the default, as if the input were absent.
  const get = (name: string): string => source.get(name) || (INPUT_DEFAULTS[name] ?? '')

  const apiKey = get('api-key')
  if (!apiKey) throw new InputError('api-key', 'required: the Agent API admin key (mint_…), from a secret.')
  const projectId = get('project-id')
  if (!projectId)
    throw new InputError('project-id', 'required: the project ID from the API keys page of the dashboard.')

  const jobId = get('job-id')
  const prompt = readPrompt(source)
  const request = options.commands && !jobId && prompt === undefined ? ({ mode: 'command' } as const) : undefined

  const pollIntervalMs = durationInput(get, 'poll-interval', MIN_POLL_INTERVAL_MS)
  const common: CommonSettings = {
    apiKey,
    projectId,
    wait: parseBoolean(get('wait'), 'wait'),
    timeoutMs: durationInput(get, 'timeout', MIN_TIMEOUT_MS),
    pollIntervalMs,
    // A longer poll-interval raises the cap with it: `poll-interval: 30s` alone means every 30 s.
    maxPollIntervalMs: Math.max(pollIntervalMs, durationInput(get, 'max-poll-interval', MIN_POLL_INTERVAL_MS)),
    failOn: parseFailOn(get('fail-on')),
    baseUrl: parseBaseUrl(get('base-url')),
    githubToken: get('github-token'),
    labels: parseList(get('labels')),
    context: parseChoice(get('context'), 'context', ['auto', 'none']),
    releaseTags: parseReleaseTags(get('release-tags')),
    dryRun: parseBoolean(get('dry-run'), 'dry-run'),
    onRerun: parseChoice(get('on-rerun'), 'on-rerun', ['resume', 'new']),
    rerunKey: get('rerun-key'),
    allowedNonWriteUsers: parseList(get('allowed-non-write-users')),
    allowedBots: parseList(get('allowed-bots')),
    untrustedContext: parseChoice(get('untrusted-context'), 'untrusted-context', ['withhold', 'include']),
    linkBack: parseLinkBack(get('link-back')),
    triggerPhrase: parsePhrase(get('trigger-phrase'))
  }
  return { ...common, ...(request ?? readRequest(jobId, prompt)) }
}

/** The mode follows from which of `job-id` and the prompt are set. */
function readRequest(jobId: string, prompt: string | undefined): Request {
  if (jobId) return prompt === undefined ? { mode: 'wait-only', jobId } : { mode: 'message', jobId, prompt }
  if (prompt === undefined) {
    throw new InputError(
      'prompt',
      "set 'prompt' or 'prompt-file' to start a job, or 'job-id' to follow up on or wait for one."
    )
  }
  return { mode: 'create', prompt }
}

/** The prompt from `prompt` or `prompt-file`; undefined when neither is set. */
function readPrompt(source: InputSource): string | undefined {
  const inline = source.get('prompt')
  const file = source.get('prompt-file')
  if (inline && file) throw new InputError('prompt-file', "set either 'prompt' or 'prompt-file', not both.")
  if (!inline && !file) return undefined
  const input = file ? 'prompt-file' : 'prompt'
  let prompt = inline
  if (file) {
    try {
      prompt = source.readFile(file)
    } catch (error) {
      if (error instanceof InputError) throw error
      const code = (error as NodeJS.ErrnoException).code ?? 'unreadable'
      throw new InputError(
        'prompt-file',
        `cannot read "${file}" (${code}): expected the path of a readable UTF-8 file, relative to the workspace.`
      )
    }
  }
  if (!prompt.trim()) throw new InputError(input, 'the prompt is empty: the agent needs an instruction.')
  if (prompt.length > MAX_PROMPT_CHARS) {
    throw new InputError(
      input,
      `the prompt has ${formatCount(prompt.length)} characters; the limit is ${formatCount(MAX_PROMPT_CHARS)}.`
    )
  }
  return prompt
}

function durationInput(get: (name: string) => string, name: string, minMs: number): number {
  const ms = parseDuration(get(name))
  if (ms === undefined) throw new InputError(name, `"${get(name)}" is not a duration: expected ${DURATION_FORM}.`)
  if (ms < minMs) {
    const min = formatDuration(minMs)
    throw new InputError(name, `"${get(name)}" is shorter than ${min}, the minimum: expected at least ${min}.`)
  }
  if (ms > MAX_DURATION_MS) {
    throw new InputError(name, `"${get(name)}" is longer than 6h, GitHub's limit for a job: expected at most 6h.`)
  }
  return ms
}

/** YAML 1.2 core-schema booleans, as `core.getBooleanInput` takes them; anything else throws. */
export function parseBoolean(value: string, name: string): boolean {
  if (['true', 'True', 'TRUE'].includes(value)) return true
  if (['false', 'False', 'FALSE'].includes(value)) return false
  throw new InputError(name, `"${value}" is not a boolean: expected true or false.`)
}

function parseChoice<T extends string>(value: string, name: string, choices: readonly T[]): T {
  const found = choices.find((choice) => choice === value.toLowerCase())
  if (found === undefined) throw new InputError(name, `"${value}" is not one of ${choices.join(', ')}.`)
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
    if (outcome === undefined) throw new InputError('fail-on', `unknown outcome "${word}": expected ${accepted}.`)
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
    if (target === undefined) throw new InputError('link-back', `unknown target "${word}": expected ${accepted}.`)
    result.add(target)
  }
  return result
}

/** One word of at most 50 characters; empty is the default, `/docs`. */
export function parsePhrase(value: string): string {
  if (value === '') return '/docs'
  if (/\s/.test(value) || value.length > 50) {
    throw new InputError(
      'trigger-phrase',
      `"${value}" is not one word: expected a phrase such as /docs (at most 50 characters, no spaces).`
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

const BASE_URL_FORM = 'an https:// URL such as https://api.mintlify.com (http:// only for localhost or 127.0.0.1)'

export function parseBaseUrl(value: string): URL {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new InputError('base-url', `"${value}" is not a URL: expected ${BASE_URL_FORM}.`)
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
