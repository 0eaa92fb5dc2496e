/**
 * The built action (dist/index.js) run as the runner runs it: a child process with INPUT_*
 * variables, real GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files, exit codes and real signals; on
 * Node 20 here, and again on Node 24 in .ci/run (ACTION_NODE). Everything else is tested
 * in-process: this layer keeps only what a process shows. Its empty inputs (those only a process
 * shows; the others are empty-inputs.test.ts's) and its re-runs are in action-inputs.e2e.test.ts and
 * action-rerun.e2e.test.ts, so that Jest runs the three side by side.
 */
import { describe, expect, it } from '@jest/globals'
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { GitHubApiFake } from '../../simulator/github/index.js'
import type { AgentApiSimulator } from '../../simulator/agent-api.js'
import { OUTPUT_NAMES } from '../../src/report/finish.js'
import { annotations, FAKE_GITHUB_TOKEN, runAction, secretLeaks } from '../../scripts/run-action.js'
import { KEY, useActionProcess } from '../fixtures/action-process.js'
import { tagPush } from '../fixtures/github.js'

let sim: AgentApiSimulator
const { inputs, requests } = useActionProcess((started) => (sim = started))

describe('as the runner runs it', () => {
  it('completes with a pull request: every output in GITHUB_OUTPUT, the summary file, the annotations', async () => {
    const run = await runAction(inputs({ 'prompt-file': 'prompt.md', prompt: '' }), {
      files: { 'prompt.md': 'Document release v1.2.3:\n\n- the export command\n' }
    })
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const [stored] = sim.jobs('proj-e2e').slice(-1)
    expect(run.outputs).toMatchObject({
      'job-id': stored?.job.id,
      status: 'completed',
      'pr-link': stored?.job.prLink,
      'pr-repository': 'acme/docs',
      'timed-out': 'false',
      'not-permitted': 'false',
      // A multi-line output, read back through the runner's delimiter syntax.
      prompt: 'Document release v1.2.3:\n\n- the export command\n'
    })
    expect(Object.keys(run.outputs).sort()).toEqual([...OUTPUT_NAMES].sort())
    expect(run.stdout.split('\n')[0]).toBe(`::add-mask::${KEY}`)
    expect(annotations(run.stdout, 'notice')).toEqual([`Docs pull request: ${stored?.job.prLink ?? ''}`])
    expect(run.summary).toContain('<h2>✅ Docs pull request ready</h2>')
    expect(secretLeaks(run, KEY)).toEqual([])
  })

  it('fails with exit code 1 when the job fails, and 0 when fail-on allows it', async () => {
    sim.setScenario({ finalStatus: 'failed', pr: false })
    const failed = await runAction(inputs())
    expect(failed.code).toBe(1)
    expect(annotations(failed.stdout, 'error')).toEqual([
      `Docs agent job ${failed.outputs['job-id'] ?? ''} ended failed (fail-on includes 'failed').`
    ])
    expect((await runAction(inputs({ 'fail-on': 'none' }))).code).toBe(0)
  })

  it('bad input: one error annotation, exit code 1, no request, and the outputs written all the same', async () => {
    const run = await runAction(inputs({ timeout: '10min' }))
    expect(run.code).toBe(1)
    expect(sim.requests).toHaveLength(0)
    expect(annotations(run.stdout, 'error')).toEqual([
      'Input \'timeout\': "10min" is not a duration: expected seconds (600) or a duration such as 500ms, 90s, 15m, 1h or 1h30m.'
    ])
    expect(run.outputs).toMatchObject({ status: '', 'timed-out': 'false', 'job-id': '' })
    expect(run.summary).toContain('❌ Docs agent step failed')
  })

  it('never shows the key, even when the server echoes it back, with debug logging on', async () => {
    sim.fail('create', { kind: 'echoAuth', status: 400 })
    const run = await runAction(inputs({ 'api-key': `  ${KEY}\n` }), { env: { RUNNER_DEBUG: '1' } })
    expect(run.code).toBe(1)
    expect(run.stdout).toContain('::debug::')
    expect(annotations(run.stdout, 'error')[0]).toContain('bad key Bearer ***')
    expect(secretLeaks(run, KEY)).toEqual([])
  })
})

describe('bad input, as a process', () => {
  it('a wait-only step keeps its job-id in the output and the summary', async () => {
    const run = await runAction(inputs({ prompt: '', 'job-id': 'job-given-42', 'max-poll-interval': '7h' }))
    expect(run.code).toBe(1)
    expect(sim.requests).toHaveLength(0)
    expect(annotations(run.stdout, 'error')).toEqual([
      `Input 'max-poll-interval': "7h" is longer than 6h, GitHub's limit for a job: expected at most 6h.`
    ])
    expect(run.outputs['job-id']).toBe('job-given-42')
    expect(run.summary).toContain('job-given-42')
  })

  it('a prompt-file that is a symlink out of the workspace is refused before it is read', async () => {
    const outside = join(mkdtempSync(join(tmpdir(), 'outside-')), 'secret.md')
    writeFileSync(outside, 'mint_not_for_the_agent')
    const run = await runAction(inputs({ prompt: '', 'prompt-file': 'link.md' }), { symlinks: { 'link.md': outside } })
    expect(run.code).toBe(1)
    expect(sim.requests).toHaveLength(0)
    expect(annotations(run.stdout, 'error')).toEqual([
      `Input 'prompt-file': "link.md" is outside the workspace: expected the path of a regular UTF-8 file inside the workspace (GITHUB_WORKSPACE), not under .git/.`
    ])
    expect(run.stdout + run.summary).not.toContain('mint_not_for_the_agent')
  })
})

