/**
 * Who is asked to review the docs pull request and who is assigned, as a user relies on it,
 * in-process against the Agent API simulator and the fake GitHub: `author` event by event, teams,
 * bots and the pull request's own author left out, GitHub's refusals, a grouped second run and a
 * re-run that ask nobody twice.
 */
import { describe, expect, it } from '@jest/globals'
import { MemoryRecords } from '../../scripts/in-process.js'
import { APP, DOCS, useOwnerScenario } from '../fixtures/owner.js'

const o = useOwnerScenario()
const reviewersOf = (number: number) => {
  const owner = o.github().ownerOf(DOCS, number)
  return [...owner.reviewers, ...owner.teams.map((slug) => `acme/${slug}`)]
}
const requested = (number: number) =>
  o
    .github()
    .ownerOf(DOCS, number)
    .events.flatMap((e) => (e.event === 'review_requested' ? [e.reviewer ?? `acme/${e.team ?? ''}`] : []))
const row = (name: string, value: string) => `<tr><th align="left">${name}</th><td>${value}</td></tr>`
const release = {
  action: 'published',
  release: {
    tag_name: 'v1.2.0',
    name: 'v1.2.0',
    body: 'Notes',
    author: { login: 'rel' },
    html_url: `https://github.com/${APP}/releases/tag/v1.2.0`
  }
}
const command = (body: string, by: string) => ({
  action: 'created',
  issue: { number: 41, title: 'Change 41', body: '', user: { login: 'dev' }, pull_request: { url: 'x' } },
  comment: { id: 990, body, user: { login: by, type: 'User' } }
})

