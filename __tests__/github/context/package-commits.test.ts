/** A package's own commits: paged from the tag down to where its previous release's history starts. */
import { expect, it } from '@jest/globals'
import type { Commit } from '../../../src/github/commit.js'
import { COMMIT_PAGES, listOwnCommits, PAGE_SIZE } from '../../../src/github/context/package-commits.js'

const commit = (sha: string): Commit => ({ sha, message: sha, parents: 1, author: undefined })

/**
 * A linear history, oldest first, of `older` commits of the package before the previous release
 * and `own` after it; pages read are recorded as `ref:number:size`.
 */
function history(older: number, own: number, fail: string[] = []) {
  const atPrevious = Array.from({ length: older }, (_, i) => commit(`old-${i}`)).reverse()
  const all = [...Array.from({ length: own }, (_, i) => commit(`new-${i}`)).reverse(), ...atPrevious]
  const asked: string[] = []
  const page = (ref: string, number: number, size: number) => {
    const id = `${ref}:${number}:${size}`
    asked.push(id)
    if (fail.includes(id)) return Promise.resolve(undefined)
    const list = ref === 'prev' ? atPrevious : all
    return Promise.resolve(list.slice((number - 1) * size, number * size))
  }
  return { page, asked }
}

it("a few commits: the tag's first page and the previous release's read at once, its commits left out", async () => {
  const { page, asked } = history(40, 5)
  const own = await listOwnCommits('tag', 'prev', page)
  expect(own).toEqual({ commits: ['new-4', 'new-3', 'new-2', 'new-1', 'new-0'].map(commit), complete: true })
  expect(asked).toEqual(['prev:1:100', `tag:1:${PAGE_SIZE}`])
})

it('more than a page: pages until the previous release appears', async () => {
  const { page, asked } = history(500, 260)
  const own = await listOwnCommits('tag', 'prev', page)
  expect(own?.commits).toHaveLength(260)
  expect(own?.commits[0]?.sha).toBe('new-259')
  expect(own?.commits.at(-1)?.sha).toBe('new-0')
  expect(own?.complete).toBe(true)
  expect(asked).toEqual(['prev:1:100', 'tag:1:100', 'tag:2:100', 'tag:3:100'])
})

it('a directory new since the previous release: pages until the history ends', async () => {
  const { page, asked } = history(0, 100)
  expect(await listOwnCommits('tag', 'prev', page)).toMatchObject({ complete: true })
  expect((await listOwnCommits('tag', 'prev', page))?.commits).toHaveLength(100)
  expect(asked.slice(0, 3)).toEqual(['prev:1:100', 'tag:1:100', 'tag:2:100'])
})

it(`at most ${COMMIT_PAGES} pages, the previous release's among them: then not complete`, async () => {
  const { page, asked } = history(10, 1000)
  const own = await listOwnCommits('tag', 'prev', page)
  expect(own?.commits).toHaveLength((COMMIT_PAGES - 1) * PAGE_SIZE)
  expect(own?.complete).toBe(false)
  expect(asked).toHaveLength(COMMIT_PAGES)
})

it("a commit of the range dated among the previous release's (merged from an old branch) is kept", async () => {
  const old = Array.from({ length: 150 }, (_, i) => commit(`old-${i}`)).reverse()
  const late = commit('branch')
  // By date: two new commits, the previous release's newest, the branch's commit, the rest.
  const tagList = [commit('new-1'), commit('new-0'), ...old.slice(0, 1), late, ...old.slice(1)]
  const page = (ref: string, number: number, size: number) =>
    Promise.resolve((ref === 'prev' ? old : tagList).slice((number - 1) * size, number * size))
  expect(await listOwnCommits('tag', 'prev', page)).toEqual({
    commits: ['new-1', 'new-0', 'branch'].map(commit),
    complete: true
  })
})

it('a failed read: undefined', async () => {
  expect(await listOwnCommits('tag', 'prev', history(3, 3, ['prev:1:100']).page)).toBeUndefined()
  expect(await listOwnCommits('tag', 'prev', history(3, 3, ['tag:1:100']).page)).toBeUndefined()
  expect(await listOwnCommits('tag', 'prev', history(3, 300, ['tag:2:100']).page)).toBeUndefined()
})
