// A throwaway git repository for the mutation scripts' tests: files written, committed, moved.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

export interface Repo {
  root: string
  write: (files: Record<string, string>) => void
  remove: (path: string) => void
  git: (...args: string[]) => string
  /** Commits everything; returns the commit's sha. */
  commit: (message?: string) => string
  dispose: () => void
}

export function gitRepo(files: Record<string, string> = {}): Repo {
  const root = mkdtempSync(join(tmpdir(), 'mutation-repo-'))
  const git = (...args: string[]): string =>
    execFileSync(
      'git',
      ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', ...args],
      {
        cwd: root,
        encoding: 'utf8'
      }
    )
  const write = (more: Record<string, string>): void => {
    for (const [path, text] of Object.entries(more)) {
      mkdirSync(join(root, dirname(path)), { recursive: true })
      writeFileSync(join(root, path), text)
    }
  }
  git('init', '-q', '-b', 'main')
  write(files)
  return {
    root,
    write,
    remove: (path) => rmSync(join(root, path)),
    git,
    commit: (message = 'change') => {
      git('add', '-A')
      git('commit', '-q', '--allow-empty', '-m', message)
      return git('rev-parse', 'HEAD').trim()
    },
    dispose: () => rmSync(root, { recursive: true, force: true })
  }
}
