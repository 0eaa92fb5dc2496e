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

it("more than a page: pages until one holds none of the range's", async () => {
  const { page, asked } = history(500, 260)
  const own = await listOwnCommits('tag', 'prev', page)
  expect(own?.commits).toHaveLength(260)
  expect(own?.commits[0]?.sha).toBe('new-259')
  expect(own?.commits.at(-1)?.sha).toBe('new-0')
  expect(own?.complete).toBe(true)
  // Page 3 holds 60 of the range's, so page 4 is read too, with the previous release's page 2 it may hold.
  expect(asked).toEqual(['prev:1:100', 'tag:1:100', 'tag:2:100', 'tag:3:100', 'prev:2:100', 'tag:4:100'])
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

/** Pages of two made-up lists, newest first by date, recorded as `ref:number:size`. */
function lists(prev: Commit[], tag: Commit[]) {
  const asked: string[] = []
  const page = (ref: string, number: number, size: number) => {
    asked.push(`${ref}:${number}:${size}`)
    return Promise.resolve((ref === 'prev' ? prev : tag).slice((number - 1) * size, number * size))
  }
  return { page, asked }
}
const commits = (prefix: string, count: number): Commit[] =>
  Array.from({ length: count }, (_, i) => commit(`${prefix}-${i}`))

it("a commit of the range below the first page holding the previous release's is kept: pages until one holds none", async () => {
  // As plugin-legacy@8.0.0 in vitejs/vite: 84 of the range's, then 16 of the previous release's on
  // page 1; a commit of a long-lived branch, dated among the previous release's, at position 134.
  const old = commits('old', 300)
  const tag = [...commits('new', 84), ...old.slice(0, 49), commit('branch'), ...old.slice(49)]
  const { page, asked } = lists(old, tag)
  expect(await listOwnCommits('tag', 'prev', page)).toEqual({
    commits: [...commits('new', 84), commit('branch')],
    complete: true
  })
  // Each of the tag's pages with the previous release's pages it may hold, read at once.
  expect(asked).toEqual(['prev:1:100', 'tag:1:100', 'prev:2:100', 'tag:2:100', 'prev:3:100', 'tag:3:100'])
})

it(`stopped by the ${COMMIT_PAGES} pages while pages still hold the range's: not complete, none of the previous release's listed`, async () => {
  // A long-lived branch: one of the range's among every ten commits, down the whole history.
  const old = commits('old', 900)
  const tag = old.flatMap((c, i) => (i % 9 === 0 ? [commit(`new-${i / 9}`), c] : [c]))
  const { page, asked } = lists(old, tag)
  const own = await listOwnCommits('tag', 'prev', page)
  expect(own?.complete).toBe(false)
  expect(own?.commits).toEqual(commits('new', own?.commits.length ?? 0))
  expect(own?.commits.length).toBeGreaterThan(0)
  expect(asked).toHaveLength(COMMIT_PAGES)
})

it("the previous release's pages are read no further than its history", async () => {
  // Its 120 commits end on its page 2; the tag's page 2 holds one of the range's among them.
  const old = commits('old', 120)
  const tag = [...commits('new', 95), ...old.slice(0, 60), commit('branch'), ...old.slice(60)]
  const { page, asked } = lists(old, tag)
  expect(await listOwnCommits('tag', 'prev', page)).toEqual({
    commits: [...commits('new', 95), commit('branch')],
    complete: true
  })
  expect(asked).toEqual(['prev:1:100', 'tag:1:100', 'prev:2:100', 'tag:2:100', 'tag:3:100'])
})

it('a failed read: undefined', async () => {
  expect(await listOwnCommits('tag', 'prev', history(3, 3, ['prev:1:100']).page)).toBeUndefined()
  expect(await listOwnCommits('tag', 'prev', history(3, 3, ['tag:1:100']).page)).toBeUndefined()
  expect(await listOwnCommits('tag', 'prev', history(3, 300, ['tag:2:100']).page)).toBeUndefined()
  // The previous release's later page, read with the tag's page it may be among.
  expect(await listOwnCommits('tag', 'prev', history(300, 5, ['prev:2:100']).page)).toBeUndefined()
})
