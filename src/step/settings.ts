import { formatCount } from '../base/text.js'
import type { FailOutcome } from '../report/state.js'
import type { ReleaseTag } from '../github/context/release-set.js'
import { parseAutomation } from './automation/settings.js'
import { INPUT_DEFAULTS } from './defaults.js'
import { parseDocsChecks, type DocsChecks } from './docs-checks/settings.js'
import { parseGroup, type GroupSettings } from './group/settings.js'
import { parseOwner, type OwnerSettings } from './owner/settings.js'
import { parseSkipRules, type SkipRules } from './skip/settings.js'
import {
  durationInput,
  InputError,
  parseBaseUrl,
  parseBoolean,
  parseCheckName,
  parseChoice,
  parseFailOn,
  parseLabels,
  parseLinkBack,
  parseLogins,
  parsePhrase,
  parseReleaseTags,
  quoted,
  type LinkBackTarget
} from './inputs.js'

/** The prompt limit we document and enforce before sending (characters), context included. */
export const MAX_PROMPT_CHARS = 100_000

/** Polls no more often than twice a second; a step has at least a second. */
const MIN_POLL_INTERVAL_MS = 500
const MIN_TIMEOUT_MS = 1000

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
  /** The source repository's token: the context, the link-back there, `/docs` commands, the check run. */
  githubToken: string
  /** The docs repository's token: `docs-token`, else `github-token` (the group, labels, owner, preview, docs PR comment). */
  docsToken: string
  /** Labels for the docs PR, trimmed, no empties, no duplicates. */
  labels: string[]
  /** `auto`: a new job's prompt carries what triggered the workflow (release, PR, push). */
  context: 'auto' | 'none'
  /** The tags this run released (`release-tags`): when any, the context is that release set, whatever the event. */
  releaseTags: ReleaseTag[]
  /** Build the prompt and report it; send nothing to the Agent API. */
  dryRun: boolean
  /** Once the job ends with a docs PR, ask for its branch's preview deployment and wait for it. */
  preview: boolean
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
  /** Runs of the same group share one open docs pull request (`group`, `docs-repository`). */
  group: GroupSettings | undefined
  /** Reviewers, assignees and merge of the docs pull request once the job ends with one. */
  owner: OwnerSettings
  /** What may skip a run that is not an explicit request (`skip-labels`, `paths`, `paths-ignore`). */
  skip: SkipRules
  /** The name of the check run kept on the triggering commit; none when undefined. */
  check: string | undefined
  /** What is done with the docs pull request's checks once the job ends with one. */
  docsChecks: DocsChecks
}

/** The comment that drove the step, for the summary and the `command` output. */
export interface CommandInfo {
  kind: 'follow-up' | 'create'
  author: string
  /** The request as read (the comment after the phrase). */
  text: string
  /** The comment's (or review's) id. */
  id: number
  /** Characters removed from the comment as hidden (`removeHidden`). */
  hidden?: number | undefined
  /** A follow-up's job carries an outsider's text, as the link-back comment's marker records. */
  outsider?: true | undefined
}

/** What is asked of the Agent API; the prompt and the job id exist exactly in the modes that use them. */
type Request =
  | { mode: 'create'; prompt: string }
  | { mode: 'message'; jobId: string; prompt: string }
  | { mode: 'wait-only'; jobId: string }
  /** `automation`: its trigger takes the place of a create. */
  | { mode: 'automation'; automationId: string }

/** Every input, parsed once; `command` when a pull request comment drove the step. */
export type Settings = CommonSettings & Request & { command?: CommandInfo | undefined }

/** The settings of a step that sends a create or a message. */
export type CreateOrMessage = Extract<Settings, { mode: 'create' | 'message' }>

/** The settings of a step that triggers an automation. */
export type AutomationSettings = Extract<Settings, { mode: 'automation' }>

