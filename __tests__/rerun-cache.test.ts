/**
 * The re-run record store over the real @actions/cache, against a fake Actions cache service (v1
 * protocol) on loopback: records survive from one attempt to the next; a service that fails gives
 * one message for the step to warn with (the library's own warnings are kept out of the log); a
 * service that does not answer costs at most the time limit.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { applyEnv, CacheServiceFake } from '../simulator/cache.js'
import { cacheRecordStore, RECORD_TIME_LIMIT_MS } from '../src/rerun-cache.js'
import type { RerunRecord } from '../src/rerun.js'

let fake: CacheServiceFake
let restoreEnv: () => void
let stdout: string[]
let write: typeof process.stdout.write
let recorder: typeof process.stdout.write

const record = (jobId: string, attempt: number): RerunRecord => ({
  jobId,
  attempt,
  answeredAt: 1_700_000_000_000,
  prompt: 'Document v2',
  context: undefined
})

beforeAll(async () => {
  fake = await CacheServiceFake.start()
})
afterAll(async () => {
  await fake.close()
})
beforeEach(() => {
  fake.reset()
  restoreEnv = applyEnv({ ...fake.env(), RUNNER_TEMP: mkdtempSync(join(tmpdir(), 'rerun-')), RUNNER_DEBUG: undefined })
  stdout = []
  write = process.stdout.write.bind(process.stdout)
  // What the library prints goes through process.stdout: recorded here, not shown.
  recorder = (chunk: string | Uint8Array) => {
    stdout.push(String(chunk))
    return true
  }
  process.stdout.write = recorder
})
afterEach(() => {
  process.stdout.write = write
  restoreEnv()
})

const store = () => cacheRecordStore(process.env)

describe('with the service', () => {
  it('is available when ACTIONS_CACHE_URL is set, not without it', () => {
    expect(store().available).toBe(true)
    expect(cacheRecordStore({}).available).toBe(false)
    expect(
      cacheRecordStore({ ACTIONS_CACHE_SERVICE_V2: 'true', ACTIONS_RESULTS_URL: 'https://results' }).available
    ).toBe(true)
    expect(cacheRecordStore({ ACTIONS_CACHE_SERVICE_V2: 'true' }).available).toBe(false)
  })

  it('saves a record and a later attempt restores the newest one by prefix', async () => {
    expect(await store().save('docs-agent-rerun-abc-attempt-1', record('job_1', 1))).toBeUndefined()
    expect(await store().save('docs-agent-rerun-abc-attempt-2', record('job_2', 2))).toBeUndefined()
    expect(await store().restore('docs-agent-rerun-abc-attempt-')).toEqual({
      kind: 'found',
      record: record('job_2', 2)
    })
    expect(await store().restore('docs-agent-rerun-other-attempt-')).toEqual({ kind: 'missing' })
    expect(fake.entries.map((e) => [e.key, e.committed])).toEqual([
      ['docs-agent-rerun-abc-attempt-1', true],
      ['docs-agent-rerun-abc-attempt-2', true]
    ])
    // The library's progress lines become debug lines.
    expect(stdout.filter((line) => !line.startsWith('::') && !line.startsWith('[command]'))).toEqual([])
  })

  it('finds nothing after the entry was evicted (the service keeps entries about 7 days)', async () => {
    await store().save('k-attempt-1', record('job_1', 1))
    fake.evict()
    expect(await store().restore('k-attempt-')).toEqual({ kind: 'missing' })
  })

  it('reports a key saved twice as not saved', async () => {
    await store().save('k-attempt-1', record('job_1', 1))
    expect(await store().save('k-attempt-1', record('job_9', 1))).toMatch(
      /^Failed to save: Unable to reserve cache with key k-attempt-1/
    )
  })
})

describe('when the service fails', () => {
  it.each([
    ['lookup', /^Failed to restore: getCacheEntry failed: Cache service responded with 500/],
    ['download', /^Failed to restore: downloadCache failed: Cache service responded with 500/]
  ] as const)('a 500 on %s: one failure message, no warning of the library', async (operation, message) => {
    await store().save('k-attempt-1', record('job_1', 1))
    fake.fail(operation, { status: 500 })
    const restored = await store().restore('k-attempt-')
    expect(restored).toEqual({ kind: 'failed', message: expect.stringMatching(message) })
    expect(stdout.filter((line) => /^::(warning|error)::/.test(line))).toEqual([])
  })

  it.each(['reserve', 'upload', 'commit'] as const)('a 500 on %s: the save reports it', async (operation) => {
    fake.fail(operation, { status: 500 })
    expect(await store().save('k-attempt-1', record('job_1', 1))).toMatch(/^Failed to save: .*500/)
    expect(stdout.filter((line) => /^::(warning|error)::/.test(line))).toEqual([])
  })

  it('a service that does not answer: given up on after the time limit', async () => {
    fake.failAlways('lookup', 'hang')
    const started = Date.now()
    const restored = await store().restore('k-attempt-')
    const took = Date.now() - started
    expect(restored).toEqual({
      kind: 'failed',
      message: `the cache service did not answer within ${RECORD_TIME_LIMIT_MS / 1000}s`
    })
    expect(took).toBeGreaterThanOrEqual(RECORD_TIME_LIMIT_MS - 50)
    expect(took).toBeLessThan(RECORD_TIME_LIMIT_MS + 1000)
    // The library goes on: dropping the hung connection makes it retry (after its own 5 s) and
    // give up. Its warning then must not reach the log either: the store's filter stays until the
    // call settles, then puts back what it found.
    await fake.close()
    for (let waited = 0; waited < 12_000 && process.stdout.write !== recorder; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect(process.stdout.write).toBe(recorder)
    expect(stdout.some((line) => line.includes('Attempt 2 of 2 failed'))).toBe(true)
    expect(stdout.filter((line) => /^::(warning|error)::/.test(line))).toEqual([])
    fake = await CacheServiceFake.start()
  }, 20_000)
})