describe('signals', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    '%s while waiting: exits at once, keeps the job id, says how to resume',
    async (signal) => {
      // Its first poll is an hour away: an exit that waited for it would outlast the test's time limit.
      sim.setScenario({ runMs: 7_200_000 })
      const run = await runAction(inputs({ timeout: '2h', 'poll-interval': '1h', 'max-poll-interval': '1h' }), {
        onOutput: { text: 'is active', then: (child) => child.kill(signal) }
      })
      expect(requests('get')).toHaveLength(0)
      expect(run.code).toBe(1)
      const id = run.outputs['job-id'] ?? ''
      expect(run.outputs).toMatchObject({ status: 'active', 'timed-out': 'false' })
      expect(annotations(run.stdout, 'error')).toEqual([
        `Cancelled while waiting for job ${id}. Resume with job-id: ${id}.`
      ])
      expect(run.summary).toContain(`<code>job-id: ${id}</code>`)
    }
  )

  it('a cancel during the create request says the job may have been created', async () => {
    sim.fail('create', { kind: 'hang' })
    const run = await runAction(inputs(), {
      // Once the create has reached the simulator (where it hangs), however long that takes.
      onOutput: {
        text: '::debug::Mode create',
        then: (child) =>
          void (async () => {
            while (requests('create').length === 0) await sleep(5)
            child.kill('SIGTERM')
          })()
      }
    })
    expect(run.code).toBe(1)
    expect(requests('create')).toHaveLength(1)
    expect(annotations(run.stdout, 'error')).toEqual([
      'Cancelled while the create request was in flight: the job may have been created. Check the agent jobs in the dashboard.'
    ])
  })

  it('a signal while the bundle is still loading is reported, not a silent kill', async () => {
    // Module hooks mark the moment the entry starts loading the rest of the bundle (its signal
    // handlers exist by then) and hold that load for a while: the signal lands in that window.
    const dir = mkdtempSync(join(tmpdir(), 'hooks-'))
    const marker = join(dir, 'loading')
    writeFileSync(
      join(dir, 'hooks.mjs'),
      `import { writeFileSync } from 'node:fs'\nexport async function load(url, context, next) {\n  if (/\\/\\d+\\.index\\.js$/.test(url)) { writeFileSync(${JSON.stringify(marker)}, ''); await new Promise((r) => setTimeout(r, 500)) }\n  return next(url, context)\n}\n`
    )
    writeFileSync(
      join(dir, 'register.mjs'),
      "import { register } from 'node:module'\nregister('./hooks.mjs', import.meta.url)\n"
    )
    const run = await runAction(inputs(), {
      nodeArgs: ['--import', join(dir, 'register.mjs')],
      onSpawn: (child) => {
        void (async () => {
          while (!existsSync(marker)) await sleep(2)
          child.kill('SIGTERM')
        })()
      }
    })
    expect(run.signal).toBeNull()
    expect(run.code).toBe(1)
    expect(sim.requests).toHaveLength(0)
    expect(annotations(run.stdout, 'error')).toEqual([
      'Cancelled before the create request was sent: no job was created.'
    ])
    expect(run.summary).toContain('🛑 Docs agent step cancelled')
  })
})

describe('context, as a release workflow gets it', () => {
  it('a tag push: the job is created with the release notes and the changes, without glue', async () => {
    const github = await GitHubApiFake.start({ token: FAKE_GITHUB_TOKEN })
    try {
      const [a, , c] = github.addCommits('acme/widgets', [
        { message: 'Release 1.2.0' },
        { message: 'Add export (#41)' },
        { message: 'Fix YAML (#42)' }
      ])
      github.addTag('acme/widgets', { name: 'v1.2.0', at: a ?? '' })
      github.addTag('acme/widgets', { name: 'v1.3.0', at: c ?? '' })
      github.addRelease('acme/widgets', { tag_name: 'v1.3.0', body: 'Export and YAML.' })
      const run = await runAction(inputs({ prompt: 'Document this release.' }), {
        env: { ...tagPush('v1.3.0'), GITHUB_REPOSITORY: 'acme/widgets', GITHUB_API_URL: github.url }
      })
      expect(run.code).toBe(0)
      const sent = sim.jobs('proj-e2e').at(-1)?.prompts[0] ?? ''
      expect(sent).toContain('> Export and YAML.')
      expect(sent).toContain('- Add export (#41)\n- Fix YAML (#42)')
      expect(run.outputs.prompt).toBe(sent)
      expect(run.stdout).toContain('Context: Release v1.3.0: notes and 2 changes since v1.2.0')
    } finally {
      await github.close()
    }
  })
})
