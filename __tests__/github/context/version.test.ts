/**
 * The tag parser and the order of versions, as tables: add a row for a scheme a repository uses.
 * The tag names are made up, in the shapes real repositories give them.
 */
import { describe, expect, it } from '@jest/globals'
import { compareVersions, MAX_TAG_CHARS, parseTag, previousVersion } from '../../../src/github/context/version.js'
import { finishesWithin } from '../../base/watchdog.js'

describe('parseTag', () => {
  // tag, component, numbers, pre-release identifiers, prefixes read to find the previous release
  it.each([
    ['v1.2.3', 'v', [1, 2, 3], [], ['v1', 'v']],
    ['1.4.0', '', [1, 4, 0], [], ['1', '']],
    ['v2', 'v', [2], [], ['v2', 'v']],
    ['v1.10', 'v', [1, 10], [], ['v1', 'v']],
    ['v2.0.0-rc.1', 'v', [2, 0, 0], ['rc', 1], ['v2', 'v']],
    ['v1.5.0-alpha20260812', 'v', [1, 5, 0], ['alpha', 20260812], ['v1', 'v']],
    ['v1.0.0+build.5', 'v', [1, 0, 0], [], ['v1', 'v']],
    ['v1.0.0-rc.1-2', 'v', [1, 0, 0], ['rc', 1, '-', 2], ['v1', 'v']],
    ['1.2.3.4', '', [1, 2, 3, 4], [], ['1', '']],
    // npm monorepos (changesets, lerna)
    ['plugin-x@2.3.1', 'plugin-x@', [2, 3, 1], [], ['plugin-x@2', 'plugin-x@']],
    ['@acme/cli@3.0.0', '@acme/cli@', [3, 0, 0], [], ['@acme/cli@3', '@acme/cli@']],
    ['@acme/cli@3.0.0-next.12', '@acme/cli@', [3, 0, 0], ['next', 12], ['@acme/cli@3', '@acme/cli@']],
    // crates and other name-version tags
    ['acme-util-0.7.19', 'acme-util-', [0, 7, 19], [], ['acme-util-0', 'acme-util-']],
    ['acme-1.53.1', 'acme-', [1, 53, 1], [], ['acme-1', 'acme-']],
    ['acme-v2.1.0', 'acme-v', [2, 1, 0], [], ['acme-v2', 'acme-v']],
    ['vendor-1.2.0', 'vendor-', [1, 2, 0], [], ['vendor-1', 'vendor-']],
    ['web3-1.0.0', 'web3-', [1, 0, 0], [], ['web3-1', 'web3-']],
    ['pkg-2-1.0.0', 'pkg-2-', [1, 0, 0], [], ['pkg-2-1', 'pkg-2-']],
    // Go modules in subdirectories
    ['tools/v0.23.0', 'tools/v', [0, 23, 0], [], ['tools/v0', 'tools/v']],
    ['sdk/v1.2.0-pre.2', 'sdk/v', [1, 2, 0], ['pre', 2], ['sdk/v1', 'sdk/v']],
    ['tools/v2', 'tools/v', [2], [], ['tools/v2', 'tools/v']],
    ['charts/app/1.2.0', 'charts/app/', [1, 2, 0], [], ['charts/app/1', 'charts/app/']],
    // underscore versions
    ['acme-8_21_0', 'acme-', [8, 21, 0], [], ['acme-8', 'acme-']],
    // Python (PEP 440) pre-releases
    ['24.1b2', '', [24, 1], ['beta', 2], ['24', '']],
    ['3.0.0rc1', '', [3, 0, 0], ['rc', 1], ['3', '']],
    ['2.0a1', '', [2, 0], ['alpha', 1], ['2', '']],
    ['v1.0.0.b3', 'v', [1, 0, 0], ['beta', 3], ['v1', 'v']],
    ['1.0-rc2', '', [1, 0], ['rc', 2], ['1', '']],
    ['1.0c1', '', [1, 0], ['rc', 1], ['1', '']],
    ['1.0b', '', [1, 0], ['beta', 0], ['1', '']]
  ] as const)('%s', (tag, component, numbers, pre, prefixes) => {
    const parsed = parseTag(tag)
    expect(parsed).toStrictEqual({ tag, component, version: { numbers, pre }, prefixes })
  })

  // Python (PEP 440) post-releases: tag, numbers, pre-release identifiers, post-release number
  it.each([
    ['v1.10.0.post2', [1, 10, 0], [], 2],
    ['2.0post1', [2, 0], [], 1],
    ['2.0.post', [2, 0], [], 0],
    ['2.0rc1.post3', [2, 0], ['rc', 1], 3],
    ['acme-1.2.0.post1+local', [1, 2, 0], [], 1]
  ] as const)('%s', (tag, numbers, pre, post) => {
    expect(parseTag(tag)?.version).toStrictEqual({ numbers, pre, post })
  })

  it('reads -post2 as a semver pre-release, which it is there', () => {
    expect(parseTag('1.0.0-post2')?.version).toStrictEqual({ numbers: [1, 0, 0], pre: ['post', 2] })
  })

  it.each([
    'latest',
    '2.3.x',
    'docs-2026',
    'release-2026-01-15',
    'v',
    'V1.2.0',
    '1.2.3.4.5',
    '1.0.0-1',
    '1.0.0-',
    'v1.0.0+',
    'nightly',
    'R_4_3_1',
    'v1..2',
    '-1.0.0',
    ''
  ])('%s is not a version', (tag) => {
    expect(parseTag(tag)).toBeUndefined()
  })

  // Each start after a separator is tried, and a start can read to the end: quadratic in a tag
  // made of separators and digits (15 s at 32,000 characters). A version tag is short.
  it(`a tag over ${MAX_TAG_CHARS} characters is not a version, and is given up at once`, () => {
    const name = 'a'.repeat(MAX_TAG_CHARS - 'pkg--1.0.0'.length)
    expect(parseTag(`pkg-${name}-1.0.0`)?.component).toBe(`pkg-${name}-`)
    expect(parseTag(`pkg-${name}x-1.0.0`)).toBeUndefined()
    expect(finishesWithin(20_000, () => parseTag(`x-${'1-'.repeat(1 << 19)}!`))).toBeUndefined()
  })
})

