/** Commit subjects as the context lists them: pull request numbers kept; merges and bots' commits left out. */
import type { Commit, Comparison } from '../client.js'
import type { PushedCommit } from '../event.js'
import { inline } from '../../base/text.js'

/** Commit subjects, pull request numbers kept; merges and bots' commits left out. */
export function changeLines(comparison: Comparison): { lines: string[]; count: number; unread: number } {
  const lines = commitLines(comparison.commits)
  // The API lists at most 250 commits; the rest are counted, not read.
  const unread = Math.max(0, comparison.total - comparison.commits.length)
  return { lines, count: lines.length + unread, unread }
}

/** Commits' subjects, merges and bots' commits left out. */
export function commitLines(commits: readonly Commit[]): string[] {
  return commits
    .filter((commit) => commit.parents < 2 && !commit.author?.bot)
    .map((commit) => subject(commit.message))
    .filter((line) => line && !isMergeSubject(line))
    .map((line) => `- ${line}`)
}

/** A push's commit subjects, as `changeLines` lists a comparison's. */
export function pushedLines(commits: PushedCommit[]): string[] {
  return commits
    .filter((commit) => !isBot(commit))
    .map((commit) => subject(commit.message))
    .filter((line) => line && !isMergeSubject(line))
    .map((line) => `- ${line}`)
}

function isBot(commit: PushedCommit): boolean {
  return commit.author?.endsWith('[bot]') ?? false
}

/** The first line of a commit message, on one line. */
function subject(message: string): string {
  return inline(message.split('\n', 1)[0] ?? '', 200)
}

function isMergeSubject(line: string): boolean {
  return /^Merge (pull request|branch|remote-tracking branch|tag) /.test(line)
}
