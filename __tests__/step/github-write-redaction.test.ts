/**
 * Whatever the step writes on GitHub loses the step's secrets on the way out, in one place
 * (src/github/redact-writes.ts), whoever wrote the text: the step, the Agent API (a job's docs PR
 * link, a failure it answered) or GitHub. In-process through `main` against the simulator and the
 * fake GitHub on a virtual clock, and for each kind of write the client sends.
 */
import { describe, expect, it } from '@jest/globals'
import type { GitHubApiFake } from '../../simulator/github/index.js'
import { GITHUB_TOKEN } from '../../scripts/in-process.js'
import { GitHubClient } from '../../src/github/client.js'
import { useFakeGitHub } from '../fixtures/github.js'
import { useStep } from '../fixtures/step.js'

describe('secrets never reach a GitHub write', () => {
  const KEY = 'mint_redaction_secret_key_0123456789'
  const APP = 'acme/app'
  const step = useStep({ key: KEY, project: 'proj-redact', prompt: 'Document this change', scenario: { runMs: 3000 } })
  let github: GitHubApiFake
  const fake = useFakeGitHub(
    step.clock,
    {
      repo: APP,
      fresh: 'reset',
      each: (gh) => {
        gh.addRepo('acme/docs')
        gh.addPull(APP, { number: 7, title: 'Add --dry-run', head: 'dry', base: 'main', files: [], merged: true })
        gh.setPermission(APP, 'mona', 'write')
      }
    },
    (started) => (github = started)
  )
  const side = (ref: string) => ({ ref, repo: { full_name: APP } })
  const payload = {
    action: 'closed',
    pull_request: {
      number: 7,
      title: 'Add --dry-run',
      merged: true,
      user: { login: 'mona' },
      head: side('dry'),
      base: side('main'),
      html_url: 'https://github.com/acme/app/pull/7'
    }
  }
  const writes = () => github.requests.filter((r) => r.method !== 'GET')

  it('a docs PR link the server made of the API key: the comment and the check carry *** instead', async () => {
    // The Agent API's answer is text the step does not control: here its link echoes the key.
    step.sim().setScenario({ prLink: `https://github.com/acme/docs/pull/5?from=${KEY}` })
    const result = await step.run(
      { check: 'true' },
      {
        env: fake.env({
          GITHUB_EVENT_NAME: 'pull_request',
          GITHUB_ACTOR: 'mona',
          GITHUB_EVENT_PATH: '/event.json',
          GITHUB_RUN_ID: '5001',
          GITHUB_RUN_ATTEMPT: '1',
          GITHUB_SHA: 'a'.repeat(40)
        }),
        files: { '/event.json': JSON.stringify(payload) }
      }
    )
    expect(result.code).toBe(0)
    const sent = writes()
    expect(sent.map((r) => r.route)).toEqual(expect.arrayContaining(['comment-create', 'check-create']))
    for (const request of sent) expect(request.body).not.toContain(KEY)
    const comment = sent.filter((r) => r.route === 'comment-update' || r.route === 'comment-create').at(-1)
    expect(comment?.body).toContain('?from=***')
  })

  it('every kind of write the client sends: comments, release notes, check output, labels, GraphQL', async () => {
    const TOKEN_LIKE = 'ghs_not_the_real_token_0123456789'
    const client = new GitHubClient(GITHUB_TOKEN, github.url, { pace: { msPerSecond: 1 }, secrets: [KEY, TOKEN_LIKE] })
    const octokit = await (client as unknown as { client(): Promise<import('@octokit/core').Octokit> }).client()
    const text = `key ${KEY}, token ${GITHUB_TOKEN}, other ${TOKEN_LIKE}`
    const attempts = [
      octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
        owner: 'acme',
        repo: 'app',
        issue_number: 7,
        body: text
      }),
      octokit.request('POST /repos/{owner}/{repo}/check-runs', {
        owner: 'acme',
        repo: 'app',
        name: 'Docs',
        head_sha: 'a'.repeat(40),
        output: { title: text, summary: text }
      }),
      octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/labels', {
        owner: 'acme',
        repo: 'app',
        issue_number: 7,
        labels: [text]
      }),
      octokit.request('PATCH /repos/{owner}/{repo}/releases/{release_id}', {
        owner: 'acme',
        repo: 'app',
        release_id: 1,
        body: text
      }),
      octokit.graphql('mutation($body: String!) { x(body: $body) }', { body: text })
    ]
    await Promise.allSettled(attempts)
    const sent = writes()
    expect(sent.map((r) => r.route).sort()).toEqual([
      'check-create',
      'comment-create',
      'graphql',
      'labels',
      'release-update'
    ])
    for (const request of sent) {
      expect(request.body).not.toContain(KEY)
      expect(request.body).not.toContain(GITHUB_TOKEN)
      expect(request.body).not.toContain(TOKEN_LIKE)
      expect(request.body).toContain('key ***, token ***, other ***')
    }
    // The credentials still go where they belong: the header, untouched.
    expect(sent.every((r) => r.authorization === `token ${GITHUB_TOKEN}`)).toBe(true)
  })
})