describe('reviewers: author is whoever caused the run', () => {
  it.each<[string, string, unknown, Record<string, string>, Record<string, string>]>([
    ["a merged pull request's author", 'pull_request', o.merged(41, 'dev', 'mona'), {}, {}],
    ['the same on pull_request_target', 'pull_request_target', o.merged(41, 'dev', 'mona'), {}, {}],
    [
      "a /docs command's commenter, not the pull request's author",
      'issue_comment',
      command('/docs cover the flag', 'mona'),
      { prompt: '' },
      {}
    ],
    ["a release's author", 'release', release, {}, { GITHUB_REF: 'refs/tags/v1.2.0', GITHUB_ACTOR: 'ops' }],
    ['the actor of a tag push', 'push', {}, {}, { GITHUB_REF: 'refs/tags/v1.2.0', GITHUB_REF_TYPE: 'tag' }],
    ['the actor of workflow_dispatch', 'workflow_dispatch', {}, {}, {}],
    ['the actor of schedule', 'schedule', {}, {}, {}],
    [
      'the actor with release-tags, whatever the event',
      'pull_request',
      o.merged(41, 'dev'),
      { 'release-tags': 'v1.2.0' },
      {}
    ]
  ])('%s', async (_, event, payload, inputs, env) => {
    const expected =
      event === 'issue_comment'
        ? 'mona'
        : event === 'release'
          ? 'rel'
          : event.startsWith('pull') && !inputs['release-tags']
            ? 'dev'
            : 'ops'
    o.github().addRelease(APP, { tag_name: 'v1.2.0', body: 'Notes' })
    const result = await o.run(event, payload, { reviewers: 'author', ...inputs }, { env })
    expect(result.code).toBe(0)
    const number = o.docsPr(result)
    expect(reviewersOf(number)).toEqual([expected])
    expect(result.outputs.reviewers).toBe(expected)
    expect(result.summary).toContain(row('Reviewers', `@${expected}`))
    expect(result.at('info')).toContain(`Asked @${expected} to review ${DOCS}#${number}.`)
    expect(result.at('info').filter((line) => line.includes('already asked'))).toEqual([])
  })

  it('says who was asked in the link-back comment on the pull request', async () => {
    const result = await o.run('pull_request', o.merged(41, 'dev'), { reviewers: 'author, mona, DEV' })
    expect(result.outputs.reviewers).toBe('dev,mona')
    const post = o.github().requests.find((r) => r.route === 'requested-reviewers')
    expect(JSON.parse(post?.body ?? '{}')).toEqual({ reviewers: ['dev', 'mona'], team_reviewers: [] })
    const [comment] = o.github().commentsOf(APP, 41)
    expect(comment?.body).toContain('Review requested from @dev, @mona.')
  })

  it('asks nobody for a bot, nor the docs pull request’s own author, and says so', async () => {
    o.step.sim().onJobCreated = (job) =>
      o.github().addPull(job.repository, {
        number: job.prNumber,
        title: 'Docs',
        head: `docs/${job.id}`,
        base: 'main',
        files: [],
        user: { login: 'writer' }
      })
    o.github().setPermission(DOCS, 'writer', 'write')
    const result = await o.run('pull_request', o.merged(41, 'dependabot[bot]'), {
      reviewers: 'author, Writer, renovate[bot]',
      assignees: 'author, writer',
      'allowed-bots': 'dependabot'
    })
    expect(result.code).toBe(0)
    expect(o.writes().filter((w) => w.includes('requested-reviewers'))).toEqual([])
    expect(result.outputs.reviewers).toBe('')
    // Its own author can be assigned a pull request; only a review request is refused.
    expect(result.outputs.assignees).toBe('writer')
    expect(result.summary).toContain(row('Reviewers', 'none'))
    const number = o.docsPr(result)
    expect(result.at('info')).toEqual(
      expect.arrayContaining([
        "reviewers: author (the pull request's author) dependabot[bot] is a bot: left out.",
        `reviewers: Writer opened ${DOCS}#${number}: GitHub does not ask a pull request's author to review it.`,
        'reviewers: renovate[bot] is a bot: left out.',
        "assignees: author (the pull request's author) dependabot[bot] is a bot: left out."
      ])
    )
  })

  it('asks nothing of a job that ended without a docs pull request, nor in a dry run', async () => {
    // A failed job that left a pull request behind is not one to own.
    o.step.sim().setScenario({ finalStatus: 'failed', pr: true })
    const failed = await o.run('pull_request', o.merged(41, 'dev'), { reviewers: 'author', 'fail-on': 'none' })
    expect(failed.outputs['pr-link']).not.toBe('')
    const dry = await o.run('pull_request', o.merged(41, 'dev'), { reviewers: 'author', 'dry-run': 'true' })
    expect([failed.code, dry.code]).toEqual([0, 0])
    expect(o.writes().filter((w) => /requested-reviewers|pull acme\/docs|issue-events/.test(w))).toEqual([])
    expect([failed.outputs.reviewers, dry.outputs.reviewers]).toEqual(['', ''])
  })
})

describe('an author nobody knows', () => {
  it('the event does not say who: one line, and the others are still asked', async () => {
    const result = await o.run('workflow_dispatch', {}, { reviewers: 'author, mona' }, { env: { GITHUB_ACTOR: '' } })
    expect(result.at('info')).toContain(
      "reviewers: author is the workflow run's actor, and the event does not say who that is: nobody is added for it."
    )
    expect(result.outputs.reviewers).toBe('mona')
  })
})

