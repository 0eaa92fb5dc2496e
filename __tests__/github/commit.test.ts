import { describe, expect, it } from '@jest/globals'
import { toCommit, type CommitData } from '../../src/github/commit.js'

const data = (author: CommitData['author'], parents = 1): CommitData => ({
  sha: 'abc',
  commit: { message: 'Fix the flag\n\nBody' },
  parents: Array<unknown>(parents).fill({}),
  author
})

describe('toCommit', () => {
  it('keeps the sha, the whole message and the number of parents', () => {
    expect(toCommit(data({ login: 'mona', type: 'User' }, 2))).toEqual({
      sha: 'abc',
      message: 'Fix the flag\n\nBody',
      parents: 2,
      author: { login: 'mona', bot: false }
    })
  })

  it("names a bot by its account's type or by its login", () => {
    expect(toCommit(data({ login: 'renovate', type: 'Bot' })).author).toEqual({ login: 'renovate', bot: true })
    expect(toCommit(data({ login: 'docs[bot]', type: 'User' })).author).toEqual({ login: 'docs[bot]', bot: true })
    expect(toCommit(data({ login: '[bot]mona', type: 'User' })).author).toEqual({ login: '[bot]mona', bot: false })
    expect(toCommit(data({ login: 'bots', type: 'Organization' })).author).toEqual({ login: 'bots', bot: false })
  })

  it('has no author when GitHub matched none: null, or an empty object', () => {
    expect(toCommit(data(null)).author).toBeUndefined()
    expect(toCommit(data({})).author).toBeUndefined()
  })
})
