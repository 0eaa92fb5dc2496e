/** Version tags (`v1.2.0`, `1.10`, `v2.0.0-rc.1`) and their order. */

interface Version {
  numbers: number[]
  /** Pre-release identifiers (`rc.1` → ['rc', '1']); empty for a release. */
  pre: string[]
}

const VERSION_TAG = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/

/** The version a tag names, or undefined for a tag that is not a version (`latest`, `docs-2026`). */
export function parseVersion(tag: string): Version | undefined {
  const match = VERSION_TAG.exec(tag)
  if (!match) return undefined
  return {
    numbers: [match[1], match[2], match[3]].map((n) => Number(n ?? 0)),
    pre: match[4]?.split('.') ?? []
  }
}

/** Semantic-versioning precedence: numbers first, then a pre-release before its release. */
export function compareVersions(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) {
    const diff = (a.numbers[i] ?? 0) - (b.numbers[i] ?? 0)
    if (diff !== 0) return diff
  }
  if (a.pre.length === 0 || b.pre.length === 0) return b.pre.length - a.pre.length
  for (let i = 0; i < Math.max(a.pre.length, b.pre.length); i++) {
    const x = a.pre[i]
    const y = b.pre[i]
    if (x === undefined || y === undefined) return x === undefined ? -1 : 1
    if (x === y) continue
    const numeric = /^\d+$/.test(x) && /^\d+$/.test(y)
    if (numeric) return Number(x) - Number(y)
    if (/^\d+$/.test(x) !== /^\d+$/.test(y)) return /^\d+$/.test(x) ? -1 : 1
    return x < y ? -1 : 1
  }
  return 0
}

/**
 * The release before `tag` among `tags`: the highest version below it. For a release, pre-releases
 * are passed over (the changes of v1.3.0 are counted from v1.2.0, not from v1.3.0-rc.2); for a
 * pre-release, every lower version counts. Undefined when `tag` is not a version or none is lower.
 */
export function previousVersion(tag: string, tags: readonly string[]): string | undefined {
  const current = parseVersion(tag)
  if (!current) return undefined
  let best: { tag: string; version: Version } | undefined
  for (const candidate of tags) {
    const version = parseVersion(candidate)
    if (!version || compareVersions(version, current) >= 0) continue
    if (current.pre.length === 0 && version.pre.length > 0) continue
    if (!best || compareVersions(version, best.version) > 0) best = { tag: candidate, version }
  }
  return best?.tag
}
