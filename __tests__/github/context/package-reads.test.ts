/**
 * The reads of a package's directory and commits, through Octokit against the fake GitHub: the
 * recursive tree, a manifest's text at a tag, and the commits touching a path, page by page.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { GitHubApiFake } from '../../../simulator/github/index.js'
import { GitHubClient } from '../../../src/github/client.js'
import { testClient } from '../../fixtures/github.js'

describe('package reads', () => {
  const REPO = 'acme/monorepo'
  let github: GitHubApiFake
  let reader: ReturnType<GitHubClient['reader']>
  const change = (filename: string, status: 'added' | 'modified' | 'removed' | 'renamed' = 'modified') => ({
    filename,
    status,
    additions: 1,
    deletions: 0
  })

  beforeAll(async () => {
    github = await GitHubApiFake.start({ token: 'tok' })
    reader = testClient('tok', github.url).reader(REPO, new AbortController().signal)
    const [first] = github.addCommits(REPO, [
      {
        message: 'init',
        contents: {
          'package.json': '{"name":"root"}',
          'packages/cli/package.json': '{"name":"@acme/cli"}',
          'packages/core/package.json': '{"name":"@acme/core"}'
        }
      }
    ])
    github.addTag(REPO, { name: '@acme/cli@1.0.0', at: first ?? '' })
    for (let i = 0; i < 130; i++) {
      github.addCommits(REPO, [
        { message: `cli ${i}`, files: [change(`packages/cli/src/f${i}.ts`, 'added')] },
        { message: `core ${i}`, files: [change('packages/core/index.ts')] }
      ])
    }
    const [last] = github.addCommits(REPO, [
      {
        message: 'move',
        files: [{ ...change('packages/cli/src/g.ts', 'renamed'), previous_filename: 'packages/cli/src/f0.ts' }],
        contents: { 'packages/core/package.json': null, 'packages/cli/package.json': '{"name":"@acme/cli","v":2}' }
      }
    ])
    github.addTag(REPO, { name: '@acme/cli@1.1.0', at: last ?? '' })
  })
  afterAll(async () => {
    await github.close()
  })

  it('the recursive tree at a tag: its files, written or changed, less those removed or renamed', async () => {
    const tree = await reader.tree('@acme/cli@1.1.0')
    expect(tree.truncated).toBe(false)
    expect(tree.paths).toHaveLength(2 + 130 + 1)
    expect(tree.paths).toContain('packages/cli/src/g.ts')
    expect(tree.paths).not.toContain('packages/cli/src/f0.ts')
    expect(tree.paths).not.toContain('packages/core/package.json')
    expect(tree.paths).toContain('packages/core/index.ts')
    expect((await reader.tree('@acme/cli@1.0.0')).paths).toEqual([
      'package.json',
      'packages/cli/package.json',
      'packages/core/package.json'
    ])
  })

  it('a tree past the limit comes back truncated', async () => {
    github.treeLimit = 10
    try {
      const tree = await reader.tree('@acme/cli@1.1.0')
      expect(tree.truncated).toBe(true)
      expect(tree.paths.length).toBeLessThanOrEqual(10)
    } finally {
      github.treeLimit = 100_000
    }
  })

  it("a file's text at a tag, or 404", async () => {
    expect(await reader.fileText('packages/cli/package.json', '@acme/cli@1.0.0')).toBe('{"name":"@acme/cli"}')
    expect(await reader.fileText('packages/cli/package.json', '@acme/cli@1.1.0')).toBe('{"name":"@acme/cli","v":2}')
    await expect(reader.fileText('packages/core/package.json', '@acme/cli@1.1.0')).rejects.toMatchObject({
      status: 404
    })
  })

  it('the commits touching a path, newest first, page by page, shas kept', async () => {
    const first = await reader.pathCommits('@acme/cli@1.1.0', 'packages/cli', 1, 100)
    expect(first).toHaveLength(100)
    expect(first[0]).toMatchObject({ message: 'move', parents: 1, author: { login: 'octocat', bot: false } })
    expect(first[0]?.sha).toMatch(/^[0-9a-f]{40}$/)
    expect(first[1]?.message).toBe('cli 129')
    const second = await reader.pathCommits('@acme/cli@1.1.0', 'packages/cli', 2, 100)
    // 130 changes, the move and the commit that wrote the manifest.
    expect(second).toHaveLength(32)
    expect(second.at(-1)?.message).toBe('init')
    expect(await reader.pathCommits('@acme/cli@1.0.0', 'packages/core/', 1, 100)).toHaveLength(1)
    expect(await reader.pathCommits('@acme/cli@1.1.0', 'packages/cl', 1, 100)).toEqual([])
  })

  it('an unknown ref: the commits read fails', async () => {
    await expect(reader.pathCommits('nope', 'packages/cli', 1, 100)).rejects.toMatchObject({ status: 404 })
    await expect(reader.tree('nope')).rejects.toMatchObject({ status: 404 })
  })
})
