import * as core from '@actions/core'
import { readFileSync } from 'node:fs'
import { setTimeout as delay } from 'node:timers/promises'
import { run as runAction } from './action.js'
import { AgentClient, Cancelled } from './client.js'
import { errorMessage } from './errors.js'
import { createDispatcher } from './http.js'
import { addLabels } from './labels.js'
import { redactingLog, type Log } from './log.js'
import { renderSummary } from './report.js'
import { InputError, parseSettings } from './settings.js'
import { initialState } from './state.js'
import { redact } from './text.js'
import type { Clock } from './wait.js'

const USER_AGENT = 'docs-agent-action/1'

/** The entry point: reads the inputs, wires the real dependencies and runs the action. */
export async function run(): Promise<void> {
  // Masked before anything else can print it.
  const apiKey = core.getInput('api-key')
  if (apiKey) core.setSecret(apiKey)
  const secrets = [apiKey]
  const log: Log = redactingLog(
    {
      info: core.info,
      debug: core.debug,
      notice: (m) => core.notice(m),
      warning: (m) => core.warning(m),
      error: (m) => core.error(m)
    },
    secrets
  )
  const setOutput = (name: string, value: string): void => core.setOutput(name, redact(value, secrets))
  const writeSummary = async (html: string): Promise<void> => {
    await core.summary.addRaw(redact(html, secrets)).write()
  }

  let settings
  try {
    settings = parseSettings({ get: (name) => core.getInput(name), readFile: (path) => readFileSync(path, 'utf8') })
  } catch (error) {
    const message = error instanceof InputError ? error.message : `Could not read the inputs: ${errorMessage(error)}`
    log.error(message)
    process.exitCode = 1
    const state = {
      ...initialState(Date.now(), undefined),
      outcome: 'error' as const,
      failure: message,
      endedAt: Date.now()
    }
    await writeSummary(renderSummary({ state, mode: undefined, prompt: undefined, serverUrl: undefined })).catch(
      (summaryError: unknown) => log.warning(`Could not write the job summary: ${errorMessage(summaryError)}`)
    )
    return
  }

  const cancel = new AbortController()
  const onSignal = (signal: NodeJS.Signals): void => {
    log.info(`Received ${signal}: stopping and reporting what is known.`)
    cancel.abort()
  }
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  const dispatcher = createDispatcher(settings.baseUrl)
  const clock: Clock = {
    now: () => Date.now(),
    random: () => Math.random(),
    sleep: (ms, signal) =>
      delay(ms, undefined, { signal }).catch((error: unknown) => {
        throw signal.aborted ? new Cancelled(false) : error
      })
  }
  log.debug(`Mode ${settings.mode}; timeout ${settings.timeoutMs}ms; base URL ${settings.baseUrl.origin}`)

  try {
    const { failed } = await runAction(settings, {
      api: new AgentClient({
        baseUrl: settings.baseUrl,
        apiKey: settings.apiKey,
        projectId: settings.projectId,
        dispatcher,
        userAgent: USER_AGENT,
        debug: (message) => log.debug(message)
      }),
      log,
      clock,
      signal: cancel.signal,
      serverUrl: process.env.GITHUB_SERVER_URL,
      setOutput,
      writeSummary,
      addLabels: (pr, labels) => addLabels(settings.githubToken, pr, labels)
    })
    if (failed) process.exitCode = 1
  } catch (error) {
    log.error(`Unexpected error: ${errorMessage(error)}`)
    process.exitCode = 1
  } finally {
    process.removeListener('SIGINT', onSignal)
    process.removeListener('SIGTERM', onSignal)
    await dispatcher.destroy()
  }
}
