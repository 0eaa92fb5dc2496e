import { closeSync, constants, fstatSync, openSync, readSync, realpathSync } from 'node:fs'
import { isAbsolute, relative, resolve, sep } from 'node:path'
import { formatCount } from '../base/text.js'
import { InputError, quoted } from './inputs.js'
import { MAX_PROMPT_CHARS } from './settings.js'

/** A prompt within the character limit is at most this many bytes of UTF-8. */
export const MAX_PROMPT_FILE_BYTES = 4 * MAX_PROMPT_CHARS

const FORM = 'expected the path of a regular UTF-8 file inside the workspace (GITHUB_WORKSPACE), not under .git/'

/**
 * Reads `prompt-file`: only a regular file inside `workspace` once symlinks are resolved, never
 * under a `.git` directory (the checkout's token is in `.git/config`), and never more bytes than a
 * prompt can have. The checks are made on the opened file, so what is checked is what is read.
 */
export function readPromptFile(path: string, workspace: string): string {
  const fail = (why: string): never => {
    throw new InputError('prompt-file', `${quoted(path)} ${why}: ${FORM}.`)
  }
  let real: string
  let root: string
  try {
    root = realpathSync(workspace)
    real = realpathSync(resolve(root, path))
  } catch (error) {
    return fail(`cannot be read (${errorCode(error)})`)
  }
  const inside = relative(root, real)
  // `..notes.md` is inside: only a first part that is `..` itself leaves the workspace.
  if (inside.split(sep)[0] === '..' || isAbsolute(inside)) return fail('is outside the workspace')
  if (inside.split(sep).some((part) => part.toLowerCase() === '.git')) return fail('is under .git/')

  let fd: number
  try {
    // Non-blocking, so that a FIFO is refused below instead of waiting for a writer.
    fd = openSync(real, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW)
  } catch (error) {
    return fail(`cannot be read (${errorCode(error)})`)
  }
  try {
    const stat = fstatSync(fd)
    if (!stat.isFile()) return fail('is not a regular file')
    if (stat.size > MAX_PROMPT_FILE_BYTES) {
      return fail(
        `has ${formatCount(stat.size)} bytes, more than a prompt of ${formatCount(MAX_PROMPT_CHARS)} characters can have`
      )
    }
    const buffer = Buffer.alloc(stat.size)
    let read = 0
    while (read < buffer.length) {
      const n = readSync(fd, buffer, read, buffer.length - read, read)
      if (n === 0) break
      read += n
    }
    return buffer.subarray(0, read).toString('utf8')
  } finally {
    closeSync(fd)
  }
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? 'unreadable'
}
