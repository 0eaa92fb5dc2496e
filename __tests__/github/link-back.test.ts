import { describe, expect, it } from '@jest/globals'
import {
  codeSpan,
  markdownLink,
  mention,
  onlyReleaseBlockChanged,
  withReleaseBlock
} from '../../src/github/conversation/markdown.js'
import { createHmac } from 'node:crypto'
import {
  commentBody,
  decodeMarker,
  encodeMarker,
  markerKey,
  MAX_COMMENT_CHARS,
  ownComments,
  remarked
} from '../../src/github/conversation/marker.js'

describe('the link-back marker', () => {
  const SEAL = { key: markerKey('mint_key_a'), repository: 'acme/app', number: 7 }
  const raw = (json: string, seal = SEAL) => {
    const payload = Buffer.from(json).toString('base64url')
    // Sealed as encodeMarker seals, so only the payload's shape is under test.
    return `<!-- docs-agent-action:link-back ${payload}.${sealOf(payload, seal)} -->`
  }
  const sealOf = (payload: string, seal = SEAL) =>
    createHmac('sha256', seal.key)
      .update(JSON.stringify([seal.repository, seal.number, payload]))
      .digest('hex')

  it('round-trips the job, the records and the command, and cannot be closed by text in it', () => {
    const records = [{ key: '--> <!--', command: { id: 3, kind: 'create' as const, job: undefined } }]
    const marker = encodeMarker({ job: 'job_1', records }, SEAL)
    expect(marker).toMatch(/^<!-- docs-agent-action:link-back [A-Za-z0-9_-]+\.[0-9a-f]{64} -->$/)
    expect(decodeMarker(`text\n\n${marker}`, SEAL)).toEqual({ job: 'job_1', records, command: undefined })
  })

  it('does not verify under another API key, on another pull request or repository, or edited', () => {
    const marker = encodeMarker({ job: 'job_1' }, SEAL)
    expect(decodeMarker(marker, { ...SEAL, key: markerKey('mint_key_b') })).toBeUndefined()
    expect(decodeMarker(marker, { ...SEAL, number: 8 })).toBeUndefined()
    expect(decodeMarker(marker, { ...SEAL, repository: 'acme/other' })).toBeUndefined()
    const forged = marker.replace(/ ([A-Za-z0-9_-]+)\./, ` ${Buffer.from('{"job":"job_2"}').toString('base64url')}.`)
    expect(decodeMarker(forged, SEAL)).toBeUndefined()
    // A marker of an earlier version (unsealed) is not the action's.
    const unsealed = `<!-- docs-agent-action:link-back ${Buffer.from('{"job":"job_1"}').toString('base64url')} -->`
    expect(decodeMarker(unsealed, SEAL)).toBeUndefined()
    expect(decodeMarker(raw('{"job":"job_1"}'), SEAL)?.job).toBe('job_1')
  })

  it('is undefined when absent or unreadable; an empty job is none; malformed records are dropped', () => {
    expect(decodeMarker('no marker', SEAL)).toBeUndefined()
    expect(decodeMarker(raw('[1]'), SEAL)).toBeUndefined()
    expect(decodeMarker(raw('null'), SEAL)).toBeUndefined()
    expect(decodeMarker(raw('not json'), SEAL)).toBeUndefined()
    expect(decodeMarker(encodeMarker({ job: '' }, SEAL), SEAL)).toEqual({
      job: undefined,
      records: undefined,
      command: undefined
    })
    expect(decodeMarker(raw('{"job":5,"records":[1,null,{"key":2},{"key":"k"}]}'), SEAL)).toEqual({
      job: undefined,
      records: [{ key: 'k', command: undefined }],
      command: undefined
    })
  })

  it("finds the action's own comments, oldest first, and ignores a marker pasted by anyone else or not sealed", () => {
    const marked = commentBody(['hi'], { job: 'j' }, SEAL)
    const comments = [
      { id: 30, body: marked, author: 'github-actions[bot]' },
      { id: 10, body: marked, author: 'mallory' },
      { id: 20, body: marked, author: 'GitHub-Actions[bot]' },
      { id: 25, body: commentBody(['hi'], { job: 'j' }, { ...SEAL, number: 9 }), author: 'github-actions[bot]' },
      { id: 5, body: 'no marker', author: 'github-actions[bot]' }
    ]
    expect(ownComments(comments, 'github-actions[bot]', SEAL).map((c) => c.id)).toEqual([20, 30])
    expect(ownComments(comments, 'docs-bot', SEAL)).toEqual([])
  })

  it('cuts a body to GitHub’s 65,536 characters, keeping the marker whole', () => {
    const body = commentBody(['a'.repeat(40_000), 'b'.repeat(40_000)], { job: 'j' }, SEAL)
    expect(body).toHaveLength(MAX_COMMENT_CHARS)
    expect(body).toContain('b…\n\n<!-- docs-agent-action:link-back ')
    expect(decodeMarker(body, SEAL)).toEqual({ job: 'j', records: undefined, command: undefined })
    const short = commentBody(['a'.repeat(100)], { job: 'j' }, SEAL)
    expect(short.startsWith(`${'a'.repeat(100)}\n\n<!--`)).toBe(true)
  })

  it('replaces only the marker when remarked', () => {
    const body = commentBody(['kept text'], { job: 'j' }, SEAL)
    const again = remarked(body, { job: 'j', records: [{ key: 'k' }] }, SEAL)
    expect(again.split('\n')[0]).toBe('kept text')
    expect(decodeMarker(again, SEAL)?.records).toEqual([{ key: 'k', command: undefined }])
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

  it('a start marker whose end was removed, and the text after it, are the user’s: later writes keep them', () => {
    // Someone deleted the end marker's line and wrote a section under the block.
    const edited = `Intro\n\n${START}\nDocs: old\n\n## Breaking changes\n- the flag --x is gone`
    const first = withReleaseBlock(edited, 'Docs: working')
    expect(first).toBe(`${edited}\n\n${START}\nDocs: working\n${END}`)
    const second = withReleaseBlock(first, 'Docs: done')
    expect(second).toBe(`${edited}\n\n${START}\nDocs: done\n${END}`)
    expect(onlyReleaseBlockChanged(first, second)).toBe(true)
    expect(onlyReleaseBlockChanged(first, second.replace('## Breaking', '## Big'))).toBe(false)
  })
})

describe('onlyReleaseBlockChanged', () => {
  const linked = (notes: string, docs: string): string => withReleaseBlock(notes, docs)

  it('is true when the block was added or changed and nothing else, line endings aside', () => {
    expect(onlyReleaseBlockChanged('Notes', linked('Notes', 'Docs: 1'))).toBe(true)
    expect(onlyReleaseBlockChanged(linked('Notes', 'Docs: 1'), linked('Notes', 'Docs: 2'))).toBe(true)
    expect(onlyReleaseBlockChanged('Line\r\nTwo', linked('Line\nTwo', 'Docs: 1'))).toBe(true)
    expect(onlyReleaseBlockChanged('', linked('', 'Docs: 1'))).toBe(true)
  })

  it('is false for no change, a change of the notes, or a block removed with the notes changed', () => {
    expect(onlyReleaseBlockChanged(linked('Notes', 'D'), linked('Notes', 'D'))).toBe(false)
    expect(onlyReleaseBlockChanged('Notes', linked('Notes, more', 'D'))).toBe(false)
    expect(onlyReleaseBlockChanged(linked('Notes', 'D'), 'Other')).toBe(false)
    expect(onlyReleaseBlockChanged('Notes', 'Notes\n\n<!-- docs-agent-action:release:start -->\nunclosed')).toBe(false)
  })
})
