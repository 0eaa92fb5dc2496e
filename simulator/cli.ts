// Command line of the Agent API simulator, for the demo, CI and `npm run simulator`:
//   node build/simulator/cli.js [--port N (default 4242)] [--run-ms N] [--final completed|failed|archived] [--no-pr]
//                               [--api-key K] [--prefix P]
// Prints one line `SIMULATOR_URL=<url>` on stdout once listening, one line per request on stderr
// (never the Authorization header), and stops cleanly on SIGINT or SIGTERM.
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import {
  AgentApiSimulator,
  type FinalStatus,
  type JobScenario,
  type RecordedRequest,
  type SimulatorOptions
} from './agent-api.js'
import { DEFAULT_AUTOMATIONS, type Automation } from './automations.js'

const FINAL_STATUSES: readonly FinalStatus[] = ['completed', 'failed', 'archived']
/** A fixed port, so that a `.env` pointing base-url at the simulator holds from one start to the next. */
export const DEFAULT_PORT = 4242

/** Starts a simulator configured by command-line flags; throws on a bad flag. Each request is passed to `log` as one line. */
export async function startFromArgs(
  argv: string[],
  log: (line: string) => void = (line) => process.stderr.write(`${line}\n`)
): Promise<AgentApiSimulator> {
  return AgentApiSimulator.start({ ...optionsFromArgs(argv), onRequestEnd: (request) => log(describeRequest(request)) })
}

/** The simulator's options from command-line flags; throws on a bad flag. */
export function optionsFromArgs(argv: string[]): SimulatorOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      'run-ms': { type: 'string' },
      final: { type: 'string' },
      'no-pr': { type: 'boolean' },
      'api-key': { type: 'string' },
      prefix: { type: 'string' }
    }
  })
  // Only the flags given override the simulator's defaults.
  const scenario: Partial<JobScenario> = { pr: values['no-pr'] !== true }
  if (values['run-ms'] !== undefined) scenario.runMs = nonNegativeInteger('--run-ms', values['run-ms'])
  if (values.final !== undefined) scenario.finalStatus = finalStatus(values.final)
  return {
    port: values.port === undefined ? DEFAULT_PORT : nonNegativeInteger('--port', values.port),
    apiKey: values['api-key'],
    prefix: values.prefix,
    scenario
  }
}

/** The automations a user may trigger, and what each answers. */
export function describeAutomations(): string {
  const what = (a: Automation): string =>
    a.trigger !== 'schedule'
      ? 'not a custom schedule: 400'
      : a.jobReadable
        ? 'its job can be read'
        : 'its job reads 404'
  return `Automations (input automation): ${DEFAULT_AUTOMATIONS.map((a) => `${a.id} (${what(a)})`).join(', ')}.`
}

function describeRequest({ method, rawPath, answeredStatus, fault }: RecordedRequest): string {
  return `${method} ${rawPath} ${answeredStatus ?? '-'}${fault ? ` (fault: ${fault})` : ''}`
}

function nonNegativeInteger(flag: string, value: string): number {
  if (!/^\d+$/.test(value)) throw new Error(`${flag} expects a non-negative integer, got "${value}"`)
  return Number(value)
}

function finalStatus(value: string): FinalStatus {
  const found = FINAL_STATUSES.find((s) => s === value)
  if (!found) throw new Error(`--final expects one of ${FINAL_STATUSES.join(', ')}, got "${value}"`)
  return found
}

async function main(): Promise<void> {
  let sim: AgentApiSimulator
  try {
    sim = await startFromArgs(process.argv.slice(2))
  } catch (error) {
    process.stderr.write(`simulator: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exitCode = 2
    return
  }
  process.stdout.write(`SIMULATOR_URL=${sim.url}\n`)
  process.stderr.write(`Point base-url at ${sim.url} with any key starting with mint_; Ctrl-C stops it.\n`)
  process.stderr.write(`${describeAutomations()}\n`)
  // Once the server is closed nothing is left on the event loop, so the process ends by itself.
  const stop = (): void => void sim.close()
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main()
