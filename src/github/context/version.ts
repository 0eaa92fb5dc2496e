/**
 * Version tags and their order. A tag is a component and a version: `v1.2.0` (component `v`),
 * `@acme/cli@3.0.0-next.12` (`@acme/cli@`), `acme-util-0.7.19` (`acme-util-`), `tools/v0.23.0`
 * (`tools/v`), `acme-8_21_0` (`acme-`), `24.1b2` (no component). Releases are ordered within
 * their component only.
 */

export interface Version {
  /** 1 to 4 numeric parts; missing parts count as 0. */
  numbers: number[]
  /**
   * Pre-release identifiers, split into runs of letters and numbers (`rc.10` and `rc10` →
   * ['rc', 10]); PEP 440 names normalised (`a1` → ['alpha', 1]). Empty for a release.
   */
  pre: (string | number)[]
  /** A PEP 440 post-release's number (`1.0.post2` → 2): after its release, before the next one. */
  post?: number
}

export interface VersionTag {
  tag: string
  /** What comes before the version: '', `v`, `pkg@`, `@scope/pkg@`, `name-`, `name-v`, `path/v`, `path/`. */
  component: string
  version: Version
  /**
   * The tag up to its major (`v1`), then the component (`v`): the prefixes of the reads that find
   * the previous release, narrowest first, so they ask for as few tags as they can.
   */
  prefixes: string[]
}

/**
 * Longest tag read as a version. Each start is tried and may read to the end, so the time grows
 * with the square of the length: a tag as long as a name on a file system costs microseconds.
 */
export const MAX_TAG_CHARS = 255

// 1 to 4 numeric parts (`.` or `_`), then a semver pre-release (`-rc.1`) or a PEP 440 one
// (`rc1`, `.b2`, `-a1`), then a PEP 440 post-release (`.post2`; `-post2` reads as semver's
// pre-release), then build metadata, which does not count in the order.
const VERSION =
  /^(\d+)((?:[._]\d+){0,3})(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)|[.-]?(a|b|c|rc|alpha|beta|pre|preview)(\d*))?(?:\.?post(\d*))?(?:\+[0-9A-Za-z.-]+)?$/
const PEP440_NAMES: Record<string, string> = { a: 'alpha', b: 'beta', c: 'rc', pre: 'rc', preview: 'rc' }

/**
 * The component and version of a tag, or undefined for a tag that is not a version (`latest`,
 * `2.3.x`, `docs-2026`). The component ends where the version starts, after `@`, `/` or `-` (and
 * an optional `v`); the shortest component that leaves a version wins. A component other than ''
 * holds a letter, and a single number is a version only after '' or `v` (`v2`, `tools/v2`, but not
 * `docs-2026`). A semver pre-release starts with a letter, so `pkg-2-1.0.0` is `pkg-2-` 1.0.0.
 */
export function parseTag(tag: string): VersionTag | undefined {
  if (tag.length > MAX_TAG_CHARS) return undefined
  for (let start = 0; start < tag.length; start++) {
    if (start > 0 && !'@/-'.includes(tag[start - 1] ?? '')) continue
    for (const end of tag[start] === 'v' ? [start, start + 1] : [start]) {
      const parsed = split(tag, end)
      if (parsed) return parsed
    }
  }
  return undefined
}

function split(tag: string, at: number): VersionTag | undefined {
  const component = tag.slice(0, at)
  if (component !== '' && !/[A-Za-z]/.test(component)) return undefined
  const match = VERSION.exec(tag.slice(at))
  if (!match) return undefined
  const [, major = '', rest = '', semverPre, pepName, pepNumber, post] = match
  const parts = [major, ...rest.split(/[._]/).slice(1)]
  if (parts.length === 1 && component !== '' && !component.endsWith('v')) return undefined
  if (semverPre !== undefined && !/^[0-9-]*[A-Za-z]/.test(semverPre)) return undefined
  let pre: (string | number)[] = []
  if (semverPre !== undefined) pre = semverPre.split('.').flatMap(runs)
  else if (pepName !== undefined) pre = [PEP440_NAMES[pepName] ?? pepName, Number(pepNumber || 0)]
  const prefixes = [tag.slice(0, at + major.length), component]
  const version: Version = { numbers: parts.map(Number), pre }
  if (post !== undefined) version.post = Number(post || 0)
  return { tag, component, version, prefixes }
}

