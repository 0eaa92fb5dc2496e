import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MAX_PROMPT_FILE_BYTES, readPromptFile } from '../../src/step/prompt-file.js'
import { InputError } from '../../src/step/inputs.js'

const FORM = 'expected the path of a regular UTF-8 file inside the workspace (GITHUB_WORKSPACE), not under .git/.'

describe('readPromptFile', () => {
  let root: string
  let workspace: string
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'prompt-file-'))
    workspace = join(root, 'workspace')
    mkdirSync(join(workspace, 'docs'), { recursive: true })
    mkdirSync(join(workspace, '.git'))
    mkdirSync(join(workspace, 'vendor', 'lib', '.GIT'), { recursive: true })
    writeFileSync(join(workspace, 'docs', 'prompt.md'), 'Document the export command.\n')
    writeFileSync(join(workspace, '.git', 'config'), '[http] extraheader = AUTHORIZATION: basic c2VjcmV0')
    writeFileSync(join(workspace, 'vendor', 'lib', '.GIT', 'config'), 'x')
    writeFileSync(join(root, 'outside.md'), 'secret')
    writeFileSync(join(root, 'workspace-other.md'), 'next door')
    symlinkSync(join(workspace, 'docs', 'prompt.md'), join(workspace, 'link.md'))
    symlinkSync(join(root, 'outside.md'), join(workspace, 'escape.md'))
    symlinkSync('/proc/self/environ', join(workspace, 'environ'))
    symlinkSync(join(workspace, '.git', 'config'), join(workspace, 'git-config.md'))
    writeFileSync(join(workspace, '..notes.md'), 'Dotted name.\n')
    writeFileSync(join(workspace, 'limit.md'), 'é'.repeat(MAX_PROMPT_FILE_BYTES / 2))
    writeFileSync(join(workspace, 'over.md'), 'x'.repeat(MAX_PROMPT_FILE_BYTES + 1))
    execFileSync('mkfifo', [join(workspace, 'fifo')])
  })
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  const refusal = (path: string): string => {
    try {
      readPromptFile(path, workspace)
    } catch (error) {
      if (error instanceof InputError && error.input === 'prompt-file') return error.message
      throw error
    }
    throw new Error(`read ${path}`)
  }

  it('reads a file of the workspace, by relative or absolute path, and through a symlink that stays inside', () => {
    expect(readPromptFile('docs/prompt.md', workspace)).toBe('Document the export command.\n')
    expect(readPromptFile(join(workspace, 'docs', 'prompt.md'), workspace)).toBe('Document the export command.\n')
    expect(readPromptFile('link.md', workspace)).toBe('Document the export command.\n')
    expect(readPromptFile('..notes.md', workspace)).toBe('Dotted name.\n')
    expect(readPromptFile('./docs/../docs/prompt.md', join(workspace, 'docs', '..'))).toBe(
      'Document the export command.\n'
    )
  })

  it('reads a file of exactly the byte limit (a prompt of 100,000 characters of up to 4 bytes each)', () => {
    expect(MAX_PROMPT_FILE_BYTES).toBe(400_000)
    expect(readPromptFile('limit.md', workspace)).toHaveLength(MAX_PROMPT_FILE_BYTES / 2)
  })

  it.each([
    ['../outside.md', 'is outside the workspace'],
    ['../workspace-other.md', 'is outside the workspace'],
    ['escape.md', 'is outside the workspace'],
    ['environ', 'is outside the workspace'],
    ['/etc/passwd', 'is outside the workspace'],
    ['.git/config', 'is under .git/'],
    ['git-config.md', 'is under .git/'],
    ['vendor/lib/.GIT/config', 'is under .git/'],
    ['docs', 'is not a regular file'],
    ['.', 'is not a regular file'],
    ['fifo', 'is not a regular file'],
    ['missing.md', 'cannot be read (ENOENT)'],
    ['over.md', 'has 400,001 bytes, more than a prompt of 100,000 characters can have']
  ])('refuses %s: %s', (path, why) => {
    expect(refusal(path)).toBe(`Input 'prompt-file': "${path}" ${why}: ${FORM}`)
  })

  it('refuses everything when the workspace itself is missing', () => {
    expect(() => readPromptFile('docs/prompt.md', join(root, 'gone'))).toThrow(
      `Input 'prompt-file': "docs/prompt.md" cannot be read (ENOENT): ${FORM}`
    )
  })
})