describe('compareVersions', () => {
  // Each list in precedence order; every pair is checked both ways.
  it.each([
    [
      'semantic versioning',
      [
        '1.0.0-alpha',
        '1.0.0-alpha.1',
        '1.0.0-alpha.beta',
        '1.0.0-beta',
        '1.0.0-beta.2',
        '1.0.0-beta.11',
        '1.0.0-rc.1',
        '1.0.0',
        '1.0.1',
        '1.2.0',
        '1.9.0',
        '1.10.0',
        '2.0.0'
      ]
    ],
    ['numbers inside identifiers', ['1.0.0-alpha20260812', '1.0.0-alpha20260901', '1.0.0-rc9', '1.0.0-rc10']],
    ['PEP 440', ['2.0a1', '2.0a2', '2.0b1', '2.0rc1', '2.0rc10', '2.0', '2.0.1', '2.1b1', '2.1']],
    ['PEP 440 post-releases', ['2.0rc1', '2.0rc1.post1', '2.0', '2.0.post0', '2.0.post1', '2.0.post10', '2.0.1']],
    ['two-digit parts', ['2.5.8', '2.5.9', '2.5.10', '2.10.0', '10.0.0']],
    ['four parts', ['1.2.3', '1.2.3.1', '1.2.3.10', '1.2.4']]
  ])('%s', (_, ordered) => {
    const versions = ordered.map((tag) => parseTag(tag)?.version)
    versions.forEach((a, i) =>
      versions.forEach((b, j) => {
        if (!a || !b) throw new Error(`not versions: ${ordered[i] ?? ''}, ${ordered[j] ?? ''}`)
        expect([ordered[i], ordered[j], compareVersions(a, b)]).toEqual([ordered[i], ordered[j], Math.sign(i - j)])
      })
    )
  })

  it.each([
    ['v1.2.3-rc.1+build.5', '1.2.3-rc.1'],
    ['1.2', '1.2.0'],
    ['1.2.0', '1.2.0.0'],
    ['2.0rc1', '2.0.0-rc.1'],
    ['2.0a1', '2.0.0-alpha1']
  ])('%s and %s are the same version', (a, b) => {
    const x = parseTag(a)?.version
    const y = parseTag(b)?.version
    if (!x || !y) throw new Error('not versions')
    expect(compareVersions(x, y)).toBe(0)
  })
})

