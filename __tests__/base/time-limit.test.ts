// Not in the mutation suites: the test runs the time limit's own source in a child Node, which
// Stryker's instrumented code could not run there.
import { describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { systemClock } from '../../src/base/clock.js'

/** Node with `--expose-gc`: how many of 200 time limits fire while only `AbortSignal.any` refers to them. */
function firedAfterCollections(timeout: string): number {
  const script = `
    const timeout = ${timeout}
    let fired = 0
    // As a request uses it: a listener waits on the composite, which alone refers to the time limit.
    const limits = Array.from({ length: 200 }, () => {
      const signal = AbortSignal.any([new AbortController().signal, timeout(50)])
      signal.addEventListener('abort', () => fired++, { once: true })
      return signal
    })
    for (let i = 0; i < 5; i++) {
      gc()
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    await new Promise((resolve) => setTimeout(resolve, 300))
    console.log(fired, limits.length)
  `
  const run = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8' })
  expect(run.stderr).toBe('')
  return Number(run.stdout.split(' ')[0])
}

describe("the system clock's time limit", () => {
  it('fires when only AbortSignal.any refers to it, after garbage collections (Node 20 lost AbortSignal.timeout there)', () => {
    expect(firedAfterCollections(systemClock.timeout.toString())).toBe(200)
  })
})
