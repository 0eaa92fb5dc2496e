// A pull request's context says where its text came from: the title and description come with the
// event; only the changed files are read from GitHub, so without a token nothing was read there.
import { describe, expect, it } from '@jest/globals'
import { gatherContext } from '../../../src/github/context/context.js'
import type { Trigger } from '../../../src/github/event.js'
import type { GitHubReader } from '../../../src/github/reader.js'

const pr: Trigger = {
  kind: 'pull-request',
  repo: 'acme/app',
  number: 41,
  title: 'Add the export command',
  url: 'https://github.com/acme/app/pull/41',
  body: 'Adds `widgets export`.',
  base: 'main',
  head: 'export',
  changedFiles: 1,
  labels: []
}
const options = { budget: 60_000, signal: new AbortController().signal, timeoutMs: 10_000, dryRun: false }
const file = {
  filename: 'src/export.ts',
  status: 'added',
  additions: 3,
  deletions: 0,
  previousFilename: undefined,
  patch: '+x'
}
const reader = { requests: () => 1, pullFiles: () => Promise.resolve([file]) } as unknown as GitHubReader

describe("a pull request's context", () => {
  it('says it comes from the event when nothing was read from GitHub (no token)', async () => {
    const { text } = await gatherContext(pr, { ...options, reader: undefined })
    expect(text).toContain('What follows comes from the event;')
    expect(text).not.toContain('read from')
  })

  it('says it was read from the event and GitHub when the files were', async () => {
    const { text } = await gatherContext(pr, { ...options, reader })
    expect(text).toContain('What follows was read from the event and GitHub;')
    expect(text).toContain('src/export.ts')
  })
})
