/**
 * The change itself for the agent: the changed files' patches, most useful first, each capped,
 * within the room the context leaves; the files past it named; a patch GitHub left out said so.
 */
import type { ChangedFile } from '../changed-file.js'
import { inline, plural } from '../../base/text.js'

/**
 * Characters of one file's patch: about 100 diff lines, enough to show what a change adds or
 * renames, and small enough that one large file cannot take the room of ten others.
 */
export const PATCH_CHARS = 4_000
/** Below this, a patch cut to fit says too little: the file is named instead. */
const SMALLEST_PATCH = 300

/**
 * How useful a file's patch is to someone writing docs, lowest first: public API and schemas,
 * source, existing docs, everything else, then tests, then lockfiles, generated and vendored
 * files, then binaries.
 */
export function usefulness(filename: string): number {
  const name = filename.toLowerCase()
  const base = name.slice(name.lastIndexOf('/') + 1)
  if (BINARY.test(base)) return 6
  if (LOCKFILES.has(base) || GENERATED.test(name) || VENDORED.test(name)) return 5
  if (TESTS.test(name)) return 4
  if (API.test(name)) return 0
  if (SOURCE.test(base)) return 1
  if (DOCS.test(name)) return 2
  return 3
}

const BINARY =
  /\.(png|jpe?g|gif|ico|webp|bmp|tiff?|psd|pdf|zip|gz|tgz|bz2|xz|7z|jar|war|whl|exe|dll|so|dylib|a|o|wasm|woff2?|ttf|otf|eot|mp[34]|mov|avi|webm|wav|ogg|bin|dat|db|sqlite)$/
const LOCKFILES = new Set([
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'bun.lockb',
  'bun.lock',
  'cargo.lock',
  'go.sum',
  'poetry.lock',
  'pipfile.lock',
  'uv.lock',
  'gemfile.lock',
  'composer.lock',
  'flake.lock',
  'packages.lock.json'
])
const GENERATED =
  /(^|\/)(dist|build|out|generated|__generated__|__snapshots__)\/|\.(min\.(js|css)|map|snap|pb\.go|lock)$|_pb2(_grpc)?\.pyi?$|\.generated\.|\.g\.dart$/
const VENDORED = /(^|\/)(vendor|node_modules|third[_-]party|external)\//
const TESTS =
  /(^|\/)(__tests__|__mocks__|tests?|spec|specs|testdata|test-data|fixtures?|e2e|benchmarks?)\/|[._-](test|spec)\.[a-z0-9]+$|_test\.go$|(^|\/)test_[^/]*\.py$/
const API =
  /\.d\.ts$|(^|\/)(openapi|swagger|asyncapi)[^/]*\.(json|ya?ml)$|\.(proto|graphql|gql|avsc|thrift)$|schema[^/]*\.(json|ya?ml)$|(^|\/)action\.ya?ml$/
const SOURCE =
  /\.([cm]?[jt]sx?|py|go|rs|java|kt|kts|scala|swift|m|mm|c|cc|cpp|cxx|h|hpp|cs|fs|rb|php|ex|exs|erl|clj|dart|lua|r|jl|zig|nim|sh|bash|ps1|vue|svelte|sql)$/
const DOCS = /\.(md|mdx|rst|adoc|txt)$|(^|\/)docs?\//

/**
 * Most useful first; among equals, the larger change first, then by name. Stable. With `first`, a
 * package's directory, the package's own files come before all others.
 */
export function rankFiles(files: readonly ChangedFile[], first?: string): ChangedFile[] {
  const other = (file: ChangedFile): number => (first === undefined || file.filename.startsWith(`${first}/`) ? 0 : 1)
  return [...files].sort(
    (a, b) =>
      other(a) - other(b) ||
      usefulness(a.filename) - usefulness(b.filename) ||
      b.additions + b.deletions - (a.additions + a.deletions) ||
      (a.filename < b.filename ? -1 : a.filename > b.filename ? 1 : 0)
  )
}

