/**
 * GitHub Enterprise Server, in-process through `main` against the fake GitHub: with the runner's
 * `GITHUB_API_URL` (…/api/v3), every request, REST and GraphQL (…/api/graphql, which Octokit
 * derives from it as GHES's `GITHUB_GRAPHQL_URL` says), goes to the server's URLs.
 */
import { describe, expect, it } from '@jest/globals'
import { HEAD, usePullRequest } from '../fixtures/pull-request.js'

describe('GitHub Enterprise Server', () => {
  const { github, run } = usePullRequest({
    key: 'mint_ghes_key_0123456789',
    project: 'proj-ghes',
    scenario: { runMs: 3000 },
    pull: { sha: HEAD }
  })

  it('sends the context reads, the link-back, its identity and the check run to …/api/v3 and …/api/graphql', async () => {
    const result = await run(
      { prompt: 'Document this change', check: 'Docs agent' },
      {
        env: {
          GITHUB_API_URL: `${github().url}/api/v3`,
          GITHUB_GRAPHQL_URL: `${github().url}/api/graphql`,
          GITHUB_SERVER_URL: 'https://ghe.example'
        }
      }
    )
    expect(result.code).toBe(0)
    expect(result.at('warning')).toEqual([])
    const routes = github().requests.map((r) => r.route)
    expect(routes).toEqual(
      expect.arrayContaining(['pull-files', 'user', 'graphql', 'comment-create', 'check-create', 'check-update'])
    )
    expect(
      github()
        .requests.filter((r) => !/^\/api\/(v3\/|graphql$)/.test(r.rawPath))
        .map((r) => r.rawPath)
    ).toEqual([])
    expect(github().requests.find((r) => r.route === 'graphql')?.rawPath).toBe('/api/graphql')
  })
})
