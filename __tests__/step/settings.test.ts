import { describe, expect, it } from '@jest/globals'
import { inputDefaults, readAction } from '../../scripts/action-metadata.js'
import { INPUT_DEFAULTS } from '../../src/step/defaults.js'
import { InputError, isLoopback, MAX_DURATION_MS } from '../../src/step/inputs.js'
import { MAX_PROMPT_CHARS, parseSettings, type InputSource, type Settings } from '../../src/step/settings.js'

// action.yml is the one source of the defaults: the runner fills them in, and so does this source.
const DEFAULTS = inputDefaults(readAction(), 'ghs_token')

function source(inputs: Record<string, string>, files: Record<string, string> = {}): InputSource {
  const values: Record<string, string> = { ...DEFAULTS, ...inputs }
  return {
    get: (name) => (values[name] ?? '').trim(),
    readFile: (path) => {
      const content = files[path]
      if (content === undefined) throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' })
      return content
    }
  }
}

const base = { 'api-key': 'mint_key', 'project-id': 'proj' }
const parse = (inputs: Record<string, string>, files?: Record<string, string>): Settings =>
  parseSettings(source({ ...base, ...inputs }, files))

function inputError(inputs: Record<string, string>, files?: Record<string, string>): InputError {
  try {
    parseSettings(source(inputs, files))
  } catch (error) {
    if (error instanceof InputError) return error
    throw error
  }
  throw new Error('expected an InputError')
}

describe('the group inputs', () => {
  const grouped = { prompt: 'x', group: 'merged-prs', 'docs-repository': 'acme/docs' }

  it('reads the group and the docs repository; none by default', () => {
    expect(parse(grouped).group).toEqual({ name: 'merged-prs', docsRepository: 'acme/docs' })
    expect(parse({ ...grouped, group: 'a.B_c-1/2' }).group?.name).toBe('a.B_c-1/2')
    expect(parse({ ...grouped, group: 'x'.repeat(100) }).group?.name).toHaveLength(100)
    expect(parse({ prompt: 'x' }).group).toBeUndefined()
    expect(parse({ prompt: 'x', 'docs-repository': 'acme/docs' }).group).toBeUndefined()
  })

  it.each([
    ['a space', 'merged prs'],
    ['101 characters', 'x'.repeat(101)],
    ['a colon', 'a:b'],
    ['a non-ASCII letter', 'döcs']
  ])('refuses a name with %s, naming the input and the accepted form', (_, name) => {
    const error = inputError({ ...base, ...grouped, group: name })
    expect(error.input).toBe('group')
    expect(error.message).toContain("expected 1 to 100 letters, digits, '-', '_', '.' or '/'")
  })

  it('needs docs-repository and a step that waits, naming both', () => {
    for (const inputs of [{ 'docs-repository': '' }, { wait: 'false' }] as Record<string, string>[]) {
      const error = inputError({ ...base, ...grouped, ...inputs })
      expect(error.input).toBe('group')
      expect(error.message).toBe(
        "Input 'group': needs 'docs-repository' (owner/name of the docs repository) and 'wait: true' (only a step that waits learns the docs pull request)."
      )
    }
  })

  it('cannot be combined with job-id', () => {
    expect(inputError({ ...base, ...grouped, 'job-id': 'job_1' }).message).toBe(
      "Input 'group': cannot be combined with 'job-id': a group finds its job by itself."
    )
  })

  it('refuses a docs repository that is not owner/name', () => {
    for (const repository of ['acme', 'acme/docs/x', 'https://github.com/acme/docs', 'ac me/docs']) {
      const error = inputError({ ...base, ...grouped, 'docs-repository': repository })
      expect([error.input, error.message]).toEqual([
        'docs-repository',
        `Input 'docs-repository': "${repository}" is not a repository: expected owner/name.`
      ])
    }
  })
})

