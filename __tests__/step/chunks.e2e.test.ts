/**
 * The built action loads what a run needs and no more: the chunks of dist/ that each kind of run
 * loads, noted by module hooks, and the libraries they hold. A plain run loads neither the
 * markdown parser nor Octokit (it does load @actions/core, the stack's runner interface, and the
 * undici its OIDC client brings); a text with markup
 * brings the parser, a GitHub request brings Octokit, each working from its own chunk (on
 * Node 20 here, on Node 24 with ACTION_NODE). Which src/ modules are loaded up front is in
 * start-up.test.ts.
 */
import { describe, expect, it } from '@jest/globals'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { readFileSync } from 'node:fs'
import { GitHubApiFake } from '../../simulator/github/index.js'
import type { AgentApiSimulator } from '../../simulator/agent-api.js'
import { chunkProbe, librariesIn, type Library } from '../../scripts/loaded-chunks.js'
import { ENTRY, FAKE_GITHUB_TOKEN, runAction, type ActionOptions } from '../../scripts/run-action.js'
import { pushedCommit } from '../fixtures/action-process.js'
import { tagPush } from '../fixtures/github.js'
import { useSimulator } from '../fixtures/simulator.js'

const KEY = 'mint_chunks_secret_key_0123456789'
let sim: AgentApiSimulator
useSimulator(KEY, { runMs: 300 }, (started) => (sim = started))

const DIST = dirname(ENTRY)

/** A run with `wait: false`: its exit code, the prompt it sent, and the libraries of the chunks it loaded. */
async function probedRun(options: ActionOptions = {}, prompt = 'Document the change.') {
  const probe = chunkProbe(mkdtempSync(join(tmpdir(), 'chunks-')), DIST)
  const run = await runAction(
    { 'api-key': KEY, 'project-id': 'proj-chunks', 'base-url': sim.url, wait: 'false', prompt },
    { ...options, nodeArgs: probe.nodeArgs }
  )
  const loaded = probe.loaded()
  const libraries = new Set<Library>(loaded.flatMap((file) => librariesIn(readFileSync(join(DIST, file), 'utf8'))))
  return { run, loaded, libraries: [...libraries].sort(), sent: sim.jobs('proj-chunks').at(-1)?.prompts[0] }
}

describe('the chunks a run loads', () => {
  it('a plain run: the entry and the step, none of the libraries only some runs need', async () => {
    const { run, loaded, libraries, sent } = await probedRun()
    expect(run.code).toBe(0)
    expect(sent).toBe('Document the change.')
    expect(loaded[0]).toBe('index.js')
    expect(loaded.length).toBeGreaterThan(1)
    // @actions/core (the stack's runner interface) loads @actions/http-client, which loads all of undici.
    expect(libraries).toEqual(['@actions/core', 'undici (whole)'])
  })

  it('a pushed commit with markup: the markdown parser, from its chunk, and no Octokit', async () => {
    const { run, libraries, sent } = await probedRun(pushedCommit('Add export<!-- hidden words -->'))
    expect(run.code).toBe(0)
    expect(sent).toContain('Add export')
    expect(sent).not.toContain('hidden words')
    expect(libraries).toEqual(['@actions/core', 'micromark', 'undici (whole)'])
  })

  it('a tag push that reads GitHub: Octokit, from its chunk, and no markdown parser for text without markup', async () => {
    const github = await GitHubApiFake.start({ token: FAKE_GITHUB_TOKEN })
    try {
      const [a, b] = github.addCommits('acme/widgets', [{ message: 'Release 1.2.0' }, { message: 'Add export (#41)' }])
      github.addTag('acme/widgets', { name: 'v1.2.0', at: a ?? '' })
      github.addTag('acme/widgets', { name: 'v1.3.0', at: b ?? '' })
      github.addRelease('acme/widgets', { tag_name: 'v1.3.0', body: 'Export.' })
      const { run, libraries, sent } = await probedRun({
        env: { ...tagPush('v1.3.0'), GITHUB_REPOSITORY: 'acme/widgets', GITHUB_API_URL: github.url }
      })
      expect(run.code).toBe(0)
      expect(sent).toContain('- Add export (#41)')
      expect(libraries).toEqual(['@actions/core', 'octokit', 'undici (whole)'])
    } finally {
      await github.close()
    }
  })
})
