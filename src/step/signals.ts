/**
 * The runner cancels a step with SIGINT, then SIGTERM. This module is all the entry loads before
 * the handlers exist, so a signal during start-up is still turned into a report, not a silent kill.
 */
export interface SignalWatch {
  /** Aborts on the first SIGINT or SIGTERM. */
  readonly signal: AbortSignal
  /** The signal received, if any. */
  received(): NodeJS.Signals | undefined
}

/** Installs the handlers, for the life of the process: a late cancel must not kill a step that is reporting. */
export function watchSignals(): SignalWatch {
  const controller = new AbortController()
  let received: NodeJS.Signals | undefined
  const onSignal = (signal: NodeJS.Signals): void => {
    received ??= signal
    controller.abort()
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  return {
    signal: controller.signal,
    received: () => received
  }
}