describe('the owner inputs: reviewers, assignees, merge, merge-method', () => {
  it('reads logins (with or without @), teams and author, without repeats in any case', () => {
    const { owner } = parse({
      prompt: 'x',
      reviewers: 'author, @Mona\nacme/docs-team,mona , AUTHOR',
      assignees: 'dev,author'
    })
    expect(owner.reviewers).toEqual([
      { kind: 'author' },
      { kind: 'user', login: 'Mona' },
      { kind: 'team', org: 'acme', slug: 'docs-team' }
    ])
    expect(owner.assignees).toEqual([{ kind: 'user', login: 'dev' }, { kind: 'author' }])
    expect(parse({ prompt: 'x', reviewers: '@author' }).owner.reviewers).toEqual([{ kind: 'user', login: 'author' }])
    expect(parse({ prompt: 'x', reviewers: 'renovate[bot]' }).owner.reviewers).toEqual([
      { kind: 'user', login: 'renovate[bot]' }
    ])
  })

  it('reads merge and merge-method in any case', () => {
    expect(parse({ prompt: 'x', merge: 'AUTO', 'merge-method': 'Rebase' }).owner).toMatchObject({
      merge: 'auto',
      mergeMethod: 'rebase'
    })
    expect(parse({ prompt: 'x', merge: '', 'merge-method': '' }).owner).toMatchObject({
      merge: 'none',
      mergeMethod: 'squash'
    })
  })

  it.each([
    ['merge', { merge: 'yes' }, 'Input \'merge\': "yes" is not one of none, auto.'],
    [
      'merge-method',
      { 'merge-method': 'fast-forward' },
      'Input \'merge-method\': "fast-forward" is not one of squash, merge, rebase.'
    ],
    [
      'reviewers',
      { reviewers: 'mona, not a login' },
      'Input \'reviewers\': "not a login" is not a login, a team or author: expected logins (mona), teams (org/team-slug) and the word author, comma or newline separated.'
    ],
    [
      'reviewers',
      { reviewers: 'mona, not a login, -dev\nacme/docs/team' },
      'Input \'reviewers\': "not a login", "-dev", "acme/docs/team" are not logins, teams or author: expected logins (mona), teams (org/team-slug) and the word author, comma or newline separated.'
    ],
    [
      'reviewers',
      { reviewers: 'acme/docs/team' },
      'Input \'reviewers\': "acme/docs/team" is not a login, a team or author: expected logins (mona), teams (org/team-slug) and the word author, comma or newline separated.'
    ],
    [
      'reviewers',
      { reviewers: '-mona' },
      'Input \'reviewers\': "-mona" is not a login, a team or author: expected logins (mona), teams (org/team-slug) and the word author, comma or newline separated.'
    ],
    [
      'reviewers',
      { reviewers: `m${'o'.repeat(39)}` },
      `Input 'reviewers': "m${'o'.repeat(39)}" is not a login, a team or author: expected logins (mona), teams (org/team-slug) and the word author, comma or newline separated.`
    ],
    [
      'assignees',
      { assignees: 'dev, acme/docs-team' },
      'Input \'assignees\': "acme/docs-team" is a team: GitHub assigns people only; expected logins (mona) and the word author, comma or newline separated.'
    ],
    [
      'assignees',
      { assignees: 'a,b,c,d,e,f,g,h,i,j,author' },
      "Input 'assignees': 11 people: GitHub assigns at most 10."
    ],
    ['merge', { merge: 'x'.repeat(80) }, `Input 'merge': "${'x'.repeat(60)}" is not one of none, auto.`],
    [
      'reviewers',
      { reviewers: `-${'x'.repeat(150)}` },
      `Input 'reviewers': "-${'x'.repeat(119)}" is not a login, a team or author: expected logins (mona), teams (org/team-slug) and the word author, comma or newline separated.`
    ],
    [
      'assignees',
      { assignees: 'mona, not one' },
      'Input \'assignees\': "not one" is not a login, a team or author: expected logins (mona) and the word author, comma or newline separated.'
    ],
    [
      'merge',
      { merge: 'auto', wait: 'false' },
      "Input 'merge': needs wait: true (a step that returns before the job ends has no docs pull request to act on)."
    ],
    [
      'reviewers',
      { reviewers: 'mona', wait: 'false' },
      "Input 'reviewers': needs wait: true (a step that returns before the job ends has no docs pull request to act on)."
    ],
    [
      'assignees',
      { assignees: 'mona', wait: 'false' },
      "Input 'assignees': needs wait: true (a step that returns before the job ends has no docs pull request to act on)."
    ],
    [
      'labels',
      { labels: 'docs', wait: 'false' },
      "Input 'labels': needs wait: true: only a step that waits for the job learns its docs pull request."
    ],
    [
      'labels',
      { labels: `docs, ${'d'.repeat(51)}` },
      `Input 'labels': "${'d'.repeat(51)}" has 51 characters: expected label names of at most 50, GitHub's limit.`
    ],
    [
      'link-back',
      { 'link-back': 'pull-request docs-pr', wait: 'false' },
      "Input 'link-back': docs-pr needs wait: true: only a step that waits for the job learns its docs pull request."
    ],
    [
      'fail-on',
      { 'fail-on': 'failed, docs-checks' },
      "Input 'fail-on': docs-checks needs docs-checks: wait or fix, which read the checks it judges."
    ],
    [
      'allowed-non-write-users',
      { 'allowed-non-write-users': 'stranger other' },
      `Input 'allowed-non-write-users': "stranger other" is not a login: expected logins (mona, dependabot[bot]) separated by commas or new lines, or *.`
    ],
    [
      'allowed-bots',
      { 'allowed-bots': 'renovate, dependabot other\nbot!' },
      `Input 'allowed-bots': "dependabot other", "bot!" are not logins: expected logins (mona, dependabot[bot]) separated by commas or new lines, or *.`
    ]
  ])('refuses a bad %s before any request, naming the input and the accepted form', (input, inputs, message) => {
    const error = inputError({ ...base, prompt: 'x', ...inputs })
    expect([error.input, error.message]).toEqual([input, message])
  })

  it('takes 10 assignees, a 39-character login and a step that does not wait when nothing is asked', () => {
    expect(parse({ prompt: 'x', assignees: 'a,b,c,d,e,f,g,h,i,j' }).owner.assignees).toHaveLength(10)
    expect(parse({ prompt: 'x', reviewers: `m${'o'.repeat(38)}` }).owner.reviewers).toHaveLength(1)
    expect(parse({ prompt: 'x', wait: 'false' }).owner.merge).toBe('none')
  })
})

