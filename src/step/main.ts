import { runStep } from './action.js'
import type { Deps } from './step-deps.js'
import { AgentClient } from '../agent-api/client.js'
import type { Clock } from '../base/clock.js'
import { errorMessage } from '../base/error-message.js'
import { isCommentEvent, readCommentEvent } from '../github/conversation/command.js'
import { readTrigger, type Trigger } from '../github/event.js'
import { runAuthor } from '../github/owner/author.js'
import { Permissions } from '../github/permissions.js'
import type { GitHubClient } from '../github/client.js'
import { docsClient, sourceClient } from '../github/docs-client.js'
import { RequestCount } from '../github/requests.js'
import type { RetryPace } from '../github/retry.js'
import { readTrustFacts } from '../github/trust.js'
import { createDispatcher, ProxyError } from '../agent-api/http.js'
import { redactingLog, type Log } from '../base/log.js'
import type { Reporter } from '../report/finish.js'
import { runIdentity, type RecordStore, type RunIdentity } from '../rerun/record.js'
import { cacheKeepsRecords } from '../rerun/cache.js'
import { readPromptFile } from './prompt-file.js'
import { InputError } from './inputs.js'
import { parseSettings, type CommandSettings, type Settings } from './settings.js'
import type { ConversationDeps } from './tracking/link-back.js'
import { askedFor } from './asked.js'
import { sayNoToken } from './no-token.js'
import { checkDeps } from './tracking/check-deps.js'
import { Tracking } from './tracking/tracking.js'
import { decideMode } from './mode.js'
import type { SignalWatch } from './signals.js'
import { badInputState } from './run-state.js'
import { escapeHtml, redact } from '../base/text.js'
import { evaluatedInputs, type EvaluatedInputs } from './unevaluated.js'

type Dispatcher = ReturnType<typeof createDispatcher>

const USER_AGENT = 'docs-agent-action/1'
/** Longest a permission read may take; past it the permission is unknown, and no job starts. */
const PERMISSION_TIMEOUT_MS = 10_000
/** Longest a read of the docs repository's open pull requests may take. */
const GROUP_READ_TIMEOUT_MS = 30_000
/** Longest one request of the owner phase (reviewers, assignees, merge) may take. */
const OWNER_TIMEOUT_MS = 30_000

/** What the step gets from its surroundings: the runner through `@actions/core`, or a test. */
export interface Host {
  /** An input as the runner passes it (`INPUT_*`), trimmed; '' when not set. */
  input(name: string): string
  setSecret(secret: string): void
  setOutput(name: string, value: string): void
  writeSummary(markdown: string): Promise<void>
  log: Log
  /** The runner's variables (`GITHUB_*`). */
  env: Record<string, string | undefined>
  /** Reads the event payload (`prompt-file` is read from disk, confined to `GITHUB_WORKSPACE`). */
  readFile(path: string): string
  clock: Clock
  signals: SignalWatch
  records: RecordStore
  /** How long a second of GitHub's rate-limit waits lasts (tests shorten it); real seconds when unset. */
  githubPace?: RetryPace
}

