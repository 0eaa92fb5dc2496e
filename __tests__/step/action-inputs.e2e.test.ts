/**
 * The built action (dist/index.js) run as a process, each optional input given empty as a
 * forwarding workflow passes it (see action.e2e.test.ts): the run has the input's default.
 */
import { describe, expect, it } from '@jest/globals'
import { createServer } from 'node:net'
import type { AgentApiSimulator } from '../../simulator/agent-api.js'
import { annotations, runAction } from '../../scripts/run-action.js'
import { pushedCommit, useActionProcess } from '../fixtures/action-process.js'

let sim: AgentApiSimulator
const { inputs, requests } = useActionProcess((started) => (sim = started))

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
    const run = await emptyRun('context', {}, pushedCommit('Add the export command'))
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
