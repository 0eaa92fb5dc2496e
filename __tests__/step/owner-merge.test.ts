/**
 * `merge: auto` as a user relies on it, in-process against the Agent API simulator and the fake
 * GitHub: auto-merge where the docs pull request waits for checks, a merge at once where it waits
 * for nothing, the repository's and the token's refusals, text from someone without write access
 * (never merged at once), and a group whose pull request merges after each run.
 */
import { describe, expect, it } from '@jest/globals'
import { MemoryRecords } from '../../scripts/in-process.js'
import { linkDocsRepository } from '../../simulator/docs-repository.js'
import { docsCi } from '../fixtures/docs-ci.js'
import { DOCS, useOwnerScenario } from '../fixtures/owner.js'

const o = useOwnerScenario()
const auto = { merge: 'auto' }
const row = (value: string) => `<tr><th align="left">Merge</th><td>${value}</td></tr>`
const graphqlBodies = () =>
  o
    .github()
    .requests.filter((r) => r.route === 'graphql' && !r.body.includes('viewer'))
    .map((r) => JSON.parse(r.body) as { query: string; variables: Record<string, unknown> })

describe('merge: auto', () => {
  it('a docs pull request with required checks: auto-merge turns on, with the method, and nothing merges yet', async () => {
    o.github().setMergeRules(DOCS, { requiredChecks: true })
    const result = await o.run('pull_request', o.merged(41, 'dev'), { ...auto, 'merge-method': 'rebase' })
    expect(result.code).toBe(0)
    const number = o.docsPr(result)
    expect(o.github().ownerOf(DOCS, number).autoMerge).toEqual({ method: 'REBASE' })
    expect(o.github().isMerged(DOCS, number)).toBe(false)
    expect(result.outputs.merge).toBe('auto-merge')
    expect(result.summary).toContain(row('auto-merge on (rebase): it merges once its required checks and reviews pass'))
    expect(result.at('info')).toContain(
      `Auto-merge is on for ${DOCS}#${number} (rebase): it merges once its required checks and reviews pass.`
    )
    // The mutation's variables are none of the names Octokit keeps for itself (method, query, url, headers).
    const [facts, mutation] = graphqlBodies()
    expect(facts?.variables).toEqual({ owner: 'acme', repo: 'docs', number })
    expect(Object.keys(mutation?.variables ?? {}).sort()).toEqual(['expectedHeadOid', 'mergeMethod', 'pullRequestId'])
    // Auto-merge of the head that was read, not of whatever the branch holds when it merges.
    expect(mutation?.variables.expectedHeadOid).toMatch(/^[0-9a-f]{40}$/)
    expect(o.writes().filter((w) => w.includes('merge'))).toEqual([])
  })

  it('a clean docs pull request is merged at once (its head as read, squash by default), as gh pr merge --auto does', async () => {
    const result = await o.run('pull_request', o.merged(41, 'dev'), auto)
    expect(result.code).toBe(0)
    const number = o.docsPr(result)
    expect(o.github().isMerged(DOCS, number)).toBe(true)
    expect(o.github().ownerOf(DOCS, number).autoMerge).toBeUndefined()
    expect(result.outputs.merge).toBe('merged')
    expect(result.summary).toContain(row('merged (squash)'))
    const put = o.github().requests.find((r) => r.route === 'merge')
    expect(JSON.parse(put?.body ?? '{}')).toMatchObject({
      merge_method: 'squash',
      sha: expect.stringMatching(/^[0-9a-f]{40}$/)
    })
    expect(graphqlBodies().map((b) => /enablePullRequestAutoMerge/.test(b.query))).toEqual([false])
    expect(result.at('info')).toContain(
      `Merged ${DOCS}#${number} (squash): it had no checks or reviews left to wait for.`
    )
    // Nobody to ask: the pull request's events are not read.
    expect(o.writes().filter((w) => w.includes('issue-events'))).toEqual([])
  })

  it.each([
    ['HAS_HOOKS', 'merged'],
    ['UNSTABLE', 'merged'],
    ['BEHIND', 'auto-merge']
  ])('merge state %s: %s', async (mergeState, outcome) => {
    o.github().setMergeRules(DOCS, { mergeState })
    const result = await o.run('pull_request', o.merged(41, 'dev'), auto)
    expect(result.outputs.merge).toBe(outcome)
  })

  it('reads the merge state again while GitHub still works it out (UNKNOWN), then merges', async () => {
    o.github().setMergeRules(DOCS, { unknownReads: 2 })
    const result = await o.run('pull_request', o.merged(41, 'dev'), auto)
    expect(result.outputs.merge).toBe('merged')
    expect(graphqlBodies()).toHaveLength(3)
  })

  it('a merge state still UNKNOWN after the reads: auto-merge is asked for, and GitHub’s "clean status" answer means a merge at once', async () => {
    o.github().setMergeRules(DOCS, { unknownReads: 9 })
    const result = await o.run('pull_request', o.merged(41, 'dev'), auto)
    expect(result.outputs.merge).toBe('merged')
    expect(graphqlBodies().map((b) => (/enablePullRequestAutoMerge/.test(b.query) ? 'enable' : 'read'))).toEqual([
      'read',
      'read',
      'read',
      'read',
      'enable'
    ])
    expect(result.at('warning')).toEqual([])
  })

  it('a branch that moved since it was read is not merged (409): one warning', async () => {
    o.github().fail('merge', {
      kind: 'status',
      status: 409,
      message: 'Head branch was modified. Review and try the merge again.'
    })
    const result = await o.run('pull_request', o.merged(41, 'dev'), auto)
    expect(result.code).toBe(0)
    expect(result.outputs.merge).toBe('')
    expect(result.at('warning')).toEqual([
      `Could not merge ${DOCS}#${o.docsPr(result)} (HTTP 409: Head branch was modified. Review and try the merge again.): its branch moved since it was read. It stays open.`
    ])
  })

  it('a merge state that cannot be read: one warning; left open', async () => {
    // The first GraphQL request is the token's identity, read for the link-back comment as the job starts.
    o.github().fail(
      'graphql',
      { kind: 'delay', ms: 0 },
      { kind: 'status', status: 403, message: 'Resource not accessible by integration' }
    )
    const result = await o.run('pull_request', o.merged(41, 'dev'), auto)
    expect(result.code).toBe(0)
    expect(result.outputs.merge).toBe('')
    expect(result.at('warning')).toEqual([
      `Could not read the merge state of ${DOCS}#${o.docsPr(result)} (HTTP 403: Resource not accessible by integration), so it is left open. The 'docs-token' input (github-token when not given) needs pull-requests: read on ${DOCS}.`
    ])
  })

  it('a merge state read that fails otherwise: one warning without a permission hint', async () => {
    // Changed on purpose: a GraphQL query is a read, tried four times, so the read fails on every try.
    const bad = { kind: 'status' as const, status: 502, message: 'Bad Gateway' }
    o.github().fail('graphql', { kind: 'delay', ms: 0 }, bad, bad, bad, bad)
    const result = await o.run('pull_request', o.merged(41, 'dev'), auto)
    expect(result.at('warning')).toEqual([
      `Could not read the merge state of ${DOCS}#${o.docsPr(result)} (HTTP 502: Bad Gateway), so it is left open.`
    ])
    expect(result.summary).toContain(row('left open: its merge state could not be read'))
  })

  it('auto-merge refused for another reason: one warning with GitHub’s words', async () => {
    o.github().setMergeRules(DOCS, { requiredChecks: true })
    // The identity and the merge state are answered; the mutation gets a 502.
    o.github().fail(
      'graphql',
      { kind: 'delay', ms: 0 },
      { kind: 'delay', ms: 0 },
      { kind: 'status', status: 502, message: 'Bad Gateway' }
    )
    const result = await o.run('pull_request', o.merged(41, 'dev'), auto)
    expect(result.code).toBe(0)
    expect(result.at('warning')).toEqual([
      `Could not turn on auto-merge for ${DOCS}#${o.docsPr(result)} (HTTP 502: Bad Gateway): GitHub refused it. It stays open.`
    ])
    expect(result.outputs.merge).toBe('')
  })

  it('a merge whose answer is lost is not sent again: one warning says it may have merged', async () => {
    o.github().fail('merge', { kind: 'reset' })
    const result = await o.run('pull_request', o.merged(41, 'dev'), auto)
    expect(o.github().requests.filter((r) => r.route === 'merge')).toHaveLength(1)
    expect(result.at('warning')).toHaveLength(1)
    expect(result.at('warning')[0]).toMatch(
      /^Could not merge acme\/docs#\d+ \(the connection failed: .*\): the merge may have reached GitHub: see the pull request\. It stays open\.$/
    )
  })

  it('a repository that does not allow auto-merge: one warning naming the setting; the pull request stays open and the step succeeds', async () => {
    o.github().setMergeRules(DOCS, { requiredChecks: true, allowAutoMerge: false })
    const result = await o.run('pull_request', o.merged(41, 'dev'), auto)
    expect(result.code).toBe(0)
    const number = o.docsPr(result)
    expect(o.github().isMerged(DOCS, number)).toBe(false)
    expect(result.outputs.merge).toBe('')
    expect(result.at('warning')).toEqual([
      `Could not turn on auto-merge for ${DOCS}#${number} (GitHub: Pull request Auto merge is not allowed for this repository): ${DOCS} does not allow auto-merge: turn on "Allow auto-merge" in its Settings, General, Pull Requests. It stays open.`
    ])
    expect(result.summary).toContain(row('left open: Pull request Auto merge is not allowed for this repository'))
  })

  it('a token that cannot merge: one warning naming the permissions', async () => {
    o.github().setMergeRules(DOCS, { tokenCannotMerge: true })
    const result = await o.run('pull_request', o.merged(41, 'dev'), auto)
    expect(result.code).toBe(0)
    expect(result.at('warning')).toEqual([
      `Could not merge ${DOCS}#${o.docsPr(result)} (HTTP 403: Resource not accessible by integration): the 'docs-token' input (github-token when not given) needs contents: write and pull-requests: write on ${DOCS} (the workflow's GITHUB_TOKEN cannot write to another repository). It stays open.`
    ])
  })

  it('a branch rule that refuses the merge: one warning; it stays open', async () => {
    o.github().setMergeRules(DOCS, { refuseMerge: 'Repository rule violations found' })
    const result = await o.run('pull_request', o.merged(41, 'dev'), auto)
    expect(result.code).toBe(0)
    expect(result.outputs.merge).toBe('')
    expect(result.at('warning')).toEqual([
      `Could not merge ${DOCS}#${o.docsPr(result)} (HTTP 405: Repository rule violations found): a rule of ${DOCS} refuses it: its base branch's protection or ruleset decides. It stays open.`
    ])
    expect(result.summary).toContain(row('left open: Repository rule violations found'))
  })

  it('a re-run finds auto-merge on, and leaves it as it is', async () => {
    o.github().setMergeRules(DOCS, { requiredChecks: true })
    const records = new MemoryRecords()
    const first = await o.run('pull_request', o.merged(41, 'dev'), auto, { runId: '991', records })
    const again = await o.run('pull_request', o.merged(41, 'dev'), auto, { runId: '991', attempt: '2', records })
    expect(again.outputs['job-id']).toBe(first.outputs['job-id'])
    expect(again.at('info')).toContain(`Auto-merge is already on for ${DOCS}#${o.docsPr(first)}.`)
    expect([first.outputs.merge, again.outputs.merge]).toEqual(['auto-merge', 'auto-merge'])
    expect(graphqlBodies().filter((b) => /enablePullRequestAutoMerge/.test(b.query))).toHaveLength(1)
  })

  it('never on a failed step, a dry run, or a job without a docs pull request', async () => {
    o.step.sim().setScenario({ finalStatus: 'failed', pr: false })
    const failed = await o.run('pull_request', o.merged(41, 'dev'), auto)
    o.step.sim().setScenario({ finalStatus: 'completed', pr: false })
    const none = await o.run('pull_request', o.merged(41, 'dev'), auto)
    const dry = await o.run('pull_request', o.merged(41, 'dev'), { ...auto, 'dry-run': 'true' })
    expect([failed.code, none.code, dry.code]).toEqual([1, 0, 0])
    expect(graphqlBodies()).toEqual([])
    expect(o.github().requests.filter((r) => r.route === 'merge' || r.repo === DOCS)).toEqual([])
  })
})

