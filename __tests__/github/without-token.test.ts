// What the context reads from GitHub's API, and so what the agent does not get without a token.
import { describe, expect, it } from '@jest/globals'
import type { Trigger } from '../../src/github/event.js'
import { readFromGitHub } from '../../src/github/without-token.js'

describe('readFromGitHub', () => {
  const repo = 'acme/widgets'
  const pullRequest: Trigger = {
    kind: 'pull-request',
    repo,
    number: 7,
    title: 't',
    url: undefined,
    body: '',
    base: 'main',
    head: 'feature',
    changedFiles: 3,
    labels: []
  }

  it.each<[string, Trigger, string | undefined]>([
    [
      'a tag push: the notes and the changes',
      { kind: 'tag', repo, tag: 'v1.4.0', release: undefined },
      'the release notes of v1.4.0 and the changes since the previous release'
    ],
    [
      'a release event, whose payload has the notes: the changes',
      { kind: 'tag', repo, tag: 'v1.4.0', release: { tag: 'v1.4.0', name: '', body: 'notes', url: undefined } },
      'the changes since the release before v1.4.0'
    ],
    ['a pull request: its files', pullRequest, 'the files pull request #7 changes, with their patches'],
    [
      'a schedule: the changes since the last run',
      { kind: 'scheduled', repo, event: 'schedule', branch: 'main', sha: 'abc', workflow: 'docs.yml' },
      "the changes since the workflow's last successful run"
    ],
    [
      'a branch push: nothing, its commits are in the payload',
      {
        kind: 'push',
        repo,
        branch: 'main',
        commits: [],
        compareUrl: undefined,
        headMessage: undefined,
        range: undefined
      },
      undefined
    ],
    ['an event with no context: nothing', { kind: 'other', event: 'issues' }, undefined]
  ])('%s', (_, trigger, expected) => {
    expect(readFromGitHub(trigger, 0)).toBe(expected)
  })

  it('a release set: its tags, whatever the event', () => {
    expect(readFromGitHub({ kind: 'other', event: 'workflow_run' }, 3)).toBe(
      'the release notes and the changes of the 3 released tags'
    )
    expect(readFromGitHub(pullRequest, 1)).toBe('the release notes and the changes of the released tag')
  })

  it('keeps a tag name on one line', () => {
    expect(readFromGitHub({ kind: 'tag', repo, tag: 'v1\n::error::x', release: undefined }, 0)).toBe(
      'the release notes of v1 ::error::x and the changes since the previous release'
    )
  })
})
