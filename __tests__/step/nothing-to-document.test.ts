/**
 * Runs whose event has nothing to document, in-process through `main` against the Agent API
 * simulator and the fake GitHub: no job, nothing read or written, exit 0, one log line saying why.
 * The payloads are GitHub's (docs.github.com/webhooks/webhook-events-and-payloads#push).
 */
import { describe, expect, it } from '@jest/globals'
import type { GitHubApiFake } from '../../simulator/github/index.js'
import type { StepRun } from '../../scripts/in-process.js'
import { useFakeGitHub } from '../fixtures/github.js'
import { NOTHING_DONE_OUTPUTS, useStep } from '../fixtures/step.js'

describe('nothing to document', () => {
  const KEY = 'mint_nothing_key_0123456789'
  const APP = 'acme/app'
  const ZERO = '0'.repeat(40)
  const step = useStep({
    key: KEY,
    project: 'proj-nothing',
    prompt: 'Document this release.',
    scenario: { runMs: 3000 }
  })
  let github: GitHubApiFake
  const fake = useFakeGitHub(step.clock, { repo: APP, fresh: 'requests', seed }, (started) => (github = started))
  const shas: Record<string, string> = {}

  function seed(): void {
    github.setPermission(APP, 'mona', 'write')
    const commit = (message: string, filename: string): string =>
      github.addCommits(APP, [
        { message, files: [{ filename, status: 'modified', additions: 1, deletions: 1, patch: '@@ -1 +1 @@\n-a\n+b' }] }
      ])[0] ?? ''
    github.addTag(APP, { name: 'v1.0.0', at: (shas.v100 = commit('Initial', 'src/index.ts')) })
    github.addTag(APP, { name: 'v1.1.0', at: (shas.v110 = commit('feat: export', 'src/export.ts')) })
    github.addRelease(APP, { tag_name: 'v1.1.0', body: 'Adds `app export`.' })
  }

  let runId = 300
  const run = (
    ref: string,
    payload: unknown,
    env: Record<string, string> = {},
    inputs: Record<string, string> = {}
  ): Promise<StepRun> =>
    step.run(
      { 'link-back': 'none', ...inputs },
      {
        env: fake.env({
          GITHUB_EVENT_NAME: 'push',
          GITHUB_ACTOR: 'mona',
          GITHUB_EVENT_PATH: '/event.json',
          GITHUB_RUN_ID: String(++runId),
          GITHUB_RUN_ATTEMPT: '1',
          GITHUB_REF: ref,
          GITHUB_REF_NAME: ref.replace(/^refs\/(heads|tags)\//, ''),
          GITHUB_REF_TYPE: ref.startsWith('refs/tags/') ? 'tag' : 'branch',
          ...env
        }),
        files: { '/event.json': JSON.stringify(payload) }
      }
    )
  /** GitHub's push payload for a deleted ref: `deleted`, `after` all zeros, no head commit nor commits. */
  const deletion = (ref: string, before: string) => ({
    ref,
    before,
    after: ZERO,
    created: false,
    deleted: true,
    forced: false,
    compare: `https://github.com/${APP}/compare/${before.slice(0, 12)}...000000000000`,
    commits: [],
    head_commit: null
  })
  const said = (result: StepRun) => result.lines.filter((line) => line.level !== 'debug')

  function expectNothing(result: StepRun, why: string): void {
    expect(result.code).toBe(0)
    expect(step.requests('create')).toEqual([])
    expect(github.requests).toEqual([])
    expect(said(result)).toEqual([{ level: 'info', message: why }])
    expect(result.outputs).toEqual({ command: '', ...NOTHING_DONE_OUTPUTS })
  }

  describe('a push that deleted its ref', () => {
    it('a deleted release tag starts no job, and its re-push is documented', async () => {
      const deleted = await run('refs/tags/v1.1.0', deletion('refs/tags/v1.1.0', shas.v110 ?? ''), {
        paths: 'src/**'
      })
      expectNothing(deleted, 'The push deleted tag v1.1.0: nothing to document.')
      // The tag pushed again (GitHub's payload for a created tag: before all zeros).
      const again = await run('refs/tags/v1.1.0', {
        ref: 'refs/tags/v1.1.0',
        before: ZERO,
        after: shas.v110,
        created: true,
        deleted: false,
        commits: [],
        head_commit: { id: shas.v110, message: 'feat: export' }
      })
      expect([again.code, step.requests('create').length]).toEqual([0, 1])
      expect(again.outputs.prompt).toContain('- Previous release: v1.0.0')
    })

    it('a deleted branch starts no job, whatever GITHUB_REF and GITHUB_SHA then say', async () => {
      const payload = deletion('refs/heads/feature/x', shas.v110 ?? '')
      expectNothing(
        await run('refs/heads/feature/x', payload),
        'The push deleted branch feature/x: nothing to document.'
      )
      // "When you delete a branch, the SHA in the workflow run (and its associated refs) reverts to the default branch."
      expectNothing(
        await run('refs/heads/main', payload, { GITHUB_SHA: shas.v110 ?? '' }),
        'The push deleted branch feature/x: nothing to document.'
      )
    })
  })

  // GitHub's `closed` action: "If merged is false in the webhook payload, the pull request was closed
  // with unmerged commits" (docs.github.com/webhooks/webhook-events-and-payloads#pull_request).
  describe('a pull request closed', () => {
    const closed = (merged: boolean, event = 'pull_request', inputs: Record<string, string> = {}) =>
      run(
        'refs/pull/7/merge',
        {
          action: 'closed',
          number: 7,
          pull_request: {
            number: 7,
            title: 'Export to CSV',
            body: 'Adds `app export --csv`.',
            merged,
            html_url: `https://github.com/${APP}/pull/7`,
            base: { ref: 'main' },
            head: { ref: 'csv', sha: shas.v110 },
            changed_files: 1,
            labels: []
          }
        },
        { GITHUB_EVENT_NAME: event },
        { 'link-back': 'pull-request', ...inputs }
      )

    it.each(['pull_request', 'pull_request_target'])('%s without being merged: no job, no comment', async (event) => {
      expectNothing(await closed(false, event), 'Pull request #7 was closed without being merged: nothing to document.')
    })

    // docs/skipping.md: a follow-up to job-id and a wait-only step are explicit requests, never skipped.
    it.each([
      ['a follow-up to job-id', { 'job-id': 'job_open', prompt: 'The PR was closed: close the docs PR.' }, 1],
      ['a wait-only step', { 'job-id': 'job_open', prompt: '' }, 0]
    ])('%s on a pull request closed unmerged is still sent', async (_, inputs, messages) => {
      step.sim().addJob('proj-nothing', { id: 'job_open', status: 'completed' })
      const result = await closed(false, 'pull_request', inputs)
      expect(result.code).toBe(0)
      expect([step.requests('create').length, step.requests('message').length]).toEqual([0, messages])
      expect(result.outputs['job-id']).toBe('job_open')
    })

    it('merged: documented', async () => {
      const result = await closed(true)
      expect(step.requests('create').length).toBe(1)
      expect(result.outputs.prompt).toContain('pull request #7 of acme/app')
    })
  })

  // `on: release` without `types` runs on every activity type; GitHub skips only a draft's created,
  // edited and deleted (docs.github.com/actions/reference/events-that-trigger-workflows#release).
  describe('a release deleted or unpublished', () => {
    const release = (action: string, inputs: Record<string, string> = {}) =>
      run(
        'refs/tags/v1.1.0',
        {
          action,
          release: {
            tag_name: 'v1.1.0',
            name: 'v1.1.0',
            body: 'Adds `app export`.',
            draft: action === 'unpublished',
            prerelease: false,
            html_url: `https://github.com/${APP}/releases/tag/v1.1.0`
          }
        },
        { GITHUB_EVENT_NAME: 'release' },
        inputs
      )

    it.each([
      ['deleted', 'Release v1.1.0 was deleted: nothing to document.'],
      ['unpublished', 'Release v1.1.0 was unpublished: nothing to document.']
    ])('%s: no job, and its notes are not written to', async (action, why) => {
      expectNothing(await release(action, { 'link-back': 'release' }), why)
    })

    it('published: documented', async () => {
      const result = await release('published')
      expect([result.code, step.requests('create').length]).toEqual([0, 1])
      expect(result.outputs.prompt).toContain('### Release notes')
    })
  })
})
