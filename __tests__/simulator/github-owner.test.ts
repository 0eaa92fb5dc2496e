// The fake GitHub's owner side of a pull request (simulator/github-owner.ts), driven through the
// Octokit client the action uses: review requests, assignees, their events, the merge state and
// auto-merge over GraphQL, the merge, and GitHub's refusals as GitHub words them.
import { beforeAll, describe, expect, it } from '@jest/globals'
import type { GitHubApiFake } from '../../simulator/github/index.js'
import { octokitOn, realClock, useFakeGitHub, type Octokit } from '../fixtures/github.js'

const DOCS = 'acme/docs'
const owner = 'acme'
const repo = 'docs'
const pull_number = 5

let fake: GitHubApiFake
let octokit: Octokit

useFakeGitHub(
  realClock,
  {
    token: null,
    fresh: 'reset',
    each: (gh) => {
      gh.addPull(DOCS, {
        number: pull_number,
        title: 'Docs',
        head: { ref: 'docs/x', sha: 'a'.repeat(40) },
        base: 'main',
        files: [],
        user: { login: 'mintlify[bot]' }
      })
      gh.setPermission(DOCS, 'dev', 'write')
      gh.setPermission(DOCS, 'mona', 'read')
      gh.setPermission(DOCS, 'gone', 'none')
    }
  },
  (started) => (fake = started)
)
beforeAll(async () => {
  octokit = await octokitOn(fake.url)
})

const status = async (request: Promise<unknown>): Promise<[number, string]> => {
  try {
    await request
    return [0, '']
  } catch (error) {
    const { status: code, response } = error as { status: number; response?: { data?: { message?: string } } }
    return [code, response?.data?.message ?? '']
  }
}
const mergeState = () =>
  octokit.graphql<{
    repository: {
      pullRequest: {
        id: string
        state: string
        mergeStateStatus: string
        reviewDecision: string | null
        autoMergeRequest: unknown
      }
    }
  }>('query($owner: String!, $repo: String!, $number: Int!) { repository { pullRequest { id mergeStateStatus } } }', {
    owner,
    repo,
    number: pull_number
  })
const enable = (id: string, mergeMethod = 'SQUASH') =>
  octokit.graphql(
    'mutation($pullRequestId: ID!, $mergeMethod: PullRequestMergeMethod!) { enablePullRequestAutoMerge }',
    {
      pullRequestId: id,
      mergeMethod
    }
  )

describe('review requests', () => {
  it('asks collaborators and visible teams, answers the pull request, and records one event each', async () => {
    fake.addTeam('acme/docs-team')
    const { status: code, data } = await octokit.rest.pulls.requestReviewers({
      owner,
      repo,
      pull_number,
      reviewers: ['dev', 'mona'],
      team_reviewers: ['docs-team']
    })
    expect(code).toBe(201)
    expect(data.requested_reviewers?.map((u) => u.login)).toEqual(['dev', 'mona'])
    expect(data.requested_teams?.map((t) => t.slug)).toEqual(['docs-team'])
    const events = await octokit.rest.issues.listEvents({ owner, repo, issue_number: pull_number })
    expect(
      events.data.map((e) => [e.event, 'requested_reviewer' in e ? e.requested_reviewer?.login : undefined])
    ).toEqual([
      ['review_requested', 'dev'],
      ['review_requested', 'mona'],
      ['review_requested', undefined]
    ])
    const { data: pull } = await octokit.rest.pulls.get({ owner, repo, pull_number })
    expect(pull.requested_reviewers?.map((u) => u.login)).toEqual(['dev', 'mona'])
  })

  it('refuses all of it, naming nobody, for a stranger, a role of none or an unseen team; and the author', async () => {
    const collaborators =
      'Reviews may only be requested from collaborators. One or more of the users or teams you specified is not a collaborator of the acme/docs repository.'
    const ask = (reviewers: string[], team_reviewers: string[] = []) =>
      status(octokit.rest.pulls.requestReviewers({ owner, repo, pull_number, reviewers, team_reviewers }))
    expect(await ask(['dev', 'stranger'])).toEqual([422, collaborators])
    expect(await ask(['gone'])).toEqual([422, collaborators])
    expect(await ask(['dev'], ['hidden'])).toEqual([422, collaborators])
    expect(await ask(['Mintlify[bot]'])).toEqual([422, 'Review cannot be requested from pull request author.'])
    expect(fake.ownerOf(DOCS, pull_number)).toMatchObject({ reviewers: [], teams: [], events: [] })
  })
})

