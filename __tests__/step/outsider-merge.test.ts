/**
 * Text by someone without write access is a property of the job, in-process against the Agent API
 * simulator and the fake GitHub: decided when the prompt is built, kept in the group's record and
 * the link-back's marker on every exit path (a time-out included), inherited by every follow-up,
 * and `merge: auto` then never merges at once: auto-merge an earlier run turned on is turned off.
 * Also: `merge: auto` leaves to the reviewers a pull request whose review was asked for, and acts
 * only in `docs-repository`.
 */
import { describe, expect, it } from '@jest/globals'
import { decodeMarker, markerKey } from '../../src/github/conversation/marker.js'
import { groupCommentBody } from '../../src/github/group/comment.js'
import { openGroupRecord, sealGroupRecord, withSource } from '../../src/github/group/record.js'
import { GITHUB_TOKEN } from '../../scripts/in-process.js'
import { APP, DOCS, useOwnerScenario } from '../fixtures/owner.js'

const o = useOwnerScenario()
const KEY = 'mint_owner_key_0123456789abcdef'
const auto = { merge: 'auto' }
const grouped = { group: 'merged-prs', 'docs-repository': DOCS }
const GROUP_KEY = { group: 'merged-prs', repository: APP, projectId: 'proj-owner', docsRepository: DOCS }
const row = (value: string) => `<tr><th align="left">Merge</th><td>${value}</td></tr>`
const mutations = (name: string) => o.github().requests.filter((r) => r.route === 'graphql' && r.body.includes(name))

describe('a job with an outsider’s text on a docs pull request whose auto-merge is on', () => {
  it('a grouped follow-up with an outsider’s text turns auto-merge off, with one notice', async () => {
    o.github().setMergeRules(DOCS, { requiredChecks: true })
    const first = await o.run('pull_request', o.merged(41, 'dev'), { ...auto, ...grouped })
    const number = o.docsPr(first)
    expect(o.github().ownerOf(DOCS, number).autoMerge).toEqual({ method: 'SQUASH' })
    const second = await o.run('pull_request_target', o.merged(43, 'outsider', 'dev'), { ...auto, ...grouped })
    expect([second.outputs.grouped, o.docsPr(second)]).toEqual(['true', number])
    expect(o.github().ownerOf(DOCS, number).autoMerge).toBeUndefined()
    expect(mutations('disablePullRequestAutoMerge')).toHaveLength(1)
    expect(second.outputs.merge).toBe('')
    expect(second.at('notice').filter((line) => line.includes('merge'))).toEqual([
      `Auto-merge is now off for ${DOCS}#${number}: the agent was given text written by someone without write access (pull request #43's own text was included: dev, who has write permission, merged it), so a person merges it after reading it.`
    ])
    expect(second.at('warning')).toEqual([])
    expect(second.summary).toContain(
      row('left open: auto-merge turned off: the agent was given text written by someone without write access')
    )
  })

  it('when GitHub refuses to turn it off: one warning, and nothing says it merges by itself', async () => {
    const first = await o.run('pull_request', o.merged(41, 'dev'), grouped)
    const number = o.docsPr(first)
    o.github().ownerOf(DOCS, number).autoMerge = { method: 'SQUASH' }
    o.github().setMergeRules(DOCS, { requiredChecks: true, tokenCannotMerge: true })
    const second = await o.run('pull_request_target', o.merged(43, 'outsider', 'dev'), { ...auto, ...grouped })
    expect(o.github().ownerOf(DOCS, number).autoMerge).toEqual({ method: 'SQUASH' })
    expect(second.outputs.merge).toBe('')
    expect(second.at('warning')).toEqual([
      `Could not turn off auto-merge for ${DOCS}#${number} (GitHub: Resource not accessible by integration): the agent was given text written by someone without write access (pull request #43's own text was included: dev, who has write permission, merged it), and it may merge unread once its checks pass. Turn auto-merge off on the pull request. The 'docs-token' input (github-token when not given) needs contents: write and pull-requests: write on ${DOCS}.`
    ])
    expect(second.summary).not.toContain('auto-merge on')
    expect(second.at('info').filter((line) => /auto-merge is (already )?on/i.test(line))).toEqual([])
  })
})

