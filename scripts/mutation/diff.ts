// What changed since a commit, by file and line: `git diff -U0` with rename detection from that
// commit to the working tree (its commits, uncommitted edits and files git does not track yet).
// Lines are 1-based, as git and Stryker's `mutate` ranges count them.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** One `@@ -oldStart,oldCount +newStart,newCount @@`; a count of 0 means lines were only added (or removed) after that line. */
export interface Hunk {
  oldStart: number
  oldCount: number
  newStart: number
  newCount: number
}

/** A file's change: no oldPath when it is new, no newPath when it was deleted. */
export interface FileChange {
  oldPath?: string
  newPath?: string
  hunks: Hunk[]
  /** Changed as a whole: git shows no lines (a binary file). */
  binary: boolean
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/

/** Parses `git diff -U0 -M` output (paths as git prints them with core.quotePath off). */
export function parseDiff(text: string): FileChange[] {
  const changes: FileChange[] = []
  let current: FileChange | undefined
  for (const line of text.split('\n')) {
    const header = /^diff --git a\/(.*) b\/(.*)$/.exec(line)
    if (header) {
      current = { oldPath: header[1], newPath: header[2], hunks: [], binary: false }
      changes.push(current)
    } else if (current === undefined) {
      continue
    } else if (line.startsWith('new file mode')) {
      delete current.oldPath
    } else if (line.startsWith('deleted file mode')) {
      delete current.newPath
    } else if (line.startsWith('rename from ')) {
      current.oldPath = line.slice('rename from '.length)
    } else if (line.startsWith('rename to ')) {
      current.newPath = line.slice('rename to '.length)
    } else if (line.startsWith('Binary files ')) {
      current.binary = true
    } else {
      const hunk = HUNK.exec(line)
      if (hunk) {
        current.hunks.push({
          oldStart: Number(hunk[1]),
          oldCount: hunk[2] === undefined ? 1 : Number(hunk[2]),
          newStart: Number(hunk[3]),
          newCount: hunk[4] === undefined ? 1 : Number(hunk[4])
        })
      }
    }
  }
  return changes
}

function git(root: string, args: string[], env: NodeJS.ProcessEnv = process.env): string {
  return execFileSync('git', ['-c', 'core.quotePath=false', ...args], {
    cwd: root,
    encoding: 'utf8',
    env,
    maxBuffer: 256 * 1024 * 1024
  })
}

/**
 * Every change from `commit` to the working tree, files git does not track yet (and does not
 * ignore) included. They are staged in an index of their own, so that a file moved and not yet
 * committed is still seen as moved; a new index has no file's size and time to go by, so git reads
 * every file. The blobs that staging writes go to a folder of their own too: the repository's
 * index and objects are left as they were.
 */
export function changesSince(root: string, commit: string): FileChange[] {
  const scratch = mkdtempSync(join(tmpdir(), 'mutation-index-'))
  try {
    const objects = git(root, ['rev-parse', '--path-format=absolute', '--git-path', 'objects']).trim()
    mkdirSync(join(scratch, 'objects'))
    const env = {
      ...process.env,
      GIT_INDEX_FILE: join(scratch, 'index'),
      GIT_OBJECT_DIRECTORY: join(scratch, 'objects'),
      GIT_ALTERNATE_OBJECT_DIRECTORIES: objects
    }
    git(root, ['add', '-A', '--', '.'], env)
    return parseDiff(git(root, ['diff', '--cached', '-U0', '-M', '--no-color', '--no-ext-diff', commit, '--'], env))
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}

/** The lines of the new file that the change added or altered, as [first, last] stretches. */
export function newLines(change: FileChange): Array<[number, number]> {
  return change.hunks
    .filter((hunk) => hunk.newCount > 0)
    .map((hunk): [number, number] => [hunk.newStart, hunk.newStart + hunk.newCount - 1])
}

/** The old file's changed stretches: lines replaced or removed, or the point after which lines were added. */
export function oldSpans(change: FileChange): Array<{ from: number; to: number }> {
  return change.hunks.map((hunk) =>
    hunk.oldCount === 0
      ? { from: hunk.oldStart + 1, to: hunk.oldStart }
      : { from: hunk.oldStart, to: hunk.oldStart + hunk.oldCount - 1 }
  )
}

/** Where an old line is in the new file, or undefined when the change replaced or removed it. */
export function movedLine(change: FileChange, line: number): number | undefined {
  let shift = 0
  for (const hunk of change.hunks) {
    const last = hunk.oldCount === 0 ? hunk.oldStart : hunk.oldStart + hunk.oldCount - 1
    if (hunk.oldCount > 0 && line >= hunk.oldStart && line <= last) return undefined
    if (line <= last) break
    shift += hunk.newCount - hunk.oldCount
  }
  return line + shift
}
