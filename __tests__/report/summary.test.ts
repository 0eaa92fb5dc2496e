import { describe, expect, it } from '@jest/globals'
import type { Settings } from '../../src/step/settings.js'
import type { RunState } from '../../src/report/state.js'
import { CELL_CHARS, renderSummary, SUMMARY_BYTES, SUMMARY_PROMPT_CHARS } from '../../src/report/summary.js'
import { renderLikeGitHub } from '../../scripts/github-render.js'
import { DONE_JOB as done, runStateAt, settings } from '../fixtures/run-state.js'

const state = runStateAt(1_000_000)
const render = (s: RunState, given: Settings | undefined = settings()) =>
  renderSummary({ state: s, settings: given, serverUrl: undefined })

describe('renderSummary', () => {
  it('leads with the pull request; details follow, one row per line', () => {
    const html = render(
      state(
        { outcome: 'completed', waitStartedAt: 1_000_000, endedAt: 1_062_000, polls: 9, prompt: 'Document v2' },
        done
      )
    )
    expect(html).toBe(
      [
        '<h2>✅ Docs pull request ready</h2>',
        '<p><strong>Pull request:</strong> <a href="https://github.com/acme/docs/pull/42">acme/docs#42</a></p>',
        '<table>',
        '<tr><th align="left">Job</th><td><code>job_1</code></td></tr>',
        '<tr><th align="left">Status</th><td><code>completed</code>, after 1m 2s and 9 polls</td></tr>',
        '<tr><th align="left">Docs repository</th><td><a href="https://github.com/acme/docs">acme/docs</a></td></tr>',
        '<tr><th align="left">Branch</th><td><code>main</code></td></tr>',
        '<tr><th align="left">Model</th><td><code>m-1</code></td></tr>',
        '<tr><th align="left">Created</th><td>2026-11-21 10:00:00 UTC</td></tr>',
        '<tr><th align="left">Request</th><td>new job</td></tr>',
        '</table>',
        '<details><summary>Prompt (11 characters)</summary><pre>',
        'Document v2</pre></details>',
        '',
        ''
      ].join('\n')
    )
  })

  it('says nothing of a wait shorter than a second, and nothing of polls when there were none', () => {
    expect(render(state({ outcome: 'completed', waitStartedAt: 0, endedAt: 400, polls: 1 }, done))).toContain(
      '<td><code>completed</code>, 1 poll</td>'
    )
    expect(render(state({ outcome: 'started' }, { ...done, status: 'active' }))).toContain(
      '<td><code>active</code></td>'
    )
  })

  it('names a resume, the context, a follow-up and a wait-only step', () => {
    const html = render(
      state(
        {
          outcome: 'completed',
          resumedFrom: 2,
          context: { text: 'ctx', description: 'Push to main: 1 commit', warning: undefined, requests: 0 },
          prompt: 'Do it\n\nctx'
        },
        done
      )
    )
    expect(html).toContain('<tr><th align="left">Request</th><td>new job, resumed from attempt 2 of this run</td></tr>')
    expect(html).toContain('<tr><th align="left">Context</th><td>Push to main: 1 commit</td></tr>')
    expect(html).toContain('<details><summary>Prompt (5 characters)</summary><pre>\nDo it</pre></details>')
    expect(html).toContain(
      '<details><summary>Context added from GitHub: Push to main: 1 commit (3 characters)</summary><pre>\nctx</pre></details>'
    )
    expect(render(state({ outcome: 'completed' }, done), settings({ 'job-id': 'j', prompt: 'more' }))).toContain(
      '<td>follow-up message</td>'
    )
    expect(render(state({ outcome: 'completed' }, done), settings({ 'job-id': 'j', prompt: '' }))).toContain(
      '<td>wait only</td>'
    )
  })

  it('says what command was read and from whom, inert', () => {
    const given = {
      ...settings(),
      command: { kind: 'follow-up' as const, author: 'mona', text: '<b>Fix</b> it', id: 1 }
    }
    expect(render(state({ outcome: 'completed' }, done), given)).toContain(
      '<tr><th align="left">Command</th><td>&lt;b&gt;Fix&lt;/b&gt; it from <code>@mona</code> (follow-up to the linked job)</td></tr>'
    )
    const created = { ...given, command: { ...given.command, kind: 'create' as const } }
    expect(render(state({ outcome: 'completed' }, done), created)).toContain(
      'from <code>@mona</code> (new job)</td></tr>'
    )
    expect(render(state({ outcome: 'completed' }, done))).not.toContain('Command')
  })

  it('names the group, and whether the run added to it or started it (or would, in a dry run)', () => {
    const pull = { label: 'acme/docs#12', url: 'https://github.com/acme/docs/pull/12' }
    const row = (group: RunState['group']): string => {
      const html = render(state({ outcome: 'completed', group }, done))
      return /<tr><th align="left">Group<\/th><td>(.*?)<\/td><\/tr>/.exec(html)?.[1] ?? ''
    }
    expect(row({ name: 'merged-prs', via: 'follow-up', pull })).toBe(
      '<code>merged-prs</code>: added to its open docs pull request <a href="https://github.com/acme/docs/pull/12">acme/docs#12</a>'
    )
    expect(row({ name: 'merged-prs', via: 'would-follow-up', pull })).toBe(
      '<code>merged-prs</code>: would add to its open docs pull request <a href="https://github.com/acme/docs/pull/12">acme/docs#12</a> (dry run)'
    )
    expect(row({ name: 'g', via: 'follow-up' })).toBe('<code>g</code>: added to its open docs pull request')
    expect(row({ name: 'g', via: 'would-follow-up' })).toBe(
      '<code>g</code>: would add to its open docs pull request (dry run)'
    )
    expect(row({ name: 'g', via: 'created' })).toBe('<code>g</code>: started a new job for it')
    expect(row({ name: 'g', via: 'would-create' })).toBe('<code>g</code>: would start a new job for it (dry run)')
    expect(render(state({ outcome: 'completed' }, done))).not.toContain('Group')
  })

  it("names the docs pull request's reviewers, assignees and merge, inert", () => {
    const rows = (owner: RunState['owner']): string[] => {
      const html = render(state({ outcome: 'completed', owner }, done))
      return [...html.matchAll(/<tr><th align="left">(Reviewers|Assignees|Merge)<\/th><td>(.*?)<\/td><\/tr>/g)].map(
        ([, name, value]) => `${name ?? ''}: ${value ?? ''}`
      )
    }
    expect(
      rows({
        reviewers: ['dev', 'acme/docs-team'],
        assignees: ['dev'],
        merge: { result: 'auto-merge', method: 'squash' }
      })
    ).toEqual([
      'Reviewers: @dev, acme/docs-team',
      'Assignees: @dev',
      'Merge: auto-merge on (squash): it merges once its required checks and reviews pass'
    ])
    expect(rows({ reviewers: [], assignees: [], merge: { result: 'merged', method: 'rebase' } })).toEqual([
      'Reviewers: none',
      'Merge: merged (rebase)'
    ])
    expect(
      rows({ reviewers: ['<b>'], assignees: [], merge: { result: 'open', method: 'merge', why: 'a <rule>' } })
    ).toEqual(['Reviewers: @&lt;b&gt;', 'Merge: left open: a &lt;rule&gt;'])
    expect(rows({ reviewers: [], assignees: [], merge: { result: 'open', method: 'merge' } })).toEqual([
      'Reviewers: none',
      'Merge: left open: see the log'
    ])
    expect(rows(undefined)).toEqual([])
  })

  it("the Branch row: the docs pull request's head branch when it was read, else the job's branch", () => {
    const branch = (s: RunState) => /<th align="left">Branch<\/th><td>(.*?)<\/td>/.exec(render(s))?.[1]
    const previewed = { url: 'https://acme-docs.mintlify.app', problem: undefined }
    expect(branch(state({ outcome: 'completed', preview: { ...previewed, branch: 'mintlify/docs-a1' } }, done))).toBe(
      '<code>mintlify/docs-a1</code>'
    )
    // The job's branch when the preview asked for it, not the pull request's.
    expect(branch(state({ outcome: 'completed', preview: previewed }, done))).toBe('<code>main</code>')
    const pull = { label: 'acme/docs#42', url: done.prLink }
    const group = (head?: string) => ({ name: 'docs', via: 'follow-up' as const, pull: { ...pull, head } })
    expect(branch(state({ outcome: 'completed', group: group('mintlify/docs-g7') }, done))).toBe(
      '<code>mintlify/docs-g7</code>'
    )
    expect(branch(state({ outcome: 'completed', group: group() }, done))).toBe('<code>main</code>')
    // Read without a job's branch, it is still shown; neither, no row.
    const bare = { ...done, source: { repository: done.source.repository } }
    expect(branch(state({ outcome: 'completed', preview: { ...previewed, branch: 'b' } }, bare))).toBe('<code>b</code>')
    expect(branch(state({ outcome: 'completed' }, bare))).toBeUndefined()
  })

  it('keeps the prompt line by line, a blank line never ending the HTML block', () => {
    const html = render(
      state({ outcome: 'dry-run', prompt: '\nfirst\n\n\n  \nlast\r\nend\n' }),
      settings({ 'dry-run': 'true' })
    )
    expect(html).toContain(
      '<details open><summary>Prompt that would be sent (22 characters)</summary><pre>\n&#10;first&#10;&#10;&#10;\nlast\nend&#10;</pre></details>'
    )
    expect(html.trimEnd()).not.toMatch(/\n\s*\n/)
  })

  it('shows at most 4,000 characters of the prompt, cut between characters', () => {
    const html = render(state({ outcome: 'completed', prompt: `${'x'.repeat(SUMMARY_PROMPT_CHARS - 2)}😀😀` }, done))
    expect(html).toContain(
      `Prompt (4,002 characters, first 3,998 shown)</summary><pre>\n${'x'.repeat(SUMMARY_PROMPT_CHARS - 2)}…</pre>`
    )
  })

  it('ends no line but where the text does: a lone CR, CR LF and the Unicode separators are line ends', () => {
    const prompt = 'a\r\r<img src=x>![i](https://evil.test/i.png)\r\nb\u2028c\u2029d\u0085# e'
    const html = render(state({ outcome: 'completed', prompt }, done))
    expect(html).toContain('<pre>\na&#10;\n&lt;img src=x&gt;![i](https://evil.test/i.png)\nb\nc\nd\n# e</pre>')
    // Read as the runner reads the file (a line ends at \r, \n or \r\n): no blank line ends the block.
    expect(
      html
        .trimEnd()
        .split(/\r\n|\r|\n/)
        .filter((line) => line.trim() === '')
    ).toEqual([])
    expect(renderLikeGitHub(html).html).not.toMatch(/<img|<h1/)
  })

  it('shows the context whole, direction controls named, however many it holds', () => {
    const text = `${'\u202Eab'.repeat(2000)}END`
    const html = render(
      state({ outcome: 'completed', context: { text, description: 'd', warning: undefined, requests: 0 } }, done)
    )
    expect(html).toContain(
      `Context added from GitHub: d (6,003 characters)</summary><pre>\n${'[U+202E]ab'.repeat(2000)}END</pre>`
    )
  })

  it('says how many hidden characters were removed from the context, and nothing when none were', () => {
    const context = (hidden?: number) => ({
      text: 'c',
      description: 'Push to main: 1 commit',
      warning: undefined,
      requests: 0,
      hidden
    })
    expect(render(state({ outcome: 'completed', context: context(1) }, done))).toContain(
      '<td>Push to main: 1 commit; 1 hidden character removed from the context</td>'
    )
    expect(render(state({ outcome: 'completed', context: context(1234) }, done))).toContain(
      '<td>Push to main: 1 commit; 1,234 hidden characters removed from the context</td>'
    )
    for (const hidden of [0, undefined])
      expect(render(state({ outcome: 'completed', context: context(hidden) }, done))).toContain(
        '<td>Push to main: 1 commit</td>'
      )
  })

  it(`stays within ${SUMMARY_BYTES} bytes as written, saying how much is shown, and shows exactly that start`, () => {
    // Each " is 6 bytes escaped, each é 2, each direction control 8 named: over 1 MiB in all.
    const text = `${'"é\u202E'.repeat(70_000)}TAIL`
    const prompt = `${'&'.repeat(3000)}\n${text}`
    const html = render(
      state(
        { outcome: 'completed', prompt, context: { text, description: 'd', warning: undefined, requests: 0 } },
        done
      )
    )
    expect(Buffer.byteLength(html)).toBeLessThanOrEqual(SUMMARY_BYTES)
    expect(Buffer.byteLength(html)).toBeGreaterThan(SUMMARY_BYTES - 20)
    expect(html).toContain(`Prompt (3,000 characters)</summary>`)
    const shown =
      /Context added from GitHub: d \(210,004 characters, first ([\d,]+) shown\)<\/summary><pre>\n([^]*)…<\/pre>/.exec(
        html
      )
    const count = Number(shown?.[1]?.replace(/,/g, ''))
    expect(count).toBeGreaterThan(100_000)
    const unescaped = (shown?.[2] ?? '').replace(/\[U\+202E\]/g, '\u202E').replace(/&quot;/g, '"')
    expect(unescaped).toBe(text.slice(0, count))
  })

  it('keeps the docs PR checks within the byte budget: the rows that do not fit are counted', () => {
    // 600 failing checks (the phase reads up to 500 check runs and 500 statuses), each with three
    // problems of CI output in Japanese, 200 characters a line, 3 UTF-8 bytes a character.
    const line = 'ドキュメントのビルドに失敗しました。'.repeat(12).slice(0, 200)
    const checks = Array.from({ length: 600 }, (_, i) => ({
      name: `docs-lint-${String(i)}`,
      conclusion: 'failure',
      url: `https://github.com/acme/docs/runs/${String(i)}`,
      problems: [line, line, line]
    }))
    const docsChecks = { result: 'failure' as const, checks, rounds: 1, asked: ['docs-lint-0'], before: checks }
    const html = render(state({ outcome: 'completed', prompt: 'Document v2', docsChecks }, done))
    expect(Buffer.byteLength(html)).toBeLessThanOrEqual(SUMMARY_BYTES)
    const shown = html.match(/<tr><td>docs-lint-\d+<\/td>/g)?.length ?? 0
    const counted = [...html.matchAll(/… and ([\d,]+) more checks: see the log/g)].map((m) =>
      Number(m[1]?.replace(/,/g, ''))
    )
    expect(shown).toBeGreaterThan(100)
    expect(shown + counted.reduce((a, b) => a + b, 0)).toBe(1200)
    // Room is left for the prompt after the checks.
    expect(html).toContain('Document v2')
    expect(
      render(
        state(
          { outcome: 'completed', docsChecks: { ...docsChecks, checks: checks.slice(0, 3), before: undefined } },
          done
        )
      )
    ).not.toContain('more check')
  })

  it('caps every value in a cell, and links only http(s) URLs', () => {
    const long = 'y'.repeat(500)
    const html = render(
      state(
        { outcome: 'completed' },
        { ...done, model: long, source: { repository: 'javascript:alert(1)', ref: long } }
      )
    )
    for (const cell of html.match(/<td>.*?<\/td>/g) ?? [])
      expect(cell.replace(/<[^>]+>/g, '').length).toBeLessThanOrEqual(CELL_CHARS)
    expect(html).toContain('<tr><th align="left">Docs repository</th><td>javascript:alert(1)</td></tr>')
    expect(
      render(state({ outcome: 'completed' }, { ...done, source: { repository: 'https://gitlab.com/a/b/c' } }))
    ).toContain('<a href="https://gitlab.com/a/b/c">https://gitlab.com/a/b/c</a>')
  })

  it.each<[string, Partial<RunState>, Record<string, unknown> | undefined, string, string]>([
    [
      'no PR',
      { outcome: 'completed' },
      { ...done, prLink: null },
      '☑️ Docs agent finished: no changes',
      '<strong>No pull request:</strong> job <code>job_1</code> completed without changing any file.'
    ],
    [
      'unusable link',
      { outcome: 'completed' },
      { ...done, prLink: 'javascript:x' },
      '⚠️ Docs agent finished: its pull request link is unusable',
      '<strong>No usable pull request link:</strong> job <code>job_1</code> sent one that is not http(s) (<code>javascript:</code>).'
    ],
    [
      'failed',
      { outcome: 'failed' },
      { ...done, status: 'failed', prLink: null },
      '❌ Docs agent job failed',
      '<strong>No pull request:</strong> job <code>job_1</code> ended <code>failed</code>.'
    ],
    [
      'archived',
      { outcome: 'archived' },
      { ...done, status: 'archived', prLink: null },
      '🗄️ Docs agent job archived',
      'ended <code>archived</code>.'
    ],
    [
      'timed out',
      { outcome: 'timed-out' },
      { status: 'active' },
      '⏱️ Timed out waiting for the docs agent',
      '<strong>No pull request yet:</strong> job <code>job_1</code> was still <code>active</code> when the step timed out.'
    ],
    [
      'started',
      { outcome: 'started' },
      { status: 'active' },
      '🚀 Docs agent job started',
      'is running; this step did not wait for it.'
    ],
    [
      'cancelled waiting',
      { outcome: 'cancelled', phase: 'reading', failure: 'Cancelled while waiting for job job_1.' },
      { status: 'active' },
      '🛑 Docs agent step cancelled',
      '<strong>No pull request yet:</strong> job <code>job_1</code> may still be running.'
    ],
    [
      'error, job not found',
      { outcome: 'error', failure: 'x', notFound: true },
      undefined,
      '❌ Docs agent step failed',
      '<strong>No pull request:</strong> job <code>job_1</code> was not found.'
    ],
    [
      'error, ended job',
      { outcome: 'error', failure: 'x' },
      { status: 'completed' },
      '❌ Docs agent step failed',
      '<strong>No pull request:</strong> job <code>job_1</code> ended <code>completed</code>.'
    ],
    [
      'error, no job',
      { outcome: 'error', jobId: undefined, failure: 'x' },
      undefined,
      '❌ Docs agent step failed',
      '<strong>No pull request:</strong> no job was started.'
    ],
    [
      'create lost',
      { outcome: 'error', jobId: undefined, mayHaveActed: true, failure: 'x' },
      undefined,
      '❌ Docs agent step failed',
      '<strong>No job id:</strong> the create request may have started a job, but its answer was lost.'
    ],
    [
      'follow-up lost',
      { outcome: 'cancelled', mayHaveActed: true, failure: 'x' },
      undefined,
      '🛑 Docs agent step cancelled',
      'the follow-up to job <code>job_1</code> may have been delivered, but its answer was lost.'
    ],
    [
      'dry run',
      { outcome: 'dry-run' },
      undefined,
      '🧪 Dry run: nothing was sent',
      '<strong>Nothing was sent</strong> to the Agent API (<code>dry-run: true</code>)'
    ]
  ])('%s: heading and lead', (_name, patch, job, heading, lead) => {
    const html = render(state(patch, job))
    expect(html.split('\n')[0]).toBe(`<h2>${heading}</h2>`)
    expect(html.split('\n')[1]).toContain(lead)
  })

  it('tells what happened, except for a cancel while waiting (the lead and the next step say it)', () => {
    expect(render(state({ outcome: 'error', failure: 'Creating the job failed: <b>x</b>.' }))).toContain(
      '<p><strong>What happened:</strong> Creating the job failed: &lt;b&gt;x&lt;/b&gt;.</p>'
    )
    expect(
      render(
        state({ outcome: 'cancelled', phase: 'reading', failure: 'Cancelled while waiting' }, { status: 'active' })
      )
    ).not.toContain('What happened')
    expect(
      render(state({ outcome: 'cancelled', phase: 'posting', failure: 'Cancelled before the create request was sent' }))
    ).toContain('What happened')
  })

  it('bad input: the heading says so, and nothing else is shown but the error', () => {
    const bad = state({ outcome: 'error', jobId: undefined, failure: "Input 'timeout': bad." })
    expect(renderSummary({ state: bad, settings: undefined, serverUrl: undefined })).toBe(
      "<h2>❌ Docs agent step failed: bad input</h2>\n<p><strong>No pull request:</strong> no job was started.</p>\n<p><strong>What happened:</strong> Input 'timeout': bad.</p>\n\n"
    )
  })
})
