/**
 * The run's two tokens, as the fake GitHub sees them in each request's Authorization header:
 * `docs-token` on every request on the docs repository (the group's lookup and comment, labels,
 * reviewers, assignees, merge, the docs pull request's link-back), `github-token` on every request
 * on the workflow's repository (the context, its link-back, the check run); `github-token` on all
 * of them when `docs-token` is not given. The fake accepts both tokens, as GitHub accepts any valid
 * one: which token went where is what is judged.
 */
import { describe, expect, it } from '@jest/globals'
import { GITHUB_TOKEN } from '../../scripts/in-process.js'
import type { RecordedRequest } from '../../simulator/github/index.js'
import { APP, DOCS, useOwnerScenario } from '../fixtures/owner.js'
import { linkDocsRepository } from '../../simulator/docs-repository.js'
import { docsCi } from '../fixtures/docs-ci.js'

const DOCS_TOKEN = 'github_pat_docs_0000000000000000000000000'
describe('docs-token', () => {
  const o = useOwnerScenario({ token: [GITHUB_TOKEN, DOCS_TOKEN] })

  /** Everything the step asks of the docs pull request: its group, labels, owner, merge, its comment. */
  const docsWork = {
    labels: 'docs',
    reviewers: 'mona',
    assignees: 'dev',
    merge: 'auto',
    check: 'Docs agent',
    'link-back': 'pull-request, docs-pr'
  }
  const grouped = { ...docsWork, group: 'api', 'docs-repository': DOCS }

  /**
   * The repository a request is on: the path's, else a GraphQL query's `owner`/`repo` variables (the
   * merge's); undefined for the identity reads (`/user`, GraphQL's viewer), which any token answers.
   */
  function repositoryOf(request: RecordedRequest): string | undefined {
    if (request.repo) return request.repo
    if (request.route !== 'graphql') return undefined
    const { variables } = JSON.parse(request.body) as { variables?: { owner?: string; repo?: string } }
    if (variables?.owner && variables.repo) return `${variables.owner}/${variables.repo}`
    // The merge's mutation names the pull request by its node id: the docs pull request's.
    return request.body.includes('viewer') ? undefined : DOCS
  }

  /** Each repository's requests, as `Authorization` headers, one of each. */
  function tokensBy(requests: RecordedRequest[]): Record<string, string[]> {
    const by: Record<string, Set<string>> = {}
    for (const request of requests) {
      const repository = repositoryOf(request)
      if (repository) (by[repository.toLowerCase()] ??= new Set()).add(request.authorization ?? '')
    }
    return Object.fromEntries(Object.entries(by).map(([repository, seen]) => [repository, [...seen]]))
  }

  /** The routes of the requests on `repository`. */
  const routesOn = (requests: RecordedRequest[], repository: string): Set<string> =>
    new Set(requests.filter((r) => repositoryOf(r)?.toLowerCase() === repository).map((r) => r.route))

  it.each([
    ['a docs pull request of its own', docsWork],
    ["a group's docs pull request", grouped]
  ])(
    'carries every request on the docs repository, and github-token every one on the workflow’s (%s)',
    async (_, inputs) => {
      const result = await o.run('pull_request', o.merged(41, 'dev'), { ...inputs, 'docs-token': DOCS_TOKEN })
      expect(result.code).toBe(0)
      const { requests } = o.github()
      expect(tokensBy(requests)).toEqual({ [APP]: [`token ${GITHUB_TOKEN}`], [DOCS]: [`token ${DOCS_TOKEN}`] })
      // What the docs repository was asked, so that the judgement above covers each of them.
      const expected = ['labels', 'requested-reviewers', 'assignees', 'graphql', 'comment-create']
      expect([...routesOn(requests, DOCS)]).toEqual(expect.arrayContaining(expected))
      if ('group' in inputs) expect(routesOn(requests, DOCS)).toContain('pulls')
      expect(routesOn(requests, APP)).toContain('check-create')
    }
  )

  it('is github-token when not given, and when given empty; a refusal names both inputs', async () => {
    for (const given of [{}, { 'docs-token': '' }] as Record<string, string>[]) {
      o.github().requests.length = 0
      o.github().fail('labels', { kind: 'status', status: 403, message: 'Resource not accessible by integration' })
      const result = await o.run('pull_request', o.merged(41, 'dev'), { ...grouped, ...given })
      expect(result.code).toBe(0)
      const tokens = tokensBy(o.github().requests)
      expect(tokens).toEqual({ [APP]: [`token ${GITHUB_TOKEN}`], [DOCS]: [`token ${GITHUB_TOKEN}`] })
      // The user is told which input to give a token that can write there.
      const refusal = result.at('warning').find((line) => line.startsWith('Could not label'))
      expect(refusal).toContain(`The 'docs-token' input (github-token when not given) needs 'pull-requests: write'`)
    }
  })

  it("reads the docs pull request's checks, and a refusal of them names docs-token, not github-token", async () => {
    linkDocsRepository(o.step.sim(), o.github(), docsCi([{ vale: 'success' }]))
    const message = 'Resource not accessible by personal access token'
    o.github().failAlways('check-runs', { kind: 'status', status: 403, message })
    const result = await o.run('pull_request', o.merged(41, 'dev'), { 'docs-checks': 'wait', 'docs-token': DOCS_TOKEN })
    expect(result.outputs['docs-checks']).toBe('unknown')
    const reads = o.github().requests.filter((request) => request.route === 'check-runs')
    expect(new Set(reads.map((request) => request.authorization))).toEqual(new Set([`token ${DOCS_TOKEN}`]))
    expect(result.at('warning')).toEqual([
      `Could not read the checks on ${DOCS}#1 (HTTP 403: ${message}): docs-checks is unknown. The 'docs-token' input (github-token when not given) needs checks: read and statuses: read on ${DOCS} (the workflow's own token has them only on its own repository: another repository needs a token with that access).`
    ])
  })

  it('is masked before anything is logged, and never written', async () => {
    const result = await o.run('pull_request', o.merged(41, 'dev'), { ...docsWork, 'docs-token': DOCS_TOKEN })
    expect(result.events[0]).toMatch(/^secret /)
    expect(result.events).toContain(`secret ${DOCS_TOKEN}`)
    const firstLine = result.events.findIndex((event) => !event.startsWith('secret '))
    expect(result.events.indexOf(`secret ${DOCS_TOKEN}`)).toBeLessThan(firstLine)
    expect(result.everything()).not.toContain(DOCS_TOKEN)
  })
})
