// What the action writes about a job on GitHub, rendered from the run's state: one line of what was
// asked, the comment's lines as the job goes and at its end, the release block, the docs PR's
// comment, and the check run's conclusion.
import { describe, expect, it } from '@jest/globals'
import { inputDefaults, readAction } from '../../scripts/action-metadata.js'
import { parseJob } from '../../src/agent-api/job.js'
import type { Trigger } from '../../src/github/event.js'
import { initialState, type RunState } from '../../src/report/state.js'
import { askedFor } from '../../src/step/asked.js'
import { conclusionOf } from '../../src/step/tracking/check.js'
import {
  ASKED_NAMED,
  docsPrLines,
  jobLines,
  releaseBlock,
  renderLinkBack,
  working
} from '../../src/step/tracking/link-back-text.js'
import { parseSettings, type Settings } from '../../src/step/settings.js'

const DEFAULTS = inputDefaults(readAction(), 'tok')
const settingsOf = (inputs: Record<string, string> = {}): Settings =>
  parseSettings({
    get: (name) => ({ ...DEFAULTS, 'api-key': 'k', 'project-id': 'p', prompt: 'x', ...inputs })[name] ?? '',
    readFile: () => ''
  })
const SETTINGS = settingsOf()
const WHERE = { serverUrl: undefined, runUrl: 'https://github.com/a/b/actions/runs/1' }
const PR = 'https://github.com/acme/docs/pull/12'
const state = (patch: Partial<RunState>): RunState => ({ ...initialState(0, 'job_1'), ...patch })
const job = (fields: Record<string, unknown>) => parseJob({ createdAt: '2026-11-22T10:00:00Z', ...fields })

describe('what was asked', () => {
  const pull: Trigger = {
    kind: 'pull-request',
    repo: 'acme/app',
    number: 7,
    title: 'T',
    url: 'https://github.com/acme/app/pull/7',
    body: '',
    base: 'main',
    head: 'dry',
    changedFiles: 1,
    labels: []
  }
  it.each<[string, Trigger, string | undefined]>([
    ['a pull request', pull, 'pull request [acme/app#7](https://github.com/acme/app/pull/7)'],
    ['a pull request without its page', { ...pull, url: undefined }, 'pull request `acme/app#7`'],
    [
      'a release',
      { kind: 'tag', repo: 'acme/app', tag: 'v1.2.0', release: { tag: 'v1.2.0', name: '', body: '', url: undefined } },
      'release `v1.2.0`'
    ],
    ['a tag', { kind: 'tag', repo: 'acme/app', tag: 'v1.2.0`]', release: undefined }, "tag `v1.2.0']`"],
    [
      'a push',
      {
        kind: 'push',
        repo: 'acme/app',
        branch: 'main',
        commits: [{ id: 'a', message: 'm', author: undefined }],
        compareUrl: 'https://github.com/acme/app/compare/a...b',
        headMessage: 'm',
        range: { before: 'a', after: 'b' }
      },
      'the push to `main` ([1 commit](https://github.com/acme/app/compare/a...b))'
    ],
    [
      'a push without its compare page',
      {
        kind: 'push',
        repo: 'acme/app',
        branch: 'main',
        commits: [],
        compareUrl: undefined,
        headMessage: undefined,
        range: undefined
      },
      'the push to `main` (0 commits)'
    ],
    [
      'a scheduled run',
      {
        kind: 'scheduled',
        repo: 'acme/app',
        event: 'schedule',
        branch: 'main',
        sha: 'abcdef0123456789',
        workflow: 'docs.yml'
      },
      'the changes on `main` since the last successful run of `docs.yml`, up to `abcdef0`'
    ],
    ['another event', { kind: 'other', event: 'workflow_run' }, 'a `workflow_run` run'],
    ['no event', { kind: 'other', event: '' }, undefined]
  ])('%s', (_, trigger, line) => {
    expect(askedFor(trigger, SETTINGS)).toBe(line)
  })

  it('a command and whose it is, a follow-up, the release set; a wait asks nothing', () => {
    const command = { kind: 'follow-up' as const, author: 'mona', text: 'Also `this`', id: 1 }
    expect(askedFor(pull, { ...SETTINGS, command })).toBe("@mona's follow-up `Also 'this'`")
    expect(askedFor(pull, { ...SETTINGS, command: { ...command, kind: 'create', author: 'x y' } })).toBe(
      "`x y`'s request `Also 'this'`"
    )
    expect(askedFor(pull, { ...SETTINGS, mode: 'message', jobId: 'j', prompt: 'p' })).toBe('a follow-up to the job')
    expect(askedFor(pull, { ...SETTINGS, mode: 'wait-only', jobId: 'j' })).toBeUndefined()
    const tags = (n: number) => Array.from({ length: n }, (_, i) => ({ tag: `pkg${i}@1.0.${i}` }))
    expect(askedFor(pull, { ...SETTINGS, releaseTags: tags(3) })).toBe(
      'the release of `pkg0@1.0.0`, `pkg1@1.0.1`, `pkg2@1.0.2`'
    )
    expect(askedFor(pull, { ...SETTINGS, releaseTags: tags(5) })).toBe(
      'the release of `pkg0@1.0.0`, `pkg1@1.0.1`, `pkg2@1.0.2` and 2 more'
    )
  })
})

