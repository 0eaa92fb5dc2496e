// A package's range split into its own commits and the others: release commits are left out of
// both lists and of the range's count, as a whole range's are.
import { describe, expect, it } from '@jest/globals'
import type { Comparison } from '../../../src/github/reader.js'
import type { Commit } from '../../../src/github/commit.js'
import { splitRange, type PackageScope } from '../../../src/github/context/package.js'

const commit = (sha: string, message: string): Commit => ({ sha, message, parents: 1, author: undefined })
const comparison = (commits: Commit[], total = commits.length): Comparison => ({
  status: 'ahead',
  commits,
  total,
  files: [],
  url: undefined
})
const scope = (own: Commit[], complete = true): Extract<PackageScope, { kind: 'own' }> => ({
  kind: 'own',
  directory: 'packages/cli',
  how: 'packages/cli/package.json names it',
  own: { commits: own, complete }
})

describe('splitRange', () => {
  const fix = commit('a', 'cli: fix the flag (#3)')
  const core = commit('b', 'core: faster (#4)')
  const bump = commit('c', 'Version Packages')
  const cliBump = commit('d', 'chore(release): 1.1.0')

  it("leaves a release commit out of the range's count and of the others, and says so in their title", () => {
    const split = splitRange(scope([fix]), comparison([fix, core, bump]), 'v1')
    expect(split.fact).toBe(
      '- Package directory: packages/cli (packages/cli/package.json names it); 1 of the 2 commits since v1 touches it'
    )
    expect(split.summary).toBe('1 of 2 changes since v1 touches packages/cli')
    expect(split.own).toMatchObject({
      title: 'Changes to packages/cli since v1 (1)',
      lines: ['- cli: fix the flag (#3)']
    })
    expect(split.others.section).toMatchObject({
      title: 'Other changes in the range, not touching packages/cli (1; 1 release commit left out)',
      lines: ['- core: faster (#4)']
    })
    // A release set names the range's others once, by its own rules.
    expect(split.others.commits).toEqual([core, bump])
  })

  it("leaves a release commit that touches the package out of the package's own list", () => {
    // Newest first, as the commits API lists them.
    const split = splitRange(scope([cliBump, fix], false), comparison([fix, core, cliBump], 40), 'v1')
    expect(split.own).toMatchObject({
      title: 'Changes to packages/cli since v1 (at least 1; 1 release commit left out)',
      lines: ['- cli: fix the flag (#3)', '- … and possibly more: the newest 2 were read']
    })
    expect(split.count).toBe(1)
    expect(split.fact).toContain('; at least 1 of the 39 commits since v1 touch it')
    expect(split.others.section.title).toBe('Other changes in the range, not touching packages/cli (38)')
  })

  it('counts the commits compare did not list, and names one that touches the package as touching', () => {
    const split = splitRange(scope([fix]), comparison([fix], 3), 'v1')
    expect(split.fact).toContain('; 1 of the 3 commits since v1 touches it')
    expect(split.others.section).toMatchObject({
      title: 'Other changes in the range, not touching packages/cli (2)',
      unread: 2
    })
  })

  describe('a previous release on another branch (compare: diverged)', () => {
    // The commits API lists the package's history by date: past the range, the previous release's
    // own commits shift its pages, and commits of both histories can be read as the range's.
    const ancient = commit('z', 'cli: the 2019 rewrite (#149)')
    const diverged = (commits: Commit[], total = commits.length): Comparison => ({
      ...comparison(commits, total),
      status: 'diverged'
    })

    it('compare lists the whole range: a commit of the package it does not list is not counted', () => {
      const split = splitRange(scope([fix, ancient]), diverged([fix, core]), 'cli@1.0.0')
      expect(split.own.lines).toEqual(['- cli: fix the flag (#3)'])
      expect(split.count).toBe(1)
      expect(split.fact).toContain('; 1 of the 2 commits since cli@1.0.0 touches it')
      expect(split.others.section).toMatchObject({ lines: ['- core: faster (#4)'], unread: 0 })
    })

    it('not complete: says how many of the range were read, those compare does not list left out', () => {
      const split = splitRange(scope([fix, ancient], false), diverged([fix, core]), 'cli@1.0.0')
      expect(split.own.lines).toEqual(['- cli: fix the flag (#3)', '- … and possibly more: the newest 1 were read'])
    })

    it("compare lists only part of the range: the package's commits read are kept, none told apart", () => {
      const split = splitRange(scope([fix, ancient]), diverged([core], 300), 'cli@1.0.0')
      expect(split.own.lines).toEqual(['- cli: the 2019 rewrite (#149)', '- cli: fix the flag (#3)'])
      expect(split.others.section).toMatchObject({ title: expect.stringContaining('(298)'), unread: 297 })
    })
  })
})
