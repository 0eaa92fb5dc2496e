/**
 * `docs-checks: fix`, in-process against the Agent API simulator and the fake GitHub: one round
 * that turns the docs pull request green, a second failure that stops after the round, a failing
 * commit status handed to the agent, a hostile check with 400 annotations (inert, bounded), and a
 * re-run after the follow-up (never sent twice, also after a cancel once it had left), and a follow-up
 * that failed: kept as sent when it may have reached the job, and no round of fixes. A cancelled check:
 * failing, with nothing to ask the agent.
 */
import { describe, expect, it } from '@jest/globals'
import { MemoryRecords } from '../../scripts/in-process.js'
import { linkDocsRepository } from '../../simulator/docs-repository.js'
import { useOwnerScenario } from '../fixtures/owner.js'
import { ADMIN, checkReads, docsCi, type HeadCi } from '../fixtures/docs-ci.js'

describe('docs-checks: fix', () => {
  const o = useOwnerScenario()
  const withCi = (...rounds: HeadCi[]): void => linkDocsRepository(o.step.sim(), o.github(), docsCi(rounds))
  const fix = { 'docs-checks': 'fix' }
  const followUps = (): string[] => o.step.sim().jobs('proj-owner')[0]?.prompts.slice(1) ?? []

  it('one round that turns green: the follow-up holds the failure, the new head is judged; 9 GitHub requests added', async () => {
    withCi({ vale: 'failure' }, { vale: 'success' })
    const result = await o.run('pull_request', o.merged(41, 'dev'), fix)
    expect(result.code).toBe(0)
    expect(result.outputs['docs-checks']).toBe('success')
    expect(result.outputs['fix-rounds']).toBe('1')
    const [message, ...more] = followUps()
    expect(more).toEqual([])
    expect(message).toContain('Check Mintlify Validation (failure):')
    expect(message).toContain('- Vale found style problems')
    expect(message).toContain(`- docs/admin.mdx:12: ${ADMIN}`)
    expect(message).toContain('on the same branch')
    expect(message).not.toContain('Mintlify Deployment')
    expect(result.at('info')).toContain('Asking the agent to fix 1 failing check on acme/docs#1: Mintlify Validation.')
    // The head, check runs, status, suites and annotations of the first head; the head, check runs, status and suites of the new one.
    expect(checkReads(o.github())).toEqual({
      pull: 2,
      'check-runs': 2,
      'commit-status': 2,
      'check-suites': 2,
      'check-annotations': 1
    })
    expect(result.summary).toContain("after the agent's round of fixes (Mintlify Validation)")
    // The green head first, then the red one the round began with.
    expect(result.summary).toMatch(
      new RegExp(
        `Mintlify Validation</td><td><code>success[\\s\\S]*Before the agent's round of fixes:[\\s\\S]*<code>failure</code>[\\s\\S]*docs/admin.mdx:12: ${ADMIN}`
      )
    )
    expect(result.at('warning')).toEqual([])
    // The progress comment said so on the way, and ends with the verdict.
    const comments = o.github().commentsOf('acme/app', 41)
    expect(comments).toHaveLength(1)
    expect(comments[0]?.body).toContain('Asked the agent to fix: `Mintlify Validation`.')
    expect(comments[0]?.body).toContain('Docs PR checks: `success`.')
  })

  it('the owner phase comes after the verdict: reviewers are asked once the round is over', async () => {
    withCi({ vale: 'failure' }, { vale: 'success' })
    const result = await o.run('pull_request', o.merged(41, 'dev'), { ...fix, reviewers: 'mona' })
    expect(result.outputs.reviewers).toBe('mona')
    expect(result.outputs['fix-rounds']).toBe('1')
    const routes = o.github().requests.map((r) => r.route)
    // Both heads' check runs were read, and only then were reviewers asked.
    expect(routes.filter((route) => route === 'check-runs')).toHaveLength(2)
    expect(routes.lastIndexOf('check-runs')).toBeLessThan(routes.indexOf('requested-reviewers'))
    expect(o.github().ownerOf('acme/docs', 1).reviewers).toEqual(['mona'])
  })

  it('a second failure stops after the one round: one warning naming the checks', async () => {
    withCi({ vale: 'failure' }, { vale: 'failure' })
    const result = await o.run('pull_request', o.merged(41, 'dev'), fix)
    expect(result.code).toBe(0)
    expect(result.outputs['docs-checks']).toBe('failure')
    expect(result.outputs['fix-rounds']).toBe('1')
    expect(followUps()).toHaveLength(1)
    expect(result.at('warning')).toEqual([
      "Checks on acme/docs#1 still fail after the agent's round of fixes: Mintlify Validation."
    ])
  })

  it('a cancelled check: not green (GitHub merges past a required check only when it succeeded, was neutral or skipped), yet nothing for the agent to fix', async () => {
    withCi({ vale: 'cancelled' })
    const result = await o.run('pull_request', o.merged(41, 'dev'), { ...fix, 'fail-on': 'docs-checks' })
    expect(result.outputs['docs-checks']).toBe('failure')
    expect(result.outputs['fix-rounds']).toBe('0')
    expect(followUps()).toEqual([])
    expect(result.at('info')).toContain('docs-checks: failure (failing: Mintlify Validation).')
    expect(result.code).toBe(1)
  })

  it('a failing commit status: its context and description reach the agent', async () => {
    withCi(
      { vale: 'success', status: { state: 'failure', context: 'ci/links', description: 'docs/a.mdx links to /gone' } },
      { vale: 'success', status: { state: 'success', context: 'ci/links' } }
    )
    const result = await o.run('pull_request', o.merged(41, 'dev'), fix)
    expect(result.outputs['docs-checks']).toBe('success')
    expect(followUps()[0]).toContain('Check ci/links (failure):\n- docs/a.mdx links to /gone')
  })

  it('a hostile check with 400 annotations: inert in the log and the summary, a message of at most 20,000 characters', async () => {
    const hostile = Array.from({ length: 400 }, (_, i) => ({
      path: `docs/p${i}.mdx`,
      start_line: i + 1,
      message: `bad\n::error::forged ${i}\r##[set-output name=x]y <script>alert(1)</script> \u202Egnp.exe ${'x'.repeat(100)}`
    }))
    withCi({ vale: 'failure', annotations: hostile, summary: '::warning::also forged\n<img src=x onerror=alert(1)>' })
    const result = await o.run('pull_request', o.merged(41, 'dev'), fix)
    const [message = ''] = followUps()
    expect(message.length).toBeLessThanOrEqual(20_000)
    expect(message).toMatch(/\(\d+ more problems left out: this message is limited to 20,000 characters\.\)$/)
    // 100 annotations read of 400: the 300 unread are counted among those left out.
    const left = Number(/\((\d+) more problems/.exec(message)?.[1])
    expect(left).toBeGreaterThanOrEqual(300)
    expect(message.split('\n').filter((line) => line.startsWith('- docs/p')).length + left).toBe(400)
    for (const line of result.lines.map((l) => l.message)) {
      expect(line).not.toMatch(/^::|\n|\r/)
      expect(line).not.toMatch(/##\[/)
      expect(line).not.toContain('\u202E')
    }
    expect(result.summary).not.toMatch(/<script>|<img/)
    expect(result.summary).toContain('&lt;img src=x onerror=alert(1)&gt;')
    // One page of 100 annotations on each head (both fail): the 300 others are never read.
    expect(checkReads(o.github())['check-annotations']).toBe(2)
  })

  it('a re-run after the follow-up resumes and never sends it twice', async () => {
    withCi({ vale: 'failure' }, { vale: 'failure' })
    const records = new MemoryRecords()
    const first = await o.run('pull_request', o.merged(41, 'dev'), fix, { records, runId: '7001', attempt: '1' })
    expect(first.outputs['fix-rounds']).toBe('1')
    const second = await o.run('pull_request', o.merged(41, 'dev'), fix, { records, runId: '7001', attempt: '2' })
    expect(second.code).toBe(0)
    expect(o.step.requests('create')).toHaveLength(1)
    expect(o.step.requests('message')).toHaveLength(1)
    expect(second.outputs['fix-rounds']).toBe('1')
    expect(second.outputs['docs-checks']).toBe('failure')
    expect(second.at('info')).toContain('An earlier attempt of this step already asked the agent to fix acme/docs#1.')
  })

  it('a cancel once the follow-up has left: it may have reached the job, so a re-run never sends it', async () => {
    withCi({ vale: 'failure' }, { vale: 'failure' })
    const records = new MemoryRecords()
    const cancel = o.step.cancelAtRequest('message', 1)
    const first = await o.run('pull_request', o.merged(41, 'dev'), fix, {
      records,
      runId: '7002',
      attempt: '1',
      cancel
    })
    expect(o.step.requests('message')).toHaveLength(1)
    expect(first.outputs['job-id']).toMatch(/^\S+$/)
    expect(o.step.requests('message')[0]?.jobId).toBe(first.outputs['job-id'])
    expect(first.at('info')).toContain(
      'The step was cancelled after the follow-up to acme/docs#1 left: it may have reached the job.'
    )
    const second = await o.run('pull_request', o.merged(41, 'dev'), fix, { records, runId: '7002', attempt: '2' })
    expect(o.step.requests('create')).toHaveLength(1)
    expect(o.step.requests('message')).toHaveLength(1)
    expect(second.at('info')).toContain('An earlier attempt of this step already asked the agent to fix acme/docs#1.')
  })

  it('a follow-up whose answer was a 502: one warning, kept as sent; a 400 is not, so a re-run sends it', async () => {
    for (const [status, sends] of [
      [502, 1],
      [400, 2]
    ] as const) {
      withCi({ vale: 'failure' }, { vale: 'failure' })
      const records = new MemoryRecords()
      const before = o.step.requests('message').length
      o.step.sim().fail('message', { kind: 'status', status })
      const runId = `71${status}`
      const first = await o.run('pull_request', o.merged(41, 'dev'), fix, { records, runId, attempt: '1' })
      // No "still fail after the agent's round of fixes": there was no round.
      expect(first.at('warning')).toEqual([
        expect.stringMatching(
          new RegExp(
            `^Could not ask the agent to fix the checks on acme/docs#\\d+ \\(answered ${status}\\b.*\\)\\.${
              sends === 1 ? ' It may have reached the job, so a re-run does not send it again\\.' : ''
            }$`
          )
        )
      ])
      expect(first.outputs['fix-rounds']).toBe('0')
      await o.run('pull_request', o.merged(41, 'dev'), fix, { records, runId, attempt: '2' })
      expect(o.step.requests('message').length - before).toBe(sends)
    }
  })
})
