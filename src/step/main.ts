import { runStep } from './action.js'
import { AgentClient } from '../agent-api/client.js'
import type { Clock } from '../base/clock.js'
import { errorMessage } from '../base/error-message.js'
import { isCommentEvent, readCommentEvent } from '../github/command.js'
import { readTrigger, type Trigger } from '../github/event.js'
import { readFromGitHub } from '../github/without-token.js'
import { mayWrite, Permissions } from '../github/permissions.js'
import { GitHubClient } from '../github/client.js'
import { readTrustFacts } from '../github/trust.js'
import { createDispatcher, ProxyError } from '../agent-api/http.js'
import { redactingLog, type Log } from '../base/log.js'
import { finish, type Reporter } from '../report/report.js'
import { runIdentity, type RecordStore } from '../rerun/record.js'
import { readPromptFile } from './prompt-file.js'
import { InputError, parseSettings, type CommandSettings, type Settings } from './settings.js'
import { converse, linkBack, type ConversationDeps } from './conversation.js'
import type { SignalWatch } from './signals.js'
import { initialState } from '../report/state.js'
import { redact } from '../base/text.js'
import { evaluatedInputs } from './unevaluated.js'

const USER_AGENT = 'docs-agent-action/1'
/** Longest a permission read may take; past it the permission is unknown, and no job starts. */
const PERMISSION_TIMEOUT_MS = 10_000

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
}

/** Masks the secrets, reads the inputs, wires the dependencies and runs the step; the exit code. */
export async function main(host: Host): Promise<number> {
  const inputs = evaluatedInputs((name) => host.input(name))
  // Masked before anything else can print them.
  const secrets = [inputs.get('api-key'), inputs.get('github-token')].filter(Boolean)
  for (const secret of secrets) host.setSecret(secret)
  const log = redactingLog(host.log, secrets)
  const reporter: Reporter = {
    log,
    serverUrl: host.env.GITHUB_SERVER_URL,
    setOutput: (name, value) => host.setOutput(name, redact(value, secrets)),
    writeSummary: (markdown) => host.writeSummary(redact(markdown, secrets))
  }
  const { signal } = host.signals
  const onSignal = (): void =>
    log.info(`Received ${host.signals.received() ?? 'a cancel'}: stopping and reporting what is known.`)
  if (signal.aborted) onSignal()
  else signal.addEventListener('abort', onSignal, { once: true })

  const sayUnevaluated = (): void => {
    const notice = inputs.notice()
    if (notice) log.notice(notice)
  }
  const { env } = host
  let settings: Settings | CommandSettings
  let dispatcher
  try {
    const workspace = env.GITHUB_WORKSPACE || '.'
    settings = parseSettings(
      { get: (name) => inputs.get(name), readFile: (path) => readPromptFile(path, workspace) },
      { commands: isCommentEvent(env.GITHUB_EVENT_NAME) }
    )
    dispatcher = createDispatcher(settings.baseUrl)
  } catch (error) {
    sayUnevaluated()
    // Bad input takes the same exit as any other ending: outputs (a given job-id included), summary, one error.
    const state = initialState(host.clock.now(), inputs.get('job-id') || undefined)
    state.outcome = 'error'
    state.failure =
      error instanceof InputError || error instanceof ProxyError
        ? error.message
        : `Could not read the inputs: ${errorMessage(error)}`
    state.endedAt = state.startedAt
    await finish(state, undefined, reporter)
    return 1
  }
  sayUnevaluated()

  const github = new GitHubClient(settings.githubToken, host.env.GITHUB_API_URL)
  log.debug(
    `Mode ${settings.mode}; timeout ${settings.timeoutMs}ms; polls from ${settings.pollIntervalMs}ms up to ${settings.maxPollIntervalMs}ms; base URL ${settings.baseUrl.origin}`
  )
  const readFile = (path: string): string => host.readFile(path)
  const trigger = readTrigger(env, readFile)
  if (!settings.githubToken) sayNoToken(settings, trigger, log)
  const run = runIdentity(env)
  let identity: Promise<string> | undefined
  // One read per login for the step: the command's check and the actor gate share it.
  const permissions = new Permissions((login) =>
    github.permission(
      env.GITHUB_REPOSITORY ?? '',
      login,
      AbortSignal.any([signal, host.clock.timeout(PERMISSION_TIMEOUT_MS)])
    )
  )
  const conversation: ConversationDeps = {
    log,
    identity: () => (identity ??= github.conversation(env.GITHUB_REPOSITORY ?? '').identity()),
    api: (repository) => github.conversation(repository),
    mayWrite: async (login) => {
      const read = await permissions.of(login)
      return read.known ? mayWrite(read.permission) : undefined
    },
    serverUrl: env.GITHUB_SERVER_URL,
    runUrl:
      run && env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY
        ? `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${run.runId}`
        : undefined
  }
  try {
    const talk = await converse(
      settings,
      { name: env.GITHUB_EVENT_NAME ?? '', trigger, comment: readCommentEvent(env, readFile), records: host.records },
      conversation
    )
    if ('ignored' in talk) {
      // A workflow on every comment must not turn red, nor write anything: one line says why.
      log.info(talk.ignored)
      reporter.setOutput('command', 'ignored')
      return 0
    }
    const { failed } = await runStep(talk.settings, {
      ...reporter,
      api: new AgentClient({
        baseUrl: settings.baseUrl,
        apiKey: settings.apiKey,
        projectId: settings.projectId,
        dispatcher,
        userAgent: USER_AGENT,
        clock: host.clock,
        debug: (message) => log.debug(message)
      }),
      clock: host.clock,
      signal,
      repository: env.GITHUB_REPOSITORY || undefined,
      trigger: () => trigger,
      trust: () => readTrustFacts(env, readFile),
      permissions,
      github: {
        reader: (repository, readSignal) => github.reader(repository, readSignal),
        addLabels: (pr, labels) => github.addLabels(pr, labels)
      },
      records: talk.records,
      run,
      linkBack: (state) => linkBack({ state, settings: talk.settings }, talk.targets, conversation)
    })
    return failed ? 1 : 0
  } catch (error) {
    log.error(`Unexpected error: ${errorMessage(error)}`)
    return 1
  } finally {
    signal.removeEventListener('abort', onSignal)
    await dispatcher.destroy()
  }
}

/** An empty token is a warning when it costs the agent its context, a notice otherwise. */
function sayNoToken(settings: Settings | CommandSettings, trigger: Trigger, log: Log): void {
  const newJob = settings.mode === 'create' || settings.mode === 'command'
  const lost = newJob && settings.context === 'auto' ? readFromGitHub(trigger, settings.releaseTags.length) : undefined
  if (lost) {
    log.warning(
      `Input 'github-token' is empty, so the agent will not get ${lost}: only what the event itself holds. ` +
        "No GitHub API calls are made and no labels are added. Leave the input out for the workflow's token, or " +
        'pass `${{ secrets.DOCS_BOT_TOKEN || github.token }}`.'
    )
  } else {
    log.notice(
      "Input 'github-token' is empty: no GitHub API calls are made and no labels are added. Leave the input out for the workflow's token."
    )
  }
}
