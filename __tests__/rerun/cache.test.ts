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
import { applyEnv, CacheServiceFake } from '../../simulator/cache.js'
import { cacheRecordStore, type CacheLibrary } from '../../src/rerun/cache.js'
import type { RerunRecord } from '../../src/rerun/record.js'

// One describe for the file: its hooks stay its own when the mutation suite runs the files together.
describe('rerun records in the cache service', () => {
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
    context: undefined,
    mayHaveActed: false,
    answer: undefined
  })

  beforeAll(async () => {
    fake = await CacheServiceFake.start()
  })
  afterAll(async () => {
    await fake.close()
  })
  beforeEach(() => {
    fake.reset()
    restoreEnv = applyEnv({
      ...fake.env(),
      RUNNER_TEMP: mkdtempSync(join(tmpdir(), 'rerun-')),
      RUNNER_DEBUG: undefined
    })
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
  })

  describe('the wrapper around the library', () => {
    // Stand-ins for @actions/cache, printing what it prints, to pin down the wrapper's own rules.
    const library =
      (restore: CacheLibrary['restoreCache'], save: CacheLibrary['saveCache'] = () => Promise.resolve(1)) =>
      () =>
        Promise.resolve({ restoreCache: restore, saveCache: save })
    const never = <T>(): Promise<T> => new Promise<T>(() => undefined)

    it('gives up on a call after the time limit, and keeps its late warning out of the log', async () => {
      let finish: (() => void) | undefined
      const late = new Promise<undefined>((resolve) => {
        finish = () => {
          process.stdout.write('::warning::Failed to restore: getCacheEntry failed: late\n')
          resolve(undefined)
        }
      })
      const started = Date.now()
      const restored = await cacheRecordStore(process.env, { timeLimitMs: 100, load: library(() => late) }).restore(
        'k-'
      )
      expect(restored).toEqual({ kind: 'failed', message: 'the cache service did not answer within 100ms' })
      expect(Date.now() - started).toBeLessThan(1000)
      process.stdout.write('the step goes on\n')
      finish?.()
      await late
      await new Promise((resolve) => setImmediate(resolve))
      expect(stdout).toEqual(['the step goes on\n'])
      // Once the call settled, stdout is what it was.
      expect(process.stdout.write).toBe(recorder)
    })

    it('stays on until every pending call settles, whatever their order', async () => {
      const store = cacheRecordStore(process.env, {
        timeLimitMs: 50,
        load: library(
          () => never(),
          () => never()
        )
      })
      await store.restore('k-')
      await store.save('k-1', record('j', 1))
      expect(process.stdout.write).not.toBe(recorder)
    })

    it('turns the library warnings and its plain failure lines into the one failure it reports', async () => {
      const warned = library(() => {
        process.stdout.write('::warning::Failed to restore: Cache service responded with 401%0Amore\n')
        return Promise.resolve(undefined)
      })
      expect(await cacheRecordStore(process.env, { load: warned }).restore('k-')).toEqual({
        kind: 'failed',
        message: 'Failed to restore: Cache service responded with 401\nmore'
      })
      const refused = library(
        () => Promise.resolve(undefined),
        () => {
          process.stdout.write(
            'Failed to save: Unable to reserve cache with key k-1, another job may be creating this cache.\n'
          )
          return Promise.resolve(-1)
        }
      )
      expect(await cacheRecordStore(process.env, { load: refused }).save('k-1', record('j', 1))).toBe(
        'Failed to save: Unable to reserve cache with key k-1, another job may be creating this cache.'
      )
      expect(stdout).toEqual([])
    })

    it('makes its progress lines debug lines, and lets everything else through as it is', async () => {
      const chatty = library(
        () => Promise.resolve(undefined),
        () => {
          process.stdout.write('Cache Size: ~0 MB (120 B)\n')
          process.stdout.write('Cache saved successfully\n')
          process.stdout.write(Buffer.from('::debug::raw bytes\n'))
          return Promise.resolve(3)
        }
      )
      expect(await cacheRecordStore(process.env, { load: chatty }).save('k-1', record('j', 1))).toBeUndefined()
      expect(stdout).toEqual([
        '::debug::Cache Size: ~0 MB (120 B)\n',
        '::debug::Cache saved successfully\n',
        '::debug::raw bytes\n'
      ])
    })

    it('reports a save the library did not make (-1), a library that throws, and a record that cannot be read', async () => {
      const store = (lib: () => Promise<CacheLibrary>) => cacheRecordStore(process.env, { load: lib })
      expect(
        await store(
          library(
            () => Promise.resolve(undefined),
            () => Promise.resolve(-1)
          )
        ).save('k', record('j', 1))
      ).toBe('the cache service did not take it')
      expect(await store(() => Promise.reject(new Error('Cannot find module'))).restore('k-')).toEqual({
        kind: 'failed',
        message: 'Cannot find module'
      })
      expect(
        await store(library(() => Promise.reject(new Error('ValidationError: key too long')))).restore('k-')
      ).toEqual({
        kind: 'failed',
        message: 'ValidationError: key too long'
      })
      // The library says it restored a key, but left no record of ours.
      expect(await store(library(() => Promise.resolve('k-1'))).restore('k-')).toEqual({
        kind: 'failed',
        message: 'the record under k-1 cannot be read'
      })
    })
  })
})
