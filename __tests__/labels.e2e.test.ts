import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AgentApiSimulator } from '../simulator/server.js'
import { useSimulator } from './simulator-fixture.js'
import { FAKE_GITHUB_TOKEN, annotations, runAction, secretLeaks } from '../scripts/run-action.js'

const KEY = 'mint_labels_secret_key_000111'

interface GitHubCall {
  method: string
  url: string
  authorization: string | undefined
  body: string
}

/** A stand-in for the GitHub REST API on loopback, answering with `status`. */
let github: Server
let githubUrl: string
let calls: GitHubCall[]
let answer: { status: number; body: unknown }
let sim: AgentApiSimulator

useSimulator(KEY, { runMs: 600 }, (started) => (sim = started))

beforeAll(async () => {
  github = createServer((req: IncomingMessage, res) => {
    let body = ''
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk))
    req.on('end', () => {
      calls.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization, body })
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body))
    })
  })
  await new Promise<void>((resolve) => github.listen(0, '127.0.0.1', resolve))
  githubUrl = `http://127.0.0.1:${(github.address() as { port: number }).port}`
})
afterAll(async () => {
  await new Promise((resolve) => github.close(resolve))
})
beforeEach(() => {
  calls = []
  answer = { status: 200, body: [{ name: 'documentation' }] }
})

const run = (extra: Record<string, string> = {}) =>
  runAction(
    { 'api-key': KEY, 'project-id': 'proj', 'base-url': sim.url, 'poll-interval': '500ms', prompt: 'Docs', ...extra },
    { env: { GITHUB_API_URL: githubUrl, GITHUB_SERVER_URL: 'https://github.com' } }
  )

describe('labels', () => {
  it('labels the docs PR through the GitHub API with github-token', async () => {
    const result = await run({ labels: 'documentation,\n release , documentation' })
    expect(result.code).toBe(0)
    const number = result.outputs['pr-number'] as string
    expect(calls).toEqual([
      {
        method: 'POST',
        url: `/repos/acme/docs/issues/${number}/labels`,
        authorization: `token ${FAKE_GITHUB_TOKEN}`,
        body: JSON.stringify({ labels: ['documentation', 'release'] })
      }
    ])
    expect(result.stdout).toContain(`Labelled acme/docs#${number}: documentation, release`)
  })

  it('warns, naming the permission, when GitHub refuses, and keeps the outputs and the result', async () => {
    answer = { status: 403, body: { message: 'Resource not accessible by integration' } }
    const result = await run({ labels: 'documentation' })
    expect(result.code).toBe(0)
    expect(result.outputs.status).toBe('completed')
    expect(result.outputs['pr-number']).toMatch(/^\d+$/)
    const [warning] = annotations(result.stdout, 'warning')
    expect(warning).toMatch(
      /Could not label acme\/docs#\d+ \(Resource not accessible by integration.*\)\. The 'github-token' input needs 'pull-requests: write'/
    )
    expect(secretLeaks(result, FAKE_GITHUB_TOKEN)).toEqual([])
  })

  it('makes no GitHub call without labels, without a PR, or when the job failed', async () => {
    expect((await run()).code).toBe(0)
    sim.setScenario({ pr: false })
    expect((await run({ labels: 'documentation' })).code).toBe(0)
    sim.setScenario({ finalStatus: 'failed' })
    expect((await run({ labels: 'documentation' })).code).toBe(1)
    expect(calls).toEqual([])
  })

  it('leaves a pull request on another host alone, with a warning', async () => {
    sim.setScenario({ prLink: 'https://gitlab.example/acme/docs/-/merge_requests/4' })
    const result = await run({ labels: 'documentation' })
    expect(result.code).toBe(0)
    expect(calls).toEqual([])
    expect(annotations(result.stdout, 'warning')[0]).toMatch(
      /Not labelling .* not a pull request on this GitHub server/
    )
  })
})