/** Masks the secrets, reads the inputs, decides the mode, wires the dependencies and runs the step; the exit code. */
export async function main(host: Host): Promise<number> {
  const evaluated = evaluatedInputs((name) => host.input(name))
  // Masked before anything else can print them.
  const secrets = [evaluated.get('api-key'), evaluated.get('github-token'), evaluated.get('docs-token')].filter(Boolean)
  for (const secret of secrets) host.setSecret(secret)
  const reporter = redactingReporter(host, secrets)
  const { log } = reporter
  const stopLogging = logCancel(host, log)
  const inputs = readInputs(host, evaluated)
  const unevaluated = evaluated.notice()
  if (unevaluated) log.notice(unevaluated)
  if ('failure' in inputs) {
    // Bad input takes the same exit as any other ending: outputs (a given job-id included), summary, one error.
    const state = badInputState(host.clock.now(), evaluated.get('job-id') || undefined, inputs.failure)
    // Loaded only here and at the end of a run (closing.ts): a run reaches its first request without it.
    const { finish } = await import('../report/finish.js')
    await finish(state, undefined, reporter)
    return 1
  }
  const { settings, dispatcher } = inputs
  const where = { apiUrl: host.env.GITHUB_API_URL, clock: host.clock, pace: host.githubPace, secrets }
  const github = sourceClient(settings, where)
  const docs = docsClient(settings, where, github)
  log.debug(
    `Mode ${settings.mode}; timeout ${settings.timeoutMs}ms; polls from ${settings.pollIntervalMs}ms up to ${settings.maxPollIntervalMs}ms; base URL ${settings.baseUrl.origin}`
  )
  const { env } = host
  const readFile = (path: string): string => host.readFile(path)
  const trigger = readTrigger(env, readFile)
  if (!settings.githubToken) sayNoToken(settings, trigger, log)
  const run = runIdentity(env)
  const permissions = permissionReader(host, github)
  const conversation = conversationDeps(env, log, { github, docs }, permissions, run)
  try {
    const event = { name: env.GITHUB_EVENT_NAME ?? '', trigger, comment: readCommentEvent(env, readFile) }
    const records = { records: host.records, cacheKeepsRecords: cacheKeepsRecords(env) }
    const mode = await decideMode(settings, { ...event, ...records }, conversation)
    if ('why' in mode) {
      // A workflow on every comment must not turn red, nor write anything: one line says why.
      log.info(mode.why)
      // `command` says what a comment asked for: empty when the step is not a comment's.
      reporter.setOutput('command', settings.mode === 'command' ? 'ignored' : '')
      // The yes-or-no outputs are false, as action.yml says, for a later step's `if:` to read.
      for (const name of ['skipped', 'timed-out', 'not-permitted', 'grouped'] as const)
        reporter.setOutput(name, 'false')
      return 0
    }
    const wired = { settings, dispatcher, github, docs, permissions, trigger, run, conversation }
    const deps = stepDeps(host, reporter, wired)
    const { failed } = await runStep(mode, deps)
    return failed ? 1 : 0
  } catch (error) {
    log.error(`Unexpected error: ${errorMessage(error)}`)
    return 1
  } finally {
    stopLogging()
    await dispatcher.destroy()
  }
}

/** The outputs, summary and log, with the secrets redacted. */
function redactingReporter(host: Host, secrets: string[]): Reporter {
  return {
    log: redactingLog(host.log, secrets),
    serverUrl: host.env.GITHUB_SERVER_URL,
    setOutput: (name, value) => host.setOutput(name, redact(value, secrets)),
    // The summary is HTML with every value escaped: a secret holding `&<>"` is found as written there.
    writeSummary: (markdown) => host.writeSummary(redact(markdown, [...secrets, ...secrets.map(escapeHtml)]))
  }
}

/** Logs the runner's cancel when it comes; returns the function that stops listening. */
function logCancel(host: Host, log: Log): () => void {
  const { signal } = host.signals
  const onSignal = (): void =>
    log.info(`Received ${host.signals.received() ?? 'a cancel'}: stopping and reporting what is known.`)
  if (signal.aborted) onSignal()
  else signal.addEventListener('abort', onSignal, { once: true })
  return () => signal.removeEventListener('abort', onSignal)
}

/** The settings and the HTTP dispatcher they ask for, or what is wrong with the inputs. */
function readInputs(
  host: Host,
  evaluated: EvaluatedInputs
): { settings: Settings | CommandSettings; dispatcher: Dispatcher } | { failure: string } {
  try {
    const workspace = host.env.GITHUB_WORKSPACE || '.'
    const settings = parseSettings(
      { get: (name) => evaluated.get(name), readFile: (path) => readPromptFile(path, workspace) },
      { commands: isCommentEvent(host.env.GITHUB_EVENT_NAME) }
    )
    return { settings, dispatcher: createDispatcher(settings.baseUrl) }
  } catch (error) {
    return {
      failure:
        error instanceof InputError || error instanceof ProxyError
          ? error.message
          : `Could not read the inputs: ${errorMessage(error)}`
    }
  }
}

/** Permissions on the workflow's repository: one read per login for the step (the command's check and the actor gate share it). */
function permissionReader(host: Host, github: GitHubClient): Permissions {
  return new Permissions((login) =>
    github.permission(
      host.env.GITHUB_REPOSITORY ?? '',
      login,
      AbortSignal.any([host.signals.signal, host.clock.timeout(PERMISSION_TIMEOUT_MS)])
    )
  )
}