describe('parseSettings', () => {
  it("applies action.yml's defaults for a new job", () => {
    const settings = parse({ prompt: 'Document v1.2' })
    expect(settings).toEqual({
      apiKey: 'mint_key',
      projectId: 'proj',
      mode: 'create',
      prompt: 'Document v1.2',
      wait: true,
      timeoutMs: 30 * 60_000,
      pollIntervalMs: 2000,
      maxPollIntervalMs: 10_000,
      failOn: new Set(['failed', 'archived', 'timed-out']),
      baseUrl: new URL('https://api.mintlify.com'),
      githubToken: 'ghs_token',
      // docs-token not given: the docs repository gets github-token.
      docsToken: 'ghs_token',
      labels: [],
      context: 'auto',
      releaseTags: [],
      dryRun: false,
      docsChecks: 'none',
      preview: false,
      onRerun: 'resume',
      rerunKey: 'null',
      allowedNonWriteUsers: [],
      allowedBots: [],
      untrustedContext: 'withhold',
      linkBack: new Set(['pull-request']),
      triggerPhrase: '/docs',
      owner: { reviewers: [], assignees: [], merge: 'none', mergeMethod: 'squash' },
      skip: { labels: ['skip-docs', 'no-docs'], paths: undefined, nothingReleased: false }
    })
  })

  it('chooses the mode from prompt and job-id', () => {
    expect(parse({ 'job-id': 'j1', prompt: 'more' })).toMatchObject({ mode: 'message', jobId: 'j1', prompt: 'more' })
    const waitOnly = parse({ 'job-id': 'j1' })
    expect(waitOnly).toMatchObject({ mode: 'wait-only', jobId: 'j1' })
    expect(parse({ 'job-id': 'j'.repeat(200) })).toMatchObject({ jobId: 'j'.repeat(200) })
    // GitHub counts a label's characters, an emoji as one.
    expect(parse({ prompt: 'x', labels: '📄'.repeat(50) }).labels).toEqual(['📄'.repeat(50)])
    expect(waitOnly).not.toHaveProperty('prompt')
  })

  it('reads the prompt from prompt-file, as is', () => {
    expect(parse({ 'prompt-file': 'p.md' }, { 'p.md': 'line 1\nline 2\n' })).toMatchObject({
      mode: 'create',
      prompt: 'line 1\nline 2\n'
    })
  })

  it('parses lists, fail-on, the base URL and the new inputs', () => {
    const settings = parse({
      prompt: 'x',
      labels: 'docs, release\n\n docs ,',
      'fail-on': 'FAILED\nno-pr timed-out',
      'base-url': 'http://127.0.0.1:8080/proxy/',
      wait: 'True',
      context: 'NONE',
      'dry-run': 'TRUE',
      'on-rerun': 'new',
      'rerun-key': '{"os":"linux"}'
    })
    expect(settings).toMatchObject({
      labels: ['docs', 'release'],
      wait: true,
      context: 'none',
      dryRun: true,
      onRerun: 'new',
      rerunKey: '{"os":"linux"}'
    })
    expect([...settings.failOn]).toEqual(['failed', 'no-pr', 'timed-out'])
    expect(settings.baseUrl.pathname).toBe('/proxy/')
    expect(parse({ prompt: 'x', wait: 'False' }).wait).toBe(false)
    expect(parse({ prompt: 'x', 'fail-on': 'none' }).failOn.size).toBe(0)
    expect(parse({ prompt: 'x', 'fail-on': ' None ' }).failOn.size).toBe(0)
  })

  it('reads link-back, trigger-phrase and allowed-bots; an empty one is its default', () => {
    expect([...parse({ prompt: 'x', 'link-back': 'Release docs-pr,\npull-request release' }).linkBack]).toEqual([
      'release',
      'docs-pr',
      'pull-request'
    ])
    expect([...parse({ prompt: 'x', 'link-back': ' none ' }).linkBack]).toEqual([])
    expect([...parse({ prompt: 'x', 'link-back': '' }).linkBack]).toEqual(['pull-request'])
    expect(parse({ prompt: 'x', 'trigger-phrase': '' }).triggerPhrase).toBe('/docs')
    expect(parse({ prompt: 'x', 'trigger-phrase': '@docs-bot' }).triggerPhrase).toBe('@docs-bot')
    expect(parse({ prompt: 'x', 'trigger-phrase': 'x'.repeat(50) }).triggerPhrase).toHaveLength(50)
    expect(parse({ prompt: 'x', 'allowed-bots': 'renovate, helper[bot]\nrenovate' }).allowedBots).toEqual([
      'renovate',
      'helper[bot]'
    ])
    // Written with @, as people do: the login.
    expect(parse({ prompt: 'x', 'allowed-non-write-users': '@stranger, *' }).allowedNonWriteUsers).toEqual([
      'stranger',
      '*'
    ])
  })

  it('takes what needs another input once that input says so', () => {
    const waiting = parse({ prompt: 'x', labels: 'docs', 'link-back': 'docs-pr', wait: 'true' })
    expect([waiting.labels, [...waiting.linkBack]]).toEqual([['docs'], ['docs-pr']])
    expect([...parse({ prompt: 'x', 'link-back': 'pull-request', wait: 'false' }).linkBack]).toEqual(['pull-request'])
    expect([...parse({ prompt: 'x', 'fail-on': 'docs-checks', 'docs-checks': 'wait' }).failOn]).toEqual(['docs-checks'])
  })

  it('reads check: a name on one line of at most 100 characters; empty is none', () => {
    expect(parse({ prompt: 'x' }).check).toBeUndefined()
    expect(parse({ prompt: 'x', check: '' }).check).toBeUndefined()
    expect(parse({ prompt: 'x', check: ' Docs agent ' }).check).toBe('Docs agent')
    expect(parse({ prompt: 'x', check: 'x'.repeat(100) }).check).toHaveLength(100)
    const form =
      "expected a check run's name on one line, at most 100 characters (such as Docs agent), or empty for none."
    for (const check of ['x'.repeat(101), 'Docs\nagent', 'Docs\ragent'])
      expect(() => parse({ prompt: 'x', check })).toThrow(new InputError('check', form))
  })

  it('names link-back and trigger-phrase and their forms when they are wrong', () => {
    const accepted = 'any of pull-request, release, docs-pr (comma, space or newline separated), or none'
    expect(() => parse({ prompt: 'x', 'link-back': 'pull-request, issue' })).toThrow(
      new InputError('link-back', `unknown target "issue": expected ${accepted}.`)
    )
    expect(() => parse({ prompt: 'x', 'link-back': 'none, release' })).toThrow(
      new InputError('link-back', `none cannot be combined with others: expected ${accepted}.`)
    )
    const phrase = (value: string) =>
      new InputError(
        'trigger-phrase',
        `"${value}" is not one word: expected a phrase such as /docs (at most 50 characters, no spaces).`
      )
    expect(() => parse({ prompt: 'x', 'trigger-phrase': 'hey docs' })).toThrow(phrase('hey docs'))
    expect(() => parse({ prompt: 'x', 'trigger-phrase': 'x'.repeat(51) })).toThrow(phrase('x'.repeat(51)))
  })

  it('lets a comment decide the request only on a comment event with no prompt and no job-id', () => {
    const commands = (inputs: Record<string, string>) =>
      parseSettings(source({ ...base, ...inputs }), { commands: true }).mode
    expect(commands({})).toBe('command')
    expect(commands({ prompt: 'x' })).toBe('create')
    expect(commands({ 'job-id': 'j' })).toBe('wait-only')
    expect(() => parseSettings(source(base), { commands: false })).toThrow(InputError)
  })

  it('raises max-poll-interval to poll-interval when it is shorter, never lowers it', () => {
    expect(parse({ prompt: 'x', 'poll-interval': '30s' })).toMatchObject({
      pollIntervalMs: 30_000,
      maxPollIntervalMs: 30_000
    })
    expect(parse({ prompt: 'x', 'poll-interval': '1s', 'max-poll-interval': '1m' })).toMatchObject({
      pollIntervalMs: 1000,
      maxPollIntervalMs: 60_000
    })
    expect(parse({ prompt: 'x', 'poll-interval': '500ms' }).pollIntervalMs).toBe(500)
  })

  it('takes each duration at its minimum', () => {
    expect(parse({ prompt: 'x', timeout: '1', 'poll-interval': '500ms', 'max-poll-interval': '500ms' })).toMatchObject({
      timeoutMs: 1000,
      pollIntervalMs: 500,
      maxPollIntervalMs: 500
    })
  })

  it('takes an input given empty or blank as its default, as the runner does when it is absent', () => {
    const defaults = parse({ prompt: 'x' })
    const optional = Object.keys(INPUT_DEFAULTS)
    expect(optional.length).toBeGreaterThan(0)
    for (const value of ['', ' \n\t ']) {
      expect(parse({ prompt: 'x', ...Object.fromEntries(optional.map((name) => [name, value])) })).toEqual(defaults)
    }
  })

  it('an empty github-token or rerun-key is empty: the runner alone can evaluate their defaults', () => {
    expect(parse({ prompt: 'x', 'github-token': '', 'rerun-key': ' ' })).toMatchObject({
      githubToken: '',
      rerunKey: ''
    })
  })

  it('still requires api-key and project-id when they are empty or blank', () => {
    expect(inputError({ 'api-key': ' ', 'project-id': 'p', prompt: 'x' }).input).toBe('api-key')
    expect(inputError({ 'api-key': 'k', 'project-id': '\n', prompt: 'x' }).input).toBe('project-id')
  })

  it('refuses a key given as project-id (the inputs swapped), never saying its value', () => {
    const error = inputError({ 'api-key': 'proj-1', 'project-id': 'mint_swapped_secret_key', prompt: 'x' })
    expect(error.input).toBe('project-id')
    expect(error.message).toContain('holds an API key (it starts with mint_)')
    expect(error.message).not.toContain('swapped_secret')
  })

  it('takes durations up to 6h, the limit included', () => {
    expect(MAX_DURATION_MS).toBe(21_600_000)
    expect(
      parse({ prompt: 'x', timeout: '6h', 'poll-interval': '21600', 'max-poll-interval': '5h59m60s' })
    ).toMatchObject({
      timeoutMs: MAX_DURATION_MS,
      pollIntervalMs: MAX_DURATION_MS,
      maxPollIntervalMs: MAX_DURATION_MS
    })
  })

  it('passes on what reading prompt-file says is wrong with it', () => {
    const refused = new InputError('prompt-file', '"p.md" is outside the workspace')
    const error = (() => {
      try {
        parseSettings({
          get: (name) => ({ ...base, 'prompt-file': 'p.md' })[name] ?? '',
          readFile: () => {
            throw refused
          }
        })
      } catch (thrown) {
        return thrown
      }
    })()
    expect(error).toBe(refused)
  })

  it('takes a prompt of exactly the limit', () => {
    expect(parse({ prompt: 'x'.repeat(MAX_PROMPT_CHARS) }).mode).toBe('create')
  })

  it.each<[string, Record<string, string>, RegExp]>([
    ['api-key', { 'project-id': 'p', prompt: 'x' }, /required: the Agent API admin key/],
    ['project-id', { 'api-key': 'k', prompt: 'x' }, /required: the project ID/],
    ['prompt', { ...base }, /set 'prompt' or 'prompt-file' to start a job, or 'job-id'/],
    ['prompt-file', { ...base, prompt: 'x', 'prompt-file': 'p.md' }, /not both/],
    [
      'prompt-file',
      { ...base, 'prompt-file': 'missing.md' },
      /cannot read "missing.md" \(ENOENT\): expected the path of a readable UTF-8 file/
    ],
    [
      'prompt',
      { ...base, prompt: 'x'.repeat(MAX_PROMPT_CHARS + 1) },
      /the prompt has 100,001 characters; the limit is 100,000\./
    ],
    ['prompt', { ...base, prompt: ' ', 'job-id': '' }, /set 'prompt'/],
    [
      'job-id',
      { ...base, 'job-id': 'job_1 job_2' },
      /^Input 'job-id': "job_1 job_2" is not a job ID: expected the job-id output of the step that created the job \(one word, at most 200 characters\)\.$/
    ],
    ['job-id', { ...base, prompt: 'x', 'job-id': 'job_1\njob_2' }, /"job_1\njob_2" is not a job ID/],
    ['job-id', { ...base, 'job-id': 'j'.repeat(201) }, new RegExp(`"${'j'.repeat(200)}" is not a job ID`)],
    [
      'timeout',
      { ...base, prompt: 'x', timeout: '10 minutes' },
      /"10 minutes" is not a duration: expected seconds \(600\) or a duration such as 500ms/
    ],
    [
      'timeout',
      { ...base, prompt: 'x', timeout: '0' },
      /^Input 'timeout': "0" is shorter than 1s, the minimum: expected at least 1s\.$/
    ],
    ['timeout', { ...base, prompt: 'x', timeout: '999ms' }, /"999ms" is shorter than 1s/],
    ['poll-interval', { ...base, prompt: 'x', 'poll-interval': '0' }, /"0" is shorter than 500ms, the minimum/],
    ['max-poll-interval', { ...base, prompt: 'x', 'max-poll-interval': '0s' }, /"0s" is shorter than 500ms/],
    ['max-poll-interval', { ...base, prompt: 'x', 'max-poll-interval': '499ms' }, /"499ms" is shorter than 500ms/],
    [
      'timeout',
      { ...base, prompt: 'x', timeout: '6h1s' },
      /^Input 'timeout': "6h1s" is longer than 6h, GitHub's limit for a job: expected at most 6h\.$/
    ],
    ['timeout', { ...base, prompt: 'x', timeout: '21601' }, /"21601" is longer than 6h/],
    ['timeout', { ...base, prompt: 'x', timeout: '9'.repeat(400) }, /is longer than 6h/],
    ['poll-interval', { ...base, prompt: 'x', 'poll-interval': '21600001ms' }, /"21600001ms" is longer than 6h/],
    ['max-poll-interval', { ...base, prompt: 'x', 'max-poll-interval': '2147484s' }, /"2147484s" is longer than 6h/],
    [
      'poll-interval',
      { ...base, prompt: 'x', 'poll-interval': '499ms' },
      /^Input 'poll-interval': "499ms" is shorter than 500ms, the minimum: expected at least 500ms\.$/
    ],
    ['max-poll-interval', { ...base, prompt: 'x', 'max-poll-interval': 'x' }, /not a duration/],
    ['wait', { ...base, prompt: 'x', wait: 'yes' }, /"yes" is not a boolean: expected true or false/],
    ['dry-run', { ...base, prompt: 'x', 'dry-run': '1' }, /"1" is not a boolean/],
    ['context', { ...base, prompt: 'x', context: 'some' }, /"some" is not one of auto, none\./],
    ['on-rerun', { ...base, prompt: 'x', 'on-rerun': 'skip' }, /"skip" is not one of resume, new\./],
    [
      'fail-on',
      { ...base, prompt: 'x', 'fail-on': 'failed, errored' },
      /unknown outcome "errored": expected any of failed, archived, timed-out, no-pr, docs-checks \(comma, space or newline separated\), or none/
    ],
    ['fail-on', { ...base, prompt: 'x', 'fail-on': 'none failed' }, /unknown outcome "none"/],
    ['fail-on', { ...base, prompt: 'x', 'fail-on': ' , ' }, /empty: expected any of/],
    [
      'base-url',
      { ...base, prompt: 'x', 'base-url': 'http://api.example.com' },
      /plain http:\/\/ would send the API key unencrypted to api\.example\.com/
    ],
    ['base-url', { ...base, prompt: 'x', 'base-url': 'http://127.0.0.1.evil.com' }, /unencrypted/],
    [
      'base-url',
      { ...base, prompt: 'x', 'base-url': 'not a url' },
      /"not a url" is not a URL: expected an https:\/\/ URL/
    ],
    ['base-url', { ...base, prompt: 'x', 'base-url': 'ftp://example.com' }, /unsupported scheme ftp:/],
    ['base-url', { ...base, prompt: 'x', 'base-url': 'https://u:p@example.com' }, /credentials, a query or a fragment/],
    [
      'base-url',
      { ...base, prompt: 'x', 'base-url': 'https://example.com/?a=1' },
      /credentials, a query or a fragment/
    ],
    ['base-url', { ...base, prompt: 'x', 'base-url': 'https://example.com/#x' }, /credentials, a query or a fragment/]
  ])('names %s when it is wrong', (input, inputs, message) => {
    const error = inputError(inputs, { 'p.md': 'x' })
    expect(error.input).toBe(input)
    expect(error.message).toMatch(new RegExp(`^Input '${input}': `))
    expect(error.message).toMatch(message)
  })

  it('refuses an empty prompt file, naming it', () => {
    expect(inputError({ ...base, 'prompt-file': 'e.md' }, { 'e.md': ' \n' }).message).toBe(
      "Input 'prompt-file': the prompt is empty: the agent needs an instruction."
    )
  })

  it('never puts the key in an error message', () => {
    const error = inputError({ 'api-key': 'mint_topsecret', 'project-id': 'p', prompt: 'x', timeout: 'soon' })
    expect(error.message).not.toContain('mint_topsecret')
  })
})

