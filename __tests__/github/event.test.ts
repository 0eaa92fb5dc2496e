import { describe, expect, it } from '@jest/globals'
import { readTrigger, type EventEnv } from '../../src/github/event.js'
import { nothingToDocument } from '../../src/github/nothing-to-document.js'

const read = (env: EventEnv, payload?: unknown) =>
  readTrigger(
    {
      GITHUB_REPOSITORY: 'acme/widgets',
      ...env,
      ...(payload === undefined ? {} : { GITHUB_EVENT_PATH: 'event.json' })
    },
    (path) => {
      if (path !== 'event.json') throw new Error(`ENOENT ${path}`)
      return typeof payload === 'string' ? payload : JSON.stringify(payload)
    }
  )

describe('readTrigger', () => {
  it('a pushed tag, from the ref type or from the ref', () => {
    expect(
      read({
        GITHUB_EVENT_NAME: 'push',
        GITHUB_REF_TYPE: 'tag',
        GITHUB_REF_NAME: 'v1.2.0',
        GITHUB_REF: 'refs/tags/v1.2.0'
      })
    ).toEqual({
      kind: 'tag',
      repo: 'acme/widgets',
      tag: 'v1.2.0',
      release: undefined
    })
    expect(read({ GITHUB_EVENT_NAME: 'push', GITHUB_REF: 'refs/tags/v1.3.0' })).toMatchObject({
      kind: 'tag',
      tag: 'v1.3.0'
    })
  })

  it('any event run on a tag (workflow_dispatch, schedule) is a tag', () => {
    expect(
      read({ GITHUB_EVENT_NAME: 'workflow_dispatch', GITHUB_REF_TYPE: 'tag', GITHUB_REF_NAME: 'v9' })
    ).toMatchObject({ kind: 'tag', tag: 'v9' })
  })

  it('a release, from its payload', () => {
    const payload = {
      release: {
        tag_name: 'v2.0.0',
        name: 'Two',
        body: 'Notes',
        html_url: 'https://github.com/acme/widgets/releases/tag/v2.0.0'
      }
    }
    expect(read({ GITHUB_EVENT_NAME: 'release', GITHUB_REF: 'refs/tags/v2.0.0' }, payload)).toEqual({
      kind: 'tag',
      repo: 'acme/widgets',
      tag: 'v2.0.0',
      release: { tag: 'v2.0.0', name: 'Two', body: 'Notes', url: 'https://github.com/acme/widgets/releases/tag/v2.0.0' }
    })
    expect(read({ GITHUB_EVENT_NAME: 'release' }, { release: { tag_name: 'v2', body: null } })).toMatchObject({
      release: { body: '', name: '', url: undefined }
    })
  })

  it('a release deleted or unpublished: nothing to document; its other activity types are releases to document', () => {
    const release = (action: string) =>
      read(
        { GITHUB_EVENT_NAME: 'release', GITHUB_REF: 'refs/tags/v2.0.0' },
        { action, release: { tag_name: 'v2.0.0' } }
      )
    expect(release('deleted')).toMatchObject({ kind: 'tag', release: { withdrawn: 'deleted' } })
    expect(nothingToDocument(release('deleted'))).toBe('Release v2.0.0 was deleted: nothing to document.')
    expect(nothingToDocument(release('unpublished'))).toBe('Release v2.0.0 was unpublished: nothing to document.')
    for (const action of ['published', 'created', 'released', 'prereleased', 'edited', '']) {
      expect(release(action)).not.toHaveProperty('release.withdrawn')
      expect(nothingToDocument(release(action))).toBeUndefined()
    }
  })

  it('a release payload without a tag falls back to the ref', () => {
    expect(read({ GITHUB_EVENT_NAME: 'release', GITHUB_REF: 'refs/tags/v3' }, { release: {} })).toEqual({
      kind: 'tag',
      repo: 'acme/widgets',
      tag: 'v3',
      release: undefined
    })
  })

  it.each(['pull_request', 'pull_request_target', 'pull_request_review', 'pull_request_review_comment'])(
    '%s: the pull request from the payload',
    (event) => {
      const payload = {
        pull_request: {
          number: 7,
          title: 'T',
          body: 'B',
          html_url: 'https://x/pull/7',
          base: { ref: 'main' },
          head: { ref: 'feature', sha: 'a1b2c3' },
          changed_files: 3
        }
      }
      expect(read({ GITHUB_EVENT_NAME: event, GITHUB_REF: 'refs/pull/7/merge' }, payload)).toEqual({
        kind: 'pull-request',
        repo: 'acme/widgets',
        number: 7,
        title: 'T',
        url: 'https://x/pull/7',
        body: 'B',
        base: 'main',
        head: 'feature',
        headSha: 'a1b2c3',
        changedFiles: 3,
        labels: []
      })
    }
  )

  it("issue_comment on a pull request: the pull request from the payload's issue; on an issue: other", () => {
    const issue = { number: 7, title: 'T', body: 'B', html_url: 'https://x/pull/7', pull_request: { url: 'u' } }
    expect(read({ GITHUB_EVENT_NAME: 'issue_comment' }, { issue })).toEqual({
      kind: 'pull-request',
      repo: 'acme/widgets',
      number: 7,
      title: 'T',
      url: 'https://x/pull/7',
      body: 'B',
      base: '',
      head: '',
      changedFiles: undefined,
      labels: []
    })
    const { pull_request: _, ...plain } = issue
    expect(read({ GITHUB_EVENT_NAME: 'issue_comment' }, { issue: plain })).toEqual({
      kind: 'other',
      event: 'issue_comment'
    })
    expect(read({ GITHUB_EVENT_NAME: 'pull_request_review' }, { issue })).toEqual({
      kind: 'other',
      event: 'pull_request_review'
    })
  })

  it('a pull request with missing fields', () => {
    const read8 = read({ GITHUB_EVENT_NAME: 'pull_request' }, { pull_request: { number: 8, body: null, head: {} } })
    expect(read8).not.toHaveProperty('headSha', expect.anything())
    expect(read({ GITHUB_EVENT_NAME: 'pull_request' }, { pull_request: { number: 8, body: null } })).toEqual({
      kind: 'pull-request',
      repo: 'acme/widgets',
      number: 8,
      title: '',
      url: undefined,
      body: '',
      base: '',
      head: '',
      changedFiles: undefined,
      labels: []
    })
    expect(read({ GITHUB_EVENT_NAME: 'pull_request' }, { pull_request: { number: '8' } })).toEqual({
      kind: 'other',
      event: 'pull_request'
    })
  })

  it('a push to a branch: its commits and the compare link', () => {
    const payload = {
      compare: 'https://github.com/acme/widgets/compare/a...b',
      commits: [
        { id: '1', message: 'One', author: { username: 'dev', name: 'Dev' } },
        { id: '2', message: 'Two', author: { name: 'Only Name' } },
        'junk',
        { id: '3' }
      ]
    }
    expect(
      read({ GITHUB_EVENT_NAME: 'push', GITHUB_REF: 'refs/heads/main', GITHUB_REF_NAME: 'main' }, payload)
    ).toEqual({
      kind: 'push',
      repo: 'acme/widgets',
      branch: 'main',
      compareUrl: 'https://github.com/acme/widgets/compare/a...b',
      commits: [
        { id: '1', message: 'One', author: 'dev' },
        { id: '2', message: 'Two', author: 'Only Name' },
        { id: '3', message: '', author: undefined }
      ],
      headMessage: undefined,
      range: undefined
    })
    expect(read({ GITHUB_EVENT_NAME: 'push', GITHUB_REF: 'refs/heads/feature/x' })).toMatchObject({
      branch: 'feature/x',
      commits: [],
      compareUrl: undefined
    })
  })

  it("what the skip rules read: a pull request's labels, a push's head commit and range", () => {
    const labels = [{ name: 'Skip-Docs' }, { name: 'bug' }, 'junk', { id: 3 }]
    expect(read({ GITHUB_EVENT_NAME: 'pull_request' }, { pull_request: { number: 8, labels } })).toMatchObject({
      labels: ['Skip-Docs', 'bug', '']
    })
    const push = { GITHUB_EVENT_NAME: 'push', GITHUB_REF: 'refs/heads/main' }
    const [a, b, zero] = ['a'.repeat(40), 'B'.repeat(40), '0'.repeat(40)]
    const pushed = (payload: unknown) => read(push, payload)
    expect(pushed({ before: a, after: b, head_commit: { message: 'ci: x [skip docs]' } })).toMatchObject({
      headMessage: 'ci: x [skip docs]',
      range: { before: a, after: b }
    })
    // A created branch, or a payload without both ends: no range (a deleted one is no push to document).
    for (const ends of [
      { before: zero, after: b },
      { before: a },
      { before: 'main', after: b },
      { before: `x${a}`, after: b },
      { before: a, after: `${b}x` }
    ]) {
      expect(pushed(ends)).toMatchObject({ headMessage: undefined, range: undefined })
    }
    // Zeros at either end of a real sha, and a sha of 64 (SHA-256 repositories).
    const [lead, tail, long] = [`0${'a'.repeat(39)}`, `${'a'.repeat(39)}0`, 'c'.repeat(64)]
    expect(pushed({ before: lead, after: tail })).toMatchObject({ range: { before: lead, after: tail } })
    expect(pushed({ before: long, after: b })).toMatchObject({ range: { before: long, after: b } })
  })

  it('a schedule or a manual run on a branch: the workflow file, the branch and the commit', () => {
    const env = {
      GITHUB_REF: 'refs/heads/main',
      GITHUB_REF_NAME: 'main',
      GITHUB_SHA: 'abc123',
      GITHUB_WORKFLOW_REF: 'acme/widgets/.github/workflows/docs.yml@refs/heads/main'
    }
    expect(read({ ...env, GITHUB_EVENT_NAME: 'schedule' })).toEqual({
      kind: 'scheduled',
      repo: 'acme/widgets',
      event: 'schedule',
      branch: 'main',
      sha: 'abc123',
      workflow: 'docs.yml'
    })
    expect(read({ ...env, GITHUB_EVENT_NAME: 'workflow_dispatch', GITHUB_REF_NAME: '' })).toMatchObject({
      kind: 'scheduled',
      event: 'workflow_dispatch',
      branch: 'main'
    })
    // Without what the runs API needs, or on another event: nothing to add.
    for (const missing of ['GITHUB_SHA', 'GITHUB_WORKFLOW_REF', 'GITHUB_REF'] as const) {
      expect(read({ ...env, GITHUB_EVENT_NAME: 'schedule', [missing]: '' })).toEqual({
        kind: 'other',
        event: 'schedule'
      })
    }
    expect(read({ ...env, GITHUB_EVENT_NAME: 'schedule', GITHUB_WORKFLOW_REF: 'acme/widgets/docs.yml@main' })).toEqual({
      kind: 'other',
      event: 'schedule'
    })
    expect(read({ ...env, GITHUB_EVENT_NAME: 'workflow_run' })).toEqual({ kind: 'other', event: 'workflow_run' })
  })

  // GitHub's push payload for a deleted ref: `deleted`, `after` all zeros, `head_commit` null
  // (docs.github.com/webhooks/webhook-events-and-payloads#push).
  it('a push that deleted a tag or a branch: nothing to document, the ref named from the payload', () => {
    const zero = '0'.repeat(40)
    const deleted = (ref: string, extra: Record<string, unknown> = {}) => ({
      ref,
      before: 'a'.repeat(40),
      after: zero,
      deleted: true,
      commits: [],
      head_commit: null,
      ...extra
    })
    const tag = read({ GITHUB_EVENT_NAME: 'push', GITHUB_REF: 'refs/tags/v1.2.0' }, deleted('refs/tags/v1.2.0'))
    expect(tag).toEqual({ kind: 'other', event: 'push', deletedRef: 'refs/tags/v1.2.0' })
    expect(nothingToDocument(tag)).toBe('The push deleted tag v1.2.0: nothing to document.')
    // On a branch's deletion GITHUB_REF may be the default branch's: the payload names the deleted one.
    const branch = read({ GITHUB_EVENT_NAME: 'push', GITHUB_REF: 'refs/heads/main' }, deleted('refs/heads/fix/x'))
    expect(nothingToDocument(branch)).toBe('The push deleted branch fix/x: nothing to document.')
    // `after` all zeros (SHA-1 or SHA-256) is a deletion without the flag; without a payload ref, GITHUB_REF.
    for (const after of [zero, '0'.repeat(64)]) {
      const bare = read(
        { GITHUB_EVENT_NAME: 'push', GITHUB_REF: 'refs/heads/old' },
        { before: 'a'.repeat(40), after, commits: [] }
      )
      expect(nothingToDocument(bare)).toBe('The push deleted branch old: nothing to document.')
    }
    expect(nothingToDocument(read({ GITHUB_EVENT_NAME: 'push' }, deleted('')))).toBe(
      'The push deleted a ref: nothing to document.'
    )
    expect(nothingToDocument(read({ GITHUB_EVENT_NAME: 'push' }, deleted('refs/notes/x\n::x')))).toBe(
      'The push deleted refs/notes/x ::x: nothing to document.'
    )
    // A created branch, a push with commits, a deletion flag on another event: something to document.
    const push = { GITHUB_EVENT_NAME: 'push', GITHUB_REF: 'refs/heads/main' }
    expect(nothingToDocument(read(push, { before: zero, after: 'b'.repeat(40), deleted: false }))).toBeUndefined()
    expect(nothingToDocument(read(push, { before: 'a'.repeat(40), after: 'b'.repeat(40) }))).toBeUndefined()
    expect(nothingToDocument(read(push, { deleted: 'true', after: `${zero}1` }))).toBeUndefined()
    expect(read({ GITHUB_EVENT_NAME: 'create', GITHUB_REF: 'refs/tags/v2' }, deleted('refs/tags/v2'))).toMatchObject({
      kind: 'tag',
      tag: 'v2'
    })
  })

  it("workflow_run: other, with the triggering run's head commit (GITHUB_SHA is the default branch's)", () => {
    const env = { GITHUB_EVENT_NAME: 'workflow_run', GITHUB_REF: 'refs/heads/main', GITHUB_SHA: 'f'.repeat(40) }
    const run = (head_sha: unknown) => read(env, { action: 'completed', workflow_run: { head_sha, head_branch: 'x' } })
    expect(run('A'.repeat(40))).toEqual({ kind: 'other', event: 'workflow_run', headSha: 'A'.repeat(40) })
    expect(run('c'.repeat(64))).toMatchObject({ headSha: 'c'.repeat(64) })
    for (const junk of [undefined, 7, 'main', 'a'.repeat(39), `${'a'.repeat(40)}\n`, 'g'.repeat(40)]) {
      expect(run(junk)).toEqual({ kind: 'other', event: 'workflow_run' })
    }
    // Only workflow_run's.
    expect(read({ GITHUB_EVENT_NAME: 'issues' }, { workflow_run: { head_sha: 'a'.repeat(40) } })).toEqual({
      kind: 'other',
      event: 'issues'
    })
  })

  it('anything else, an unreadable payload, or no event at all: other', () => {
    expect(read({ GITHUB_EVENT_NAME: 'schedule', GITHUB_REF: 'refs/heads/main' })).toEqual({
      kind: 'other',
      event: 'schedule'
    })
    expect(read({ GITHUB_EVENT_NAME: 'pull_request' }, '{not json')).toEqual({ kind: 'other', event: 'pull_request' })
    expect(read({ GITHUB_EVENT_NAME: 'pull_request' }, '[1]')).toEqual({ kind: 'other', event: 'pull_request' })
    expect(readTrigger({}, () => '')).toEqual({ kind: 'other', event: '' })
    expect(
      read({ GITHUB_EVENT_NAME: 'push', GITHUB_EVENT_PATH: 'missing.json', GITHUB_REF: 'refs/tags/v1' })
    ).toMatchObject({ kind: 'tag', tag: 'v1' })
  })
})
