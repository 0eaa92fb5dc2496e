/**
 * A compare that is not the change from base to head never skips a run: whatever the event, GitHub's
 * compare (docs.github.com/rest/commits/commits#compare-two-commits) lists the change only when its
 * `status` is `ahead` (or `identical`: no change); `behind` and `diverged` list something else, and `files` is at
 * most 300 and may be absent. One helper (changed.ts's compareIncomplete) decides it.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from '@jest/globals'
import type { ChangedFile } from '../../src/github/changed-file.js'
import type { Comparison } from '../../src/github/reader.js'
import { GitHubClient } from '../../src/github/client.js'
import { compareIncomplete, comparedFiles } from '../../src/github/context/changed.js'
import type { GitHubApiFake } from '../../simulator/github/index.js'
import { useFakeGitHub } from '../fixtures/github.js'
import { useStep } from '../fixtures/step.js'

const changed = (filename: string): ChangedFile => ({
  filename,
  status: 'modified',
  additions: 1,
  deletions: 0,
  previousFilename: undefined,
  patch: undefined
})
const comparison = (status: string, files: ChangedFile[] = [], extra: Partial<Comparison> = {}): Comparison => ({
  status,
  commits: [],
  total: files.length,
  files,
  url: undefined,
  ...extra
})

describe('one judge of a compare', () => {
  it('only `ahead` lists the change', () => {
    expect(compareIncomplete(comparison('ahead', [changed('a.ts')]))).toBeUndefined()
    // `identical`: base and head are one commit, and no file is all of the change.
    expect(compareIncomplete(comparison('identical'))).toBeUndefined()
    expect(compareIncomplete(comparison('identical', [], { filesMissing: true }))).toBe(
      `GitHub's compare says identical, not ahead`
    )
    for (const status of ['behind', 'diverged']) {
      expect(compareIncomplete(comparison(status))).toBe(`GitHub's compare says ${status}, not ahead`)
      expect(comparedFiles('v1...v2', comparison(status, [changed('a.ts')])).incomplete).toBe(
        `GitHub's compare says ${status}, not ahead`
      )
    }
  })

  it('an answer with no file list is no list, however few commits it names', () => {
    expect(compareIncomplete(comparison('ahead', [], { filesMissing: true }))).toBe(
      "GitHub's compare answered with no list of files"
    )
  })

  it('the client keeps that the answer had no `files` (the schema leaves it optional)', async () => {
    // GitHub's compare answer with `files` left out, as its OpenAPI schema allows: only the fields read.
    const answer = (files?: unknown[]) =>
      JSON.stringify({ status: 'ahead', total_commits: 0, commits: [], html_url: 'https://github.com/x', files })
    let withFiles = false
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(answer(withFiles ? [] : undefined))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const { port } = server.address() as AddressInfo
      const reader = new GitHubClient('tok', `http://127.0.0.1:${port}`).reader(
        'acme/app',
        new AbortController().signal
      )
      const missing = await reader.compare('a', 'b')
      expect([missing.files, missing.filesMissing]).toEqual([[], true])
      expect(comparedFiles('a...b', missing).incomplete).toBe("GitHub's compare answered with no list of files")
      withFiles = true
      const empty = await reader.compare('a', 'b')
      expect([empty.files, empty.filesMissing, comparedFiles('a...b', empty).incomplete]).toEqual([
        [],
        undefined,
        undefined
      ])
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })
})

describe('a release whose range is not ahead', () => {
  const APP = 'acme/app'
  const step = useStep({ key: 'mint_compare_key_0123456789', project: 'proj-compare', prompt: 'Document it.' })
  let github: GitHubApiFake
  const fake = useFakeGitHub(step.clock, { repo: APP, fresh: 'requests', seed }, (started) => (github = started))

  function seed(): void {
    const file = (filename: string) => ({ filename, status: 'modified' as const, additions: 1, deletions: 0 })
    const [first = '', second = ''] = github.addCommits(APP, [
      { message: 'feat: export', files: [file('src/export.ts')] },
      { message: 'fix: a patch release cut later', files: [file('src/fix.ts')] }
    ])
    // v2.0.0 was tagged on an older commit than v1.9.0: compare v1.9.0...v2.0.0 says `behind` and lists no file.
    github.addTag(APP, { name: 'v1.9.0', at: second })
    github.addTag(APP, { name: 'v2.0.0', at: first })
  }

  it('is judged incomplete, so paths never skips it', async () => {
    const result = await step.run(
      { paths: 'docs/**', 'link-back': 'none' },
      {
        env: fake.env({
          GITHUB_EVENT_NAME: 'push',
          GITHUB_REF: 'refs/tags/v2.0.0',
          GITHUB_REF_NAME: 'v2.0.0',
          GITHUB_REF_TYPE: 'tag',
          GITHUB_EVENT_PATH: '/event.json'
        }),
        files: { '/event.json': '{}' }
      }
    )
    expect(result.outputs.skipped).not.toBe('true')
    expect(result.at('info').find((line) => line.startsWith('Skip rules:'))).toBe(
      "Skip rules: not skipped: the changed files of v1.9.0...v2.0.0 may be incomplete (GitHub's compare says behind, not ahead)."
    )
    expect(result.outputs['job-id']).not.toBe('')
  })
})
