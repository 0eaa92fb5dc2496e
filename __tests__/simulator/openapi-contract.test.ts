// The fake GitHub against GitHub's OpenAPI description: the committed subset is what
// scripts/openapi-subset.ts makes of the installed @octokit/openapi, every route of the fake is an
// operation GitHub has, and the contract finds each kind of drift (an unknown operation, an
// undeclared or ill-typed query parameter, an undocumented status, a body its schema refuses).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { buildSubset, loadSpec, subsetHash } from '../../scripts/openapi-subset.js'
import { exchanged, type Exchange } from '../../simulator/github-exchanges.js'
import { GitHubApiFake } from '../../simulator/github/index.js'
import { GITHUB_OPERATIONS, GRAPHQL_OPERATION } from '../../simulator/github-operations.js'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import {
  RestContract,
  SUBSET_FILE,
  VALIDATORS_FILE,
  type RestSubset,
  type RestValidators
} from '../../simulator/openapi-contract.js'
import { allowDrift, takeDrifts } from '../fixtures/openapi.js'

const subset = JSON.parse(readFileSync(SUBSET_FILE, 'utf8')) as RestSubset
const contract = RestContract.load()

const exchange = (over: Partial<Exchange>): Exchange => ({
  method: 'GET',
  rawPath: '/repos/acme/app/git/matching-refs/tags%2Fv1',
  route: 'matching-refs',
  status: 200,
  body: '[]',
  ...over
})

const user = (login: string): Record<string, unknown> => {
  const url = `https://api.github.com/users/${login}`
  return {
    login,
    id: 1,
    node_id: 'U_1',
    avatar_url: 'https://avatars.githubusercontent.com/u/1',
    gravatar_id: '',
    url,
    html_url: `https://github.com/${login}`,
    ...Object.fromEntries(
      ['followers', 'following', 'gists', 'starred', 'subscriptions', 'organizations', 'repos', 'received_events'].map(
        (name) => [`${name}_url`, `${url}/${name}`]
      )
    ),
    events_url: `${url}/events`,
    type: 'User',
    site_admin: false
  }
}

const label = {
  id: 1,
  node_id: 'LA_1',
  url: 'https://api.github.com/x',
  name: 'docs',
  description: null,
  color: 'ededed',
  default: false
}

describe('the subset of GitHub OpenAPI description', () => {
  it('is what npm run openapi:subset makes of the installed @octokit/openapi', () => {
    const { spec, version } = loadSpec()
    expect(buildSubset(spec, version)).toEqual(subset)
  })

  it('is the one its validators were compiled from', () => {
    const validators = createRequire(join(process.cwd(), 'package.json'))(`./${VALIDATORS_FILE}`) as RestValidators
    expect(validators.subsetHash).toBe(subsetHash(readFileSync(SUBSET_FILE, 'utf8')))
  })

  it('holds every operation the fake serves, each one GitHub has', () => {
    const served = Object.values(GITHUB_OPERATIONS)
      .flat()
      .filter((op) => op !== GRAPHQL_OPERATION)
    for (const operation of served) {
      expect(subset.operations).toContain(operation)
      expect(Object.keys(subset.served)).toContain(operation)
    }
  })
})

