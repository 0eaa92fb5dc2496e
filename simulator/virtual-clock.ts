/**
 * Virtual time shared by the step under test and the simulator, so a scenario about a 20 s
 * Retry-After or a hung request takes milliseconds.
 *
 *   const clock = new VirtualClock({ seed: 7 })
 *   const sim = await AgentApiSimulator.start({ clock })   // jobs age, delays and hangs in virtual time
 *   await runStep(settings, { ...deps, clock })            // sleeps and request time limits too
 *
 * Time moves only when a party waits: the step's `sleep` jumps to its wake-up at once (firing what
 * falls due on the way, in order); the simulator's `hold` (a delay or a hang, while the step waits
 * on the answer) fires pending timers one by one (the step's request time limit among them),
 * letting I/O settle between two, until what it waits for happens.
 */
import { setImmediate as nextTurn } from 'node:timers/promises'
import { Cancelled } from '../src/base/cancel.js'
import type { Clock } from '../src/base/clock.js'
import type { SimulatorClock } from './agent-api.js'

/**
 * A delay as Node's timers take it: a fraction of a millisecond is dropped, so time stays whole
 * milliseconds as `Date.now()` reads it (a jittered poll interval is fractional).
 */
const whole = (ms: number): number => Math.max(0, Math.trunc(ms))

/** Read afresh: timers and I/O abort signals while a method runs. */
const aborted = (signal: AbortSignal): boolean => signal.aborted

interface Timer {
  at: number
  order: number
  fire(): void
}

export class VirtualClock implements Clock, SimulatorClock {
  private time: number
  private order = 0
  private readonly timers: Timer[] = []
  private state: number

  constructor(options: { start?: number; seed?: number } = {}) {
    this.time = options.start ?? Date.parse('2026-11-22T10:00:00Z')
    this.state = options.seed ?? 1
  }

  now(): number {
    return this.time
  }

  /** Seeded (mulberry32): the same run every time. */
  random(): number {
    this.state = (this.state + 0x6d2b79f5) | 0
    let t = this.state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }

  sleep(ms: number, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(new Cancelled(false))
    const wake = this.time + whole(ms)
    // A timer fired on the way may abort it: the sleep ends then, as a real one would.
    for (let next = this.timers[0]; next && next.at <= wake && !aborted(signal); next = this.timers[0]) this.fireNext()
    if (aborted(signal)) return Promise.reject(new Cancelled(false))
    this.time = wake
    return Promise.resolve()
  }

  timeout(ms: number): AbortSignal {
    const controller = new AbortController()
    this.add(this.time + whole(ms), () =>
      controller.abort(new DOMException('The operation timed out.', 'TimeoutError'))
    )
    return controller.signal
  }

  async hold(until: AbortSignal): Promise<void> {
    while (!until.aborted) {
      if (this.timers.length === 0) {
        await new Promise<void>((resolve) => until.addEventListener('abort', () => resolve(), { once: true }))
        return
      }
      this.fireNext()
      // Let what the timer set off (an abort, a socket closing) reach `until` before the next one.
      for (let turn = 0; turn < 5 && !aborted(until); turn++) await nextTurn()
    }
  }

  /** Moves time forward by `ms`, as if the world waited (for tests that age a job between steps). */
  advance(ms: number): void {
    void this.sleep(ms, new AbortController().signal)
  }

  private add(at: number, fire: () => void): void {
    const timer = { at, order: this.order++, fire }
    const index = this.timers.findIndex((t) => t.at > at)
    if (index === -1) this.timers.push(timer)
    else this.timers.splice(index, 0, timer)
  }

  private fireNext(): void {
    const timer = this.timers.shift()
    if (!timer) return
    this.time = Math.max(this.time, timer.at)
    timer.fire()
  }
}
