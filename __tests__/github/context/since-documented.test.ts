// A grouped push or schedule run's range, read from the fake GitHub through the action's own reader.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { GitHubClient } from '../../../src/github/client.js'
import { sinceLastDocumented, type Range } from '../../../src/github/context/since-documented.js'
import { GitHubApiFake } from '../../../simulator/github/index.js'
import { testClient } from '../../fixtures/github.js'

let fake: GitHubApiFake
let client: GitHubClient
describe("the changes since the group's last documented commit", () => {
  beforeAll(async () => {
    fake = await GitHubApiFake.start({ token: 'tok' })
    client = testClient('tok', fake.url)
  })
  afterAll(() => fake.close())

  const reader = (): ReturnType<GitHubClient['reader']> => client.reader('acme/app', new AbortController().signal)

  it("tells the agent when compare's 300 files may not be all of them", async () => {
    fake.reset()
    const files = Array.from({ length: 300 }, (_, i) => ({
      filename: `src/f${String(i).padStart(3, '0')}.ts`,
      status: 'modified' as const,
      additions: 1,
      deletions: 0,
      patch: '@@ -0,0 +1 @@\n+a'
    }))
    const [documented = '', head = ''] = fake.addCommits('acme/app', [
      { message: 'feat: documented' },
      { message: 'feat: wide', files }
    ])
    const range: Range = { repo: 'acme/app', branch: 'main', group: 'docs', last: documented, sha: head }
    const text = (await sinceLastDocumented(range, reader(), 100_000))?.text ?? ''
    expect(text).toContain(
      "\n- Changed files: GitHub's compare lists at most 300, and it listed 300: more may have changed, not named here\n"
    )
  })

  it('lists the commits of runs cancelled while pending too, and the files changed', async () => {
    fake.reset()
    const [documented = '', cancelled = '', merge = '', bot = '', head = ''] = fake.addCommits('acme/app', [
      { message: 'feat: documented already' },
      {
        message: 'feat: the cancelled run\n\nbody',
        files: [{ filename: 'src/a.ts', status: 'modified', additions: 2, deletions: 1, patch: '@@ -1 +1 @@\n-a\n+b' }]
      },
      { message: 'Merge branch x', parents: 2 },
      { message: 'chore: bump', author: { login: 'dependabot[bot]' } },
      { message: 'fix: this run <!-- hidden -->' }
    ])
    const range: Range = { repo: 'acme/app', branch: 'main', group: 'docs', last: documented, sha: head }
    const context = await sinceLastDocumented(range, reader(), 10_000)
    expect(context).toMatchObject({
      // The merge and the bot's commit are not counted.
      description: `2 changes since the group's last documented commit ${documented.slice(0, 12)}`,
      requests: 1,
      warning: undefined
    })
    expect(context?.hidden).toBeGreaterThan(0)
    const text = context?.text ?? ''
    expect(text).toMatch(/^---\n\n## Context from GitHub\n\nThis request comes from a run of group docs on main/)
    expect(text).toContain(`changes since the group's last documented commit (${documented.slice(0, 12)})`)
    expect(text).toContain(`### Changes since ${documented.slice(0, 12)} (2)\n`)
    expect(text).toContain('- feat: the cancelled run\n- fix: this run')
    expect(text).not.toContain('Merge branch')
    expect(text).not.toContain('bump')
    expect(text).not.toContain('hidden')
    expect(text).toContain('### The change itself: patches, most useful files first\n\n#### src/a.ts (modified, +2 −1)')
    expect([cancelled, merge, bot].every(Boolean)).toBe(true)
  })

  it('leaves the release commits out of the range, and says how many', async () => {
    fake.reset()
    const [documented = '', head = ''] = fake
      .addCommits('acme/app', [
        { message: 'feat: documented already' },
        { message: 'feat: a new option' },
        { message: 'Version Packages' },
        { message: 'Release 1.2.0' },
        { message: 'fix: the option again' }
      ])
      .filter((_, index) => index === 0 || index === 4)
    const range: Range = { repo: 'acme/app', branch: 'main', group: 'docs', last: documented, sha: head }
    const text = (await sinceLastDocumented(range, reader(), 10_000))?.text ?? ''
    expect(text).toContain(`### Changes since ${documented.slice(0, 12)} (2; 2 release commits left out)\n`)
    expect(text).toContain('- feat: a new option\n- fix: the option again')
    expect(text).not.toContain('Version Packages')
    expect(text).not.toContain('Release 1.2.0')
  })

  it('keeps within its budget, the list cut at a line boundary with what was left out', async () => {
    fake.reset()
    const shas = fake.addCommits(
      'acme/app',
      Array.from({ length: 120 }, (_, i) => ({ message: `feat: change ${i}` }))
    )
    const range: Range = {
      repo: 'acme/app',
      branch: 'main',
      group: 'docs',
      last: shas[0] ?? '',
      sha: shas.at(-1) ?? ''
    }
    const context = await sinceLastDocumented(range, reader(), 1500)
    const text = context?.text ?? ''
    expect(text.length).toBeLessThanOrEqual(1500)
    const list = text.slice(text.indexOf('### Changes since')).split('\n').slice(2)
    const kept = list.slice(0, -1)
    expect(kept.length).toBeGreaterThan(5)
    // Every line whole and in order, then the line counting the rest.
    kept.forEach((line, index) => expect(line).toBe(`- feat: change ${index + 1}`))
    expect(list.at(-1)).toBe(`- … and ${119 - kept.length} more changes`)
    const full = await sinceLastDocumented(range, reader(), 100_000)
    expect(full?.text).toContain('- feat: change 119')
    expect(full?.text).not.toContain('more change')
  })

  it('is no range when the commit is this one, left the branch, or cannot be read', async () => {
    fake.reset()
    const [a = '', b = ''] = fake.addCommits('acme/app', [{ message: 'one' }, { message: 'two' }])
    const range = (last: string, sha: string): Range => ({ repo: 'acme/app', branch: 'main', group: 'g', last, sha })
    expect(await sinceLastDocumented(range(b, b), reader(), 5000)).toBeUndefined()
    expect(await sinceLastDocumented(range(b, a), reader(), 5000)).toBeUndefined()
    const failures: string[] = []
    fake.fail('compare', { kind: 'status', status: 403, message: 'Resource not accessible by integration' })
    expect(await sinceLastDocumented(range(a, b), reader(), 5000, (m) => failures.push(m))).toBeUndefined()
    expect(failures).toHaveLength(1)
    expect(await sinceLastDocumented(range(a, b), reader(), 5000)).toBeDefined()
  })
})
