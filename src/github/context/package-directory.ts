/**
 * Where a package lives in its repository, found from what GitHub serves at its tag: the tag's own
 * path (`tools/v1.2.0`), else the manifests of the tag's tree that name the package (one recursive
 * tree read, then at most MANIFEST_READS of the manifests in directories named like it).
 */
import type { Tree } from './package-reads.js'

/** Manifests read at most per package: the likeliest few, so a large monorepo costs no more. */
export const MANIFEST_READS = 3

export type PackageDirectory =
  /** `directory` ('' never: a package at the root is the whole repository). */
  | { kind: 'found'; directory: string; how: string }
  /** A single-package tag (`v1.2.3`, `1.2.3`): nothing is read. */
  | { kind: 'single' }
  /** Not found, and why, for the summary. */
  | { kind: 'none'; why: string }
  /** A read failed (already named by the reader) or the tree was cut short (`truncated`). */
  | { kind: 'unread'; truncated: boolean }

export interface DirectoryReads {
  /** The tag's tree; undefined when the read failed. */
  tree(): Promise<Tree | undefined>
  /** A file's text at the tag; undefined when the read failed. */
  text(path: string): Promise<string | undefined>
}

const RELEASE_PLEASE = 'release-please-config.json'
const MANIFESTS = new Set(['package.json', 'Cargo.toml', 'pyproject.toml', 'go.mod'])
// Copies and examples of packages, not the packages themselves.
const NOT_PACKAGES = /(^|\/)(node_modules|vendor|third[_-]party|testdata|fixtures?|__fixtures__)\//

/**
 * The directory a tag's component names without a read: `tools/v` and `tools/` → `tools`;
 * undefined for a component that is a name (`@acme/cli@`, `acme-util-`).
 */
export function pathOfComponent(component: string): string | undefined {
  const match = /^(.+)\/v?$/.exec(component)
  return match?.[1]
}

/** The package name a component stands for: `@acme/cli@` → `@acme/cli`, `core-v` → `core`. */
export function nameOfComponent(component: string): string {
  return component.replace(/[@/_-]v?$/, '')
}

/** Names compared loosely, as registries do: case, `_` and `.` are `-`. */
function key(name: string): string {
  return name.toLowerCase().replace(/[_.]/g, '-')
}

/** The last segment of a name: `@acme/cli` → `cli`; a Go module's `/v2` left aside. */
function tail(name: string): string {
  return (
    name
      .replace(/\/v\d+$/, '')
      .split('/')
      .at(-1) ?? name
  )
}

/** The names a package may go by: its own, and one after its repository (`core` in `pydantic` → `pydantic-core`). */
export function candidateNames(name: string, repoName: string): string[] {
  const prefixed = `${repoName}-${name}`
  return key(name).startsWith(key(repoName)) ? [name] : [name, prefixed]
}

/**
 * How well a directory's name fits one of `names`, lower is better; undefined when it cannot be the
 * package's: its last segment is the name's (`packages/cli` for `@acme/cli`), the name flattened
 * (`acme-cli`), ends with it (`babel-plugin-x` for `@babel/plugin-x`), or is its end (`macros` for `tokio-macros`).
 */
export function fit(directory: string, names: readonly string[]): number | undefined {
  const base = key(directory.split('/').at(-1) ?? '')
  if (!base) return undefined
  let best: number | undefined
  for (const name of names) {
    const end = key(tail(name))
    const flat = key(name.replace(/^@/, '').replace(/\//g, '-'))
    const rank =
      base === end || base === flat ? 0 : base.endsWith(`-${end}`) ? 1 : end.endsWith(`-${base}`) ? 2 : undefined
    if (rank !== undefined && (best === undefined || rank < best)) best = rank
  }
  return best
}

/** The manifests that can be the package's, likeliest first: best fit, then shallowest, then by path. */
export function likelyManifests(paths: readonly string[], names: readonly string[], repoName: string): string[] {
  const ranked: { path: string; rank: number; depth: number }[] = []
  for (const path of paths) {
    const slash = path.lastIndexOf('/')
    if (!MANIFESTS.has(path.slice(slash + 1)) || NOT_PACKAGES.test(path)) continue
    const directory = slash < 0 ? repoName : path.slice(0, slash)
    const rank = fit(directory, names)
    if (rank !== undefined) ranked.push({ path, rank, depth: path.split('/').length })
  }
  ranked.sort((a, b) => a.rank - b.rank || a.depth - b.depth || (a.path < b.path ? -1 : 1))
  return ranked.map((entry) => entry.path)
}

/** The name a manifest gives its package: a minimal line-based read of the one key. */
export function manifestName(path: string, text: string): string | undefined {
  const file = path.slice(path.lastIndexOf('/') + 1)
  if (file === 'package.json') {
    try {
      const name: unknown = (JSON.parse(text) as { name?: unknown } | null)?.name
      return typeof name === 'string' ? name : undefined
    } catch {
      return undefined
    }
  }
  if (file === 'go.mod') return /^\s*module\s+"?([^\s"]+)"?/m.exec(text)?.[1]
  const tables = file === 'Cargo.toml' ? ['package'] : ['project', 'tool.poetry']
  return tomlString(text, tables)
}

