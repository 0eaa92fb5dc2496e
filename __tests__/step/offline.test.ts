/**
 * GitHub out of reach: a connection refused, a name that does not resolve, a connection reset on
 * every try. Each read is worded as the network, naming where it went and the last cause, with no
 * permission advice, and its tries fit inside its budget. In-process through `main`, against the
 * Agent API simulator and the fake GitHub on a virtual clock.
 */
import { describe, expect, it } from '@jest/globals'
import type { RouteName } from '../../simulator/github/index.js'
import { CONTEXT_TIMEOUT_MS } from '../../src/github/context/context.js'
import { REFUSED_PORT, tagPush } from '../fixtures/github.js'
import { APP, DOCS, usePullRequest } from '../fixtures/pull-request.js'

const KEY = 'mint_offline_key_0123456789abcd'

describe('GitHub out of reach', () => {
  const { step, github, env } = usePullRequest({
    key: KEY,
    project: 'proj-offline',
    prompt: 'Document this',
    scenario: { runMs: 3000 },
    repos: [APP, DOCS],
    permissions: [],
    docs: true
  })
  const closedPort = REFUSED_PORT

  /** Every route the runs below read or write. */
  const ROUTES: RouteName[] = ['release-by-tag', 'matching-refs', 'pulls', 'comments', 'comment-create', 'user']
  /** Where each fault sends the step's GitHub requests, the host the warnings name, and the last cause (a pattern). */
  const faults = {
    refused: () => ({
      url: `http://127.0.0.1:${closedPort}`,
      host: `127.0.0.1:${closedPort}`,
      cause: `connect ECONNREFUSED 127\\.0\\.0\\.1:${closedPort}`
    }),
    // A reserved name that never resolves (RFC 6761); a resolver that cannot be asked says EAI_AGAIN.
    dns: () => ({
      url: 'http://api.github.invalid',
      host: 'api.github.invalid',
      cause: 'getaddrinfo (ENOTFOUND|EAI_AGAIN) api\\.github\\.invalid'
    }),
    reset: () => {
      for (const route of ROUTES) github().failAlways(route, { kind: 'reset' })
      return { url: github().url, host: new URL(github().url).host.replace(/\./g, '\\.'), cause: 'read ECONNRESET' }
    }
  }
  const reached = (host: string, cause: string): string => `could not reach GitHub at ${host}: ${cause}`
  const contextWarning = (host: string, cause: string): RegExp =>
    new RegExp(
      `^Context: could not read the release notes of v1\\.11\\.0 and the tags starting with v1 \\(to find the previous release\\) \\(${reached(host, cause)}\\); the job is created with what was read\\. The runner could not connect to GitHub's API: check its network \\(DNS, proxy, firewall\\), or set context: none\\.$`
    )

  const pushTag = (apiUrl: string, inputs: Record<string, string> = {}) =>
    step.run(inputs, { env: env({ ...tagPush('v1.11.0'), GITHUB_API_URL: apiUrl }) })
  /** How long after the step's start the create left, in virtual time. */
  const createdAfter = (started: number): number => (step.requests('create')[0]?.time ?? Infinity) - started

  it.each(['refused', 'dns', 'reset'] as const)(
    '%s: a tag push names the network, not a permission nor the time, and creates within the context budget',
    async (name) => {
      const { url, host, cause } = faults[name]()
      const started = step.clock().now()
      const result = await pushTag(url)
      expect(result.code).toBe(0)
      expect(step.requests('create')).toHaveLength(1)
      expect(result.at('warning')).toEqual([expect.stringMatching(contextWarning(host, cause))])
      expect(result.everything()).not.toMatch(/contents: read|did not answer/)
      expect(createdAfter(started)).toBeLessThanOrEqual(CONTEXT_TIMEOUT_MS)
    }
  )

  it('counts every try among the GitHub requests of the context', async () => {
    const result = await pushTag(faults.reset().url)
    const line = result.at('info').find((info) => info.startsWith('Context: Tag v1.11.0 ('))
    const counted = Number(/, (\d+) GitHub requests\)$/.exec(line ?? '')?.[1])
    // Both reads tried again: more requests than reads. Each one that reached the fake is counted; one
    // the context's time limit cut on its way (under load) is counted too, though the fake never saw it.
    expect(github().requests.length).toBeGreaterThan(2)
    expect(counted).toBeGreaterThanOrEqual(github().requests.length)
    // At most one try a read is cut on its way: the two reads run side by side.
    expect(counted).toBeLessThanOrEqual(github().requests.length + 2)
  })

  it.each(['refused', 'dns', 'reset'] as const)(
    "%s: a grouped run's docs pull request lookup and comment name the network, with no token advice",
    async (name) => {
      const { url, host, cause } = faults[name]()
      const result = await pushTag(url, { group: 'releases', 'docs-repository': DOCS })
      expect(result.code).toBe(0)
      expect(result.outputs.grouped).toBe('false')
      const network = 'A network failure, not a missing permission.'
      expect(result.at('warning')).toEqual([
        expect.stringMatching(
          new RegExp(
            `^Group releases: could not read the open pull requests of acme/docs \\(${reached(host, cause)}\\), so a new job is started rather than a follow-up into a docs pull request whose state is unknown\\. ${network}$`
          )
        ),
        expect.stringMatching(contextWarning(host, cause)),
        expect.stringMatching(
          new RegExp(
            `^Group releases: could not write the group's comment on acme/docs \\(${reached(host, cause)}\\); the next run of the group may start a new job\\. ${network}$`
          )
        )
      ])
      expect(result.everything()).not.toMatch(/github-token|pull-requests: (read|write)|contents: read|did not answer/)
    }
  )
})
