/**
 * The changed files a context read, for the skip rules (`paths`, `paths-ignore`): their paths, and
 * why the list may not be all of them. A list that may be incomplete never skips a run.
 */
import type { ChangedFile } from '../changed-file.js'
import type { Comparison } from '../reader.js'
import { formatCount, inline } from '../../base/text.js'

/** Compare lists at most this many files of a range, and no total: exactly this many may be more. */
export const COMPARE_FILES_LIMIT = 300
/** A pull request's files: GitHub lists at most this many, however many it changes. */
export const PULL_FILES_LIMIT = 3_000

export interface ChangedFiles {
  /** What the files are the change of: `pull request #12`, `v1.0.0...v1.1.0`. */
  of: string
  /** Each file's path, and a renamed file's old path too. */
  paths: string[]
  /** Why the list may not be all of the change's files; undefined when it is. */
  incomplete: string | undefined
}

/** The paths of `files`, a renamed file's old one included. */
export function pathsOf(files: readonly ChangedFile[]): string[] {
  return files.flatMap((file) => (file.previousFilename ? [file.filename, file.previousFilename] : [file.filename]))
}

/**
 * A comparison's files (those under `under/` only, for a package of a monorepo); undefined
 * `comparison`: it could not be read.
 */
export function comparedFiles(of: string, comparison: Comparison | undefined, under?: string): ChangedFiles {
  if (!comparison) return { of, paths: [], incomplete: 'they could not be read' }
  const files = under === undefined ? comparison.files : comparison.files.filter((f) => inside(f, under))
  return { of, paths: pathsOf(files), incomplete: compareIncomplete(comparison) }
}

/**
 * Why a compare's files may not be all of the change from its base to its head; undefined when
 * they are. The one judge of it, for pushes, releases and scheduled runs alike. GitHub's compare
 * (docs.github.com/rest/commits/commits#compare-two-commits): `status` is `ahead`, `behind`,
 * `identical` or `diverged`, and only `ahead` makes its files the change; `files` lists at most 300
 * and may be absent.
 */
export function compareIncomplete(comparison: Comparison): string | undefined {
  const { status, files } = comparison
  // Base and head are the same commit: no file changed, and the empty list is all of it.
  if (status === 'identical' && !comparison.filesMissing) return undefined
  if (status !== 'ahead') return `GitHub's compare says ${inline(status, 20)}, not ahead`
  if (comparison.filesMissing) return "GitHub's compare answered with no list of files"
  return files.length >= COMPARE_FILES_LIMIT
    ? `GitHub's compare lists at most ${formatCount(COMPARE_FILES_LIMIT)} files, with no total, and it listed ${formatCount(files.length)}`
    : undefined
}

/**
 * The line telling the agent that compare's files stop at its limit (the skip rules' `incomplete`
 * reaches only the log); undefined when they do not. `directory`: the package's, whose own files
 * may be among those left out, as the list is in path order.
 */
export function filesCut(comparison: Comparison, directory?: string): string | undefined {
  if (comparison.files.length < COMPARE_FILES_LIMIT) return undefined
  const under = directory === undefined ? '' : `, under ${inline(directory, 200)}/ too`
  return `- Changed files: GitHub's compare lists at most ${formatCount(COMPARE_FILES_LIMIT)}, and it listed ${formatCount(comparison.files.length)}: more may have changed, not named here${under}`
}

/** No list at all, and why. */
export function unlisted(of: string, why: string): ChangedFiles {
  return { of, paths: [], incomplete: why }
}

/** `v1.0.0...v1.1.0`, as the compare link names a range. */
export function rangeName(base: string, head: string): string {
  return `${inline(base, 100)}...${inline(head, 100)}`
}

/** Whether `file` is under `directory/`, or was before it moved. */
export function inside(file: ChangedFile, directory: string): boolean {
  return [file.filename, file.previousFilename].some((path) => path?.startsWith(`${directory}/`))
}