describe('assignees', () => {
  it('assigns collaborators once, drops anyone else without an error, and answers who is assigned', async () => {
    const { status: code, data } = await octokit.rest.issues.addAssignees({
      owner,
      repo,
      issue_number: pull_number,
      assignees: ['dev', 'stranger', 'DEV']
    })
    expect(code).toBe(201)
    expect(data.assignees?.map((u) => u.login)).toEqual(['dev'])
    expect(fake.ownerOf(DOCS, pull_number).events).toEqual([{ event: 'assigned', assignee: 'dev' }])
  })
})

describe('merge state and auto-merge (GraphQL)', () => {
  it('CLEAN without rules: auto-merge is refused as GitHub refuses it', async () => {
    const { repository } = await mergeState()
    expect(repository.pullRequest).toMatchObject({
      state: 'OPEN',
      mergeStateStatus: 'CLEAN',
      reviewDecision: null,
      autoMergeRequest: null
    })
    await expect(enable(repository.pullRequest.id)).rejects.toMatchObject({
      errors: [
        expect.objectContaining({ type: 'UNPROCESSABLE', message: 'Pull request Pull request is in clean status' })
      ]
    })
  })

  it('BLOCKED by required checks: auto-merge turns on with the method', async () => {
    fake.setMergeRules(DOCS, { requiredChecks: true })
    const { repository } = await mergeState()
    expect(repository.pullRequest.mergeStateStatus).toBe('BLOCKED')
    await enable(repository.pullRequest.id, 'MERGE')
    expect(fake.ownerOf(DOCS, pull_number).autoMerge).toEqual({ method: 'MERGE' })
    expect((await mergeState()).repository.pullRequest.autoMergeRequest).toMatchObject({ mergeMethod: 'MERGE' })
  })

  it('a required review: REVIEW_REQUIRED; UNKNOWN for the first reads asked for; the refusals', async () => {
    fake.setMergeRules(DOCS, { requiredReviews: true, unknownReads: 1 })
    expect((await mergeState()).repository.pullRequest.mergeStateStatus).toBe('UNKNOWN')
    const { repository } = await mergeState()
    expect(repository.pullRequest).toMatchObject({ mergeStateStatus: 'BLOCKED', reviewDecision: 'REVIEW_REQUIRED' })
    fake.setMergeRules(DOCS, { requiredChecks: true, allowAutoMerge: false })
    await expect(enable(repository.pullRequest.id)).rejects.toMatchObject({
      errors: [expect.objectContaining({ message: 'Pull request Auto merge is not allowed for this repository' })]
    })
    fake.setMergeRules(DOCS, { requiredChecks: true, tokenCannotMerge: true })
    await expect(enable(repository.pullRequest.id)).rejects.toMatchObject({
      errors: [expect.objectContaining({ type: 'FORBIDDEN', message: 'Resource not accessible by integration' })]
    })
    await expect(enable('PR_nope')).rejects.toMatchObject({ errors: [expect.objectContaining({ type: 'NOT_FOUND' })] })
  })
})

describe('the merge (REST)', () => {
  const merge = (sha = 'a'.repeat(40)) =>
    status(octokit.rest.pulls.merge({ owner, repo, pull_number, merge_method: 'squash', sha }))

  it('merges the head it is given, once', async () => {
    expect(await merge('b'.repeat(40))).toEqual([409, 'Head branch was modified. Review and try the merge again.'])
    expect(await merge()).toEqual([0, ''])
    expect(fake.isMerged(DOCS, pull_number)).toBe(true)
    expect(await merge()).toEqual([405, 'Pull Request is not mergeable'])
  })

  it('refuses while blocked, on a rule, and for a token that cannot', async () => {
    fake.setMergeRules(DOCS, { requiredReviews: true })
    expect(await merge()).toEqual([405, 'At least 1 approving review is required by reviewers with write access.'])
    fake.setMergeRules(DOCS, { requiredChecks: true })
    expect(await merge()).toEqual([405, 'Required status check "docs-build" is expected.'])
    fake.setMergeRules(DOCS, { refuseMerge: 'Repository rule violations found' })
    expect(await merge()).toEqual([405, 'Repository rule violations found'])
    fake.setMergeRules(DOCS, { tokenCannotMerge: true })
    expect(await merge()).toEqual([403, 'Resource not accessible by integration'])
    expect(fake.isMerged(DOCS, pull_number)).toBe(false)
  })
})