describe('teams and refusals', () => {
  it('asks a team the token can see, as team_reviewers', async () => {
    o.github().addTeam('acme/docs-team')
    const result = await o.run('pull_request', o.merged(41, 'dev'), { reviewers: 'acme/docs-team, author' })
    expect(result.outputs.reviewers).toBe('acme/docs-team,dev')
    const post = o.github().requests.find((r) => r.route === 'requested-reviewers')
    expect(JSON.parse(post?.body ?? '{}')).toEqual({ reviewers: ['dev'], team_reviewers: ['docs-team'] })
    expect(result.summary).toContain(row('Reviewers', 'acme/docs-team, @dev'))
  })

  it('a team the token cannot see: GitHub’s 422 names nobody, so each is asked alone; one warning names the team', async () => {
    const result = await o.run('pull_request', o.merged(41, 'dev'), { reviewers: 'author, acme/hidden-team, mona' })
    expect(result.code).toBe(0)
    const number = o.docsPr(result)
    expect(reviewersOf(number)).toEqual(['dev', 'mona'])
    expect(result.outputs.reviewers).toBe('dev,mona')
    const warnings = result.at('warning')
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toBe(
      `Could not ask acme/hidden-team to review ${DOCS}#${number} (HTTP 422: Reviews may only be requested from collaborators. One or more of the users or teams you specified is not a collaborator of the ${DOCS} repository.). Reviewers must be collaborators of ${DOCS} (or members of its organization with access), and a team needs a token that can see the organization's teams: the workflow's GITHUB_TOKEN cannot (a GitHub App or fine-grained token can).`
    )
  })

  it('a team of another organization is one warning, before any request', async () => {
    const result = await o.run('pull_request', o.merged(41, 'dev'), { reviewers: 'other/writers' })
    expect(result.at('warning')).toEqual([
      `reviewers: other/writers is a team of another organization: GitHub asks only teams of acme, the owner of ${DOCS}, to review its pull requests.`
    ])
    expect(o.writes().filter((w) => w.includes('requested-reviewers'))).toEqual([])
  })

  it('someone who is not a collaborator: one warning naming who and why; the step’s result stands', async () => {
    const result = await o.run('pull_request', o.merged(41, 'dev'), { reviewers: 'stranger' })
    expect(result.code).toBe(0)
    // One person refused: nobody to ask alone.
    expect(o.github().requests.filter((r) => r.route === 'requested-reviewers')).toHaveLength(1)
    expect(result.outputs.status).toBe('completed')
    expect(result.outputs.reviewers).toBe('')
    expect(result.at('warning')).toHaveLength(1)
    expect(result.at('warning')[0]).toMatch(
      /^Could not ask @stranger to review acme\/docs#\d+ \(HTTP 422: Reviews may only/
    )
  })

  it('a 403: one warning naming the permission the token needs', async () => {
    o.github().fail('requested-reviewers', {
      kind: 'status',
      status: 403,
      message: 'Resource not accessible by integration'
    })
    const result = await o.run('pull_request', o.merged(41, 'dev'), { reviewers: 'author, mona' })
    expect(result.code).toBe(0)
    expect(o.github().requests.filter((r) => r.route === 'requested-reviewers')).toHaveLength(1)
    expect(result.at('info').filter((line) => line.startsWith('Asked '))).toEqual([])
    expect(result.at('warning')).toEqual([
      `Could not ask @dev, @mona to review ${DOCS}#${o.docsPr(result)} (HTTP 403: Resource not accessible by integration). The 'docs-token' input (github-token when not given) needs pull-requests: write on ${DOCS}; the workflow's GITHUB_TOKEN cannot write to another repository.`
    ])
  })

  it('without a token: one warning, and the job’s outputs as ever', async () => {
    // workflow_dispatch: only writers trigger it, so no permission is read to let the run start.
    const result = await o.run('workflow_dispatch', {}, { reviewers: 'author', 'github-token': '' })
    expect(result.code).toBe(0)
    expect(result.outputs['pr-link']).not.toBe('')
    expect(result.at('warning')).toEqual([
      `Inputs 'docs-token' and 'github-token' are empty: nobody is asked to review ${DOCS}#${o.docsPr(result)} or assigned, and it is not merged.`
    ])
  })
})

