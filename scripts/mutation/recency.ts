// Which commit last changed each changed src/ line, to run the newest commits' lines first: `git blame`
// of the working tree (an uncommitted line is newer than any commit), one process per file, only on
// the lines asked for.
import { execFileSync } from 'node:child_process'

const HEADER = /^([0-9a-f]{40}) \d+ (\d+)(?: (\d+))?$/

/** Per final line, the commit that made it, and per commit its committer time, from `git blame --porcelain`. */
export function parseBlame(text: string): { lineOf: Map<number, string>; timeOf: Map<string, number> } {
  const lineOf = new Map<number, string>()
  const timeOf = new Map<string, number>()
  let commit = ''
  for (const line of text.split('\n')) {
    const header = HEADER.exec(line)
    if (header) {
      commit = header[1] ?? ''
      const first = Number(header[2])
      for (let at = first; at < first + Number(header[3] ?? 1); at++) lineOf.set(at, commit)
    } else if (line.startsWith('committer-time ')) {
      timeOf.set(commit, Number(line.slice('committer-time '.length)))
    }
  }
  return { lineOf, timeOf }
}

/**
 * Groups of `items` by the commit that last changed their first line, the newest commit's first (ties
 * by commit id, so the order is the same every time); an item git cannot place goes in the last group.
 */
export function byRecency<T extends { file: string; start: { line: number } }>(
  root: string,
  items: readonly T[]
): T[][] {
  const files = new Map<string, T[]>()
  for (const item of items) files.set(item.file, [...(files.get(item.file) ?? []), item])
  const commitOf = new Map<T, string>()
  const timeOf = new Map<string, number>()
  for (const [file, mine] of files) {
    const ranges = [...new Set(mine.map((item) => item.start.line))].flatMap((line) => ['-L', `${String(line)},+1`])
    const blame = parseBlame(
      execFileSync('git', ['blame', '--porcelain', ...ranges, '--', file], {
        cwd: root,
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024
      })
    )
    for (const [commit, time] of blame.timeOf) timeOf.set(commit, time)
    for (const item of mine) commitOf.set(item, blame.lineOf.get(item.start.line) ?? '')
  }
  const commits = [...new Set(commitOf.values())].sort(
    (a, b) => (timeOf.get(b) ?? -1) - (timeOf.get(a) ?? -1) || a.localeCompare(b)
  )
  return commits.map((commit) => items.filter((item) => commitOf.get(item) === commit))
}
