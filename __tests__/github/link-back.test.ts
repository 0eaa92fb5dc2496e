import { describe, expect, it } from '@jest/globals'
import { codeSpan, markdownLink, mention, withReleaseBlock } from '../../src/github/conversation/markdown.js'
import { commentBody, decodeMarker, encodeMarker, ownComments } from '../../src/github/conversation/marker.js'

describe('the link-back marker', () => {
  it('round-trips the job and the record, and cannot be closed by text in it', () => {
    const marker = encodeMarker({ job: 'job_1', record: { key: 'k', note: '--> <!--' } })
    expect(marker).toMatch(/^<!-- docs-agent-action:link-back [A-Za-z0-9_-]+ -->$/)
    expect(decodeMarker(`text\n\n${marker}`)).toEqual({ job: 'job_1', record: { key: 'k', note: '--> <!--' } })
  })

  it('is undefined when absent or unreadable; an empty job is none', () => {
    expect(decodeMarker('no marker')).toBeUndefined()
    expect(decodeMarker('<!-- docs-agent-action:link-back !!! -->')).toBeUndefined()
    expect(
      decodeMarker(`<!-- docs-agent-action:link-back ${Buffer.from('[1]').toString('base64url')} -->`)
    ).toBeUndefined()
    expect(
      decodeMarker(`<!-- docs-agent-action:link-back ${Buffer.from('null').toString('base64url')} -->`)
    ).toBeUndefined()
    expect(decodeMarker(encodeMarker({ job: '' }))).toEqual({ job: undefined, record: undefined })
    expect(
      decodeMarker(`<!-- docs-agent-action:link-back ${Buffer.from('{"job":5}').toString('base64url')} -->`)
    ).toEqual({
      job: undefined,
      record: undefined
    })
  })

  it("finds the action's own comments, oldest first, and ignores a marker pasted by anyone else", () => {
    const marked = commentBody(['hi'], { job: 'j' })
    const comments = [
      { id: 30, body: marked, author: 'github-actions[bot]' },
      { id: 10, body: marked, author: 'mallory' },
      { id: 20, body: marked, author: 'GitHub-Actions[bot]' },
      { id: 5, body: 'no marker', author: 'github-actions[bot]' }
    ]
    expect(ownComments(comments, 'github-actions[bot]').map((c) => c.id)).toEqual([20, 30])
    expect(ownComments(comments, 'docs-bot')).toEqual([])
  })
})

describe('markdown for GitHub', () => {
  it('links only http(s) URLs, with an inert label', () => {
    expect(markdownLink('acme/docs#3', 'https://github.com/acme/docs/pull/3')).toBe(
      '[acme/docs#3](https://github.com/acme/docs/pull/3)'
    )
    expect(markdownLink('a](javascript:x) *b*', 'https://x.test/a b(c)')).toBe(
      '[a\\](javascript:x) \\*b\\*](https://x.test/a%20b%28c%29)'
    )
    expect(markdownLink('label', 'javascript:alert(1)')).toBe('`javascript:alert(1)`')
    expect(markdownLink('label', undefined)).toBe('`label`')
  })

  it('keeps code spans on one line with no backtick to close them', () => {
    expect(codeSpan('a`b\nc')).toBe("`a'b c`")
    expect(codeSpan('x'.repeat(20), 10)).toBe(`\`${'x'.repeat(9)}…\``)
  })

  it('mentions only what is a login', () => {
    expect(mention('mona')).toBe('@mona')
    expect(mention('helper[bot]')).toBe('@helper[bot]')
    expect(mention('evil](x)')).toBe('`evil](x)`')
  })
})

describe('withReleaseBlock', () => {
  const START = '<!-- docs-agent-action:release:start -->'
  const END = '<!-- docs-agent-action:release:end -->'

  it('appends the block once, then replaces it in place', () => {
    const once = withReleaseBlock('Notes\n', 'Docs: one')
    expect(once).toBe(`Notes\n\n${START}\nDocs: one\n${END}`)
    const twice = withReleaseBlock(`${once}\n\nLater text`, 'Docs: two')
    expect(twice).toBe(`Notes\n\n${START}\nDocs: two\n${END}\n\nLater text`)
    expect(withReleaseBlock('', 'Docs')).toBe(`${START}\nDocs\n${END}`)
  })

  it('appends when only a start marker is there', () => {
    expect(withReleaseBlock(`A ${START}`, 'D')).toBe(`A ${START}\n\n${START}\nD\n${END}`)
  })
})