describe('a docs pull request that cannot be read, or is no longer open', () => {
  it('unreadable: one warning naming the permission; nothing else is asked', async () => {
    o.github().fail('pull', { kind: 'status', status: 404, message: 'Not Found' })
    const result = await o.run('pull_request', o.merged(41, 'dev'), { reviewers: 'author', merge: 'auto' })
    expect(result.code).toBe(0)
    expect(result.at('warning')).toEqual([
      `Could not read ${DOCS}#${o.docsPr(result)} (HTTP 404: Not Found), so nobody is asked to review it or assigned, and it is not merged. The 'docs-token' input (github-token when not given) needs pull-requests: read on ${DOCS}.`
    ])
    expect(o.writes().filter((w) => !w.startsWith('GET pull '))).toEqual([])
    expect([result.outputs.reviewers, result.outputs.merge]).toEqual(['', ''])
  })

  it('its events unreadable: nobody is asked, since they might be asked twice', async () => {
    o.github().fail('issue-events', { kind: 'status', status: 403, message: 'Resource not accessible by integration' })
    const result = await o.run('pull_request', o.merged(41, 'dev'), { reviewers: 'author', assignees: 'author' })
    expect(result.at('warning')).toEqual([
      `Could not read the events of ${DOCS}#${o.docsPr(result)} (HTTP 403: Resource not accessible by integration), so nobody is asked to review it or assigned: they might be asked twice. The 'docs-token' input (github-token when not given) needs pull-requests: read on ${DOCS}.`
    ])
    expect(o.writes().filter((w) => /requested-reviewers|assignees/.test(w))).toEqual([])
    expect([result.outputs.reviewers, result.outputs.assignees]).toEqual(['', ''])
  })

  it.each([
    ['merged', 'merged'],
    ['closed', '']
  ] as const)(
    '%s by the time the job ended: nothing is asked, and the merge output says what GitHub shows',
    async (state, merge) => {
      const github = o.github()
      o.step.sim().onJobCreated = (job) => {
        github.addPull(job.repository, { number: job.prNumber, title: 'Docs', head: 'docs/x', base: 'main', files: [] })
        github.setPullState(job.repository, job.prNumber, state)
      }
      const result = await o.run('pull_request', o.merged(41, 'dev'), { reviewers: 'author', merge: 'auto' })
      expect(result.at('info')).toContain(
        `${DOCS}#${o.docsPr(result)} is ${state}: nobody is asked to review it or assigned, and merge: auto has nothing to do.`
      )
      expect(o.writes().filter((w) => !w.startsWith('GET pull '))).toEqual([])
      expect([result.outputs.reviewers, result.outputs.merge]).toEqual(['', merge])
      // Without merge: auto, the merge output stays empty whatever the pull request's state.
      const reviewersOnly = await o.run('pull_request', o.merged(41, 'dev'), { reviewers: 'author' })
      expect(reviewersOnly.outputs.merge).toBe('')
    }
  )

  it('a docs pull request outside the job’s repository is left alone, with one warning', async () => {
    o.step.sim().setScenario({ prLink: 'https://github.com/elsewhere/docs/pull/9' })
    const result = await o.run('pull_request', o.merged(41, 'dev'), { reviewers: 'author' })
    expect(result.at('warning')).toEqual([
      "Not acting on the docs pull request https://github.com/elsewhere/docs/pull/9: it is not in the job's repository (https://github.com/acme/docs)."
    ])
    expect(o.writes()).toEqual([])
  })
})

describe('a review request whose answer is lost', () => {
  it('is not sent again: one warning says it may have reached GitHub', async () => {
    o.github().fail('requested-reviewers', { kind: 'reset' })
    const result = await o.run('pull_request', o.merged(41, 'dev'), { reviewers: 'author, mona' })
    expect(result.code).toBe(0)
    expect(o.github().requests.filter((r) => r.route === 'requested-reviewers')).toHaveLength(1)
    expect(result.at('warning')).toHaveLength(1)
    expect(result.at('warning')[0]).toMatch(
      /^Could not ask @dev, @mona to review acme\/docs#\d+ \(the connection failed: .*\)\. The request may have reached GitHub: it is not sent again\.$/
    )
  })
})

