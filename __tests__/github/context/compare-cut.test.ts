/**
 * What the agent is told of a range's files when GitHub's compare cuts them (it lists at most 300,
 * in path order, with no total: docs.github.com/rest/commits/commits#compare-two-commits), and
 * which files are a package's in a release set (a file moved out of it included, as the skip rules
 * count it). Made-up data in the shapes real monorepos give: opentelemetry-go-contrib's
 * `propagators/aws/v1.45.0` changed 611 files, the package's own past the 300th; changesets moved
 * `packages/cli/src/commands/add/writeChangeset.ts` to `packages/write/src/index.ts`.
 */
import { describe, expect, it } from '@jest/globals'
import type { ChangedFile } from '../../../src/github/changed-file.js'
import type { Commit } from '../../../src/github/commit.js'
import { render } from '../../../src/github/context/budget.js'
import { filesCut } from '../../../src/github/context/changed.js'
import { reading } from '../../../src/github/context/reading.js'
import { releaseContext } from '../../../src/github/context/release.js'
import { describeScheduled } from '../../../src/github/context/schedule.js'
import { parseTag } from '../../../src/github/context/version.js'
import type { Comparison, GitHubReader, TagRef } from '../../../src/github/reader.js'

const commit = (sha: string, message = sha): Commit => ({ sha, message, parents: 1, author: undefined })
const file = (filename: string, previousFilename?: string): ChangedFile => ({
  filename,
  status: previousFilename ? 'renamed' : 'modified',
  additions: 1,
  deletions: 1,
  previousFilename,
  patch: '@@ -1 +1 @@\n-a\n+b'
})
const ref = (name: string): TagRef => ({ name, type: 'commit', sha: name })

/** A repository's tags, one comparison, and the commits touching a path, by ref. */
function reader(tags: TagRef[], comparison: Comparison, pathCommits: Record<string, Commit[]>): GitHubReader {
  return {
    requests: () => 0,
    releaseByTag: () => Promise.resolve(undefined),
    tagRefs: (prefix) => Promise.resolve(tags.filter((t) => t.name.startsWith(prefix))),
    tagMessage: () => Promise.resolve(''),
    compare: () => Promise.resolve(comparison),
    pullFiles: () => Promise.resolve([]),
    successfulRuns: () => Promise.resolve([]),
    tree: () => Promise.resolve({ paths: [], truncated: false }),
    fileText: () => Promise.resolve(''),
    pathCommits: (r, _path, page, size) => Promise.resolve((pathCommits[r] ?? []).slice((page - 1) * size, page * size))
  }
}

describe('a compare cut at 300 files', () => {
  const files = (count: number) =>
    Array.from({ length: count }, (_, i) => file(`alpha/f${String(i).padStart(3, '0')}.go`))
  const fix = commit('t1', 'tools: add the --dry-run flag (#7)')
  const comparison = (count: number): Comparison => ({
    status: 'ahead',
    commits: [commit('o1', 'alpha: bump (#6)'), fix],
    total: 2,
    files: files(count),
    url: undefined
  })
  const CUT =
    "- Changed files: GitHub's compare lists at most 300, and it listed 300: more may have changed, not named here"

  it('says so at 300, and names the package whose files may be among the rest; not at 299', () => {
    expect(filesCut(comparison(300))).toBe(CUT)
    expect(filesCut(comparison(300), 'tools')).toBe(`${CUT}, under tools/ too`)
    expect(filesCut(comparison(299), 'tools')).toBeUndefined()
  })

  it("a package's release: the agent is told, beside the skip rules", async () => {
    const tags = [ref('tools/v1.0.0'), ref('tools/v1.1.0')]
    const { read } = reading(reader(tags, comparison(300), { 'tools/v1.1.0': [fix] }))
    const built = await releaseContext('acme/mono', 'tools/v1.1.0', parseTag('tools/v1.1.0'), undefined, read)
    expect(built.changed.incomplete).toContain('at most 300')
    expect(render(built, 60_000)).toContain(`${CUT}, under tools/ too`)
  })

  it('a scheduled run: the agent is told', () => {
    const trigger = {
      kind: 'scheduled',
      repo: 'acme/app',
      event: 'schedule',
      branch: 'main',
      workflow: 'docs.yml',
      sha: 'b'.repeat(40)
    } as const
    const built = describeScheduled(trigger, {
      kind: 'found',
      run: { headSha: 'a'.repeat(40), url: 'https://github.com/acme/app/actions/runs/1', createdAt: 't' },
      comparison: comparison(300)
    })
    expect(render(built, 60_000)).toContain(CUT)
  })
})

describe('a file moved out of the package, in a release set', () => {
  it("is among the package's changes, as it is among its changed paths", async () => {
    const moved = file('packages/write/src/index.ts', 'packages/cli/src/commands/add/writeChangeset.ts')
    const comparison: Comparison = {
      status: 'ahead',
      commits: [commit('m', 'Move writeChangeset to @changesets/write (#300)')],
      total: 1,
      files: [moved, file('packages/cli/src/index.ts'), file('packages/core/src/a.ts')],
      url: undefined
    }
    const tags = [ref('packages/cli/v2.6.0'), ref('packages/cli/v2.6.1')]
    const { read } = reading(reader(tags, comparison, { 'packages/cli/v2.6.1': comparison.commits }))
    const known = (prefix: string) => Promise.resolve(tags.filter((t) => t.name.startsWith(prefix)))
    const tag = 'packages/cli/v2.6.1'
    const built = await releaseContext('acme/mono', tag, parseTag(tag), undefined, read, known)
    expect(built.changed.paths).toContain('packages/cli/src/commands/add/writeChangeset.ts')
    expect(built.changes?.files.map((f) => f.filename)).toEqual([
      'packages/write/src/index.ts',
      'packages/cli/src/index.ts'
    ])
  })
})
