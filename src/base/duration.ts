const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const

/** Accepted form, quoted in every error about a duration input. */
export const DURATION_FORM = 'seconds (600) or a duration such as 500ms, 90s, 15m, 1h or 1h30m'

/**
 * Parses `600` (seconds) or unit runs like `1h30m`, `90s`, `500ms`.
 * Returns milliseconds, or undefined when the text is not of that form.
 */
export function parseDuration(text: string): number | undefined {
  const value = text.trim().toLowerCase()
  if (/^\d+$/.test(value)) return Number(value) * 1000
  if (!/^(\d+(ms|h|m|s))+$/.test(value)) return undefined
  let total = 0
  let lastRank = -1
  for (const [, amount, unit] of value.matchAll(/(\d+)(ms|h|m|s)/g)) {
    // Units must run from large to small, once each: `30m1h` is a typo, not 90 minutes.
    const rank = ['h', 'm', 's', 'ms'].indexOf(unit as string)
    if (rank <= lastRank) return undefined
    lastRank = rank
    total += Number(amount) * UNIT_MS[unit as keyof typeof UNIT_MS]
  }
  return total
}

/** `1h 2m 3s`-style rendering for logs and the summary (whole seconds, ms below 1 s). */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))}ms`
  let seconds = Math.round(ms / 1000)
  const hours = Math.floor(seconds / 3600)
  seconds -= hours * 3600
  const minutes = Math.floor(seconds / 60)
  seconds -= minutes * 60
  const parts: string[] = []
  if (hours) parts.push(`${hours}h`)
  if (minutes) parts.push(`${minutes}m`)
  if (seconds || parts.length === 0) parts.push(`${seconds}s`)
  return parts.join(' ')
}