// GitHub merges at once a pull request whose failing checks are not required (merge state UNSTABLE:
// "Mergeable with non-passing commit status", GitHub's GraphQL reference, MergeStateStatus), and
// whatever head the branch has: with docs-checks, only the head it judged green is.
describe('merge: auto with docs-checks merges at once only the head docs-checks judged green', () => {
  const checked = { ...auto, 'docs-checks': 'wait' }
  const mergeRequests = () => o.github().requests.filter((r) => r.route === 'merge')

  it('green: merged at once', async () => {
    linkDocsRepository(o.step.sim(), o.github(), docsCi([{ vale: 'success' }]))
    const result = await o.run('pull_request', o.merged(41, 'dev'), checked)
    expect([result.outputs['docs-checks'], result.outputs.merge]).toEqual(['success', 'merged'])
  })

  it('failing checks that are not required (UNSTABLE): left open, with one warning', async () => {
    linkDocsRepository(o.step.sim(), o.github(), docsCi([{ vale: 'failure' }]))
    o.github().setMergeRules(DOCS, { mergeState: 'UNSTABLE' })
    const result = await o.run('pull_request', o.merged(41, 'dev'), checked)
    expect(result.code).toBe(0)
    expect([result.outputs['docs-checks'], result.outputs.merge]).toEqual(['failure', ''])
    expect(o.github().isMerged(DOCS, o.docsPr(result))).toBe(false)
    expect(mergeRequests()).toEqual([])
    expect(result.at('warning')).toContain(
      `${DOCS}#${o.docsPr(result)} is left open: its checks are not green (docs-checks: failure), and merge: auto merges at once only a head docs-checks judged green.`
    )
    expect(result.summary).toContain(row('left open: its checks are not green (docs-checks: failure)'))
  })

  it('checks that could not be read: left open', async () => {
    linkDocsRepository(o.step.sim(), o.github(), docsCi([{ vale: 'success' }]))
    o.github().fail('check-runs', { kind: 'status', status: 403, message: 'Resource not accessible by integration' })
    const result = await o.run('pull_request', o.merged(41, 'dev'), checked)
    expect([result.outputs['docs-checks'], result.outputs.merge]).toEqual(['unknown', ''])
    expect(mergeRequests()).toEqual([])
  })

  it('judged green, but GitHub then finds a failing check (UNSTABLE): left open, also when auto-merge’s refusal says so', async () => {
    linkDocsRepository(o.step.sim(), o.github(), docsCi([{ vale: 'success' }]))
    o.github().setMergeRules(DOCS, { mergeState: 'UNSTABLE' })
    const result = await o.run('pull_request', o.merged(41, 'dev'), checked)
    expect([result.outputs['docs-checks'], result.outputs.merge]).toEqual(['success', ''])
    expect(result.summary).toContain(
      row('left open: GitHub says some of its checks fail (merge state UNSTABLE) since docs-checks judged them')
    )
    // The state read as UNKNOWN each time: auto-merge is asked for, and GitHub answers "unstable status".
    o.github().setMergeRules(DOCS, { mergeState: 'UNSTABLE', unknownReads: 9 })
    const again = await o.run('pull_request', o.merged(43, 'dev'), checked)
    expect([again.outputs['docs-checks'], again.outputs.merge]).toEqual(['success', ''])
    expect(mergeRequests()).toEqual([])
  })

  it('a head that moved after its checks were judged: left open, naming both', async () => {
    let judged = ''
    let moved = ''
    linkDocsRepository(o.step.sim(), o.github(), (gh, head) => {
      judged = head.sha
      const run = gh.addCheckRun(head.repo, { name: 'Mintlify Validation', head_sha: head.sha, status: 'in_progress' })
      // Someone pushes to the docs branch while its checks run; the judged head's checks pass later.
      gh.at(gh.time.now() + 20_000, () => (moved = gh.pushToPull(head.repo, 1)))
      gh.at(gh.time.now() + 40_000, () =>
        gh.updateCheckRun(head.repo, run, { conclusion: 'success', output: { title: 'ok', summary: 'ok' } })
      )
    })
    const result = await o.run('pull_request', o.merged(41, 'dev'), checked)
    expect([result.outputs['docs-checks'], result.outputs.merge]).toEqual(['success', ''])
    expect(mergeRequests()).toEqual([])
    expect(result.summary).toContain(
      row(`left open: its head ${moved.slice(0, 7)} is not the one docs-checks judged (${judged.slice(0, 7)})`)
    )
  })
})

