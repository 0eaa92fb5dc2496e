import vm from 'node:vm'

/**
 * Runs `work` and returns its result, or throws when it is still running after `ms`: synchronous
 * code (a backtracking regular expression) cannot be stopped by jest's timeout, only by V8's
 * watchdog. Not a measure of speed: the limit is hundreds of times what linear work takes on the
 * input it guards, and a small fraction of what quadratic work would.
 */
export function finishesWithin<T>(ms: number, work: () => T): T {
  return vm.runInNewContext('work()', { work }, { timeout: ms }) as T
}
