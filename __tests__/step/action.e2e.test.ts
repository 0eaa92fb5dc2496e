/**
 * The built action (dist/index.js) run as the runner runs it: a child process with INPUT_*
 * variables, real GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files, exit codes and real signals; on
 * Node 20 here, and again on Node 24 in .ci/run (ACTION_NODE). Everything else is tested
 * in-process: this layer keeps only what a process shows.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { applyEnv, CacheServiceFake } from '../../simulator/cache.js'
import { GitHubApiFake } from '../../simulator/github.js'
import type { AgentApiSimulator } from '../../simulator/agent-api.js'
import { OUTPUT_NAMES } from '../../src/report/finish.js'
import { annotations, FAKE_GITHUB_TOKEN, runAction, secretLeaks } from '../../scripts/run-action.js'
import { useSimulator } from '../fixtures/simulator.js'

const KEY = 'mint_e2e_secret_key_0123456789'
let sim: AgentApiSimulator
useSimulator(KEY, { runMs: 600 }, (started) => (sim = started))

const inputs = (extra: Record<string, string> = {}) => ({
  'api-key': KEY,
  'project-id': 'proj-e2e',
  'base-url': sim.url,
  'poll-interval': '500ms',
  timeout: '30s',
  prompt: 'Document release v1.2.3',
  ...extra
})
const requests = (op: string) => sim.requests.filter((r) => r.operation === op)

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

describe('an optional input given empty, as a forwarding workflow passes it: its default', () => {
  // INPUT_<NAME>='' is present in the environment: the runner's way of passing `name: ''`.
  const emptyRun = (name: string, extra: Record<string, string> = {}, options: Parameters<typeof runAction>[1] = {}) =>
    runAction(inputs({ ...extra, [name]: '' }), { ...options, env: { RUNNER_DEBUG: '1', ...options.env } })
  const debugSettings = (stdout: string) => stdout.split('\n').find((line) => line.startsWith('::debug::Mode '))

  it('prompt: the prompt comes from prompt-file', async () => {
    const run = await emptyRun('prompt', { 'prompt-file': 'p.md' }, { files: { 'p.md': 'From the file.' } })
    expect(run.code).toBe(0)
    expect(sim.jobs('proj-e2e').at(-1)?.prompts[0]).toBe('From the file.')
  })

  it('prompt-file: the prompt input is the prompt', async () => {
    const run = await emptyRun('prompt-file')
    expect(run.code).toBe(0)
    expect(run.outputs.prompt).toBe('Document release v1.2.3')
  })

  it('job-id: a new job is created', async () => {
    const run = await emptyRun('job-id')
    expect(run.code).toBe(0)
    expect(requests('create')).toHaveLength(1)
    expect(requests('message')).toHaveLength(0)
  })

  it('wait: true, the step waits for the job to complete', async () => {
    const run = await emptyRun('wait')
    expect(run.code).toBe(0)
    expect(run.outputs.status).toBe('completed')
    expect(requests('get').length).toBeGreaterThan(0)
  })

  it('timeout: 30m', async () => {
    const run = await emptyRun('timeout')
    expect(run.code).toBe(0)
    expect(debugSettings(run.stdout)).toBe(
      '::debug::Mode create; timeout 1800000ms; polls from 500ms up to 10000ms; base URL ' + new URL(sim.url).origin
    )
  })

  it('poll-interval: 2s', async () => {
    const run = await emptyRun('poll-interval')
    expect(run.code).toBe(0)
    expect(debugSettings(run.stdout)).toContain('; polls from 2000ms up to 10000ms;')
  })

  it('max-poll-interval: 10s', async () => {
    const run = await emptyRun('max-poll-interval', { 'poll-interval': '1s' })
    expect(run.code).toBe(0)
    expect(debugSettings(run.stdout)).toContain('; polls from 1000ms up to 10000ms;')
  })

  it('fail-on: failed, archived, timed-out (a failed job fails the step)', async () => {
    sim.setScenario({ finalStatus: 'failed', pr: false })
    const run = await emptyRun('fail-on')
    expect(run.code).toBe(1)
    expect(annotations(run.stdout, 'error')).toEqual([
      `Docs agent job ${run.outputs['job-id'] ?? ''} ended failed (fail-on includes 'failed').`
    ])
  })

  it('base-url: https://api.mintlify.com (seen by a proxy that wants credentials: the step fails at once)', async () => {
    const connects: string[] = []
    const proxy = createServer((socket) =>
      socket.once('data', (data) => {
        connects.push(data.toString('latin1').split('\r\n')[0] ?? '')
        socket.end('HTTP/1.1 407 Proxy Authentication Required\r\n\r\n')
      })
    )
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
    try {
      const port = (proxy.address() as { port: number }).port
      const run = await emptyRun('base-url', {}, { env: { HTTPS_PROXY: `http://127.0.0.1:${port}` } })
      expect(run.code).toBe(1)
      expect(connects).toEqual(['CONNECT api.mintlify.com:443 HTTP/1.1'])
      expect(sim.requests).toHaveLength(0)
    } finally {
      await new Promise((resolve) => proxy.close(resolve))
    }
  })

  it('github-token: no GitHub API calls, one notice', async () => {
    const run = await emptyRun('github-token')
    expect(run.code).toBe(0)
    expect(annotations(run.stdout, 'notice')[0]).toBe(
      "Input 'github-token' is empty: no GitHub API calls are made and no labels are added. Leave the input out for the workflow's token."
    )
    expect(annotations(run.stdout, 'warning')).toEqual([])
  })

  it('labels: none, so nothing is labelled', async () => {
    // A GitHub that cannot be reached: a label request would end in a warning.
    const run = await emptyRun('labels', {}, { env: { GITHUB_API_URL: 'http://127.0.0.1:9' } })
    expect(run.code).toBe(0)
    expect(run.outputs['pr-link']).not.toBe('')
    expect(annotations(run.stdout, 'warning')).toEqual([])
    expect(run.stdout).not.toContain('label')
  })

  it('context: auto, the pushed commits join the prompt', async () => {
    const event = { commits: [{ id: 'a1b2c3d', message: 'Add the export command', author: { username: 'dev' } }] }
    const run = await emptyRun(
      'context',
      {},
      {
        files: { 'event.json': JSON.stringify(event) },
        env: {
          GITHUB_EVENT_NAME: 'push',
          GITHUB_EVENT_PATH: 'event.json',
          GITHUB_REF: 'refs/heads/main',
          GITHUB_REPOSITORY: 'acme/widgets'
        }
      }
    )
    expect(run.code).toBe(0)
    expect(run.outputs.prompt).toContain('Add the export command')
    expect(sim.jobs('proj-e2e').at(-1)?.prompts[0]).toBe(run.outputs.prompt)
  })

  it('dry-run: false, the job is created', async () => {
    const run = await emptyRun('dry-run')
    expect(run.code).toBe(0)
    expect(requests('create')).toHaveLength(1)
    expect(run.outputs.status).toBe('completed')
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

describe('a re-run, as two processes against a fake cache service', () => {
  let cache: CacheServiceFake
  beforeAll(async () => {
    cache = await CacheServiceFake.start()
  })
  afterAll(async () => {
    await cache.close()
  })
  beforeEach(() => cache.reset())
  const attempt = (n: number, temp: string, options: Parameters<typeof runAction>[1] = {}) =>
    runAction(inputs(), {
      ...options,
      env: {
        ...(cache.env() as Record<string, string>),
        GITHUB_RUN_ID: '777',
        GITHUB_RUN_ATTEMPT: String(n),
        GITHUB_JOB: 'docs',
        GITHUB_ACTION: 'agent',
        RUNNER_TEMP: temp,
        ...options.env
      }
    })

  it('attempt 2 resumes the job attempt 1 created, and creates none', async () => {
    const temp = mkdtempSync(join(tmpdir(), 'runner-temp-'))
    const first = await attempt(1, temp)
    expect(first.code).toBe(0)
    expect(cache.entries.filter((e) => e.committed)).toHaveLength(1)
    const second = await attempt(2, temp)
    expect(second.code).toBe(0)
    expect(requests('create')).toHaveLength(1)
    expect(second.outputs['job-id']).toBe(first.outputs['job-id'])
    expect(second.stdout).toContain(`Resuming job ${first.outputs['job-id'] ?? ''} from attempt 1`)
    expect(annotations(second.stdout, 'warning')).toEqual([])
    // The record is the key: found by a lookup, no archive downloaded (nor extracted).
    expect(cache.requests.map((r) => `${r.operation} ${r.status ?? ''}`)).toEqual([
      'reserve 201',
      'upload 204',
      'commit 204',
      'lookup 200'
    ])
  })

  it('a record planted under the prefix with a wrong signature: ignored with one warning, a new job', async () => {
    const temp = mkdtempSync(join(tmpdir(), 'runner-temp-'))
    expect((await attempt(1, temp)).code).toBe(0)
    expect(cache.entries.filter((e) => e.committed)).toHaveLength(1)
    const [saved] = cache.entries
    const key = saved?.key ?? ''
    // Whoever can write the branch's cache saves a newer entry: another job id, the old signature.
    const dir = join(temp, 'docs-agent-action-rerun')
    const restoreEnv = applyEnv({ ...cache.env(), RUNNER_TEMP: temp })
    try {
      const library = await import('@actions/cache')
      const forged = key.replace(/-[0-9a-f]*-([0-9a-f]{32})$/, `-${Buffer.from('job_planted').toString('hex')}-$1`)
      expect(forged).not.toBe(key)
      expect(await library.saveCache([dir], forged)).toBeGreaterThan(0)
    } finally {
      restoreEnv()
    }
    const second = await attempt(2, temp)
    expect(second.code).toBe(0)
    expect(requests('create')).toHaveLength(2)
    expect(annotations(second.stdout, 'warning')).toEqual([
      "Ignored a re-run record under this step's cache key (its signature is wrong: not saved by an earlier attempt of this step with this api-key), so a new job is created."
    ])
    expect(cache.requests.filter((r) => r.operation === 'download')).toEqual([])
  })

  it.each(['on-rerun', 'rerun-key'])('%s given empty: attempt 2 resumes, as with the default', async (name) => {
    const temp = mkdtempSync(join(tmpdir(), 'runner-temp-'))
    // A run of its own, so no record of another test is found.
    const emptied = { env: { [`INPUT_${name.toUpperCase()}`]: '', GITHUB_RUN_ID: `run-${name}` } }
    const first = await attempt(1, temp, emptied)
    expect(first.code).toBe(0)
    const second = await attempt(2, temp, emptied)
    expect(second.code).toBe(0)
    expect(requests('create')).toHaveLength(1)
    expect(second.stdout).toContain(`Resuming job ${first.outputs['job-id'] ?? ''} from attempt 1`)
  })

  it('attempt 1 cancelled while waiting, attempt 2 waits for the same job', async () => {
    const temp = mkdtempSync(join(tmpdir(), 'runner-temp-'))
    sim.setScenario({ runMs: 4000 })
    const first = await attempt(1, temp, {
      onOutput: { text: 'is active', then: (child) => setTimeout(() => child.kill('SIGINT'), 600) }
    })
    expect(first.code).toBe(1)
    const second = await attempt(2, temp)
    expect(second.code).toBe(0)
    expect(requests('create')).toHaveLength(1)
    expect(second.outputs).toMatchObject({ 'job-id': first.outputs['job-id'], status: 'completed' })
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
        env: {
          GITHUB_EVENT_NAME: 'push',
          GITHUB_REF: 'refs/tags/v1.3.0',
          GITHUB_REF_TYPE: 'tag',
          GITHUB_REF_NAME: 'v1.3.0',
          GITHUB_REPOSITORY: 'acme/widgets',
          GITHUB_API_URL: github.url
        }
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