describe('text from someone without write access is never merged at once', () => {
  it('a fork’s pull request merged by a maintainer, on a clean docs pull request: one warning, left open', async () => {
    const result = await o.run('pull_request_target', o.merged(41, 'outsider', 'dev'), auto)
    expect(result.code).toBe(0)
    const number = o.docsPr(result)
    expect(o.github().isMerged(DOCS, number)).toBe(false)
    expect(o.github().ownerOf(DOCS, number).autoMerge).toBeUndefined()
    expect(result.outputs.merge).toBe('')
    expect(result.at('warning')).toEqual([
      `${DOCS}#${number} is left open for a person to read: the agent was given text written by someone without write access (pull request #41's own text was included: dev, who has write permission, merged it), and ${DOCS} requires no review before merging, so merge: auto would merge it unread.`
    ])
    expect(result.summary).toContain(row('left open: the agent was given text written by someone without write access'))
  })

  it('the same where the docs repository requires a review: auto-merge waits for a person’s approval', async () => {
    o.github().setMergeRules(DOCS, { requiredReviews: true })
    const result = await o.run('pull_request_target', o.merged(41, 'outsider', 'dev'), auto)
    expect(result.outputs.merge).toBe('auto-merge')
    expect(result.at('warning')).toEqual([])
    expect(result.at('info')).toContain(
      `${DOCS}#${o.docsPr(result)} is not merged at once: the agent was given text written by someone without write access (pull request #41's own text was included: dev, who has write permission, merged it). ${DOCS} requires a review, so auto-merge waits for a person's approval.`
    )
  })

  it('a review already given counts for nothing: left open', async () => {
    o.github().setMergeRules(DOCS, { requiredReviews: true, approved: true })
    const result = await o.run('pull_request_target', o.merged(41, 'outsider', 'dev'), auto)
    expect(result.outputs.merge).toBe('')
    expect(o.github().isMerged(DOCS, o.docsPr(result))).toBe(false)
    expect(result.at('warning')[0]).toContain('is left open for a person to read')
  })

  it('a review required, but GitHub finds nothing to wait for when asked: still not merged at once', async () => {
    o.github().setMergeRules(DOCS, { requiredReviews: true, mergeState: 'CLEAN' })
    const result = await o.run('pull_request_target', o.merged(41, 'outsider', 'dev'), auto)
    expect(result.outputs.merge).toBe('')
    expect(o.github().isMerged(DOCS, o.docsPr(result))).toBe(false)
    expect(o.github().requests.filter((r) => r.route === 'merge')).toEqual([])
  })

  it('untrusted-context: include passes an outsider’s text: not merged at once', async () => {
    const opened = { ...o.merged(41, 'outsider'), action: 'opened' }
    const result = await o.run('pull_request_target', opened, { ...auto, 'untrusted-context': 'include' })
    expect(result.outputs.merge).toBe('')
    expect(result.at('warning')[0]).toContain("(pull request #41's own text was included: untrusted-context: include)")
  })

  it('the agent got none of it (withheld, or context: none): merged at once', async () => {
    const withheld = await o.run('pull_request_target', { ...o.merged(41, 'outsider', 'rita'), action: 'closed' }, auto)
    const none = await o.run('pull_request_target', o.merged(41, 'outsider', 'dev'), { ...auto, context: 'none' })
    expect([withheld.outputs.merge, none.outputs.merge]).toEqual(['merged', 'merged'])
  })
})

