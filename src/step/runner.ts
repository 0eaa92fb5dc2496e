import { readFileSync } from 'node:fs'
import { systemClock } from '../base/clock.js'
import { main } from './main.js'
import { cacheRecordStore } from '../rerun/cache.js'
import { watchSignals, type SignalWatch } from './signals.js'
import { workflowCommands } from './workflow-commands.js'

// The runner's side of `main(host)`, in a module of its own: the in-process tests bring their own host.

/** How long a request left over after the step (a cache upload given up on) may hold the process. */
const EXIT_GRACE_MS = 2_000

/** The runner's entry (and `npm run local-action`'s): the real host, then the exit code. */
export async function run(signals: SignalWatch = watchSignals()): Promise<void> {
  const code = await main({
    ...workflowCommands({ env: process.env, write: (text) => process.stdout.write(text) }),
    env: process.env,
    readFile: (path) => readFileSync(path, 'utf8'),
    clock: systemClock,
    signals,
    records: cacheRecordStore(process.env)
  })
  process.exitCode = code
  setTimeout(() => process.exit(), EXIT_GRACE_MS).unref()
}
