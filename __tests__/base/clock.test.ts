import { afterEach, describe, expect, it } from '@jest/globals'
import { Cancelled } from '../../src/base/cancel.js'
import { LAST_REQUEST_MS, REQUEST_TIMEOUT_MS, requestTimeout, systemClock } from '../../src/base/clock.js'
import { watchSignals } from '../../src/step/signals.js'

describe('systemClock', () => {
  it('tells the time, and draws in [0, 1)', () => {
    const before = Date.now()
    expect(systemClock.now()).toBeGreaterThanOrEqual(before)
    for (let i = 0; i < 100; i++) {
      const x = systemClock.random()
      expect(x >= 0 && x < 1).toBe(true)
    }
  })

  it('sleeps, and a cancel turns the sleep into Cancelled (nothing on the wire)', async () => {
    // Timers fire in the order they fall due: a 20 ms sleep ends after a 5 ms timer set before it.
    let fired = false
    setTimeout(() => (fired = true), 5)
    await systemClock.sleep(20, new AbortController().signal)
    expect(fired).toBe(true)
    const cancel = new AbortController()
    const sleeping = systemClock.sleep(10_000, cancel.signal)
    cancel.abort()
    await expect(sleeping).rejects.toEqual(new Cancelled(false))
  })

  it('gives a time limit that aborts', async () => {
    const signal = systemClock.timeout(10)
    expect(signal.aborted).toBe(false)
    await new Promise((resolve) => setTimeout(resolve, 40))
    expect(signal.aborted).toBe(true)
  })
})

describe('requestTimeout', () => {
  it('is the time left, within bounds', () => {
    expect(requestTimeout(100_000, 0)).toBe(REQUEST_TIMEOUT_MS)
    expect(requestTimeout(10_000, 0)).toBe(10_000)
    expect(requestTimeout(1000, 0)).toBe(LAST_REQUEST_MS)
    expect(requestTimeout(0, 5000)).toBe(LAST_REQUEST_MS)
  })
})

describe('Cancelled', () => {
  it('says whether the request had left', () => {
    const sent = new Cancelled(true)
    expect([sent.name, sent.message, sent.requestSent, new Cancelled(false).requestSent]).toEqual([
      'Cancelled',
      'cancelled',
      true,
      false
    ])
    expect(sent).toBeInstanceOf(Error)
  })
})

describe('watchSignals', () => {
  const installed: [NodeJS.Signals, (...args: unknown[]) => void][] = []
  afterEach(() => {
    for (const [name, listener] of installed.splice(0)) process.removeListener(name, listener)
  })
  const watch = () => {
    const before = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') }
    const watched = watchSignals()
    for (const name of ['SIGINT', 'SIGTERM'] as const) {
      for (const listener of process.listeners(name))
        if (!before[name].includes(listener)) installed.push([name, listener as (...args: unknown[]) => void])
    }
    return watched
  }

  it.each(['SIGINT', 'SIGTERM'] as const)('aborts on %s and remembers the first signal', (name) => {
    const watched = watch()
    expect(installed.map(([signal]) => signal).sort()).toEqual(['SIGINT', 'SIGTERM'])
    expect([watched.signal.aborted, watched.received()]).toEqual([false, undefined])
    process.emit(name, name)
    process.emit(name === 'SIGINT' ? 'SIGTERM' : 'SIGINT', name === 'SIGINT' ? 'SIGTERM' : 'SIGINT')
    expect([watched.signal.aborted, watched.received()]).toEqual([true, name])
  })
})