/** A comment event with no prompt, prompt-file or job-id: the comment decides what is asked. */
export type CommandSettings = CommonSettings & { mode: 'command' }

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
  // A key here (the two inputs swapped) would be sent in every URL and written in messages on GitHub,
  // which nothing masks: refused before any request, without its value.
  if (/^mint_/i.test(projectId))
    throw new InputError(
      'project-id',
      'holds an API key (it starts with mint_): give the project ID from the API keys page of the dashboard, and the key in api-key.'
    )

  const fail = (input: string, message: string): never => {
    throw new InputError(input, message)
  }
  const automationId = parseAutomation(get, fail)
  const jobId = parseJobId(get('job-id'))
  const prompt = readPrompt(source)
  const request = automationId
    ? ({ mode: 'automation', automationId } as const)
    : options.commands && !jobId && prompt === undefined
      ? ({ mode: 'command' } as const)
      : undefined

  const common = parseCommon(get, apiKey, projectId, automationId !== undefined)
  common.group = parseGroup(get, { wait: common.wait, jobId }, fail)
  // Only a step that waits learns the docs pull request whose branch would be previewed.
  if (common.preview && !common.wait) {
    throw new InputError(
      'preview',
      'true needs wait: true (a step that returns before the job ends has no docs pull request to preview).'
    )
  }
  return { ...common, ...(request ?? readRequest(jobId, prompt)) }
}

/**
 * The inputs every mode shares (`group` is set once they are read), read in this order: the first
 * wrong one is the error. `automation`: the step triggers an automation.
 */
function parseCommon(
  get: (name: string) => string,
  apiKey: string,
  projectId: string,
  automation: boolean
): CommonSettings {
  const pollIntervalMs = durationInput(get, 'poll-interval', MIN_POLL_INTERVAL_MS)
  return requireWhatTheyNeed({
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
    docsToken: get('docs-token') || get('github-token'),
    labels: parseLabels(get('labels')),
    context: parseChoice(get('context'), 'context', ['auto', 'none']),
    releaseTags: parseReleaseTags(get('release-tags')),
    dryRun: parseBoolean(get('dry-run'), 'dry-run'),
    preview: parseBoolean(get('preview'), 'preview'),
    onRerun: parseChoice(get('on-rerun'), 'on-rerun', ['resume', 'new']),
    rerunKey: get('rerun-key'),
    allowedNonWriteUsers: parseLogins(get('allowed-non-write-users'), 'allowed-non-write-users'),
    allowedBots: parseLogins(get('allowed-bots'), 'allowed-bots'),
    untrustedContext: parseChoice(get('untrusted-context'), 'untrusted-context', ['withhold', 'include']),
    linkBack: parseLinkBack(get('link-back')),
    triggerPhrase: parsePhrase(get('trigger-phrase')),
    group: undefined,
    owner: parseOwner(get, { wait: parseBoolean(get('wait'), 'wait') }, (input, message) => {
      throw new InputError(input, message)
    }),
    skip: parseSkipRules(get),
    check: parseCheckName(get('check')),
    docsChecks: parseDocsChecks(get('docs-checks'), { wait: parseBoolean(get('wait'), 'wait'), automation })
  })
}

/**
 * Inputs that would do nothing, without a word, unless another says so: what acts on the docs pull
 * request needs the step to wait for the job that opens it, and `fail-on: docs-checks` needs the
 * checks to be read.
 */
function requireWhatTheyNeed(common: CommonSettings): CommonSettings {
  const needsWait = 'needs wait: true: only a step that waits for the job learns its docs pull request'
  if (!common.wait && common.labels.length) throw new InputError('labels', `${needsWait}.`)
  if (!common.wait && common.linkBack.has('docs-pr')) throw new InputError('link-back', `docs-pr ${needsWait}.`)
  if (common.failOn.has('docs-checks') && common.docsChecks === 'none')
    throw new InputError('fail-on', 'docs-checks needs docs-checks: wait or fix, which read the checks it judges.')
  return common
}

/** A job ID is one word: a space or a line break is a value pasted wrong, and would only fail at the first read. */
function parseJobId(jobId: string): string {
  if (/\s/.test(jobId) || jobId.length > 200) {
    throw new InputError(
      'job-id',
      `"${jobId.slice(0, 200)}" is not a job ID: expected the job-id output of the step that created the job (one word, at most 200 characters).`
    )
  }
  return jobId
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
        `cannot read ${quoted(file)} (${code}): expected the path of a readable UTF-8 file, relative to the workspace.`
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
