import * as core from '@actions/core'
import { readFileSync } from 'node:fs'
import { systemClock } from '../base/clock.js'
import { main } from './main.js'
import { cacheRecordStore } from '../rerun/cache.js'
import { watchSignals, type SignalWatch } from './signals.js'

// The runner's side of `main(host)`, in a module of its own so that the in-process tests, which
// bring their own host, do not load @actions/core.

/** How long a request left over after the step (a cache upload given up on) may hold the process. */
const EXIT_GRACE_MS = 2_000

/** The runner's entry (and `npm run local-action`'s): the real host, then the exit code. */
export async function run(signals: SignalWatch = watchSignals()): Promise<void> {
  const code = await main({
    input: (name) => core.getInput(name),
    setSecret: (secret) => core.setSecret(secret),
    setOutput: (name, value) => core.setOutput(name, value),
    writeSummary: async (markdown) => {
      await core.summary.addRaw(markdown).write()
    },
    log: {
      info: (m) => core.info(m),
      debug: (m) => core.debug(m),
      notice: (m) => core.notice(m),
      warning: (m) => core.warning(m),
      error: (m) => core.error(m)
    },
    env: process.env,
    readFile: (path) => readFileSync(path, 'utf8'),
    clock: systemClock,
    signals,
    records: cacheRecordStore(process.env)
  })
  process.exitCode = code
  setTimeout(() => process.exit(), EXIT_GRACE_MS).unref()
}