describe('the job’s lines', () => {
  it('while working: the job, its status, the run, the docs PR when known, what was asked and when', () => {
    const running = state({ job: job({ status: 'active', prLink: PR }) })
    expect(working(running)).toBe(true)
    expect(jobLines({ state: running, settings: SETTINGS, asked: 'tag `v1`' }, WHERE)).toEqual([
      '**Docs agent:** working on the docs.',
      '',
      'job `job_1` · status `active` · [workflow run](https://github.com/a/b/actions/runs/1)',
      '',
      'Docs pull request: [acme/docs#12](https://github.com/acme/docs/pull/12)',
      '',
      'Asked: tag `v1` · started 2026-11-22 10:00:00 UTC.'
    ])
    const command = { kind: 'create' as const, author: 'mona', text: 't', id: 1 }
    expect(jobLines({ state: running, settings: { ...SETTINGS, command } }, WHERE)[0]).toBe(
      "**Docs agent:** working on @mona's request."
    )
  })

  it('a follow-up started when it was sent; a start the server did not give is left out', () => {
    const message = { ...SETTINGS, mode: 'message' as const, jobId: 'job_1', prompt: 'p' }
    const sent = state({ postedAt: Date.parse('2026-11-23T08:30:00Z'), job: job({ status: 'active' }) })
    expect(jobLines({ state: sent, settings: message }, WHERE).at(-1)).toBe('started 2026-11-23 08:30:00 UTC.')
    const unknown = state({ job: parseJob({ status: 'active', createdAt: 'yesterday' }) })
    expect(jobLines({ state: unknown, settings: SETTINGS }, WHERE).at(-1)).toMatch(/^job `job_1`/)
  })

  // The secrets leave every write on its way to GitHub (redact-writes.ts, github-write-redaction.test.ts).
  it('at the end: what happened, inert, and what to do now', () => {
    const failed = state({
      outcome: 'error',
      failure: 'The API said: bad key [x](javascript:y)',
      job: job({ status: 'active' })
    })
    const lines = jobLines({ state: failed, settings: SETTINGS }, WHERE)
    expect(lines).toContain('What happened: `The API said: bad key [x](javascript:y)`')
    expect(lines).toContain('What now: It may still be running: wait for it with `job-id: job_1` and no prompt.')
    const cancelled = state({
      outcome: 'cancelled',
      failure: 'Cancelled while waiting.',
      job: job({ status: 'active' })
    })
    expect(jobLines({ state: cancelled, settings: SETTINGS }, WHERE)).toContain(
      'What happened: `Cancelled while waiting.`'
    )
    // A timed-out or failed job has no failure text: its headline and next step say it.
    const timedOut = state({ outcome: 'timed-out', failure: 'x', job: job({ status: 'active' }) })
    expect(jobLines({ state: timedOut, settings: SETTINGS }, WHERE).join('\n')).not.toContain('What happened')
    const done = state({ outcome: 'completed', job: job({ status: 'completed', prLink: PR }) })
    expect(jobLines({ state: done, settings: SETTINGS }, WHERE).join('\n')).not.toMatch(/What now|Docs pull request:/)
  })

  it('in full: the preview, what happened, what to do now, each its own paragraph', () => {
    const ended = state({
      outcome: 'cancelled',
      failure: 'Cancelled.',
      job: job({ status: 'active' }),
      preview: { url: 'https://p.mintlify.app', problem: undefined }
    })
    expect(jobLines({ state: ended, settings: SETTINGS, asked: 'tag `v1`' }, WHERE)).toEqual([
      '**Docs agent:** no docs pull request yet: the job is `active`.',
      '',
      'job `job_1` · status `active` · [workflow run](https://github.com/a/b/actions/runs/1)',
      '',
      'Preview: [https://p.mintlify.app](https://p.mintlify.app/)',
      '',
      'Asked: tag `v1` · started 2026-11-22 10:00:00 UTC.',
      '',
      'What happened: `Cancelled.`',
      '',
      'What now: It may still finish: wait for it with `job-id: job_1` and no prompt, or re-run this workflow job to resume it.'
    ])
  })

  it('no job: the headline alone, whatever else is known', () => {
    const none = { ...state({ outcome: 'error', failure: 'The create was refused.' }), jobId: undefined }
    expect(jobLines({ state: none, settings: settingsOf({ wait: 'false' }), asked: 'tag `v1`' }, WHERE)).toEqual([
      '**Docs agent:** no job was started: see the workflow run.',
      '',
      '[workflow run](https://github.com/a/b/actions/runs/1)'
    ])
  })

  it('wait: false says a later wait-only step updates it', () => {
    const started = state({ outcome: 'started', job: job({ status: 'active' }) })
    expect(jobLines({ state: started, settings: settingsOf({ wait: 'false' }) }, WHERE).slice(-2)).toEqual([
      '',
      'This step does not wait for the job: a later step that waits for it (`job-id: job_1` and no prompt) on the same event updates this.'
    ])
    expect(jobLines({ state: started, settings: SETTINGS }, WHERE).join('\n')).not.toContain('does not wait')
  })

  it('the comment adds the group, the last command and how to ask for changes', () => {
    const group = {
      name: 'g',
      via: 'follow-up' as const,
      pull: { label: 'acme/docs#3', url: 'https://github.com/acme/docs/pull/3' }
    }
    const command = { kind: 'follow-up' as const, author: 'mona', text: 't', id: 1 }
    const lines = renderLinkBack({ state: state({ group }), settings: { ...SETTINGS, command } }, WHERE)
    expect(lines.slice(0, 3)).toEqual([
      "**Docs agent:** working on @mona's request.",
      '',
      'This change was added to the open docs pull request [acme/docs#3](https://github.com/acme/docs/pull/3) of group `g`.'
    ])
    expect(lines.slice(-4)).toEqual([
      '',
      'Last request: a follow-up, from @mona.',
      '',
      'To ask for changes, comment `/docs <what to change>` here.'
    ])
    const created = renderLinkBack(
      { state: state({}), settings: { ...SETTINGS, command: { ...command, kind: 'create' } } },
      WHERE
    )
    expect(created).toContain('Last request: a new job, from @mona.')
  })
})