describe('previousVersion', () => {
  // Several components side by side, a maintenance line, pre-releases, non-versions.
  const tags = [
    'v1.0.0',
    'v1.9.0',
    'v1.10.0',
    'v1.2.0',
    'v1.10.0-beta',
    'v2.0.0-rc.1',
    'v2.0.0-rc.2',
    'v1.10.1',
    'latest',
    'docs-site',
    'plugin-x@2.3.0',
    'plugin-x@2.3.1',
    'plugin-x@3.0.0-next.1',
    '@acme/cli@3.0.0-next.11',
    '@acme/cli@3.0.0-next.12',
    '@acme/cli@2.9.9',
    'acme-util-0.7.18',
    'acme-0.9.0',
    'tools/v0.22.1',
    'tools/v0.23.0',
    'sdk/v1.2.0-pre.1',
    'acme-8_20_0',
    'acme-8_21_0',
    '24.1b1',
    '24.1a1',
    '23.12.1',
    '3.0.0rc1',
    'v5.1.0',
    'v5.1.0.post1',
    'v5.1.0.post2'
  ]
  // tag, its previous release among `tags`
  it.each([
    ['v1.10.2', 'v1.10.1'],
    ['v1.10.0', 'v1.9.0'],
    ['v1.9.0', 'v1.2.0'],
    ['v2.0.0', 'v1.10.1'],
    ['v2.0.0-rc.2', 'v2.0.0-rc.1'],
    ['v2.0.0-rc.3', 'v2.0.0-rc.2'],
    ['v2.0.0-rc.1', 'v1.10.1'],
    ['v1.0.0', undefined],
    ['latest', undefined],
    ['plugin-x@2.3.2', 'plugin-x@2.3.1'],
    ['plugin-x@3.0.0', 'plugin-x@2.3.1'],
    ['@acme/cli@3.0.0-next.13', '@acme/cli@3.0.0-next.12'],
    ['@acme/cli@3.0.0', '@acme/cli@2.9.9'],
    ['@acme/web@1.0.0', undefined],
    ['acme-util-0.7.19', 'acme-util-0.7.18'],
    ['acme-1.0.0', 'acme-0.9.0'],
    ['tools/v0.23.1', 'tools/v0.23.0'],
    ['sdk/v1.2.0-pre.2', 'sdk/v1.2.0-pre.1'],
    ['sdk/v1.2.0', undefined],
    ['acme-8_21_1', 'acme-8_21_0'],
    ['24.1b2', '24.1b1'],
    ['24.1', '23.12.1'],
    ['3.0.0', undefined],
    ['3.0.0rc2', '3.0.0rc1'],
    ['v5.1.0.post3', 'v5.1.0.post2'],
    ['v5.1.0.post1', 'v5.1.0'],
    ['v5.1.0.post2', 'v5.1.0.post1'],
    ['v5.1.1', 'v5.1.0']
  ])('before %s: %s', (tag, previous) => {
    expect(previousVersion(tag, tags)).toBe(previous)
  })

  it('of two tags naming the same version, takes the one with more parts: v7 is a moving major tag', () => {
    expect(previousVersion('v2.0.0', ['v1.5', 'v1.5.0', 'v1.4.0'])).toBe('v1.5.0')
    expect(previousVersion('v2.0.0', ['v1.5.0', 'v1.5', 'v1.4.0'])).toBe('v1.5.0')
    // An action's tags in GitHub's order: the moving v7 is listed before v7.0.0, and may be v7.0.1 already.
    expect(previousVersion('v7.0.1', ['v6', 'v6.0.0', 'v7', 'v7.0.0', 'v7.0.1'])).toBe('v7.0.0')
    expect(previousVersion('v7.0.0', ['v6', 'v6.0.0', 'v7', 'v7.0.0'])).toBe('v6.0.0')
    // With as many parts (build metadata does not count), the first listed stays.
    expect(previousVersion('v2.0.0', ['v1.5.0+a', 'v1.5.0+b'])).toBe('v1.5.0+a')
    expect(previousVersion('v2.0.0', ['v1.5.0+b', 'v1.5.0+a'])).toBe('v1.5.0+b')
  })

  it("counts a release's changes from the release before, not from a post-release of it, unless that has no tag", () => {
    // numpy's v1.10.0.post2 is not an ancestor of v1.10.1: a packaging fix, on a branch of its own.
    for (const tags of [
      ['v1.10.0', 'v1.10.0.post2'],
      ['v1.10.0.post2', 'v1.10.0']
    ]) {
      expect(previousVersion('v1.10.1', tags)).toBe('v1.10.0')
      expect(previousVersion('v1.10.0.post3', tags)).toBe('v1.10.0.post2')
    }
    expect(previousVersion('v1.10.1', ['v1.9.0', 'v1.10.0.post1', 'v1.10.0.post2'])).toBe('v1.10.0.post2')
    expect(previousVersion('v1.10.1', ['v1.10.0.post2', 'v1.10.0.post1'])).toBe('v1.10.0.post2')
    // Of a release's pre-release and a post-release of that pre-release, the pre-release.
    expect(previousVersion('2.0rc2', ['2.0rc1.post1', '2.0rc1'])).toBe('2.0rc1')
  })
})
