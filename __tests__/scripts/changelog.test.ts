import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseTag, releaseNotes, section } from '../../scripts/changelog.js'
import { ROOT } from '../../scripts/action-metadata.js'

const CHANGELOG = `# Changelog

Intro text.

## [Unreleased]

### Added

- Something not released yet.

## [1.2.0] - 2026-03-01

### Fixed

- A fix in 1.2.0.

## [1.1.10] - 2026-02-01

- Entry of 1.1.10.

## 1.1.1 - 2026-01-15

- Entry of 1.1.1.

## [1.1.0-rc.1] - 2026-01-10

## [1.0.0] - 2026-01-01

- First release.

[Unreleased]: https://github.com/docs-agent/docs-agent-action/compare/v1.2.0...HEAD
[1.2.0]: https://github.com/docs-agent/docs-agent-action/compare/v1.1.10...v1.2.0
`

describe('parseTag', () => {
  it('reads a release tag: version, major tag, not a pre-release', () => {
    expect(parseTag('v1.2.3')).toEqual({ version: '1.2.3', major: 'v1', prerelease: false })
    expect(parseTag('v10.0.0')).toEqual({ version: '10.0.0', major: 'v10', prerelease: false })
  })

  it('reads pre-release tags, and drops build metadata from the version', () => {
    expect(parseTag('v2.0.0-rc.1')).toEqual({ version: '2.0.0-rc.1', major: 'v2', prerelease: true })
    expect(parseTag('v2.0.0-beta')).toEqual({ version: '2.0.0-beta', major: 'v2', prerelease: true })
    expect(parseTag('v2.0.0+build.5')).toEqual({ version: '2.0.0', major: 'v2', prerelease: false })
  })

  it.each(['1.2.3', 'v1.2', 'v1', 'v01.2.3', 'v1.2.3-', 'v1.2.3-rc..1', 'v1.2.3 ', 'xv1.2.3', 'v1.2.3.4'])(
    'refuses %j, naming the accepted form',
    (tag) => {
      expect(() => parseTag(tag)).toThrow(
        `'${tag}' is not a release tag: expected v<major>.<minor>.<patch>, as in v1.2.3 or v1.2.3-rc.1`
      )
    }
  )
})

describe('section', () => {
  it('takes the entries up to the next version, without its heading', () => {
    expect(section(CHANGELOG, '1.2.0')).toBe('### Fixed\n\n- A fix in 1.2.0.')
  })

  it('matches the whole version: 1.1.1 is not 1.1.10', () => {
    expect(section(CHANGELOG, '1.1.1')).toBe('- Entry of 1.1.1.')
    expect(section(CHANGELOG, '1.1.10')).toBe('- Entry of 1.1.10.')
    expect(section(CHANGELOG, '1.1')).toBeUndefined()
    expect(section(CHANGELOG, '1.2.0.1')).toBeUndefined()
  })

  it('leaves out the link definitions at the foot of the file', () => {
    expect(section(CHANGELOG, '1.0.0')).toBe('- First release.')
  })

  it('reads Windows line endings', () => {
    expect(section(CHANGELOG.replace(/\n/g, '\r\n'), '1.2.0')).toBe('### Fixed\n\n- A fix in 1.2.0.')
  })

  it('is undefined for a version with no heading, and empty for a heading with no entries', () => {
    expect(section(CHANGELOG, '9.9.9')).toBeUndefined()
    expect(section(CHANGELOG, '1.1.0-rc.1')).toBe('')
  })
})

describe('releaseNotes', () => {
  it("is the tag's section, ending in one newline", () => {
    expect(releaseNotes(CHANGELOG, 'v1.2.0')).toBe('### Fixed\n\n- A fix in 1.2.0.\n')
  })

  it('fails clearly for a release without its section', () => {
    expect(() => releaseNotes(CHANGELOG, 'v1.3.0')).toThrow(
      "CHANGELOG.md has no section for 1.3.0: move the entries of [Unreleased] under '## [1.3.0] - YYYY-MM-DD' and tag again"
    )
  })

  it('fails for a section with no entries', () => {
    expect(() => releaseNotes(CHANGELOG, 'v1.1.0-rc.1')).toThrow("CHANGELOG.md's section for 1.1.0-rc.1 has no entries")
  })

  it('gives a pre-release without its own section the [Unreleased] entries', () => {
    expect(releaseNotes(CHANGELOG, 'v1.3.0-rc.2')).toBe('### Added\n\n- Something not released yet.\n')
  })

  it('fails for a pre-release when there is neither its section nor [Unreleased]', () => {
    const released = CHANGELOG.replace(/## \[Unreleased\][\s\S]*?(?=## \[1\.2\.0\])/, '')
    expect(() => releaseNotes(released, 'v1.3.0-rc.2')).toThrow('CHANGELOG.md has no section for 1.3.0-rc.2')
  })

  it('refuses a tag that is not a version before reading anything', () => {
    expect(() => releaseNotes(CHANGELOG, 'latest')).toThrow("'latest' is not a release tag")
  })

  it("reads the project's own CHANGELOG.md: a pre-release of the next version has notes", () => {
    const notes = releaseNotes(readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8'), 'v1.0.0-rc.1')
    expect(notes).toMatch(/^### Added\n/)
  })
})
