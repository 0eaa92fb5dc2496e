/**
 * The built action (dist/index.js) run as a process, an optional input given empty as a forwarding
 * workflow passes it (INPUT_<NAME>='' in its environment): the run has the input's default. Only what
 * a process shows: a proxy from the environment, and a GitHub out of reach; the other inputs' empty
 * values are empty-inputs.test.ts's, in-process.
 */
import { describe, expect, it } from '@jest/globals'
import { createServer } from 'node:net'
import type { AgentApiSimulator } from '../../simulator/agent-api.js'
import { annotations, runAction } from '../../scripts/run-action.js'
import { useActionProcess } from '../fixtures/action-process.js'

let sim: AgentApiSimulator
const { inputs } = useActionProcess((started) => (sim = started))

describe('an optional input given empty, as a forwarding workflow passes it: its default', () => {
  // INPUT_<NAME>='' is present in the environment: the runner's way of passing `name: ''`.
  const emptyRun = (name: string, extra: Record<string, string> = {}, options: Parameters<typeof runAction>[1] = {}) =>
    runAction(inputs({ ...extra, [name]: '' }), { ...options, env: { RUNNER_DEBUG: '1', ...options.env } })

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

  it('labels: none, so nothing is labelled', async () => {
    // A GitHub that cannot be reached: a label request would end in a warning.
    const run = await emptyRun('labels', {}, { env: { GITHUB_API_URL: 'http://127.0.0.1:9' } })
    expect(run.code).toBe(0)
    expect(run.outputs['pr-link']).not.toBe('')
    expect(annotations(run.stdout, 'warning')).toEqual([])
    expect(run.stdout).not.toContain('label')
  })
})
