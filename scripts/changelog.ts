/**
 * The release notes of a version tag, from CHANGELOG.md (Keep a Changelog: `## [1.2.3] - 2026-01-31`).
 * The release workflow runs it before anything is published:
 *
 *   node build/scripts/changelog.js v1.2.3 release-notes.md
 *
 * writes the section's entries to release-notes.md and, under GitHub Actions, the outputs
 * `version` (1.2.3), `major` (v1) and `prerelease` (true for v1.2.3-rc.1). A release without its
 * section fails, naming the heading to add; a pre-release without one takes `[Unreleased]`, where
 * the entries of a release candidate still are.
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { ROOT } from './action-metadata.js'

export interface ReleaseTag {
  /** Without the `v`: 1.2.3 or 1.2.3-rc.1. */
  version: string
  /** The tag users pin: v1. */
  major: string
  prerelease: boolean
}

// Semantic Versioning 2.0.0: numbers without leading zeros, dot-separated pre-release and build parts.
const NUMBER = '(?:0|[1-9]\\d*)'
const IDENTIFIERS = '[0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*'
const TAG = new RegExp(`^v(${NUMBER})\\.${NUMBER}\\.${NUMBER}(-${IDENTIFIERS})?(?:\\+${IDENTIFIERS})?$`)

export function parseTag(tag: string): ReleaseTag {
  const match = TAG.exec(tag)
  if (!match)
    throw new Error(`'${tag}' is not a release tag: expected v<major>.<minor>.<patch>, as in v1.2.3 or v1.2.3-rc.1`)
  return { version: tag.slice(1).replace(/\+.*$/, ''), major: `v${match[1] ?? ''}`, prerelease: match[2] !== undefined }
}

/** The entries under `## [heading]` (or `## heading`), up to the next `## ` heading; undefined when there is none. */
export function section(changelog: string, heading: string): string | undefined {
  const lines = changelog.replace(/\r\n?/g, '\n').split('\n')
  const escaped = heading.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const start = lines.findIndex((line) => new RegExp(`^## +(?:\\[${escaped}\\]|${escaped})(?:\\s|$)`).test(line))
  if (start < 0) return undefined
  const rest = lines.slice(start + 1)
  const end = rest.findIndex((line) => line.startsWith('## '))
  return (
    (end < 0 ? rest : rest.slice(0, end))
      // The link definitions at the foot of the file (`[1.2.3]: https://…`) belong to no section.
      .filter((line) => !/^\[[^\]]+\]: \S+$/.test(line))
      .join('\n')
      .trim()
  )
}

/** The release notes of `tag`; throws when CHANGELOG.md has none for it. */
export function releaseNotes(changelog: string, tag: string): string {
  const { version, prerelease } = parseTag(tag)
  const notes = section(changelog, version) ?? (prerelease ? section(changelog, 'Unreleased') : undefined)
  if (notes === undefined)
    throw new Error(
      `CHANGELOG.md has no section for ${version}: move the entries of [Unreleased] under '## [${version}] - YYYY-MM-DD' and tag again`
    )
  if (notes === '') throw new Error(`CHANGELOG.md's section for ${version} has no entries`)
  return `${notes}\n`
}

function main(tag: string | undefined, notesFile: string | undefined): void {
  if (tag === undefined || notesFile === undefined) throw new Error('Usage: changelog.js <tag> <notes file>')
  const release = parseTag(tag)
  writeFileSync(notesFile, releaseNotes(readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8'), tag))
  const outputs = `version=${release.version}\nmajor=${release.major}\nprerelease=${String(release.prerelease)}\n`
  if (process.env.GITHUB_OUTPUT) appendFileSync(process.env.GITHUB_OUTPUT, outputs)
  process.stdout.write(outputs)
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    main(process.argv[2], process.argv[3])
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error))
    process.exitCode = 1
  }
}
