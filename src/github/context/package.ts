/**
 * A package's own part of a monorepo's release: its directory, found at the tag, and the commits
 * of the range that touch it, listed before the rest of the range.
 */
import type { Comparison } from '../reader.js'
import type { Commit } from '../commit.js'
import { inline, plural } from '../../base/text.js'
import type { Section } from './budget.js'
import { commitLines, countOf, isReleaseCommit } from './commits.js'
import { listOwnCommits, type OwnCommits } from './package-commits.js'
import { findPackageDirectory, type PackageDirectory } from './package-directory.js'
import type { Tree } from './package-reads.js'
import { CONTENTS, type Read } from './reading.js'

/** What a tag's package directory and its commits gave, for the release's context. */
export type PackageScope =
  /** The package's own commits, newest first, and the range's others. */
  | { kind: 'own'; directory: string; how: string; own: OwnCommits }
  /** The whole range, as for a single package; `why` for the summary, `warning` when a read fell short. */
  | { kind: 'whole'; why: string | undefined; warning: string | undefined }

/**
 * A tree already read in this run, or read now: a release set's tags mostly share one commit, and
 * its tree is read once for all of them. Its failure is each tag's: each names it in the warning.
 */
export type SharedTree = (readTree: () => Promise<Tree>) => Promise<Tree>

/** Trees by commit sha, for one run, each as a reviewer sees it (`visible`, applied once). */
export function treesByCommit(visible: <T>(value: T) => Promise<T>): (commit: string) => SharedTree {
  const trees = new Map<string, Promise<Tree>>()
  return (commit) => (readTree) => {
    const tree = trees.get(commit) ?? readTree().then(visible)
    trees.set(commit, tree)
    return tree
  }
}

/** The package's directory at `tag`; starts reading at once, before the previous release is known. */
export function findDirectory(
  repo: string,
  tag: string,
  component: string,
  read: Read,
  shared: SharedTree = (readTree) => readTree()
): Promise<PackageDirectory> {
  const at = inline(tag, 100)
  return findPackageDirectory(component, repo.split('/')[1] ?? repo, {
    tree: () => read(`the tree of ${at} (to find the package's directory)`, CONTENTS, (r) => shared(() => r.tree(tag))),
    text: (path) => read(`${inline(path, 200)} at ${at}`, CONTENTS, (r) => r.fileText(path, tag))
  })
}

/** The package's own commits between `previous` and `tag`, once its directory is known. */
export async function packageScope(
  tag: string,
  previous: string,
  directory: Promise<PackageDirectory>,
  read: Read
): Promise<PackageScope> {
  const found = await directory
  switch (found.kind) {
    case 'single':
      return { kind: 'whole', why: undefined, warning: undefined }
    case 'none':
      return { kind: 'whole', why: `package directory not found: ${found.why}`, warning: undefined }
    case 'unread':
      return {
        kind: 'whole',
        why: "the package's directory could not be read",
        // A failed read is already in the reads' warning; a tree cut short is not a failure.
        warning: found.truncated
          ? `Context: GitHub cut the tree of ${inline(tag, 100)} short (too many files to list), so the package's ` +
            'directory was not looked for; the context lists every commit of the range.'
          : undefined
      }
    case 'found': {
      const path = found.directory
      const own = await listOwnCommits(tag, previous, (ref, page, size) =>
        read(`the commits touching ${inline(path, 200)} (page ${page})`, CONTENTS, (r) =>
          r.pathCommits(ref, path, page, size)
        )
      )
      if (!own) return { kind: 'whole', why: "the package's commits could not be read", warning: undefined }
      return { kind: 'own', directory: path, how: found.how, own }
    }
  }
}

/** The range split into the package's commits and the others, as the context lists them. */
export interface Split {
  /** The one line saying how many of the range's commits touch the package. */
  fact: string
  /** For the description: `5 of 59 changes since v1 touch packages/cli`. */
  summary: string
  own: Section
  /** The package's commits listed (merges and bots' left out). */
  count: number
  /** The range's other commits, listed and counted; `commits` for a release set to name once. */
  others: { section: Section; commits: Commit[]; unread: number }
}

/** The package's commits, all of them, then the range's others, never mixed. */
export function splitRange(
  scope: Extract<PackageScope, { kind: 'own' }>,
  comparison: Comparison,
  previous: string
): Split {
  const listedShas = new Set(comparison.commits.map((commit) => commit.sha))
  // Compare lists the whole range: a path commit it does not list is not the range's (a previous
  // release on another branch, whose history the path commits' pages cannot tell apart).
  const whole = comparison.commits.length >= comparison.total
  const ownCommits = whole ? scope.own.commits.filter((commit) => listedShas.has(commit.sha)) : scope.own.commits
  const mine = new Set(ownCommits.map((commit) => commit.sha))
  const listed = comparison.commits.filter((commit) => !mine.has(commit.sha))
  // Release commits are left out of both lists and of the range's count, as a whole range's are.
  const own = ownCommits.filter((commit) => !isReleaseCommit(commit))
  const others = listed.filter((commit) => !isReleaseCommit(commit))
  // Oldest first, as compare lists the range.
  const ownLines = commitLines([...own].reverse())
  // The range's commits neither listed by compare nor the package's: counted, not read.
  const ownBeyond = ownCommits.filter((commit) => !listedShas.has(commit.sha)).length
  const unread = Math.max(0, comparison.total - comparison.commits.length - ownBeyond)
  const otherLines = commitLines(others)
  const dir = inline(scope.directory, 200)
  const since = inline(previous, 100)
  const releases = { own: ownCommits.length - own.length, others: listed.length - others.length }
  const ownCount = `${scope.own.complete ? '' : 'at least '}${ownLines.length}`
  const total = Math.max(comparison.total, ownCommits.length) - releases.own - releases.others
  const touch = ownLines.length === 1 && scope.own.complete ? 'touches' : 'touch'
  const more = (left: number): string => `- … and ${plural(left, 'more change')}`
  return {
    fact: `- Package directory: ${dir} (${inline(scope.how, 200)}); ${ownCount} of the ${plural(total, 'commit')} since ${since} ${touch} it`,
    summary: `${ownCount} of ${plural(total, 'change')} since ${since} ${touch} ${dir}`,
    count: ownLines.length,
    own: {
      title: `Changes to ${dir} since ${since} (${scope.own.complete ? '' : 'at least '}${countOf({ count: ownLines.length, releases: releases.own })})`,
      lines: scope.own.complete
        ? ownLines
        : [...ownLines, `- … and possibly more: the newest ${ownCommits.length} were read`],
      unread: 0,
      more
    },
    others: {
      section: {
        title: `Other changes in the range, not touching ${dir} (${countOf({ count: otherLines.length + unread, releases: releases.others })})`,
        lines: otherLines,
        unread,
        more,
        rest: true
      },
      commits: listed,
      unread
    }
  }
}
