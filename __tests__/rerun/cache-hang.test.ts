/**
 * The real @actions/cache against a cache service that never answers: the store gives up after
 * its time limit, and the library's warning, when it finally gives up too (after its own retry
 * sleeps, about 10 s), does not reach the log. Slow by nature: left out of mutation runs.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { applyEnv, CacheServiceFake } from '../../simulator/cache.js'
import { cacheRecordStore } from '../../src/rerun/cache.js'

let fake: CacheServiceFake
beforeAll(async () => {
  fake = await CacheServiceFake.start()
  // Loaded up front: what is timed is the store's time limit, not the module's load.
  await import('@actions/cache')
})
afterAll(async () => {
  await fake.close()
})

it('a service that does not answer: given up on after the time limit, its late warning kept out', async () => {
  const restoreEnv = applyEnv({
    ...fake.env(),
    RUNNER_TEMP: mkdtempSync(join(tmpdir(), 'rerun-')),
    RUNNER_DEBUG: undefined
  })
  const stdout: string[] = []
  const write = process.stdout.write.bind(process.stdout)
  const recorder = (chunk: string | Uint8Array): boolean => {
    stdout.push(String(chunk))
    return true
  }
  process.stdout.write = recorder
  try {
    fake.failAlways('lookup', 'hang')
    const restored = await cacheRecordStore(process.env, { timeLimitMs: 300 }).lookup('k-')
    expect(restored).toEqual({ kind: 'failed', message: 'the cache service did not answer within 300ms' })
    // The store answered while the library's call was still pending (its output filter stays on until
    // the call settles): the step is not held.
    expect(process.stdout.write).not.toBe(recorder)
    while (fake.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 10))
    expect(fake.requests.map((r) => [r.operation, r.fault, r.status])).toEqual([['lookup', 'hang', undefined]])
    // Dropping the hung connection makes the library retry after its own 5 s, and give up.
    await fake.close()
    for (let waited = 0; waited < 15_000 && process.stdout.write !== recorder; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect(process.stdout.write).toBe(recorder)
    expect(stdout.some((line) => line.includes('Attempt 2 of 2 failed'))).toBe(true)
    expect(stdout.filter((line) => /^::(warning|error)::/.test(line))).toEqual([])
  } finally {
    process.stdout.write = write
    restoreEnv()
    fake = await CacheServiceFake.start()
  }
}, 20_000)
