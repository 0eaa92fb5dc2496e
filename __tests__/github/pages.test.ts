import { describe, expect, it } from '@jest/globals'
import type { getOctokit } from '@actions/github'
import { allPages } from '../../src/github/pages.js'

type Octokit = ReturnType<typeof getOctokit>
const page = (data: number[], next?: string) => ({ data, headers: next === undefined ? {} : { link: next } })

/** An Octokit that answers each URL with its page, recording the options of every request. */
function octokit(pages: Record<string, ReturnType<typeof page>>): { octokit: Octokit; sent: unknown[] } {
  const sent: unknown[] = []
  const request = (options: { url: string }) => {
    sent.push(options)
    return Promise.resolve(pages[options.url])
  }
  return { octokit: { request } as unknown as Octokit, sent }
}

describe('allPages', () => {
  const request = { signal: new AbortController().signal }

  it('follows each next link with the request options of the first page, keeping what each page gives', async () => {
    const { octokit: client, sent } = octokit({
      'https://x/2': page([3, 4], '<https://x/1>; rel="prev", <https://x/3>;rel="next"'),
      'https://x/3': page([5], '<https://x/1>; rel="first"')
    })
    const first = Promise.resolve(page([1, 2], '<https://x/2>; rel="next", <https://x/3>; rel="last"'))
    expect(await allPages(client, first, request, (data) => data.map((n) => n * 10))).toEqual([10, 20, 30, 40, 50])
    expect(sent).toEqual([
      { method: 'GET', url: 'https://x/2', request },
      { method: 'GET', url: 'https://x/3', request }
    ])
  })

  it('reads one page when there is no next one', async () => {
    const { octokit: client, sent } = octokit({})
    expect(await allPages(client, Promise.resolve(page([1])), request, (data) => data)).toEqual([1])
    expect(sent).toEqual([])
  })

  it('stops when `keep` throws', async () => {
    const { octokit: client, sent } = octokit({ 'https://x/2': page([2]) })
    const first = Promise.resolve(page([1], '<https://x/2>; rel="next"'))
    await expect(
      allPages(client, first, request, () => {
        throw new Error('too many')
      })
    ).rejects.toThrow('too many')
    expect(sent).toEqual([])
  })
})
