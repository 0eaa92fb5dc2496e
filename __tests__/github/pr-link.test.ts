import { describe, expect, it } from '@jest/globals'
import { httpUrl, parsePullRequestUrl } from '../../src/github/pr-link.js'

describe('parsePullRequestUrl', () => {
  it.each([
    ['https://github.com/acme/docs/pull/123', undefined, { owner: 'acme', repo: 'docs', number: 123 }],
    ['https://github.com/acme/docs.site/pull/7/files', undefined, { owner: 'acme', repo: 'docs.site', number: 7 }],
    ['https://GitHub.com/acme/docs/pull/8/', undefined, { owner: 'acme', repo: 'docs', number: 8 }],
    [
      'https://ghe.corp.example/team/docs/pull/9',
      'https://ghe.corp.example',
      { owner: 'team', repo: 'docs', number: 9 }
    ],
    ['http://github.com/acme/docs/pull/1', undefined, { owner: 'acme', repo: 'docs', number: 1 }],
    [
      'https://github.com/a-b_c.d/e_f-g.h/pull/1234567890',
      undefined,
      { owner: 'a-b_c.d', repo: 'e_f-g.h', number: 1234567890 }
    ],
    ['https://github.com/acme/docs/pull/5', 'not a url', { owner: 'acme', repo: 'docs', number: 5 }]
  ])('reads %s', (link, server, expected) => {
    expect(parsePullRequestUrl(link, server)).toEqual(expected)
  })

  it.each([
    ['https://ghe.corp.example/team/docs/pull/9', undefined],
    ['https://gitlab.com/acme/docs/pull/1', 'https://github.com'],
    ['https://github.com/acme/docs/issues/1', undefined],
    ['https://github.com/acme/docs/pull/0', undefined],
    ['https://github.com/acme/docs/pull/12abc', undefined],
    ['https://github.com/acme/../pull/1', undefined],
    ['https://github.com/acme/docs/pull', undefined],
    ['https://github.com/acme/docs/pull/12345678901', undefined],
    ['https://github.com/acme/docs/pull/-1', undefined],
    ['https://github.com/acme/docs/pulls/1', undefined],
    ['https://github.com//docs/pull/1', undefined],
    ['https://github.com/acme//pull/1', undefined],
    ['https://github.com/acme/./pull/1', undefined],
    ['https://github.com/acme/%2E%2E/pull/1', undefined],
    ['https://github.com/ac%20me/docs/pull/1', undefined],
    ['https://github.com/acme/do$cs/pull/1', undefined],
    ['https://github.com:8443/acme/docs/pull/1', undefined],
    ['ftp://github.com/acme/docs/pull/1', undefined],
    ['', undefined],
    ['javascript:alert(1)//github.com/acme/docs/pull/1', undefined],
    ['not a url', undefined],
    [undefined, undefined]
  ])('ignores %s', (link, server) => {
    expect(parsePullRequestUrl(link, server)).toBeUndefined()
  })
})

describe('httpUrl', () => {
  it('keeps http(s) URLs only', () => {
    expect(httpUrl('https://github.com/a/b/pull/1')).toBe('https://github.com/a/b/pull/1')
    expect(httpUrl('javascript:alert(1)')).toBeUndefined()
    expect(httpUrl('data:text/html,<b>x</b>')).toBeUndefined()
    expect(httpUrl('/relative')).toBeUndefined()
    expect(httpUrl('HTTP://Example.com/a b')).toBe('http://example.com/a%20b')
    expect(httpUrl('')).toBeUndefined()
    expect(httpUrl(undefined)).toBeUndefined()
  })
})