describe('kept with the job on every exit path', () => {
  it('a grouped run with an outsider’s text that timed out: the next trusted run of the group does not merge at once', async () => {
    const first = await o.run('pull_request', o.merged(41, 'dev'), grouped)
    const number = o.docsPr(first)
    o.step.sim().setScenario({ runMs: 60_000 })
    const timedOut = await o.run('pull_request_target', o.merged(43, 'outsider', 'dev'), {
      ...auto,
      ...grouped,
      timeout: '5s'
    })
    expect([timedOut.code, timedOut.outputs['timed-out'], timedOut.outputs.grouped]).toEqual([1, 'true', 'true'])
    // The link-back's marker on the outsider's pull request says it too.
    const [comment] = o.github().commentsOf(APP, 43)
    const seal = { key: markerKey(KEY), repository: APP, number: 43 }
    expect(decodeMarker(comment?.body ?? '', seal)).toMatchObject({ job: first.outputs['job-id'], outsider: true })

    o.step.sim().setScenario({ runMs: 3000 })
    const trusted = await o.run('pull_request', o.merged(45, 'mona'), { ...auto, ...grouped })
    expect([trusted.outputs.grouped, o.docsPr(trusted)]).toEqual(['true', number])
    expect(trusted.outputs.merge).toBe('')
    expect(o.github().isMerged(DOCS, number)).toBe(false)
    expect(trusted.at('warning')[0]).toContain('(an earlier run of group merged-prs gave its job such text)')
  })
  it("a run's update of the record during another's follow-up is kept: its source, and its outsider mark", async () => {
    const first = await o.run('pull_request', o.merged(41, 'dev'), grouped)
    const number = o.docsPr(first)
    // Two runs of the group at once (no `concurrency:`): while mona's follow-up is being done, the
    // outsider's run, which read the record too, writes it with its source and the mark.
    const sim = o.step.sim()
    let written: Promise<Response> | undefined
    sim.onJobMessaged = () => {
      const [comment] = o.github().commentsOf(DOCS, number)
      const opened = openGroupRecord(KEY, GROUP_KEY, number, comment?.body ?? '')
      if (opened.kind !== 'found') throw new Error('no record')
      const source = { kind: 'pull-request' as const, label: `${APP}#43`, via: 'follow-up' as const }
      const record = { ...withSource(opened.record, source), untrusted: true as const }
      written = fetch(`${o.github().url}/repos/${DOCS}/issues/comments/${comment?.id ?? 0}`, {
        method: 'PATCH',
        headers: { authorization: `token ${GITHUB_TOKEN}` },
        body: JSON.stringify({ body: groupCommentBody(KEY, GROUP_KEY, record) })
      })
    }
    const mona = await o.run('pull_request', o.merged(45, 'mona'), grouped)
    sim.onJobMessaged = undefined
    expect((await written)?.status).toBe(200)
    expect([mona.outputs.grouped, o.docsPr(mona)]).toEqual(['true', number])
    const trusted = await o.run('pull_request', o.merged(47, 'mona'), { ...auto, ...grouped })
    expect([trusted.outputs.grouped, trusted.outputs.merge]).toEqual(['true', ''])
    expect(o.github().isMerged(DOCS, number)).toBe(false)
    const body = o.github().commentsOf(DOCS, number)[0]?.body ?? ''
    expect(body).toContain('Sources (4), oldest first:')
    for (const n of [41, 43, 45, 47]) expect(body).toContain(`pull request ${n === 43 ? '`' : '['}${APP}#${n}`)
  })
})

describe('a job-id follow-up inherits it, whatever the event', () => {
  it('on workflow_dispatch, a follow-up to a job made earlier is not merged at once', async () => {
    const first = await o.run('pull_request_target', o.merged(41, 'outsider', 'dev'))
    const job = first.outputs['job-id'] ?? ''
    const followUp = await o.run('workflow_dispatch', {}, { ...auto, 'job-id': job, prompt: 'Also the FAQ.' })
    expect([followUp.code, followUp.outputs['job-id'], followUp.outputs.merge]).toEqual([0, job, ''])
    expect(o.github().isMerged(DOCS, o.docsPr(first))).toBe(false)
    expect(followUp.at('warning')).toEqual([
      `${DOCS}#${o.docsPr(first)} is left open for a person to read: the agent was given text written by someone without write access (its job ${job} was made by an earlier run, and nothing here records whether that run gave it such text), and ${DOCS} requires no review before merging, so merge: auto would merge it unread.`
    ])
  })
})

describe("a /docs follow-up to a group's job learns it from the group's record", () => {
  // The command's pull request is a writer's, and its link-back marker was written before the outsider's run.
  const docsCommand = (id: number) => ({
    action: 'created',
    issue: { number: 45, title: 'Change 45', body: '', user: { login: 'mona' }, pull_request: { url: 'x' } },
    comment: { id, body: '/docs also the FAQ', user: { login: 'dev', type: 'User' } }
  })

  it("on a writer's pull request of the group, after an outsider's run: not merged at once", async () => {
    const first = await o.run('pull_request', o.merged(45, 'mona'), grouped)
    const number = o.docsPr(first)
    await o.run('pull_request_target', o.merged(43, 'outsider', 'dev'), { ...auto, ...grouped })
    const followUp = await o.run('issue_comment', docsCommand(991), { ...auto, prompt: '' })
    expect([followUp.outputs.command, followUp.outputs['job-id'], followUp.outputs.merge]).toEqual([
      'follow-up',
      first.outputs['job-id'],
      ''
    ])
    expect(o.github().isMerged(DOCS, number)).toBe(false)
    expect(followUp.at('warning')).toEqual([
      `${DOCS}#${number} is left open for a person to read: the agent was given text written by someone without write access (group merged-prs's record on ${DOCS}#${number} says a run gave its job such text), and ${DOCS} requires no review before merging, so merge: auto would merge it unread.`
    ])
  })

  it('without an outsider in the group, the same follow-up merges; a record in anyone else’s comment counts for nothing', async () => {
    const first = await o.run('pull_request', o.merged(45, 'mona'), grouped)
    const number = o.docsPr(first)
    // A sealed record saying so, in a reader's comment (a copy): only the action's own comment counts.
    const record = { pr: number, job: first.outputs['job-id'] ?? '', sources: [], earlier: 0, untrusted: true as const }
    o.github().addComment(DOCS, number, { body: sealGroupRecord(KEY, GROUP_KEY, record), user: { login: 'outsider' } })
    const followUp = await o.run('issue_comment', docsCommand(992), { ...auto, prompt: '' })
    expect([followUp.outputs.command, followUp.outputs.merge]).toEqual(['follow-up', 'merged'])
    expect(o.github().isMerged(DOCS, number)).toBe(true)
  })

  it("when the docs pull request's comments cannot be read: not merged at once", async () => {
    const first = await o.run('pull_request', o.merged(45, 'mona'), grouped)
    const number = o.docsPr(first)
    // The command's own reads of its pull request's comments go through (the command's, then the
    // record's save, which reads the comment again before writing it); the docs pull request's does not.
    const through = { kind: 'delay', ms: 0 } as const
    o.github().fail('comments', through, through, { kind: 'status', status: 403 })
    const followUp = await o.run('issue_comment', docsCommand(993), { ...auto, prompt: '' })
    const docsReads = o.github().requests.filter((r) => r.route === 'comments' && r.repo === DOCS)
    expect(docsReads.at(-1)?.answeredStatus).toBe(403)
    expect([followUp.outputs.command, followUp.outputs.merge]).toEqual(['follow-up', ''])
    expect(followUp.at('warning')[0]).toContain(`(the comments of ${DOCS}#${number} could not be read (HTTP 403`)
    expect(o.github().isMerged(DOCS, number)).toBe(false)
  })
})

describe('merge: auto with reviewers', () => {
  it('a clean docs pull request whose review this run asked for is left to the reviewer, with one notice', async () => {
    const result = await o.run('pull_request', o.merged(41, 'dev'), { ...auto, reviewers: 'mona' })
    const number = o.docsPr(result)
    expect(o.github().ownerOf(DOCS, number).reviewers).toEqual(['mona'])
    expect(o.github().isMerged(DOCS, number)).toBe(false)
    expect(o.github().requests.filter((r) => r.route === 'merge')).toEqual([])
    expect([result.outputs.reviewers, result.outputs.merge]).toEqual(['mona', ''])
    expect(result.at('notice').filter((line) => line.includes('merge'))).toEqual([
      `${DOCS}#${number} is left to @mona to review: merge: auto does not merge at once a pull request whose review was asked for.`
    ])
    expect(result.summary).toContain(row('left open: left to the review asked of @mona'))
  })

  it('where it waits for checks, auto-merge is still turned on', async () => {
    o.github().setMergeRules(DOCS, { requiredChecks: true })
    const result = await o.run('pull_request', o.merged(41, 'dev'), { ...auto, reviewers: 'mona' })
    expect(result.outputs.merge).toBe('auto-merge')
    expect(o.github().ownerOf(DOCS, o.docsPr(result)).autoMerge).toEqual({ method: 'SQUASH' })
  })
})

describe('merge: auto with docs-repository', () => {
  it('acts only on a pull request in that repository: one warning, left open', async () => {
    const result = await o.run('pull_request', o.merged(41, 'dev'), { ...auto, 'docs-repository': 'acme/handbook' })
    const number = o.docsPr(result)
    expect(o.github().isMerged(DOCS, number)).toBe(false)
    expect(mutations('PullRequestAutoMerge')).toEqual([])
    expect(result.outputs.merge).toBe('')
    expect(result.at('warning')).toEqual([
      `merge: auto acts only on a pull request in docs-repository acme/handbook: ${DOCS}#${number} is left open.`
    ])
  })
})