describe('the contract', () => {
  it('accepts an answer as GitHub documents it', () => {
    const labels = exchange({
      method: 'POST',
      rawPath: '/repos/acme/app/issues/7/labels',
      route: 'labels',
      body: JSON.stringify([label])
    })
    expect(contract.check(labels)).toEqual([])
  })

  it('finds a required field missing, and a field of the wrong type', () => {
    const { description: _, ...noDescription } = label
    const labels = (body: unknown[]): Exchange =>
      exchange({
        method: 'POST',
        rawPath: '/repos/acme/app/issues/7/labels',
        route: 'labels',
        body: JSON.stringify(body)
      })
    expect(contract.check(labels([label, noDescription]))).toEqual([
      "POST /repos/{owner}/{repo}/issues/{issue_number}/labels 200: /1 must have required property 'description'"
    ])
    expect(contract.check(labels([{ ...label, default: 'no' }]))).toEqual([
      'POST /repos/{owner}/{repo}/issues/{issue_number}/labels 200: /0/default must be boolean'
    ])
  })

  it('checks the formats GitHub names: a date-time, a uri', () => {
    const comment = {
      id: 1,
      node_id: 'IC_1',
      url: 'https://api.github.com/repos/acme/app/issues/comments/1',
      html_url: 'https://github.com/acme/app/pull/7#issuecomment-1',
      issue_url: 'https://api.github.com/repos/acme/app/issues/7',
      user: null,
      created_at: '2024-05-01T12:00:00Z',
      updated_at: '2024-05-01T12:00:00Z'
    }
    const create = { method: 'POST', rawPath: '/repos/acme/app/issues/7/comments', route: 'comment-create' as const }
    expect(contract.check(exchange({ ...create, status: 201, body: JSON.stringify(comment) }))).toEqual([])
    const answer = (over: object): Exchange =>
      exchange({ ...create, status: 201, body: JSON.stringify({ ...comment, ...over }) })
    expect(contract.check(answer({ html_url: 'not a url' }))).toEqual([
      'POST /repos/{owner}/{repo}/issues/{issue_number}/comments 201: /html_url must match format "uri"'
    ])
    expect(contract.check(answer({ updated_at: '2024-05-01 12:00' }))).toEqual([
      'POST /repos/{owner}/{repo}/issues/{issue_number}/comments 201: /updated_at must match format "date-time"'
    ])
  })

  it('finds a nested object short of what its schema requires (a simple-user)', () => {
    const { login: _, ...noLogin } = user('mona')
    const body = { permission: 'write', role_name: 'write', user: { ...noLogin, role_name: 'write' } }
    const drifts = contract.check(
      exchange({
        rawPath: '/repos/acme/app/collaborators/mona/permission',
        route: 'collaborator-permission',
        body: JSON.stringify(body)
      })
    )
    expect(drifts).toContain(
      "GET /repos/{owner}/{repo}/collaborators/{username}/permission 200: /user must have required property 'login'"
    )
    const whole = { ...body, user: { ...user('mona'), role_name: 'write' } }
    const route = {
      rawPath: '/repos/acme/app/collaborators/mona/permission',
      route: 'collaborator-permission' as const
    }
    expect(contract.check(exchange({ ...route, body: JSON.stringify(whole) }))).toEqual([])
  })

  it('finds a query parameter GitHub does not declare, and a value not of its type', () => {
    expect(contract.check(exchange({ rawPath: '/repos/acme/app/git/matching-refs/tags%2Fv1?per_page=100' }))).toEqual([
      "GET /repos/{owner}/{repo}/git/matching-refs/{ref}: query parameter 'per_page' is not one GitHub declares"
    ])
    const pulls = { rawPath: '/repos/acme/app/pulls?state=merged&per_page=ten', route: 'pulls' as const }
    expect(contract.check(exchange(pulls))).toEqual([
      'GET /repos/{owner}/{repo}/pulls: query parameter state=merged is not {"type":"string","enum":["open","closed","all"]}',
      'GET /repos/{owner}/{repo}/pulls: query parameter per_page=ten is not {"type":"integer"}'
    ])
  })

  it('finds a 2xx status GitHub does not document, and a body on an answer that has none', () => {
    const create = { method: 'POST', rawPath: '/repos/acme/app/check-runs', route: 'check-create' as const }
    expect(contract.check(exchange({ ...create, status: 200, body: '{}' }))).toEqual([
      'POST /repos/{owner}/{repo}/check-runs: answered 200; GitHub documents 201'
    ])
    const remove = { method: 'DELETE', rawPath: '/repos/acme/app/issues/comments/5', route: 'comment-delete' as const }
    expect(contract.check(exchange({ ...remove, status: 204, body: '' }))).toEqual([])
    expect(contract.check(exchange({ ...remove, status: 204, body: '{}' }))).toEqual([
      'DELETE /repos/{owner}/{repo}/issues/comments/{comment_id}: answered 204 with a body'
    ])
  })

  it('finds a route that is not the operation it stands for, and a request GitHub serves that the fake does not', () => {
    expect(contract.check(exchange({ method: 'POST', route: 'matching-refs' }))).toEqual([
      'POST /repos/acme/app/git/matching-refs/tags%2Fv1: routed as matching-refs, which is not GET /repos/{owner}/{repo}/git/matching-refs/{ref}'
    ])
    expect(contract.check(exchange({ rawPath: '/repos/acme/app/issues', route: 'unknown', status: 404 }))).toEqual([
      'GET /repos/acme/app/issues: GitHub has GET /repos/{owner}/{repo}/issues; the fake has no route for it'
    ])
    expect(contract.check(exchange({ rawPath: '/repos/acme/app/nothing', route: 'unknown', status: 404 }))).toEqual([])
  })

  it('leaves error answers and GraphQL bodies to the scenarios', () => {
    expect(contract.check(exchange({ status: 502, body: '{"message":"Bad Gateway"}' }))).toEqual([])
    const graphql = { method: 'POST', rawPath: '/graphql', route: 'graphql' as const, body: '{"data":{}}' }
    expect(contract.check(exchange(graphql))).toEqual([])
  })
})

describe('a test against a fake GitHub', () => {
  let fake: GitHubApiFake
  beforeAll(async () => {
    fake = await GitHubApiFake.start()
  })
  afterAll(async () => {
    await fake.close()
  })

  it('is failed by what the fake answered as GitHub would not, after it, unless the test allows it and says why', async () => {
    fake.addRepo('acme/app')
    await fetch(`${fake.url}/repos/acme/app/tags?sort=name`)
    expect(await takeDrifts()).toEqual([
      "GET /repos/{owner}/{repo}/tags: query parameter 'sort' is not one GitHub declares"
    ])
    await fetch(`${fake.url}/repos/acme/app/tags?sort=name`)
    allowDrift(/'sort'/, 'shown here')
    expect(await takeDrifts()).toEqual([])
    expect(() => allowDrift(/x/, ' ')).toThrow('say why')
    // What the setup's afterEach reads: an exchange reported by any fake of this file.
    exchanged(exchange({ rawPath: '/repos/acme/app/git/matching-refs/tags%2Fv1?page=2' }))
    expect(await takeDrifts()).toHaveLength(1)
  })
})
