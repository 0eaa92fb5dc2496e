/**
 * `docs-checks: wait`, in-process against the Agent API simulator and the fake GitHub, whose docs
 * repository runs a CI on each head of the job's docs pull request (fixtures/docs-ci.ts): checks
 * that pass, checks still running (waited for; checks still to come: docs-checks-suites.test.ts), a failure, failing commit statuses, checks that
 * cannot be read, the default and a dry run (nothing read), and the input errors.
 */
import { describe, expect, it } from '@jest/globals'
import { linkDocsRepository } from '../../simulator/docs-repository.js'
import { useOwnerScenario } from '../fixtures/owner.js'
import { ADMIN, checkReads, docsCi, type HeadCi } from '../fixtures/docs-ci.js'

describe('docs-checks: wait', () => {
  const o = useOwnerScenario()
  const withCi = (...rounds: HeadCi[]): void => linkDocsRepository(o.step.sim(), o.github(), docsCi(rounds))
  const run = (inputs: Record<string, string>) => o.run('pull_request', o.merged(41, 'dev'), inputs)

  it('checks that pass: success, each check logged and in the summary; 4 GitHub requests added', async () => {
    withCi({ vale: 'success', status: { state: 'success', context: 'ci/links' } })
    const result = await run({ 'docs-checks': 'wait' })
    expect(result.code).toBe(0)
    expect(result.outputs['docs-checks']).toBe('success')
    expect(result.outputs['fix-rounds']).toBe('0')
    expect(result.at('info')).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^│ Mintlify Deployment: success https:\/\/github\.com\/acme\/docs\/runs\/\d+$/),
        expect.stringMatching(/^│ Mintlify Validation: success /),
        '│ ci/links: success'
      ])
    )
    expect(result.summary).toContain('<h3>Docs PR checks</h3>')
    expect(result.summary).toContain('docs-checks: <code>success</code>')
    expect(result.summary).toMatch(/<tr><td>Mintlify Validation<\/td><td><code>success<\/code><\/td><td><a href=/)
    // The head, its check runs, its combined status, its check suites: nothing more when nothing failed.
    expect(checkReads(o.github())).toEqual({ pull: 1, 'check-runs': 1, 'commit-status': 1, 'check-suites': 1 })
    expect(result.at('warning')).toEqual([])
  })

  it('checks still running are waited for on the poll schedule, then judged', async () => {
    withCi({ vale: 'success', runsMs: 60_000 })
    const result = await run({ 'docs-checks': 'wait' })
    expect(result.outputs['docs-checks']).toBe('success')
    const reads = checkReads(o.github())
    expect(reads['check-runs']).toBeGreaterThan(2)
    expect(reads['check-runs']).toBe(reads['commit-status'])
    // The suites only once no check runs: at the end.
    expect(reads['check-suites']).toBe(1)
    expect(reads.pull).toBe(1)
    expect(result.at('info')).toContain('Waiting for the checks on the docs pull request acme/docs#1.')
  })

  it('checks still running when the timeout ends: timed-out, one warning, the step still succeeds', async () => {
    withCi({ vale: 'success', runsMs: 3_600_000 })
    const result = await run({ 'docs-checks': 'wait', timeout: '2m' })
    expect(result.code).toBe(0)
    expect(result.outputs['docs-checks']).toBe('timed-out')
    expect(result.at('warning')).toEqual([
      'Checks on acme/docs#1 were still running when the timeout ended: docs-checks is timed-out.'
    ])
  })

  it('a failure under wait: failure, its first problems in the log and the summary, no follow-up, the step green', async () => {
    withCi({ vale: 'failure' })
    const result = await run({ 'docs-checks': 'wait' })
    expect(result.code).toBe(0)
    expect(result.outputs['docs-checks']).toBe('failure')
    expect(result.outputs['fix-rounds']).toBe('0')
    expect(result.at('info')).toContain(`│   docs/admin.mdx:12: ${ADMIN}`)
    expect(result.summary).toContain(`<br>docs/admin.mdx:12: ${ADMIN}</td></tr>`)
    expect(o.step.requests('message')).toHaveLength(0)
    expect(checkReads(o.github())['check-annotations']).toBe(1)
  })

  it('fail-on: docs-checks makes a red docs pull request fail the step', async () => {
    withCi({ vale: 'failure' })
    const result = await run({ 'docs-checks': 'wait', 'fail-on': 'failed, docs-checks' })
    expect(result.code).toBe(1)
    expect(result.at('error')).toEqual(["The docs pull request's checks failed (fail-on includes 'docs-checks')."])
  })

  it.each([
    ['failure', 'neutral'],
    ['success', 'success']
  ] as const)('with check: docs checks ending %s make the check run %s', async (vale, conclusion) => {
    withCi({ vale })
    const result = await run({ 'docs-checks': 'wait', check: 'Docs agent' })
    expect(result.outputs['docs-checks']).toBe(vale)
    const made = o
      .github()
      .checkRunsOf('acme/app')
      .filter((r) => r.name === 'Docs agent')
    expect(made.map((r) => r.conclusion)).toEqual([conclusion])
  })

  it('failing commit statuses count: failure, with the context and description', async () => {
    withCi({
      vale: 'success',
      status: { state: 'error', context: 'ci/build', description: 'Build failed: 2 broken links' }
    })
    const result = await run({ 'docs-checks': 'wait' })
    expect(result.outputs['docs-checks']).toBe('failure')
    expect(result.at('info')).toContain('│   Build failed: 2 broken links')
  })

  it.each([403, 404])(
    'checks that cannot be read (%i): one warning naming the permissions and the repository; unknown; the step succeeds',
    async (status) => {
      withCi({ vale: 'success' })
      o.github().failAlways('check-runs', { kind: 'status', status, message: 'Resource not accessible by integration' })
      const result = await run({ 'docs-checks': 'wait' })
      expect(result.code).toBe(0)
      expect(result.outputs['docs-checks']).toBe('unknown')
      expect(result.outputs['pr-number']).toBe('1')
      expect(result.at('warning')).toEqual([
        `Could not read the checks on acme/docs#1 (HTTP ${status}: Resource not accessible by integration): docs-checks is unknown. The 'docs-token' input (github-token when not given) needs checks: read and statuses: read on acme/docs (the workflow's own token has them only on its own repository: another repository needs a token with that access).`
      ])
    }
  )

  it('the default (none): no check is read, the outputs are empty', async () => {
    withCi({ vale: 'failure' })
    const result = await run({})
    expect(result.code).toBe(0)
    expect(result.outputs['docs-checks']).toBe('')
    expect(result.outputs['fix-rounds']).toBe('')
    expect(checkReads(o.github())).toEqual({})
    expect(result.summary).not.toContain('Docs PR checks')
  })

  it.each([
    [{ 'docs-checks': 'maybe' }, `Input 'docs-checks': "maybe" is not one of none, wait, fix.`],
    [{ 'docs-checks': 'fix', wait: 'false' }, `Input 'docs-checks': fix needs wait: true`]
  ])('an input error before any request: %j', async (inputs, message) => {
    const result = await run(inputs)
    expect(result.code).toBe(1)
    expect(result.at('error').join('\n')).toContain(message)
    expect(o.step.virtual().sim.requests).toHaveLength(0)
    expect(o.github().requests).toHaveLength(0)
  })

  // The README's "Try it without spending a job: add dry-run: true under with:", and the release
  // example's own comment, on a workflow that has docs-checks: the dry run tries it as it stands.
  it.each(['wait', 'fix'])(
    'docs-checks: %s in a dry run: the run succeeds, sends nothing, reads no check',
    async (mode) => {
      withCi({ vale: 'failure' })
      const result = await run({ 'docs-checks': mode, 'dry-run': 'true' })
      expect(result.code).toBe(0)
      expect(result.at('error')).toEqual([])
      expect(o.step.virtual().sim.requests).toHaveLength(0)
      expect(checkReads(o.github())).toEqual({})
      expect([result.outputs['docs-checks'], result.outputs['fix-rounds']]).toEqual(['', ''])
    }
  )
})