describe('whose text counts', () => {
  it('untrusted-context: include on an event with no pull request: nothing of an outsider’s, merged at once', async () => {
    const result = await o.run('workflow_dispatch', {}, { ...auto, 'untrusted-context': 'include' })
    expect(result.outputs.merge).toBe('merged')
  })

  it('a /docs follow-up on an outsider’s pull request: its job had the text, so even context: none is not merged at once', async () => {
    const first = await o.run('pull_request_target', o.merged(41, 'outsider', 'dev'))
    const comment = {
      action: 'created',
      issue: { number: 41, title: 'Change 41', body: '', user: { login: 'outsider' }, pull_request: { url: 'x' } },
      comment: { id: 991, body: '/docs also the FAQ', user: { login: 'dev', type: 'User' } }
    }
    const followUp = await o.run('issue_comment', comment, { ...auto, prompt: '', context: 'none' })
    expect(followUp.outputs.command).toBe('follow-up')
    expect(followUp.outputs['job-id']).toBe(first.outputs['job-id'])
    expect(followUp.outputs.merge).toBe('')
    expect(o.github().isMerged(DOCS, o.docsPr(first))).toBe(false)
    expect(followUp.at('warning')[0]).toContain('(the link-back comment records that its job was given such text)')
  })
})

describe('a /docs follow-up on a writer’s pull request', () => {
  it('is merged at once', async () => {
    const first = await o.run('pull_request', o.merged(41, 'dev'))
    const comment = {
      action: 'created',
      issue: { number: 41, title: 'Change 41', body: '', user: { login: 'dev' }, pull_request: { url: 'x' } },
      comment: { id: 992, body: '/docs also the FAQ', user: { login: 'mona', type: 'User' } }
    }
    const followUp = await o.run('issue_comment', comment, { ...auto, prompt: '' })
    expect([followUp.outputs.command, followUp.outputs.merge]).toEqual(['follow-up', 'merged'])
    expect(o.github().isMerged(DOCS, o.docsPr(first))).toBe(true)
  })
})

