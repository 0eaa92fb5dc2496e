import { DURATION_FORM, parseDuration } from './duration.js'

/** Outcomes `fail-on` may list. */
export const FAIL_OUTCOMES = ['failed', 'archived', 'timed-out', 'no-pr'] as const
export type FailOutcome = (typeof FAIL_OUTCOMES)[number]

/** What the step does: start a job, send a follow-up to one, or only wait on one. */
export type Mode = 'create' | 'message' | 'wait-only'

/** The prompt limit we document and enforce before sending (characters). */
export const MAX_PROMPT_CHARS = 100_000

/** Defaults of the optional inputs; action.yml declares the same (a unit test holds them equal). */
export const INPUT_DEFAULTS = {
  wait: 'true',
  timeout: '30m',
  'poll-interval': '2s',
  'max-poll-interval': '10s',
  'fail-on': 'failed, archived, timed-out',
  'base-url': 'https://api.mintlify.com'
} as const

const MIN_POLL_INTERVAL_MS = 500

/** Every input, parsed once. */
export interface Settings {
  /** Admin API key, trimmed. */
  apiKey: string
  projectId: string
  mode: Mode
  /** The prompt for a new job or the follow-up; undefined in wait-only mode. */
  prompt: string | undefined
  /** Which input the prompt came from, for messages. */
  promptInput: 'prompt' | 'prompt-file' | undefined
  /** Set in `message` and `wait-only` modes. */
  jobId: string | undefined
  /** Poll until a terminal status; false returns after the create/message answer. */
  wait: boolean
  /** Longest time the step may take, create included (ms). */
  timeoutMs: number
  /** First delay between polls (ms). */
  pollIntervalMs: number
  /** Cap on the delay between polls (ms). */
  maxPollIntervalMs: number
  failOn: ReadonlySet<FailOutcome>
  /** API root; may carry a path prefix and a trailing slash. */
  baseUrl: URL
  githubToken: string
  /** Labels for the docs PR, trimmed, no empties, no duplicates. */
  labels: string[]
}

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
  /** The input's value, trimmed; '' when not set. */
  get(name: string): string
  /** Reads a UTF-8 file; throws when it cannot. */
  readFile(path: string): string
}

export function parseSettings(source: InputSource): Settings {
  const get = (name: string): string => source.get(name) || (INPUT_DEFAULTS as Record<string, string>)[name] || ''

  const apiKey = get('api-key')
  if (!apiKey) throw new InputError('api-key', 'required: the Agent API admin key (mint_…), from a secret.')
  const projectId = get('project-id')
  if (!projectId)
    throw new InputError('project-id', 'required: the project ID from the API keys page of the dashboard.')

  const jobId = get('job-id') || undefined
  const { prompt, promptInput } = readPrompt(source, get)
  if (prompt === undefined && jobId === undefined) {
    throw new InputError(
      'prompt',
      "set 'prompt' or 'prompt-file' to start a job, or 'job-id' to follow up on or wait for one."
    )
  }
  const mode: Mode = jobId === undefined ? 'create' : prompt === undefined ? 'wait-only' : 'message'

  const pollIntervalMs = durationInput(get, 'poll-interval')
  if (pollIntervalMs < MIN_POLL_INTERVAL_MS) {
    throw new InputError('poll-interval', `must be at least ${MIN_POLL_INTERVAL_MS}ms; got "${get('poll-interval')}".`)
  }
  const maxPollIntervalMs = durationInput(get, 'max-poll-interval')
  if (maxPollIntervalMs < pollIntervalMs) {
    throw new InputError(
      'max-poll-interval',
      `must not be shorter than 'poll-interval' (${get('poll-interval')}); got "${get('max-poll-interval')}".`
    )
  }

  return {
    apiKey,
    projectId,
    mode,
    prompt,
    promptInput,
    jobId,
    wait: parseBoolean(get('wait'), 'wait'),
    timeoutMs: durationInput(get, 'timeout'),
    pollIntervalMs,
    maxPollIntervalMs,
    failOn: parseFailOn(get('fail-on')),
    baseUrl: parseBaseUrl(get('base-url')),
    githubToken: get('github-token'),
    labels: parseList(get('labels'))
  }
}

function readPrompt(
  source: InputSource,
  get: (name: string) => string
): { prompt: string | undefined; promptInput: Settings['promptInput'] } {
  const inline = get('prompt')
  const file = get('prompt-file')
  if (inline && file) throw new InputError('prompt-file', "set either 'prompt' or 'prompt-file', not both.")
  let prompt: string
  let promptInput: 'prompt' | 'prompt-file'
  if (file) {
    try {
      prompt = source.readFile(file)
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'unreadable'
      throw new InputError(
        'prompt-file',
        `cannot read "${file}" (${code}): expected the path of a readable UTF-8 file, relative to the workspace.`
      )
    }
    promptInput = 'prompt-file'
  } else if (inline) {
    prompt = inline
    promptInput = 'prompt'
  } else {
    return { prompt: undefined, promptInput: undefined }
  }
  if (!prompt.trim()) throw new InputError(promptInput, 'the prompt is empty: the agent needs an instruction.')
  if (prompt.length > MAX_PROMPT_CHARS) {
    throw new InputError(promptInput, `the prompt has ${prompt.length} characters; the limit is ${MAX_PROMPT_CHARS}.`)
  }
  return { prompt, promptInput }
}

function durationInput(get: (name: string) => string, name: string): number {
  const ms = parseDuration(get(name))
  if (ms === undefined || ms <= 0) {
    throw new InputError(name, `"${get(name)}" is not a duration: expected ${DURATION_FORM}.`)
  }
  return ms
}

/** YAML 1.2 core-schema booleans, as `core.getBooleanInput` takes them; anything else throws. */
export function parseBoolean(value: string, name: string): boolean {
  if (['true', 'True', 'TRUE'].includes(value)) return true
  if (['false', 'False', 'FALSE'].includes(value)) return false
  throw new InputError(name, `"${value}" is not a boolean: expected true or false.`)
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
    if (!(FAIL_OUTCOMES as readonly string[]).includes(word)) {
      throw new InputError('fail-on', `unknown outcome "${word}": expected ${accepted}.`)
    }
    result.add(word as FailOutcome)
  }
  return result
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

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
}
