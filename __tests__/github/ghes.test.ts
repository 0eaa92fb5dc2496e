/**
 * GitHub Enterprise Server, in-process through `main` against the fake GitHub: with the runner's
 * `GITHUB_API_URL` (…/api/v3), every request, REST and GraphQL (…/api/graphql, which Octokit
 * derives from it as GHES's `GITHUB_GRAPHQL_URL` says), goes to the server's URLs.
 */
import { describe, expect, it } from '@jest/globals'
import type { GitHubApiFake } from '../../simulator/github/index.js'
import { useFakeGitHub } from '../fixtures/github.js'
import { useStep } from '../fixtures/step.js'

describe('GitHub Enterprise Server', () => {
  const APP = 'acme/app'
  const HEAD = `${'c0ffee'.repeat(6)}0000`
  const step = useStep({ key: 'mint_ghes_key_0123456789', project: 'proj-ghes', scenario: { runMs: 3000 } })
  let github: GitHubApiFake
  const fake = useFakeGitHub(
    step.clock,
    {
      repo: APP,
      fresh: 'reset',
      each: (gh) => {
        gh.addPull(APP, { number: 7, title: 'Add --dry-run', head: { ref: 'dry', sha: HEAD }, base: 'main', files: [] })
        gh.setPermission(APP, 'mona', 'write')
      }
    },
    (started) => (github = started)
  )
  const side = (ref: string, sha?: string) => ({ ref, ...(sha ? { sha } : {}), repo: { full_name: APP } })
  const pull = {
    number: 7,
    title: 'Add --dry-run',
    user: { login: 'mona' },
    head: side('dry', HEAD),
    base: side('main')
  }

  it('sends the context reads, the link-back, its identity and the check run to …/api/v3 and …/api/graphql', async () => {
    const result = await step.run(
      { prompt: 'Document this change', check: 'Docs agent' },
      {
        env: fake.env({
          GITHUB_API_URL: `${github.url}/api/v3`,
          GITHUB_GRAPHQL_URL: `${github.url}/api/graphql`,
          GITHUB_SERVER_URL: 'https://ghe.example',
          GITHUB_EVENT_NAME: 'pull_request',
          GITHUB_ACTOR: 'mona',
          GITHUB_EVENT_PATH: '/event.json',
          GITHUB_RUN_ID: '5001',
          GITHUB_RUN_ATTEMPT: '1'
        }),
        files: { '/event.json': JSON.stringify({ action: 'closed', pull_request: pull }) }
      }
    )
    expect(result.code).toBe(0)
    expect(result.at('warning')).toEqual([])
    const routes = github.requests.map((r) => r.route)
    expect(routes).toEqual(
      expect.arrayContaining(['pull-files', 'user', 'graphql', 'comment-create', 'check-create', 'check-update'])
    )
    expect(github.requests.filter((r) => !/^\/api\/(v3\/|graphql$)/.test(r.rawPath)).map((r) => r.rawPath)).toEqual([])
    expect(github.requests.find((r) => r.route === 'graphql')?.rawPath).toBe('/api/graphql')
  })
})
