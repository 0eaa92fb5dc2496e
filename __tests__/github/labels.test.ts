import { describe, expect, it } from '@jest/globals'
import { labelTarget } from '../../src/github/labels.js'

const SOURCE = 'https://github.com/acme/docs'
const PR = 'https://github.com/acme/docs/pull/12'

describe('labelTarget', () => {
  it("labels a pull request in the job's repository, on the runner's GitHub", () => {
    const pr = { kind: 'label', pr: { owner: 'acme', repo: 'docs', number: 12 } }
    expect(labelTarget(PR, SOURCE, 'https://github.com')).toEqual(pr)
    // Outside a runner: github.com, as Octokit's default API.
    expect(labelTarget(PR, SOURCE, undefined)).toEqual(pr)
    expect(labelTarget(PR, SOURCE, '')).toEqual(pr)
  })

  it.each([
    ['a .git suffix', 'https://github.com/acme/docs.git'],
    ['a trailing slash', 'https://github.com/acme/docs/'],
    ['another case', 'https://GitHub.com/ACME/Docs']
  ])("takes the job's repository with %s", (_name, source) => {
    expect(labelTarget(PR, source, 'https://github.com')).toMatchObject({ kind: 'label' })
  })

  it('labels on GitHub Enterprise, the same way', () => {
    expect(
      labelTarget(
        'https://ghes.example:8443/acme/docs/pull/3/files',
        'https://ghes.example:8443/acme/docs',
        'https://GHES.example:8443/'
      )
    ).toEqual({ kind: 'label', pr: { owner: 'acme', repo: 'docs', number: 3 } })
  })

  it('is undefined without a link', () => {
    expect(labelTarget(undefined, SOURCE, 'https://github.com')).toBeUndefined()
    expect(labelTarget('', SOURCE, 'https://github.com')).toBeUndefined()
  })

  it.each<[string, string, string | undefined, string | undefined, string]>([
    [
      'not a pull request',
      'https://github.com/acme/docs/issues/1',
      SOURCE,
      'https://github.com',
      'it is not a pull request on this GitHub server'
    ],
    [
      'on an unknown host',
      'https://evil.example/acme/docs/pull/1',
      SOURCE,
      'https://github.com',
      'it is not a pull request on this GitHub server'
    ],
    [
      'on github.com from a GitHub Enterprise runner',
      PR,
      SOURCE,
      'https://ghes.example',
      'it is on github.com, and the github-token is for ghes.example'
    ],
    [
      'with a GITHUB_SERVER_URL that cannot be read',
      PR,
      SOURCE,
      'not a url',
      'it is on github.com, and the github-token is for an unreadable GITHUB_SERVER_URL'
    ],
    [
      'in another repository',
      'https://github.com/evil/docs/pull/1',
      SOURCE,
      undefined,
      `it is not in the job's repository (${SOURCE})`
    ],
    [
      'in a repository of the same owner',
      'https://github.com/acme/site/pull/1',
      SOURCE,
      undefined,
      `it is not in the job's repository (${SOURCE})`
    ],
    [
      "in the job's repository name on another host",
      'https://ghes.example/acme/docs/pull/1',
      SOURCE,
      'https://ghes.example',
      `it is not in the job's repository (${SOURCE})`
    ],
    ['when the job names no repository', PR, undefined, undefined, 'the job names no repository to check it against'],
    [
      "when the job's repository is no GitHub URL",
      PR,
      'git@github.com:acme/docs.git',
      undefined,
      "the job's repository (git@github.com:acme/docs.git) is not a GitHub repository URL"
    ],
    [
      "when the job's repository has more to its path",
      PR,
      'https://github.com/acme/docs/tree/main',
      undefined,
      "the job's repository (https://github.com/acme/docs/tree/main) is not a GitHub repository URL"
    ],
    [
      "when the job's repository is only an owner",
      PR,
      'https://github.com/acme',
      undefined,
      "the job's repository (https://github.com/acme) is not a GitHub repository URL"
    ]
  ])('refuses a pull request %s', (_name, link, source, server, reason) => {
    expect(labelTarget(link, source, server)).toEqual({ kind: 'refused', reason })
  })

  it('keeps server text inert in the reason', () => {
    const source = 'https://github.com/acme/docs\n::warning::x'
    expect(labelTarget(PR, source, undefined)).toEqual({
      kind: 'refused',
      reason: expect.not.stringContaining('\n') as unknown as string
    })
  })
})
