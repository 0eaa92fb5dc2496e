import { describe, expect, it } from '@jest/globals'
import { commandText, isCommentEvent, readCommentEvent } from '../../src/github/conversation/command.js'

describe('commandText', () => {
  it('takes the rest of the first line and the lines after it when the first line starts with the phrase', () => {
    expect(commandText('/docs document the new flag', '/docs')).toBe('document the new flag')
    expect(commandText('  \n/docs  first\nsecond line\n', '/docs')).toBe('first\nsecond line')
    expect(commandText('/docs\non the next line', '/docs')).toBe('on the next line')
    expect(commandText('/docs', '/docs')).toBe('')
  })

  it('is undefined without the phrase at the start, or with the phrase run into a word', () => {
    expect(commandText('please /docs do it', '/docs')).toBeUndefined()
    expect(commandText('/docsify it', '/docs')).toBeUndefined()
    expect(commandText('LGTM\n/docs later', '/docs')).toBeUndefined()
    expect(commandText('', '/docs')).toBeUndefined()
    expect(commandText('@docs-bot go', '@docs-bot')).toBe('go')
  })

  it('is undefined when the first line is indented four columns (a tab reaches them): GitHub shows it as code', () => {
    // CommonMark 0.31, 4.4 Indented code blocks (GitHub Flavored Markdown is CommonMark's superset).
    expect(commandText('    /docs document it', '/docs')).toBeUndefined()
    expect(commandText('\t/docs document it', '/docs')).toBeUndefined()
    expect(commandText('  \t/docs document it', '/docs')).toBeUndefined()
    expect(commandText('\n  \r\n      /docs document it', '/docs')).toBeUndefined()
    expect(commandText('   /docs up to three spaces is a paragraph', '/docs')).toBe('up to three spaces is a paragraph')
    expect(commandText('\r\n \n /docs after blank lines', '/docs')).toBe('after blank lines')
  })
})

describe('readCommentEvent', () => {
  const read = (event: string, payload: unknown) =>
    readCommentEvent(
      { GITHUB_EVENT_NAME: event, GITHUB_EVENT_PATH: '/event.json', GITHUB_REPOSITORY: 'acme/app' },
      () => JSON.stringify(payload)
    )
  const user = { login: 'mona', type: 'User' }

  it('reads a comment on a pull request', () => {
    expect(
      read('issue_comment', {
        action: 'created',
        issue: { number: 7, pull_request: { url: 'x' } },
        comment: { id: 11, body: '/docs go', user }
      })
    ).toEqual({
      event: 'issue_comment',
      action: 'created',
      repo: 'acme/app',
      pullNumber: 7,
      id: 11,
      body: '/docs go',
      author: { login: 'mona', bot: false }
    })
  })

  it('reads a review and a review comment, and tells bots by type or by login', () => {
    expect(
      read('pull_request_review', {
        action: 'submitted',
        pull_request: { number: 8 },
        review: { id: 12, body: null, user: { login: 'ci', type: 'Bot' } }
      })
    ).toMatchObject({
      event: 'pull_request_review',
      pullNumber: 8,
      id: 12,
      body: '',
      author: { login: 'ci', bot: true }
    })
    expect(
      read('pull_request_review_comment', {
        action: 'edited',
        pull_request: { number: 9 },
        comment: { id: 13, body: 'x', user: { login: 'helper[bot]' } }
      })
    ).toMatchObject({ action: 'edited', pullNumber: 9, id: 13, author: { login: 'helper[bot]', bot: true } })
  })

  it("is undefined for an issue's comment, another event, or a payload without the comment", () => {
    const comment = { id: 11, body: '/docs go', user }
    expect(read('issue_comment', { action: 'created', issue: { number: 7 }, comment })).toBeUndefined()
    expect(read('push', { action: 'created', pull_request: { number: 7 }, comment })).toBeUndefined()
    expect(read('issue_comment', { action: 'created', issue: { number: 7, pull_request: {} } })).toBeUndefined()
    expect(
      read('issue_comment', { issue: { number: 7, pull_request: {} }, comment: { id: 1, body: 'x', user: {} } })
    ).toBeUndefined()
    expect(read('issue_comment', [])).toBeUndefined()
    expect(readCommentEvent({ GITHUB_EVENT_NAME: 'issue_comment' }, () => '{}')).toBeUndefined()
    expect(
      readCommentEvent({ GITHUB_EVENT_NAME: 'issue_comment', GITHUB_EVENT_PATH: '/x' }, () => {
        throw new Error('ENOENT')
      })
    ).toBeUndefined()
  })

  it('knows the comment events', () => {
    expect(
      ['issue_comment', 'pull_request_review', 'pull_request_review_comment', 'pull_request', undefined].map(
        isCommentEvent
      )
    ).toEqual([true, true, true, false, false])
  })
})