describe('the release block and the docs PR’s comment', () => {
  it('the block: the docs PR once there is one; before, the job at work or how it ended', () => {
    const report = (patch: Partial<RunState>) => ({ state: state(patch), settings: SETTINGS })
    expect(releaseBlock(report({ job: job({ status: 'completed', prLink: PR }) }), WHERE)).toBe(
      '**Docs:** [acme/docs#12](https://github.com/acme/docs/pull/12)'
    )
    expect(releaseBlock(report({ job: job({ status: 'active' }) }), WHERE)).toBe(
      '**Docs:** the docs agent is working on it. job `job_1` · [workflow run](https://github.com/a/b/actions/runs/1)'
    )
    expect(
      releaseBlock(report({ outcome: 'failed', job: job({ status: 'failed' }) }), {
        serverUrl: undefined,
        runUrl: undefined
      })
    ).toBe('**Docs:** no docs pull request: the job ended `failed`. job `job_1`')
  })

  it('the docs PR’s comment: where it came from, the job as it goes, how to ask for changes', () => {
    const report = { state: state({ job: job({ status: 'active', prLink: PR }) }), settings: SETTINGS }
    expect(docsPrLines(report, { thread: 'acme/app#7', release: undefined }, WHERE)).toEqual([
      '**Docs agent:** this pull request was opened for acme/app#7.',
      '',
      'job `job_1` · status `active` · [workflow run](https://github.com/a/b/actions/runs/1)',
      '',
      'To ask for changes, comment `/docs <what to change>` on acme/app#7.'
    ])
    const fromRelease = docsPrLines(
      report,
      { thread: undefined, release: 'release v1 of acme/app' },
      { serverUrl: undefined, runUrl: undefined }
    )
    expect(fromRelease[0]).toBe('**Docs agent:** this pull request was opened for release v1 of acme/app.')
    expect(fromRelease[2]).toBe('job `job_1` · status `active`')
    expect(fromRelease[4]).toBe('To ask for changes, send a follow-up to job `job_1`.')
    expect(
      docsPrLines({ state: state({}), settings: SETTINGS }, { thread: undefined, release: undefined }, WHERE)[0]
    ).toBe('**Docs agent:** this pull request was opened for a workflow.')
  })
})

