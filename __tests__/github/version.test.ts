import { describe, expect, it } from '@jest/globals'
import { compareVersions, parseVersion, previousVersion } from '../../src/github/version.js'

describe('parseVersion', () => {
  it.each([
    ['v1.2.3', [1, 2, 3], []],
    ['1.2.3', [1, 2, 3], []],
    ['v2', [2, 0, 0], []],
    ['v1.10', [1, 10, 0], []],
    ['v2.0.0-rc.1', [2, 0, 0], ['rc', '1']],
    ['v1.0.0+build.5', [1, 0, 0], []]
  ])('%s', (tag, numbers, pre) => {
    expect(parseVersion(tag)).toEqual({ numbers, pre })
  })

  it.each(['latest', 'docs-2026', 'v', 'v1.2.3.4', 'release-1.2.0', 'V1.2.0', '1.2.x', ''])(
    '%s is not a version',
    (tag) => {
      expect(parseVersion(tag)).toBeUndefined()
    }
  )
})

describe('compareVersions', () => {
  // In precedence order, as semantic versioning defines it.
  const ordered = [
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
  it('orders by numbers, then a pre-release before its release', () => {
    for (let i = 0; i < ordered.length; i++) {
      for (let j = 0; j < ordered.length; j++) {
        const a = parseVersion(ordered[i] ?? '')
        const b = parseVersion(ordered[j] ?? '')
        if (!a || !b) throw new Error('not versions')
        expect([ordered[i], ordered[j], Math.sign(compareVersions(a, b))]).toEqual([
          ordered[i],
          ordered[j],
          Math.sign(i - j)
        ])
      }
    }
  })
})

it('compares equal versions as equal, build metadata aside', () => {
  const a = parseVersion('v1.2.3-rc.1+build.5')
  const b = parseVersion('1.2.3-rc.1')
  if (!a || !b) throw new Error('not versions')
  expect(compareVersions(a, b)).toBe(0)
})

describe('previousVersion', () => {
  const tags = [
    'v1.0.0',
    'v1.9.0',
    'v1.10.0',
    'v1.2.0',
    'latest',
    'v2.0.0-rc.1',
    'v2.0.0-rc.2',
    'docs-site',
    'v1.10.0-beta'
  ]
  it.each([
    ['v1.10.1', 'v1.10.0'],
    ['v1.10.0', 'v1.9.0'],
    ['v1.9.0', 'v1.2.0'],
    ['v2.0.0', 'v1.10.0'],
    ['v2.0.0-rc.2', 'v2.0.0-rc.1'],
    ['v2.0.0-rc.1', 'v1.10.0'],
    ['v1.0.0', undefined],
    ['latest', undefined],
    ['v1.2.1', 'v1.2.0']
  ])('before %s: %s', (tag, previous) => {
    expect(previousVersion(tag, tags)).toBe(previous)
  })
})

it('keeps the first of two tags naming the same version', () => {
  expect(previousVersion('v2.0.0', ['1.5.0', 'v1.5.0', 'v1.4.0'])).toBe('1.5.0')
})