export interface ChangesOptions {
  /** Changed files beyond those given, counted but not read (GitHub lists at most 300 or 100). */
  unread: number
  /** Where the names of files without their patch already are ('' to name them here). */
  listedUnder: string
  /** A package's directory: its files come first. */
  first?: string
}

/**
 * The patches of `files` within `room` characters, most useful first, each at most PATCH_CHARS;
 * then the files that did not fit, by name (or a pointer to where they are listed). '' when not
 * even one line fits.
 */
export function renderChanges(files: readonly ChangedFile[], room: number, options: ChangesOptions): string {
  const ranked = rankFiles(files, options.first)
  const blocks: string[] = []
  let used = 0
  let shown = 0
  for (const file of ranked) {
    // Room stays for the lines that name what is left after this file.
    const reserve = restLines(ranked.slice(shown + 1), options, 0).length
    const block = fileBlock(file, room - used - reserve - 2)
    if (block === undefined) break
    blocks.push(block)
    used += block.length + 2
    shown++
  }
  const rest = restLines(ranked.slice(shown), options, room - used)
  const text = [...blocks, ...(rest ? [rest] : [])].join('\n\n')
  return text.length <= room ? text : ''
}

/** A file's heading and its patch, fenced, cut to `room`; undefined when it does not fit. */
function fileBlock(file: ChangedFile, room: number): string | undefined {
  const heading = `#### ${describe(file)}`
  if (file.patch === undefined) {
    const block = `${heading}\n\nPatch left out by GitHub (a binary file, or a diff too large to show).`
    return block.length <= room ? block : undefined
  }
  const lines = file.patch.split('\n')
  const fence = '`'.repeat(Math.max(3, longestRun(file.patch) + 1))
  const frame = `${heading}\n\n${fence}diff\n\n${fence}`.length
  const cap = Math.min(PATCH_CHARS, room - frame)
  if (file.patch.length <= cap) return `${heading}\n\n${fence}diff\n${file.patch}\n${fence}`
  const note = (left: number): string => `\n\n… and ${plural(left, 'more line')} of this file's patch.`
  const kept: string[] = []
  let size = 0
  for (const line of lines) {
    if (size + line.length + 1 + note(lines.length).length > cap) break
    kept.push(line)
    size += line.length + 1
  }
  if (size < Math.min(SMALLEST_PATCH, file.patch.length)) return undefined
  return `${heading}\n\n${fence}diff\n${kept.join('\n')}\n${fence}${note(lines.length - kept.length)}`
}

/** The files without their patch: named as room allows, the rest counted. */
function restLines(rest: readonly ChangedFile[], options: ChangesOptions, room: number): string {
  const left = rest.length + options.unread
  if (left === 0) return ''
  if (options.listedUnder) {
    return `The patches of ${plural(left, 'more file')} are left out; they are listed under ${options.listedUnder}.`
  }
  const title = `Files changed without their patch here (${left}):`
  const more = (n: number): string => `- … and ${plural(n, 'more file')}`
  const lines = [title]
  for (const [index, file] of rest.entries()) {
    const line = `- ${describe(file)}`
    const after = left - index - 1
    const candidate = [...lines, line, ...(after > 0 ? [more(after)] : [])]
    if (candidate.join('\n').length > room) return [...lines, more(left - index)].join('\n')
    lines.push(line)
  }
  return [...lines, ...(options.unread > 0 ? [more(options.unread)] : [])].join('\n')
}

function describe(file: ChangedFile): string {
  const name = file.previousFilename
    ? `${inline(file.previousFilename, 200)} → ${inline(file.filename, 200)}`
    : inline(file.filename, 300)
  return `${name} (${inline(file.status, 20)}, +${file.additions} −${file.deletions})`
}

function longestRun(text: string): number {
  return Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length))
}