/** `name = "…"` in the first of `tables` that has it. */
function tomlString(text: string, tables: readonly string[]): string | undefined {
  let table = ''
  const found = new Map<string, string>()
  for (const line of text.split(/\r?\n/)) {
    // `[table]` or `[[array-of-tables]]`.
    const header = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$/.exec(line)
    if (header) {
      table = header[1] ?? ''
      continue
    }
    const value = /^\s*name\s*=\s*(?:"([^"]*)"|'([^']*)')/.exec(line)
    if (value && tables.includes(table) && !found.has(table)) found.set(table, value[1] ?? value[2] ?? '')
  }
  return tables.map((t) => found.get(t)).find((name) => name !== undefined)
}

/** Whether a manifest's name is the package's (a Go module's by its path's end). */
function names(manifest: string, path: string, candidates: readonly string[]): boolean {
  if (path.endsWith('go.mod')) {
    const module = key(manifest.replace(/\/v\d+$/, ''))
    return candidates.some((name) => module === key(name) || module.endsWith(`/${key(name)}`))
  }
  // An npm scope is left aside when the tag names the package without it (`instrumentation-x-v1.0.0`).
  const unscoped = key(manifest.replace(/^@[^/]+\//, ''))
  return candidates.some((name) => key(manifest) === key(name) || unscoped === key(name))
}

/** The directory of the package release-please's config gives component or package name `names`. */
export function releasePleaseDirectory(text: string, candidates: readonly string[]): string | undefined {
  let packages: unknown
  try {
    packages = (JSON.parse(text) as { packages?: unknown } | null)?.packages
  } catch {
    return undefined
  }
  if (typeof packages !== 'object' || packages === null) return undefined
  for (const [path, config] of Object.entries(packages as Record<string, unknown>)) {
    const entry = (typeof config === 'object' && config !== null ? config : {}) as Record<string, unknown>
    const given = [entry.component, entry['package-name']].filter((v): v is string => typeof v === 'string')
    if (given.some((name) => candidates.some((candidate) => key(candidate) === key(name)))) return path
  }
  return undefined
}

/** The package's directory for a tag of `component` in repository `repoName`. */
export async function findPackageDirectory(
  component: string,
  repoName: string,
  reads: DirectoryReads
): Promise<PackageDirectory> {
  if (component === '' || component === 'v') return { kind: 'single' }
  const path = pathOfComponent(component)
  if (path !== undefined) return { kind: 'found', directory: path, how: 'the tag names it' }
  const name = nameOfComponent(component)
  const candidates = candidateNames(name, repoName)
  const tree = await reads.tree()
  if (!tree || tree.truncated) return { kind: 'unread', truncated: tree?.truncated ?? false }
  const config = tree.paths.includes(RELEASE_PLEASE) ? [RELEASE_PLEASE] : []
  const manifests = likelyManifests(tree.paths, candidates, repoName)
  const chosen = [...config, ...manifests].slice(0, MANIFEST_READS)
  if (chosen.length === 0) return { kind: 'none', why: `no directory of the tag's tree is named like ${name}` }
  // Read at once: one round trip, however many of the few are read.
  const texts = await Promise.all(chosen.map((file) => reads.text(file)))
  const directoryOf = (file: string): string => file.slice(0, Math.max(0, file.lastIndexOf('/')))
  for (const [index, file] of chosen.entries()) {
    const text = texts[index]
    if (text === undefined) return { kind: 'unread', truncated: false }
    const found =
      file === RELEASE_PLEASE
        ? releasePleaseDirectory(text, candidates)
        : names(manifestName(file, text) ?? '', file, candidates)
          ? directoryOf(file)
          : undefined
    if (found === undefined) continue
    const directory = found.replace(/^\.\/?|\/$/g, '')
    if (directory === '') return { kind: 'none', why: `${name} is the package at the repository's root` }
    return { kind: 'found', directory, how: `${file} names it` }
  }
  const read =
    chosen.length < manifests.length + config.length ? `the ${chosen.length} likeliest manifests` : 'the manifests'
  return { kind: 'none', why: `none of ${read} of directories named like ${name} names it` }
}