describe('assignees', () => {
  it('assigns author and the others; whom GitHub drops is one warning, and the output is who it shows', async () => {
    const result = await o.run('pull_request', o.merged(41, 'dev'), { assignees: 'author, stranger, mona' })
    const number = o.docsPr(result)
    expect(o.github().ownerOf(DOCS, number).assignees).toEqual(['dev', 'mona'])
    expect(result.outputs.assignees).toBe('dev,mona')
    expect(result.summary).toContain(row('Assignees', '@dev, @mona'))
    expect(result.at('info')).toContain(`Assigned @dev, @mona to ${DOCS}#${number}.`)
    expect(result.at('warning')).toEqual([
      `GitHub did not assign @stranger to ${DOCS}#${number}: it leaves out, without an error, whom it cannot assign there (people without access to ${DOCS}), and everyone when the token lacks push access to it.`
    ])
  })
})

describe('assignees refused', () => {
  it.each([
    [
      403,
      'Resource not accessible by integration',
      " The 'docs-token' input (github-token when not given) needs issues: write or pull-requests: write on acme/docs."
    ],
    [422, 'Validation Failed', '']
  ])('a %i: one warning, and the output is who GitHub shows', async (status, message, hint) => {
    o.github().fail('assignees', { kind: 'status', status, message })
    const result = await o.run('pull_request', o.merged(41, 'dev'), { assignees: 'author' })
    expect(result.code).toBe(0)
    expect(result.at('warning')).toEqual([
      `Could not assign @dev to ${DOCS}#${o.docsPr(result)} (HTTP ${status}: ${message}).${hint}`
    ])
    expect(result.outputs.assignees).toBe('')
  })
})

describe('nobody is asked twice', () => {
  const grouped = { group: 'merged-prs', 'docs-repository': DOCS, reviewers: 'author, ops', assignees: 'author' }

  it('a grouped second run adds its own author to the group’s docs pull request, and asks nobody again', async () => {
    const first = await o.run('pull_request', o.merged(41, 'dev'), grouped)
    const second = await o.run('pull_request', o.merged(43, 'mona'), grouped)
    expect([first.code, second.code, second.outputs.grouped]).toEqual([0, 0, 'true'])
    const number = o.docsPr(first)
    expect(o.docsPr(second)).toBe(number)
    expect(requested(number)).toEqual(['dev', 'ops', 'mona'])
    expect(o.github().ownerOf(DOCS, number).assignees).toEqual(['dev', 'mona'])
    expect(first.outputs.reviewers).toBe('dev,ops')
    expect(second.outputs.reviewers).toBe('mona,ops')
    expect(second.outputs.assignees).toBe('mona')
    expect(second.at('info')).toContain(`@ops already asked to review ${DOCS}#${number}: not asked again.`)
    const body = (w: string) =>
      o
        .github()
        .requests.filter((r) => r.route === w)
        .map((r) => JSON.parse(r.body) as unknown)
    expect(body('requested-reviewers')).toEqual([
      { reviewers: ['dev', 'ops'], team_reviewers: [] },
      { reviewers: ['mona'], team_reviewers: [] }
    ])
  })

  it('a re-run resumes the job and asks nobody again, even someone who answered meanwhile', async () => {
    const records = new MemoryRecords()
    const first = await o.run('pull_request', o.merged(41, 'dev'), { reviewers: 'author' }, { records, runId: '777' })
    const number = o.docsPr(first)
    // dev reviewed: GitHub no longer lists them as requested, but the events still say they were asked.
    o.github().ownerOf(DOCS, number).reviewers.length = 0
    const again = await o.run(
      'pull_request',
      o.merged(41, 'dev'),
      { reviewers: 'author' },
      { records, runId: '777', attempt: '2' }
    )
    expect(again.at('info')).toContain('Resuming job ' + (first.outputs['job-id'] ?? '') + ' from attempt 1')
    expect(requested(number)).toEqual(['dev'])
    expect(again.outputs.reviewers).toBe('dev')
  })
})