describe('the checks the agent was asked to fix', () => {
  const asked = (count: number) =>
    state({
      outcome: 'completed',
      job: job({ status: 'completed', prLink: PR }),
      docsChecks: {
        result: 'failure',
        checks: [],
        rounds: 1,
        asked: Array.from({ length: count }, (_, i) => `check ${String(i + 1)}`)
      }
    })
  const line = (count: number) =>
    jobLines({ state: asked(count), settings: SETTINGS }, WHERE).find((l) => l.startsWith('Asked'))

  it(`names up to ${String(ASKED_NAMED)} and counts the rest: the phase reads up to 1,000`, () => {
    const names = (count: number) => Array.from({ length: count }, (_, i) => `\`check ${String(i + 1)}\``).join(', ')
    expect(line(ASKED_NAMED)).toBe(`Asked the agent to fix: ${names(ASKED_NAMED)}.`)
    expect(line(1000)).toBe(`Asked the agent to fix: ${names(ASKED_NAMED)} and 980 more.`)
  })
})

describe('the check’s conclusion', () => {
  it.each<[string, Partial<RunState>, boolean, string]>([
    ['a docs PR', { outcome: 'completed', job: job({ status: 'completed', prLink: PR }) }, false, 'success'],
    ['completed without one', { outcome: 'completed', job: job({ status: 'completed' }) }, false, 'neutral'],
    ['completed without one, failing', { outcome: 'completed', job: job({ status: 'completed' }) }, true, 'failure'],
    [
      'an unusable link',
      { outcome: 'completed', job: job({ status: 'completed', prLink: 'ftp://x' }) },
      false,
      'neutral'
    ],
    ['a failed job, tolerated', { outcome: 'failed' }, false, 'neutral'],
    ['a failed job', { outcome: 'failed' }, true, 'failure'],
    ['a timeout', { outcome: 'timed-out' }, true, 'timed_out'],
    ['a timeout, tolerated', { outcome: 'timed-out' }, false, 'neutral'],
    ['the runner’s cancel', { outcome: 'cancelled' }, true, 'cancelled'],
    ['an error', { outcome: 'error' }, true, 'failure'],
    ['not waited for', { outcome: 'started', job: job({ status: 'active', prLink: PR }) }, false, 'neutral']
  ])('%s: %s', (_, patch, failed, conclusion) => {
    expect(conclusionOf(state(patch), failed)).toBe(conclusion)
  })
})
