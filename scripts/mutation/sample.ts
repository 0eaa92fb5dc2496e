// Choosing which mutants run when more are on offer than fit in CI's time: groups in order (the newest
// commits' lines first), each one whole while it fits; past the budget, a random sample of the first
// that does not fit, then of each older one, seeded (by the commit) so that a given HEAD runs the same
// mutants every time.

/** Numbers in [0, 1) from a string seed: FNV-1a of the seed, then mulberry32. */
export function seeded(seed: string): () => number {
  let state = 0x811c9dc5
  for (const char of seed) state = Math.imul(state ^ (char.codePointAt(0) ?? 0), 0x01000193) >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let value = Math.imul(state ^ (state >>> 15), state | 1)
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61)
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296
  }
}

/** A copy of `items` in an order drawn from `random` (Fisher–Yates). */
export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const copy = [...items]
  for (let index = copy.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1))
    ;[copy[index], copy[other]] = [copy[other] as T, copy[index] as T]
  }
  return copy
}

export interface Limits<T> {
  /** Seconds the chosen mutants may take in all. */
  seconds: number
  /** The most mutants that may run. */
  count: number
  /** Seconds one mutant is expected to take. */
  cost: (item: T) => number
  /** What choosing `item` runs: itself and whatever its range holds (a range holds the mutants nested in it). */
  brings: (item: T) => readonly T[]
  seed: string
}

export interface Selection<T> {
  /** Everything that runs. */
  chosen: Set<T>
  /** Whether a random sample filled the budget (some groups did not fit whole). */
  sampled: boolean
  /** Seconds the chosen ones are expected to take. */
  seconds: number
}

/** Whole groups while each fits, in order; past the budget, a seeded random sample of each group left, in order. */
export function select<T>(groups: ReadonlyArray<readonly T[]>, limits: Limits<T>): Selection<T> {
  const chosen = new Set<T>()
  let seconds = 0
  const added = (items: readonly T[]): T[] => [...new Set(items.flatMap(limits.brings))].filter((i) => !chosen.has(i))
  const fits = (items: T[]): boolean =>
    chosen.size + items.length <= limits.count &&
    seconds + items.reduce((sum, item) => sum + limits.cost(item), 0) <= limits.seconds
  const take = (items: T[]): void => {
    for (const item of items) {
      chosen.add(item)
      seconds += limits.cost(item)
    }
  }
  let next = 0
  for (; next < groups.length; next++) {
    const more = added(groups[next] ?? [])
    if (!fits(more)) break
    take(more)
  }
  // A change larger than the budget still has its own lines run first, a sample of them.
  const random = seeded(limits.seed)
  for (const group of groups.slice(next)) {
    for (const item of shuffled(group, random)) {
      if (chosen.has(item)) continue
      const more = added([item])
      if (fits(more)) take(more)
    }
  }
  return { chosen, sampled: next < groups.length, seconds }
}
