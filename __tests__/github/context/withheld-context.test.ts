// The context of a pull request whose own text is withheld: GitHub's facts only.
import { describe, expect, it } from '@jest/globals'
import { withheldContext } from '../../../src/github/context/withheld-context.js'

const trigger = {
  kind: 'pull-request' as const,
  repo: 'acme/app',
  number: 3,
  title: 'SECRET TITLE',
  url: 'https://github.com/acme/app/pull/3' as string | undefined,
  body: 'SECRET BODY',
  base: 'main',
  head: 'SECRET-BRANCH',
  changedFiles: 1 as number | undefined,
  labels: []
}
const counts = { number: 3, author: 'ann', mergedBy: undefined, commits: 1, additions: 0, deletions: 2 }

describe('withheldContext', () => {
  it('names the pull request, its link and its size, and none of the author’s text', () => {
    const context = withheldContext(trigger, counts, 'its author ann has read permission')
    expect(context).toEqual({
      text: [
        '---',
        '',
        '## Context from GitHub',
        '',
        'This request comes from a GitHub Actions run for pull request #3 of acme/app. Its title, description, branch name, commits and files are not included: its author ann has read permission.',
        '',
        '- Pull request: #3 (https://github.com/acme/app/pull/3)',
        '- Size: 1 changed file, 1 commit, +0 −2 lines'
      ].join('\n'),
      description: 'Pull request #3: its author’s text withheld (its author ann has read permission)',
      warning: undefined,
      requests: 0,
      // Not read, so the skip rules never judge them.
      changed: [
        {
          of: 'pull request #3',
          paths: [],
          incomplete: 'they are withheld with its author’s text, so they were not read'
        }
      ]
    })
    expect(context.text).not.toMatch(/SECRET/)
  })

  it('leaves out what the payload does not say', () => {
    const bare = withheldContext({ ...trigger, url: undefined, changedFiles: undefined }, undefined, 'why')
    expect(bare.text.split('\n').slice(-1)).toEqual(['- Pull request: #3'])
    const some = withheldContext(trigger, { ...counts, commits: undefined, deletions: undefined }, 'why')
    expect(some.text.split('\n').slice(-1)).toEqual(['- Size: 1 changed file'])
    const lines = withheldContext({ ...trigger, changedFiles: undefined }, { ...counts, additions: undefined }, 'w')
    expect(lines.text.split('\n').slice(-1)).toEqual(['- Size: 1 commit'])
  })

  it('keeps the reason on one line in the description', () => {
    expect(withheldContext(trigger, counts, 'a\nb').description).toBe(
      'Pull request #3: its author’s text withheld (a b)'
    )
  })
})