/** `alpha20260812` → ['alpha', 20260812]: numbers inside an identifier compare as numbers. */
function runs(identifier: string): (string | number)[] {
  return (identifier.match(/\d+|\D+/g) ?? []).map((run) => (/^\d/.test(run) ? Number(run) : run))
}

/**
 * Precedence: numbers first, then a pre-release before its release, identifiers one by one, then
 * post-releases after what they follow (`1.0rc1` < `1.0` < `1.0.post1` < `1.0.1`).
 */
export function compareVersions(a: Version, b: Version): number {
  for (let i = 0; i < Math.max(a.numbers.length, b.numbers.length); i++) {
    const diff = (a.numbers[i] ?? 0) - (b.numbers[i] ?? 0)
    if (diff !== 0) return Math.sign(diff)
  }
  return comparePre(a.pre, b.pre) || Math.sign((a.post ?? -1) - (b.post ?? -1))
}

function comparePre(a: Version['pre'], b: Version['pre']): number {
  if (a.length === 0 || b.length === 0) return Math.sign(b.length - a.length)
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i]
    const y = b[i]
    if (x === undefined || y === undefined) return x === undefined ? -1 : 1
    if (x === y) continue
    // Numbers before words, as semantic versioning orders numeric identifiers.
    if (typeof x !== typeof y) return typeof x === 'number' ? -1 : 1
    return x < y ? -1 : 1
  }
  return 0
}

/**
 * Whether `candidate` is a better previous release than `best`: a higher version, or the same one
 * written with more parts. `v7` beside `v7.0.0` is a major version's moving tag (as GitHub Actions
 * keep them), which may already point at the release being documented, or past it. `overPosts`: a
 * release beats its own post-releases, which re-release it, often from a branch of their own.
 */
function isBefore(best: VersionTag, candidate: VersionTag, overPosts: boolean): boolean {
  const [a, b] = [candidate.version, best.version]
  const oneIsPost = (a.post === undefined) !== (b.post === undefined)
  if (overPosts && oneIsPost && compareVersions({ ...a, post: b.post }, b) === 0) return a.post === undefined
  const order = compareVersions(a, b)
  return order > 0 || (order === 0 && a.numbers.length > b.numbers.length)
}

/**
 * The release before `tag` among `tags`: the highest version below it in the same component. For
 * a release, pre-releases are passed over (the changes of v1.3.0 are counted from v1.2.0, not from
 * v1.3.0-rc.2); for a pre-release, every lower version counts. Of two tags of one version, the one
 * with more parts. A release's previous one is a release before a post-release of it (the changes of
 * 1.10.1 are counted from 1.10.0, not 1.10.0.post2), which stands for it when it has no tag. Undefined when `tag` is not a version or no lower one of its component is among
 * `tags`.
 */
export function previousVersion(tag: string | VersionTag, tags: readonly string[]): string | undefined {
  const current = typeof tag === 'string' ? parseTag(tag) : tag
  if (!current) return undefined
  let best: VersionTag | undefined
  for (const name of tags) {
    const candidate = parseTag(name)
    if (!candidate || candidate.component !== current.component) continue
    if (compareVersions(candidate.version, current.version) >= 0) continue
    if (current.version.pre.length === 0 && candidate.version.pre.length > 0) continue
    if (!best || isBefore(best, candidate, current.version.post === undefined)) best = candidate
  }
  return best?.tag
}
