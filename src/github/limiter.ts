import type Bottleneck from 'bottleneck'

/** Bottleneck's local store, as far as its yield to the event loop. */
interface Store {
  Promise: PromiseConstructor
  yieldLoop(t?: number): Promise<void>
}

/**
 * The throttling plugin's scheduler, Bottleneck (2.19.5, its last release, pinned by the lock file),
 * yields to the event loop with `setTimeout(resolve, 0)` at each step of scheduling a request,
 * some twenty times a request; Node runs such a timer after at least 1 ms, so each GitHub request
 * waited 20 to 40 ms doing nothing. Its local store yields with `setImmediate` here instead: still a
 * yield (I/O and timers due run first), without the wait. A wait it asks for (t > 0) stays a timer.
 * Patching again changes nothing.
 */
export function yieldWithoutTimers(limiter: typeof Bottleneck): void {
  const store = Object.getPrototypeOf((new limiter() as unknown as { _store: Store })._store) as Store
  store.yieldLoop = function (this: Store, t = 0): Promise<void> {
    return new this.Promise((resolve) => (t > 0 ? setTimeout(resolve, t) : setImmediate(resolve)))
  }
}