describe('release-tags', () => {
  const tags = (value: string) => parse({ prompt: 'p', 'release-tags': value }).releaseTags

  it('takes a list, one per line or separated by commas or spaces, without repeats', () => {
    expect(tags('@acme/cli@2.1.0\n@acme/core@1.4.0, acme-util-0.7.19  tools/v0.23.0\r\n@acme/cli@2.1.0')).toEqual([
      { tag: '@acme/cli@2.1.0' },
      { tag: '@acme/core@1.4.0' },
      { tag: 'acme-util-0.7.19' },
      { tag: 'tools/v0.23.0' }
    ])
    expect(tags('')).toEqual([])
  })

  it("takes changesets' publishedPackages as is: name@version, or v + version for a single package", () => {
    expect(tags('[{"name":"@acme/cli","version":"2.1.0"},{"name":" docs ","version":" 0.3.0-next.1 "}]')).toEqual([
      { tag: '@acme/cli@2.1.0', fallback: 'v2.1.0' },
      { tag: 'docs@0.3.0-next.1', fallback: 'v0.3.0-next.1' }
    ])
    // changesets published nothing: the event decides.
    expect(tags('[]')).toEqual([])
  })

  it.each([
    '[',
    '[@acme/cli@2.1.0]',
    '["@acme/cli@2.1.0"]',
    '[{"name":"@acme/cli"}]',
    '[{"name":"@acme/cli","version":2}]',
    '[{"name":" ","version":"2.1.0"}]',
    '[{"name":"cli","version":""}]',
    '[null]',
    '[{"name":"cli","version":"1.0.0"}, 3]'
  ])('refuses %j, which starts with [ but is not publishedPackages', (value) => {
    const error = inputError({ ...base, prompt: 'p', 'release-tags': value })
    expect(error.input).toBe('release-tags')
    expect(error.message).toBe(
      `Input 'release-tags': starts with "[" but is not a JSON array of {"name", "version"} objects; expected a list of tags (one per line, or separated by commas or spaces), or changesets/action's publishedPackages output as is: a JSON array of {"name", "version"} objects.`
    )
  })
})

describe('isLoopback', () => {
  it.each([
    ['localhost', true],
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['[::1]', true],
    ['127.0.0.1.evil.com', false],
    ['evil.127.0.0.1', false],
    ['x127.0.0.1', false],
    ['localhost.evil.com', false],
    ['128.0.0.1', false]
  ])('%s: %s', (host, loopback) => {
    expect(isLoopback(host)).toBe(loopback)
  })
})
