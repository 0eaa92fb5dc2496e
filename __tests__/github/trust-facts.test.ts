// Who triggered the run, read from the runner's variables and the event payload; and the decisions
// on plain facts, with permissions answered from a table (the scenarios in trust.test.ts run them
// against the fake GitHub).
import { describe, expect, it } from '@jest/globals'
import { Permissions, type RepoPermission } from '../../src/github/permissions.js'
import { decideAuthorText, decideStart, readTrustFacts, type TrustEnv } from '../../src/github/trust.js'

const facts = (env: TrustEnv, payload?: unknown) =>
  readTrustFacts({ GITHUB_EVENT_PATH: 'e.json', GITHUB_REPOSITORY: 'acme/app', ...env }, (path) => {
    if (path !== 'e.json' || payload === undefined) throw new Error('ENOENT')
    return JSON.stringify(payload)
  })

const pr = (extra: Record<string, unknown> = {}) => ({
  pull_request: {
    number: 5,
    user: { login: 'ann' },
    head: { repo: { full_name: 'ann/app' } },
    base: { repo: { full_name: 'acme/app' } },
    ...extra
  }
})

function table(roles: Record<string, RepoPermission>): { permissions: Permissions; asked: string[] } {
  const asked: string[] = []
  const permissions = new Permissions((login) => {
    asked.push(login)
    const role = roles[login]
    return role ? Promise.resolve(role) : Promise.reject(new Error(`no answer for ${login}`))
  })
  return { permissions, asked }
}

const POLICY = { allowedNonWriteUsers: [], allowedBots: [] }

describe('readTrustFacts', () => {
  it.each([
    'pull_request_target',
    'issue_comment',
    'issues',
    'pull_request_review',
    'pull_request_review_comment',
    'discussion',
    'discussion_comment',
    'workflow_run'
  ])('%s is an event an outsider can trigger', (event) => {
    expect(facts({ GITHUB_EVENT_NAME: event }).outsider).toBe(true)
  })

  it.each(['push', 'release', 'schedule', 'workflow_dispatch', 'create', ''])('%s is not', (event) => {
    expect(facts({ GITHUB_EVENT_NAME: event }).outsider).toBe(false)
  })

  it('a pull_request is an outsider’s wherever its head is: a reader can open one between two branches of the repository', () => {
    const event = { GITHUB_EVENT_NAME: 'pull_request' }
    expect(facts(event, pr()).outsider).toBe(true)
    expect(facts(event, pr({ head: { repo: { full_name: 'ACME/App' } } })).outsider).toBe(true)
    expect(facts(event).outsider).toBe(true)
  })

  it('reads an issue_comment’s pull request from its issue, and an issue’s comment has none', () => {
    const issue = { number: 7, user: { login: 'mona' }, pull_request: { url: 'x' } }
    expect(facts({ GITHUB_EVENT_NAME: 'issue_comment' }, { issue }).pullRequest).toMatchObject({
      number: 7,
      author: 'mona'
    })
    const plain = { number: 8, user: { login: 'mona' } }
    expect(facts({ GITHUB_EVENT_NAME: 'issue_comment' }, { issue: plain }).pullRequest).toBeUndefined()
    expect(facts({ GITHUB_EVENT_NAME: 'issues' }, { issue }).pullRequest).toBeUndefined()
  })

  it('takes the actor, and the triggering actor when it is someone else', () => {
    expect(facts({ GITHUB_ACTOR: 'mona', GITHUB_TRIGGERING_ACTOR: 'MONA' }).actors).toEqual(['mona'])
    expect(facts({ GITHUB_ACTOR: 'mona', GITHUB_TRIGGERING_ACTOR: 'ann' }).actors).toEqual(['mona', 'ann'])
    expect(facts({ GITHUB_ACTOR: ' mona ', GITHUB_TRIGGERING_ACTOR: '' }).actors).toEqual(['mona'])
    expect(facts({ GITHUB_TRIGGERING_ACTOR: 'ann' }).actors).toEqual(['ann'])
    expect(facts({}).actors).toEqual([])
  })

  it('reads the pull request’s author, merger and counts', () => {
    expect(
      facts({}, pr({ merged: true, merged_by: { login: 'mona' }, commits: 2, additions: 3, deletions: 0 }))
    ).toMatchObject({
      event: '',
      repository: 'acme/app',
      pullRequest: { number: 5, author: 'ann', mergedBy: 'mona', commits: 2, additions: 3, deletions: 0 }
    })
    expect(facts({}, pr({ merged: false, merged_by: { login: 'mona' } })).pullRequest).toEqual({
      number: 5,
      author: 'ann',
      mergedBy: undefined,
      commits: undefined,
      additions: undefined,
      deletions: undefined
    })
    expect(facts({}, pr({ merged: true, merged_by: null, user: null })).pullRequest).toMatchObject({
      author: '',
      mergedBy: undefined
    })
    expect(facts({}, pr({ number: '5' })).pullRequest).toBeUndefined()
    expect(facts({}, { pull_request: [] }).pullRequest).toBeUndefined()
    expect(facts({}).pullRequest).toBeUndefined()
  })
})

