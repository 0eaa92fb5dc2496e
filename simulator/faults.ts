/**
 * The faults a fake serves, by operation: queued ones first, one per request, then a standing one.
 * The Agent API simulator, the GitHub fake and the cache-service fake each keep one.
 */
export class FaultPlan<Op, F> {
  private readonly queued = new Map<Op, F[]>()
  private readonly always = new Map<Op, F>()

  /** Queues faults: each of the next requests for `op` gets one, in order. */
  fail(op: Op, ...faults: F[]): void {
    this.queued.set(op, [...(this.queued.get(op) ?? []), ...faults])
  }

  /** Every request for `op` gets `fault` (after any queued ones) until called with null. */
  failAlways(op: Op, fault: F | null): void {
    if (fault === null) this.always.delete(op)
    else this.always.set(op, fault)
  }

  /** The fault the next request for `op` gets, if any; a queued one is used up. */
  next(op: Op): F | undefined {
    return this.queued.get(op)?.shift() ?? this.always.get(op)
  }

  clear(): void {
    this.queued.clear()
    this.always.clear()
  }
}