function conversationDeps(
  env: Host['env'],
  log: Log,
  { github, docs }: Pick<Wired, 'github' | 'docs'>,
  permissions: Permissions,
  run: RunIdentity | undefined
): ConversationDeps {
  let identity: Promise<string> | undefined
  let docsIdentity: Promise<string> | undefined
  const source = (): Promise<string> => (identity ??= github.conversation(env.GITHUB_REPOSITORY ?? '').identity())
  return {
    log,
    identity: source,
    api: (repository) => github.conversation(repository),
    docs: {
      // The same token's login is read once.
      identity: () => (docs === github ? source() : (docsIdentity ??= docs.conversation('').identity())),
      api: (repository) => docs.conversation(repository)
    },
    permission: (login) => permissions.of(login),
    serverUrl: env.GITHUB_SERVER_URL,
    runUrl:
      run && env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY
        ? `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${run.runId}`
        : undefined
  }
}

/** What main wired for the step. */
interface Wired {
  settings: Settings | CommandSettings
  dispatcher: Dispatcher
  /** With `github-token`: the workflow's repository. */
  github: GitHubClient
  /** With `docs-token` (`github` itself when it is the same token): the docs repository. */
  docs: GitHubClient
  permissions: Permissions
  trigger: Trigger
  run: RunIdentity | undefined
  conversation: ConversationDeps
}

/** What the step's flow needs, wired to the runner's surroundings. */
function stepDeps(host: Host, reporter: Reporter, wired: Wired): Deps {
  const { env } = host
  const { github, docs, conversation } = wired
  const api = agentClient(wired.settings, wired.dispatcher, host, reporter.log)
  return {
    ...reporter,
    api,
    previews: api,
    automations: api,
    clock: host.clock,
    signal: host.signals.signal,
    repository: env.GITHUB_REPOSITORY || undefined,
    trigger: () => wired.trigger,
    trust: () => readTrustFacts(env, (path) => host.readFile(path)),
    permissions: wired.permissions,
    github: {
      reader: (repository, readSignal) => github.reader(repository, readSignal),
      // The docs pull request's: its labels, its branch (the preview), its owner.
      addLabels: (pr, labels) => docs.addLabels(pr, labels),
      pullBranch: (pr, readSignal) => docs.pullBranch(pr, readSignal),
      owner: (pr) => docs.owner(pr, () => AbortSignal.any([host.signals.signal, host.clock.timeout(OWNER_TIMEOUT_MS)]))
    },
    docsChecks: (pr) =>
      docs.docsChecks(pr, () => AbortSignal.any([host.signals.signal, host.clock.timeout(OWNER_TIMEOUT_MS)])),
    author: () => runAuthor(env, (path) => host.readFile(path), wired.settings.releaseTags.length > 0),
    run: wired.run,
    runUrl: conversation.runUrl,
    sha: env.GITHUB_SHA || undefined,
    eventName: env.GITHUB_EVENT_NAME,
    groupDocs: (repository) => {
      const count = new RequestCount()
      const api = docs.conversation(repository, count)
      const signal = (): AbortSignal =>
        AbortSignal.any([host.signals.signal, host.clock.timeout(GROUP_READ_TIMEOUT_MS)])
      return {
        identity: () => conversation.docs.identity(),
        openPulls: () => docs.openPulls(repository, signal(), count),
        pullState: (number) => docs.pullState(repository, number, signal(), count),
        comments: (number) => api.listComments(number),
        requests: () => count.sent,
        createComment: (number, body) => api.createComment(number, body),
        updateComment: (id, body) => api.updateComment(id, body)
      }
    },
    tracking: (mode, run) =>
      new Tracking(mode, run, {
        conversation,
        asked: askedFor(wired.trigger, mode.settings),
        check: checkDeps(mode.settings, { ...wired, env, clock: host.clock, log: reporter.log, where: conversation })
      })
  }
}

function agentClient(settings: Settings | CommandSettings, dispatcher: Dispatcher, host: Host, log: Log): AgentClient {
  return new AgentClient({
    baseUrl: settings.baseUrl,
    apiKey: settings.apiKey,
    projectId: settings.projectId,
    dispatcher,
    userAgent: USER_AGENT,
    clock: host.clock,
    debug: (message) => log.debug(message)
  })
}