describe('decideStart', () => {
  const outsider = { event: 'issues', repository: 'acme/app', outsider: true, pullRequest: undefined }

  it('asks nothing on an event only writers can trigger', async () => {
    const { permissions, asked } = table({})
    expect(await decideStart({ ...outsider, outsider: false, actors: ['ann'] }, POLICY, permissions)).toEqual({
      allowed: true
    })
    expect(asked).toEqual([])
  })

  it('lets write, maintain and admin start a job, and no one else', async () => {
    const { permissions } = table({ a: 'admin', m: 'maintain', w: 'write', t: 'triage', r: 'read', n: 'none' })
    const allowed = []
    for (const actor of ['a', 'm', 'w', 't', 'r', 'n'])
      if ((await decideStart({ ...outsider, actors: [actor] }, POLICY, permissions)).allowed) allowed.push(actor)
    expect(allowed).toEqual(['a', 'm', 'w'])
  })

  it('stops at the first actor refused', async () => {
    const { permissions, asked } = table({ r: 'read', w: 'write' })
    expect(await decideStart({ ...outsider, actors: ['r', 'w'] }, POLICY, permissions)).toMatchObject({
      allowed: false,
      warning: undefined
    })
    expect(asked).toEqual(['r'])
  })

  it('lets listed logins in without asking, in any case, and * lets anyone', async () => {
    const { permissions, asked } = table({})
    const policy = { allowedNonWriteUsers: ['Ann'], allowedBots: [] }
    expect((await decideStart({ ...outsider, actors: ['ann'] }, policy, permissions)).allowed).toBe(true)
    const any = { allowedNonWriteUsers: ['*'], allowedBots: [] }
    expect((await decideStart({ ...outsider, actors: ['zed'] }, any, permissions)).allowed).toBe(true)
    expect(asked).toEqual([])
  })

  it('never lets a bot in through allowed-non-write-users, nor asks its permission', async () => {
    const { permissions, asked } = table({ 'x[bot]': 'admin' })
    const policy = { allowedNonWriteUsers: ['*'], allowedBots: ['y'] }
    expect((await decideStart({ ...outsider, actors: ['x[bot]'] }, policy, permissions)).allowed).toBe(false)
    expect(asked).toEqual([])
  })
})

describe('decideAuthorText', () => {
  const pull = { number: 5, author: 'ann', mergedBy: undefined, commits: 1, additions: 1, deletions: 1 }

  it('includes with untrusted-context: include, asking nothing', async () => {
    const { permissions, asked } = table({})
    expect(await decideAuthorText(undefined, 'include', POLICY, permissions)).toEqual({
      include: true,
      why: 'untrusted-context: include'
    })
    expect(asked).toEqual([])
  })

  it('includes a writer’s text; withholds a reader’s', async () => {
    const { permissions } = table({ ann: 'write', bob: 'read' })
    expect(await decideAuthorText(pull, 'withhold', POLICY, permissions)).toEqual({
      include: true,
      why: 'its author ann has write permission'
    })
    expect(await decideAuthorText({ ...pull, author: 'bob' }, 'withhold', POLICY, permissions)).toEqual({
      include: false,
      why: 'its author bob has read permission'
    })
  })

  it('includes what a writer merged; not what a triager merged', async () => {
    const { permissions } = table({ ann: 'read', mona: 'admin', tom: 'triage' })
    expect(await decideAuthorText({ ...pull, mergedBy: 'mona' }, 'withhold', POLICY, permissions)).toEqual({
      include: true,
      why: 'mona, who has admin permission, merged it'
    })
    expect(await decideAuthorText({ ...pull, mergedBy: 'tom' }, 'withhold', POLICY, permissions)).toEqual({
      include: false,
      why: 'its author ann has read permission and tom, who merged it, has triage permission'
    })
  })

  it('withholds when a permission cannot be read', async () => {
    const { permissions } = table({})
    expect(await decideAuthorText({ ...pull, mergedBy: 'mona' }, 'withhold', POLICY, permissions)).toEqual({
      include: false,
      why: 'its author ann has a permission that could not be read (no answer for ann) and mona, who merged it, has a permission that could not be read (no answer for mona)'
    })
  })

  it('a bot author: included only when listed, without asking', async () => {
    const { permissions, asked } = table({})
    const bot = { ...pull, author: 'renovate[bot]' }
    expect(await decideAuthorText(bot, 'withhold', { allowedBots: ['renovate'] }, permissions)).toEqual({
      include: true,
      why: 'its author renovate[bot] is listed in allowed-bots'
    })
    expect(await decideAuthorText(bot, 'withhold', { allowedBots: [] }, permissions)).toEqual({
      include: false,
      why: 'its author renovate[bot] is a bot not listed in allowed-bots'
    })
    expect(asked).toEqual([])
  })
})
