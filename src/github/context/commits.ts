/**
 * Commit subjects as the context lists them: pull request numbers kept; merges, bots' commits and
 * a range's release commit left out.
 */
import type { Comparison } from '../reader.js'
import type { Commit } from '../commit.js'
import type { PushedCommit } from '../event.js'
import { inline, plural } from '../../base/text.js'

/** A range's commits as the context lists them, and how many it counts and leaves out. */
export interface ChangeLines {
  lines: string[]
  /** Changes listed and unread: the release commits are not counted. */
  count: number
  /** Commits beyond those the API listed: counted, not read. */
  unread: number
  /** The release's own version-bump commits, left out. */
  releases: number
}

/**
 * Commit subjects, pull request numbers kept; merges, bots' commits and the release's own
 * version-bump commit left out.
 */
export function changeLines(comparison: Comparison): ChangeLines {
  const subjects = commitSubjects(comparison.commits)
  const lines = subjects.filter((line) => !isReleaseSubject(line)).map((line) => `- ${line}`)
  // The API lists at most 250 commits; the rest are counted, not read.
  const unread = Math.max(0, comparison.total - comparison.commits.length)
  return { lines, count: lines.length + unread, unread, releases: subjects.length - lines.length }
}

/** The count in a list's title: `12`, or `12; 1 release commit left out`. */
export function countOf(changes: Pick<ChangeLines, 'count' | 'releases'>): string {
  return changes.releases
    ? `${changes.count}; ${plural(changes.releases, 'release commit')} left out`
    : `${changes.count}`
}

/** Whether `commit` is a release's own version-bump commit, as `changeLines` leaves out. */
export function isReleaseCommit(commit: Commit): boolean {
  return isReleaseSubject(subject(commit.message))
}

/** Commits' subjects as list lines, merges and bots' commits left out. */
export function commitLines(commits: readonly Commit[]): string[] {
  return commitSubjects(commits).map((line) => `- ${line}`)
}

function commitSubjects(commits: readonly Commit[]): string[] {
  return commits
    .filter((commit) => commit.parents < 2 && !commit.author?.bot)
    .map((commit) => subject(commit.message))
    .filter((line) => line && !isMergeSubject(line))
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

const VERSION = String.raw`v?\d+(\.\d+)+(-[\w.]+)?`
/**
 * What release tools commit for a release, and nothing else: `Release 1.4.0` or `Release v1.4.0`,
 * changesets' `Version Packages`, semantic-release's `chore(release): 1.4.0`, release-please's
 * `chore(main): release 1.4.0`, `npm version`'s bare `1.4.0`. A squash merge's `(#12)` is ignored.
 */
const RELEASE_SUBJECTS = [
  new RegExp(`^release:? ${VERSION}$`, 'i'),
  /^version packages( \([^)]*\))?$/i,
  /^chore\(release\)!?:/i,
  /^chore(\([^)]*\))?!?: release( |$)/i,
  new RegExp(`^${VERSION}$`)
]

function isReleaseSubject(line: string): boolean {
  const bare = line.replace(/ \(#\d+\)$/, '')
  return RELEASE_SUBJECTS.some((pattern) => pattern.test(bare))
}

function isMergeSubject(line: string): boolean {
  return /^Merge (pull request|branch|remote-tracking branch|tag) /.test(line)
}