describe('merge: auto with group', () => {
  const grouped = { ...auto, group: 'merged-prs', 'docs-repository': DOCS }

  it('merges the group’s docs pull request after each run, so the next run opens a new one', async () => {
    const first = await o.run('pull_request', o.merged(41, 'dev'), grouped)
    const second = await o.run('pull_request', o.merged(43, 'mona'), grouped)
    expect([first.outputs.merge, second.outputs.merge]).toEqual(['merged', 'merged'])
    expect(second.outputs.grouped).toBe('false')
    expect(o.docsPr(second)).not.toBe(o.docsPr(first))
    expect(o.step.requests('create')).toHaveLength(2)
  })

  it('a grouped follow-up whose own pull request’s text was withheld is merged at once', async () => {
    const first = await o.run('pull_request', o.merged(41, 'dev'), { ...grouped, merge: 'none' })
    const second = await o.run('pull_request_target', o.merged(43, 'outsider', 'rita'), grouped)
    expect([second.outputs.grouped, second.outputs.merge]).toEqual(['true', 'merged'])
    expect(o.github().isMerged(DOCS, o.docsPr(first))).toBe(true)
    // Merged by this run itself: no warning that it was merged under the follow-up.
    expect(second.at('warning')).toEqual([])
  })

  it('once a run gave the group’s job an outsider’s text, a later run of the group does not merge it at once', async () => {
    const first = await o.run('pull_request_target', o.merged(41, 'outsider', 'dev'), grouped)
    const second = await o.run('pull_request_target', o.merged(43, 'mona'), grouped)
    expect(second.outputs.grouped).toBe('true')
    expect([first.outputs.merge, second.outputs.merge]).toEqual(['', ''])
    expect(o.github().isMerged(DOCS, o.docsPr(first))).toBe(false)
    expect(second.at('warning')[0]).toContain('(an earlier run of group merged-prs gave its job such text)')
  })
})
