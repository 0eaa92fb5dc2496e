/**
 * `docs-checks` and the checks still to come, in-process against the Agent API simulator and the
 * fake GitHub: at a push GitHub makes a check suite per app, queued with no run, before the app
 * makes its check runs (https://docs.github.com/en/rest/guides/using-the-rest-api-to-interact-with-checks).
 * An app whose runs come after the step's first read is waited for (on the first head, and on the
 * new head of the round of fixes); an app whose suite never gets a run is left out after the grace,
 * named once in the log, without holding the step until its timeout.
 */
import { describe, expect, it } from '@jest/globals'
import { linkDocsRepository } from '../../simulator/docs-repository.js'
import type { CheckApp } from '../../simulator/github-objects.js'
import { useOwnerScenario } from '../fixtures/owner.js'
import { checkReads, docsCi, type HeadCi } from '../fixtures/docs-ci.js'

/** An app installed on the docs repository that makes no check run (made up). */
const IDLE_APP: CheckApp = { id: 90_210, slug: 'preview-bot', name: 'Preview Bot', owner: { login: 'acme', id: 4242 } }
/** The grace the docs give checks still to come (SUITE_GRACE_MS, settle.ts). */
const GRACE_MS = 2 * 60_000
const LEFT_OUT =
  /^The check suites of Preview Bot on head [0-9a-f]{7} are still not completed, with no check running, after a 2-minute wait: judged without them\.$/

describe('docs-checks: checks still to come', () => {
  const o = useOwnerScenario()
  const withCi = (...rounds: HeadCi[]): void => linkDocsRepository(o.step.sim(), o.github(), docsCi(rounds))
  const run = (inputs: Record<string, string>) => o.run('pull_request', o.merged(41, 'dev'), inputs)
  /** The fake's clock at the first and the last read of the docs checks. */
  const readSpan = (): number => {
    const times = o
      .github()
      .requests.filter((r) => r.repo === 'acme/docs' && ['pull', 'check-runs', 'check-suites'].includes(r.route))
      .map((r) => r.time)
    return (times.at(-1) ?? 0) - (times[0] ?? 0)
  }

  it("an app's check run made 30 s after the push that fails: failure, not a green before it exists", async () => {
    withCi({ vale: 'failure', startsMs: 30_000 })
    const result = await run({ 'docs-checks': 'wait' })
    expect(result.outputs['docs-checks']).toBe('failure')
    expect(result.at('info')).toContainEqual(expect.stringMatching(/^│ Mintlify Validation: failure https:/))
    // Its suite, queued with no run, was read until the runs came; nothing was left out.
    const reads = checkReads(o.github())
    expect(reads['check-suites']).toBeGreaterThan(1)
    expect(reads['check-suites']).toBe(reads['check-runs'])
    expect(result.at('info').filter((line) => line.startsWith('The check suites of'))).toEqual([])
  })

  it("the round of fixes: the new head's checks, made late, are waited for before the verdict", async () => {
    withCi({ vale: 'failure' }, { vale: 'failure', startsMs: 30_000 })
    const result = await run({ 'docs-checks': 'fix' })
    expect(result.outputs['fix-rounds']).toBe('1')
    expect(result.outputs['docs-checks']).toBe('failure')
    expect(result.at('warning')).toEqual([
      "Checks on acme/docs#1 still fail after the agent's round of fixes: Mintlify Validation."
    ])
    const heads = o.github().requests.filter((r) => r.route === 'check-suites')
    // The new head's suite was read more than once: it was waited for.
    const last = heads.at(-1)?.rawPath ?? ''
    expect(heads.filter((r) => r.rawPath === last).length).toBeGreaterThan(1)
  })

  it('a suite that stays queued with no run: left out after the grace, named once, well before the timeout', async () => {
    withCi({ vale: 'failure', idleApps: [IDLE_APP] })
    const result = await run({ 'docs-checks': 'wait', timeout: '30m' })
    expect(result.outputs['docs-checks']).toBe('failure')
    expect(result.at('info').filter((line) => line.startsWith('The check suites of'))).toEqual([
      expect.stringMatching(LEFT_OUT)
    ])
    // Judged on the checks there are, once the grace was over, and not at the timeout.
    expect(result.at('info')).toContainEqual(expect.stringMatching(/^│ Mintlify Validation: failure https:/))
    const span = readSpan()
    expect(span).toBeGreaterThanOrEqual(GRACE_MS)
    expect(span).toBeLessThan(GRACE_MS + 60_000)
    expect(result.at('warning')).toEqual([])
  })
})
