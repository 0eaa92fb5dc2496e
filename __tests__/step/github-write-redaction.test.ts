/**
 * Whatever the step writes on GitHub loses the step's secrets on the way out, in one place
 * (src/github/redact-writes.ts), whoever wrote the text: the step, the Agent API (a job's docs PR
 * link, a failure it answered) or GitHub. In-process through `main` against the simulator and the
 * fake GitHub on a virtual clock, and for each kind of write the client sends.
 */
import { describe, expect, it } from '@jest/globals'
import { GITHUB_TOKEN } from '../../scripts/in-process.js'
import { GitHubClient } from '../../src/github/client.js'
import { DOCS, usePullRequest } from '../fixtures/pull-request.js'

describe('secrets never reach a GitHub write', () => {
  const KEY = 'mint_redaction_secret_key_0123456789'
  const { step, github, run } = usePullRequest({
    key: KEY,
    project: 'proj-redact',
    prompt: 'Document this change',
    scenario: { runMs: 3000 },
    repos: [DOCS],
    pull: { merged: true, payload: { merged: true, html_url: 'https://github.com/acme/app/pull/7' } }
  })
  const writes = () => github().requests.filter((r) => r.method !== 'GET')
  /** A request's JSON body as GitHub renders its markdown's backslash escapes (`\\_` in JSON is `\_`, shown `_`). */
  const rendered = (body: string): string => body.replace(/\\\\(.)/g, '$1')

  it('a docs PR link the server made of the API key: the comment and the check carry *** instead', async () => {
    // The Agent API's answer is text the step does not control: here its link echoes the key.
    step.sim().setScenario({ prLink: `https://github.com/acme/docs/pull/5?from=${KEY}` })
    const result = await run({ check: 'true' }, { env: { GITHUB_SHA: 'a'.repeat(40) } })
    expect(result.code).toBe(0)
    const sent = writes()
    expect(sent.map((r) => r.route)).toEqual(expect.arrayContaining(['comment-create', 'check-create']))
    for (const request of sent) expect(request.body).not.toContain(KEY)
    const comment = sent.filter((r) => r.route === 'comment-update' || r.route === 'comment-create').at(-1)
    expect(comment?.body).toContain('?from=***')
  })

  it('a docs PR link off GitHub that echoes the key: its markdown-escaped label (mint\\_…) is redacted too', async () => {
    // Not a pull request on this server, so the link is its own label, and the label's `_` are
    // escaped (`\_`): GitHub renders `mint\_…` as `mint_…` (CommonMark spec 0.31, 2.4 "Backslash escapes").
    step.sim().setScenario({ prLink: `https://docs.example.com/review/5?from=${KEY}` })
    const result = await run({ check: 'true' }, { env: { GITHUB_SHA: 'a'.repeat(40) } })
    expect(result.code).toBe(0)
    const sent = writes()
    expect(sent.map((r) => r.route)).toEqual(expect.arrayContaining(['comment-create', 'check-create']))
    // What a reader sees: every backslash escape rendered.
    for (const request of sent) expect(rendered(request.body)).not.toContain(KEY)
  })

  it('every kind of write the client sends: comments, release notes, check output, labels, GraphQL', async () => {
    const TOKEN_LIKE = 'ghs_not_the_real_token_0123456789'
    const client = new GitHubClient(GITHUB_TOKEN, github().url, {
      pace: { msPerSecond: 1 },
      secrets: [KEY, TOKEN_LIKE]
    })
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
