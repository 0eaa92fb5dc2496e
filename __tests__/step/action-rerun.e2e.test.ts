/**
 * The built action (dist/index.js) re-run as the runner re-runs it (see action.e2e.test.ts): two
 * processes, attempts 1 and 2 of one run, against the fake Actions cache service.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { applyEnv, CacheServiceFake } from '../../simulator/cache.js'
import type { AgentApiSimulator } from '../../simulator/agent-api.js'
import { annotations, runAction } from '../../scripts/run-action.js'
import { ENTRY_PATH } from '../../src/rerun/cache.js'
import { useActionProcess } from '../fixtures/action-process.js'

let sim: AgentApiSimulator
const { inputs, requests } = useActionProcess((started) => (sim = started))

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
    const restoreEnv = applyEnv({ ...cache.env(), RUNNER_TEMP: temp })
    try {
      const library = await import('@actions/cache')
      const forged = key.replace(/-[0-9a-f]*-([0-9a-f]{32})$/, `-${Buffer.from('job_planted').toString('hex')}-$1`)
      expect(forged).not.toBe(key)
      expect(await library.saveCache([ENTRY_PATH], forged)).toBeGreaterThan(0)
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
