/**
 * The runner's side of a step, as GitHub documents it ("Workflow commands for GitHub Actions"):
 * inputs in `INPUT_<NAME>` variables, commands on stdout, outputs and the summary appended to the
 * files GITHUB_OUTPUT and GITHUB_STEP_SUMMARY name. It does what @actions/core did for the step,
 * written the same way, without the OIDC client that @actions/core loads with it: that client's
 * HTTP library loads the whole of undici, a proxy tunnel and @actions/exec before a run's first
 * request, which then came about a third later.
 */
import { randomUUID } from 'node:crypto'
import { appendFileSync, existsSync } from 'node:fs'
import { access, appendFile, constants } from 'node:fs/promises'
import { EOL } from 'node:os'
import type { Host } from './main.js'

export interface Runner {
  /** The step's environment: `INPUT_*`, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY. */
  env: Record<string, string | undefined>
  /** Writes to stdout, where the runner reads the commands. */
  write: (text: string) => void
}

export type RunnerIo = Pick<Host, 'input' | 'setSecret' | 'setOutput' | 'writeSummary' | 'log'>

export function workflowCommands({ env, write }: Runner): RunnerIo {
  const command = (name: string, message: string): void => write(`::${name}::${escapeData(message)}${EOL}`)
  return {
    // `with: { prompt-file: … }` arrives as INPUT_PROMPT-FILE: only spaces become `_`.
    input: (name) => (env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim(),
    setSecret: (secret) => command('add-mask', secret),
    setOutput: (name, value) => {
      const file = env.GITHUB_OUTPUT
      if (file) appendOutput(file, name, value)
      // Outside a runner (npm run local-action) the output is shown as the command older runners read.
      else write(`${EOL}::set-output name=${escapeProperty(name)}::${escapeData(value)}${EOL}`)
    },
    writeSummary: async (markdown) => {
      const file = env.GITHUB_STEP_SUMMARY
      if (!file) throw new Error('GITHUB_STEP_SUMMARY is not set: this runner keeps no job summary')
      try {
        await access(file, constants.R_OK | constants.W_OK)
      } catch {
        throw new Error(`cannot write the summary file ${file}`)
      }
      await appendFile(file, markdown, 'utf8')
    },
    log: {
      info: (message) => write(`${message}${EOL}`),
      debug: (message) => command('debug', message),
      notice: (message) => command('notice', message),
      warning: (message) => command('warning', message),
      error: (message) => command('error', message)
    }
  }
}

/**
 * `name<<delimiter`, the value's lines, the delimiter: a delimiter made anew for each output, which
 * no value can know in advance, so none can end its block early.
 */
function appendOutput(file: string, name: string, value: string): void {
  if (!existsSync(file)) throw new Error(`GITHUB_OUTPUT names ${file}, which does not exist`)
  const delimiter = `ghadelimiter_${randomUUID()}`
  appendFileSync(file, `${name}<<${delimiter}${EOL}${value}${EOL}${delimiter}${EOL}`, 'utf8')
}

/** A command's message: one line, so that nothing in it can start a command of its own. */
function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C')
}
