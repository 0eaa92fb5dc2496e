// The owner side of the docs pull request through the action's GitHub client, against the fake
// GitHub over loopback: what each read gives, what each write sends.
import { describe, expect, it } from '@jest/globals'
import type { GitHubApiFake } from '../../simulator/github/index.js'
import { GitHubClient } from '../../src/github/client.js'
import { MAX_EVENT_PAGES, type OwnerApi } from '../../src/github/owner/api.js'
import { realClock, useFakeGitHub } from '../fixtures/github.js'

const DOCS = 'acme/docs'
const pr = { owner: 'acme', repo: 'docs', number: 5 }
const HEAD = 'c'.repeat(40)

let fake: GitHubApiFake
let api: OwnerApi

describe('the owner API', () => {
  useFakeGitHub(
    realClock,
    {
      token: 'tok',
      fresh: 'reset',
      each: (gh) => {
        gh.addPull(DOCS, {
          number: 5,
          title: 'Docs',
          head: { ref: 'docs/x', sha: HEAD },
          base: 'main',
          files: [],
          user: { login: 'mintlify[bot]' }
        })
        api = new GitHubClient('tok', gh.url, { pace: { msPerSecond: 1 } }).owner(pr, () => AbortSignal.timeout(5000))
      }
    },
    (started) => (fake = started)
  )

  const body = (route: string) => JSON.parse(fake.requests.find((r) => r.route === route)?.body ?? '{}') as unknown

  it('reads the pull request: its state, author, head, pending reviewers (teams as org/slug) and assignees', async () => {
    Object.assign(fake.ownerOf(DOCS, 5), { reviewers: ['dev'], teams: ['docs-team'], assignees: ['mona'] })
    expect(await api.pull()).toEqual({
      state: 'open',
      author: 'mintlify[bot]',
      head: HEAD,
      reviewers: ['dev', 'acme/docs-team'],
      assignees: ['mona']
    })
    fake.setPullState(DOCS, 5, 'closed')
    expect((await api.pull()).state).toBe('closed')
    fake.setPullState(DOCS, 5, 'merged')
    expect((await api.pull()).state).toBe('merged')
  })

  it('reads who was ever asked from the events, reviewers and assignees apart', async () => {
    fake
      .ownerOf(DOCS, 5)
      .events.push(
        { event: 'review_requested', reviewer: 'dev' },
        { event: 'assigned', assignee: 'mona' },
        { event: 'review_requested', team: 'docs-team' },
        { event: 'assigned', assignee: 'dev' }
      )
    expect(await api.asked()).toEqual({ reviewers: ['dev', 'acme/docs-team'], assignees: ['mona', 'dev'] })
  })

  it(`reads ${MAX_EVENT_PAGES} pages of events at most, and fails rather than answer part`, async () => {
    const events = fake.ownerOf(DOCS, 5).events
    for (let i = 0; i < MAX_EVENT_PAGES * 100; i++) events.push({ event: 'assigned', assignee: `u${i}` })
    expect((await api.asked()).assignees).toHaveLength(MAX_EVENT_PAGES * 100)
    events.push({ event: 'assigned', assignee: 'one-more' })
    await expect(api.asked()).rejects.toThrow(`pull request #5 has more than ${MAX_EVENT_PAGES * 100} events: not read`)
  })

  it('sends review requests, logins and team slugs apart, and assignees; answers whom GitHub shows as assigned', async () => {
    fake.setPermission(DOCS, 'dev', 'write')
    fake.addTeam('acme/docs-team')
    await api.requestReviewers(['dev'], ['docs-team'])
    expect(body('requested-reviewers')).toEqual({ reviewers: ['dev'], team_reviewers: ['docs-team'] })
    expect(await api.assign(['dev', 'stranger'])).toEqual(['dev'])
    expect(body('assignees')).toEqual({ assignees: ['dev', 'stranger'] })
  })

  it('reads the merge state over GraphQL with the merge-info preview, and whether auto-merge is on', async () => {
    fake.setMergeRules(DOCS, { requiredReviews: true })
    const facts = await api.mergeFacts()
    expect(facts).toEqual({
      id: expect.stringMatching(/^PR_/),
      mergeState: 'BLOCKED',
      reviewDecision: 'REVIEW_REQUIRED',
      autoMerge: false
    })
    expect(fake.requests.find((r) => r.route === 'graphql')?.accept).toContain(
      'application/vnd.github.merge-info-preview+json'
    )
    await expect(api.enableAutoMerge(facts.id, 'rebase', 'f'.repeat(40))).rejects.toThrow(/Head branch was modified/)
    await api.enableAutoMerge(facts.id, 'rebase', HEAD)
    expect(fake.ownerOf(DOCS, 5).autoMerge).toEqual({ method: 'REBASE' })
    expect((await api.mergeFacts()).autoMerge).toBe(true)
    const mutations = fake.requests.filter((r) => r.body.includes('enablePullRequestAutoMerge'))
    expect(mutations.map((r) => (JSON.parse(r.body) as { variables: unknown }).variables)).toEqual([
      expect.objectContaining({ expectedHeadOid: 'f'.repeat(40) }),
      expect.objectContaining({ expectedHeadOid: HEAD })
    ])
    await api.disableAutoMerge(facts.id)
    expect(fake.ownerOf(DOCS, 5).autoMerge).toBeUndefined()
  })

  it('merges the head it is given, with the method', async () => {
    await api.merge('merge', HEAD)
    expect(body('merge')).toEqual({ merge_method: 'merge', sha: HEAD })
    expect(fake.isMerged(DOCS, 5)).toBe(true)
  })

  it('bounds each request by the signal it is given', async () => {
    const aborted = new GitHubClient('tok', fake.url, { pace: { msPerSecond: 1 } }).owner(pr, () => AbortSignal.abort())
    await expect(aborted.pull()).rejects.toThrow()
    expect(fake.requests).toEqual([])
  })

  it('refuses to start without a token', () => {
    expect(() => new GitHubClient('', fake.url).owner(pr, () => AbortSignal.timeout(1000))).toThrow(
      "the 'github-token' input is empty"
    )
  })
})
