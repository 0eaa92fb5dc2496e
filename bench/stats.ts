// Small numeric helpers of the benchmark: a seeded PRNG (so every table is reproducible) and
// order statistics.

/** mulberry32: a tiny 32-bit PRNG, uniform in [0, 1). Same seed, same sequence. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** A seed derived from a base seed and labels, so each stream is independent of the others' order. */
export function deriveSeed(base: number, ...labels: (string | number)[]): number {
  // FNV-1a over the labels' text.
  let hash = 0x811c9dc5 ^ base
  for (const char of labels.join('\u0000')) {
    hash ^= char.charCodeAt(0)
    hash = Math.imul(hash, 0x01000193)
  }
  return hash >>> 0
}

/** Nearest-rank quantile (q in (0, 1]) of values sorted ascending. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)))
  return sorted[rank - 1] as number
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  if (sorted.length === 0) return Number.NaN
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? Number.NaN : values.reduce((sum, v) => sum + v, 0) / values.length
}

export interface Summary {
  median: number
  p95: number
  max: number
  mean: number
}

export function summarize(values: readonly number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b)
  return {
    median: quantile(sorted, 0.5),
    p95: quantile(sorted, 0.95),
    max: sorted[sorted.length - 1] ?? Number.NaN,
    mean: mean(sorted)
  }
}
