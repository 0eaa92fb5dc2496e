import { neutralizeCommands, redact } from './text.js'

/** Where the step writes: `@actions/core` in the action; a recorder in unit tests. */
export interface Log {
  info(message: string): void
  /** Shown only with debug logging on. */
  debug(message: string): void
  notice(message: string): void
  warning(message: string): void
  error(message: string): void
}

/**
 * A log that replaces the secrets in every message, whatever produced the message, and where the
 * runner would read a legacy command (`##[…]`, anywhere in a line) puts a space in it.
 */
export function redactingLog(log: Log, secrets: readonly string[]): Log {
  const wrap =
    (write: (message: string) => void) =>
    (message: string): void =>
      write(neutralizeCommands(redact(message, secrets)))
  return {
    info: wrap((m) => log.info(m)),
    debug: wrap((m) => log.debug(m)),
    notice: wrap((m) => log.notice(m)),
    warning: wrap((m) => log.warning(m)),
    error: wrap((m) => log.error(m))
  }
}

/** A log that writes every line at debug: for work whose lines are worth no more than that. */
export function debugOnly(log: Log): Log {
  const debug = (message: string): void => log.debug(message)
  return { info: debug, debug, notice: debug, warning: debug, error: debug }
}
