import { runStep } from './action.js'
import { AgentClient } from '../agent-api/client.js'
import type { Clock } from '../base/clock.js'
import { errorMessage } from '../base/error-message.js'
import { readTrigger } from '../github/event.js'
import { GitHubClient } from '../github/client.js'
import { createDispatcher } from '../agent-api/http.js'
import { redactingLog, type Log } from '../base/log.js'
import { finish, type Reporter } from '../report/report.js'
import { runIdentity, type RecordStore } from '../rerun/record.js'
import { InputError, parseSettings } from './settings.js'
import type { SignalWatch } from './signals.js'
import { initialState } from '../report/state.js'
import { redact } from '../base/text.js'

const USER_AGENT = 'docs-agent-action/1'

/** What the step gets from its surroundings: the runner through `@actions/core`, or a test. */
export interface Host {
  /** An input as the runner passes it (`INPUT_*`), trimmed; '' when not set. */
  input(name: string): string
  setSecret(secret: string): void
  setOutput(name: string, value: string): void
  writeSummary(markdown: string): Promise<void>
  log: Log
  /** The runner's variables (`GITHUB_*`, proxies). */
  env: Record<string, string | undefined>
  readFile(path: string): string
  clock: Clock
  signals: SignalWatch
  records: RecordStore
}

/** Masks the secrets, reads the inputs, wires the dependencies and runs the step; the exit code. */
export async function main(host: Host): Promise<number> {
  // Masked before anything else can print them.
  const secrets = [host.input('api-key'), host.input('github-token')].filter(Boolean)
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

  let settings
  try {
    settings = parseSettings({ get: (name) => host.input(name), readFile: (path) => host.readFile(path) })
  } catch (error) {
    // Bad input takes the same exit as any other ending: outputs, summary, one error.
    const state = initialState(host.clock.now(), undefined)
    state.outcome = 'error'
    state.failure = error instanceof InputError ? error.message : `Could not read the inputs: ${errorMessage(error)}`
    state.endedAt = state.startedAt
    await finish(state, undefined, reporter)
    return 1
  }

  const dispatcher = createDispatcher(settings.baseUrl)
  const github = new GitHubClient(settings.githubToken, host.env.GITHUB_API_URL)
  log.debug(`Mode ${settings.mode}; timeout ${settings.timeoutMs}ms; base URL ${settings.baseUrl.origin}`)
  try {
    const { failed } = await runStep(settings, {
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
      repository: host.env.GITHUB_REPOSITORY || undefined,
      trigger: () => readTrigger(host.env, (path) => host.readFile(path)),
      github: {
        reader: (repository, readSignal) => github.reader(repository, readSignal),
        addLabels: (pr, labels) => github.addLabels(pr, labels)
      },
      records: host.records,
      run: runIdentity(host.env)
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
