/**
 * The re-run record store over the real @actions/cache, against a fake Actions cache service (v1
 * protocol) on loopback: keys survive from one attempt to the next and are found without any
 * archive being downloaded; a read-only cache is told apart; a service that fails gives
 * one message for the step to warn with (the library's own warnings are kept out of the log); a
 * service that does not answer costs at most the time limit.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { join } from 'node:path'
import { applyEnv, CacheServiceFake } from '../../simulator/cache.js'
import { cacheRecordStore, ENTRY_CONTENT, ENTRY_PATH, type CacheLibrary } from '../../src/rerun/cache.js'

// One describe for the file: its hooks stay its own when the mutation suite runs the files together.
describe('rerun records in the cache service', () => {
  let fake: CacheServiceFake
  let restoreEnv: () => void
  let stdout: string[]
  let write: typeof process.stdout.write
  let recorder: typeof process.stdout.write

  beforeAll(async () => {
    fake = await CacheServiceFake.start()
    // Loaded once up front: on a busy machine the first load alone can take the 5 s time limit.
    await import('@actions/cache')
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
  const saved = { kind: 'saved' }
  const operations = () => fake.requests.map((r) => r.operation)

  describe('with the service', () => {
    it('is available when ACTIONS_CACHE_URL is set, not without it', () => {
      expect(store().available).toBe(true)
      expect(cacheRecordStore({}).available).toBe(false)
      expect(
        cacheRecordStore({ ACTIONS_CACHE_SERVICE_V2: 'true', ACTIONS_RESULTS_URL: 'https://results' }).available
      ).toBe(true)
      expect(cacheRecordStore({ ACTIONS_CACHE_SERVICE_V2: 'true' }).available).toBe(false)
    })

    it('saves keys, and a later attempt finds the newest by prefix without downloading anything', async () => {
      expect(await store().save('docs-agent-rerun-abc-1-x')).toEqual(saved)
      expect(await store().save('docs-agent-rerun-abc-2-y')).toEqual(saved)
      expect(await store().lookup('docs-agent-rerun-abc-')).toEqual({ kind: 'found', key: 'docs-agent-rerun-abc-2-y' })
      expect(await store().lookup('docs-agent-rerun-other-')).toEqual({ kind: 'missing' })
      expect(fake.entries.map((e) => [e.key, e.committed])).toEqual([
        ['docs-agent-rerun-abc-1-x', true],
        ['docs-agent-rerun-abc-2-y', true]
      ])
      expect(operations()).not.toContain('download')
      // The library's progress lines become debug lines.
      expect(stdout.filter((line) => !line.startsWith('::') && !line.startsWith('[command]'))).toEqual([])
    })

    it('stores the same few bytes whatever the key: the record is the key', async () => {
      await store().save('k-1-a')
      await store().save('k-2-b')
      for (const entry of fake.entries) {
        expect(entry.size).toBeLessThan(1000)
        // A zstd-compressed tar, as the library makes it: the one file, with the constant text.
        const tar = spawnSync('zstd', ['-dc'], { input: entry.archive }).stdout.toString('utf8')
        expect(tar).toContain('record.txt')
        expect(tar).toContain(ENTRY_CONTENT)
      }
    })

    it('never extracts an archive planted under the prefix', async () => {
      // Whoever can write the cache scope saves an archive for the store's own path, with a file in it.
      const dir = join(homedir(), '.docs-agent-action-rerun')
      const planted = join(dir, `planted-${process.pid}.sh`)
      mkdirSync(dir, { recursive: true })
      writeFileSync(planted, 'echo pwned')
      const cache = await import('@actions/cache')
      expect(await cache.saveCache([ENTRY_PATH], 'docs-agent-rerun-abc-9-planted')).toBeGreaterThan(0)
      rmSync(planted)
      fake.requests.length = 0
      expect(await store().lookup('docs-agent-rerun-abc-')).toEqual({
        kind: 'found',
        key: 'docs-agent-rerun-abc-9-planted'
      })
      expect(operations()).toEqual(['lookup'])
      expect(existsSync(planted)).toBe(false)
    })

    it('a re-run on another runner of the pool finds the record (its RUNNER_TEMP is another directory)', async () => {
      // Self-hosted runners sharing a machine each live in a directory of their own, so RUNNER_TEMP
      // (<runner>/_work/_temp) differs from one to the next, and a re-run may land on any of them.
      // The service matches a key only with the same version, which hashes the paths given to the
      // library (docs.github.com/actions/reference/workflows-and-actions/dependency-caching#cache-key-matching;
      // github.com/actions/toolkit/issues/1433).
      const runner = (name: string) => {
        const temp = join(mkdtempSync(join(tmpdir(), 'pool-')), name, '_work', '_temp')
        mkdirSync(temp, { recursive: true })
        return cacheRecordStore({ ...process.env, RUNNER_TEMP: temp })
      }
      expect(await runner('runner-1').save('docs-agent-rerun-abc-1-x')).toEqual(saved)
      expect(await runner('runner-2').lookup('docs-agent-rerun-abc-')).toEqual({
        kind: 'found',
        key: 'docs-agent-rerun-abc-1-x'
      })
    })

    it('finds nothing after the entry was evicted (the service keeps entries about 7 days)', async () => {
      await store().save('k-1')
      fake.evict()
      expect(await store().lookup('k-')).toEqual({ kind: 'missing' })
    })

    it('reports a key saved twice as not saved', async () => {
      await store().save('k-1')
      expect(await store().save('k-1')).toEqual({
        kind: 'failed',
        message: expect.stringMatching(/^Failed to save: Unable to reserve cache with key k-1/)
      })
    })
  })

  describe('a read-only cache (pull_request_target and issue_comment runs)', () => {
    it('the runner says so (ACTIONS_CACHE_MODE): read-only, nothing asked', async () => {
      for (const mode of ['read', ' None ']) {
        expect(await cacheRecordStore({ ...process.env, ACTIONS_CACHE_MODE: mode }).save('k-1')).toEqual({
          kind: 'read-only',
          message: `the cache mode of this run is ${mode.trim().toLowerCase()}`
        })
      }
      expect(fake.requests).toEqual([])
      expect(await cacheRecordStore({ ...process.env, ACTIONS_CACHE_MODE: 'write' }).save('k-1')).toEqual(saved)
    })

    it('write-only and none: a lookup says the run may not read the cache, never that there is no record', async () => {
      // The workflow's cache-mode, exported by the runner (actions/runner#4538): @actions/cache then
      // skips the restore and returns as on a miss (actions/toolkit#2447), though the record is there.
      expect(await store().save('k-1')).toEqual(saved)
      const underMode = async (mode: string) => {
        const restoreMode = applyEnv({ ACTIONS_CACHE_MODE: mode })
        try {
          return await store().lookup('k-')
        } finally {
          restoreMode()
        }
      }
      for (const mode of ['write-only', 'none']) {
        expect(await underMode(mode)).toEqual({
          kind: 'failed',
          message: `the cache mode of this run is ${mode}, which does not read the cache`
        })
      }
      expect(await underMode('read')).toEqual({ kind: 'found', key: 'k-1' })
    })

    it('the service refuses the write: read-only, and no warning of the library', async () => {
      fake.fail('reserve', { status: 403, message: 'cache write denied: the token of this run is read-only' })
      expect(await store().save('k-1')).toEqual({
        kind: 'read-only',
        message: expect.stringMatching(/^Failed to save: .*cache write denied: the token of this run is read-only/)
      })
      expect(stdout.filter((line) => /^::(warning|error)::/.test(line))).toEqual([])
    })
  })

  describe('when the service fails', () => {
    it('a 500 on lookup: one failure message, no warning of the library', async () => {
      await store().save('k-1')
      fake.fail('lookup', { status: 500 })
      expect(await store().lookup('k-')).toEqual({
        kind: 'failed',
        message: expect.stringMatching(/^Failed to restore: getCacheEntry failed: Cache service responded with 500/)
      })
      expect(stdout.filter((line) => /^::(warning|error)::/.test(line))).toEqual([])
    })

    it.each(['reserve', 'upload', 'commit'] as const)('a 500 on %s: the save reports it', async (operation) => {
      fake.fail(operation, { status: 500 })
      expect(await store().save('k-1')).toEqual({
        kind: 'failed',
        message: expect.stringMatching(/^Failed to save: .*500/)
      })
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

    it('asks the library for a lookup only, under the prefix, for the path it saves', async () => {
      const calls: unknown[][] = []
      const spy = library(
        (...args) => {
          calls.push(args)
          return Promise.resolve('k-1')
        },
        (...args) => {
          calls.push(args)
          return Promise.resolve(1)
        }
      )
      const lookups = cacheRecordStore(process.env, { load: spy })
      expect(await lookups.lookup('k-')).toEqual({ kind: 'found', key: 'k-1' })
      expect(await lookups.save('k-2')).toEqual(saved)
      expect(calls).toEqual([
        [[ENTRY_PATH], 'k-', [], { lookupOnly: true }],
        [[ENTRY_PATH], 'k-2']
      ])
      expect(ENTRY_PATH).toBe('~/.docs-agent-action-rerun')
      expect(readFileSync(join(homedir(), '.docs-agent-action-rerun', 'record.txt'), 'utf8')).toBe(ENTRY_CONTENT)
    })

    it('gives up on a call after the time limit, and keeps its late warning out of the log', async () => {
      let finish: (() => void) | undefined
      const late = new Promise<undefined>((resolve) => {
        finish = () => {
          process.stdout.write('::warning::Failed to restore: getCacheEntry failed: late\n')
          resolve(undefined)
        }
      })
      let settled = false
      void late.then(() => (settled = true))
      const found = await cacheRecordStore(process.env, { timeLimitMs: 100, load: library(() => late) }).lookup('k-')
      expect(found).toEqual({ kind: 'failed', message: 'the cache service did not answer within 100ms' })
      // The store answered while the call was still pending: it did not wait for it.
      expect(settled).toBe(false)
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
      await store.lookup('k-')
      await store.save('k-1')
      expect(process.stdout.write).not.toBe(recorder)
    })

    it('turns the library warnings and its plain failure lines into the one failure it reports', async () => {
      const warned = library(() => {
        process.stdout.write('::warning::Failed to restore: Cache service responded with 401%0Amore\n')
        return Promise.resolve(undefined)
      })
      expect(await cacheRecordStore(process.env, { load: warned }).lookup('k-')).toEqual({
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
      expect(await cacheRecordStore(process.env, { load: refused }).save('k-1')).toEqual({
        kind: 'failed',
        message: 'Failed to save: Unable to reserve cache with key k-1, another job may be creating this cache.'
      })
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
      expect(await cacheRecordStore(process.env, { load: chatty }).save('k-1')).toEqual(saved)
      expect(stdout).toEqual([
        '::debug::Cache Size: ~0 MB (120 B)\n',
        '::debug::Cache saved successfully\n',
        '::debug::raw bytes\n'
      ])
    })

    it('keeps the lines of the v2 protocol (github.com) out of the log too: its upload progress and upload warning', async () => {
      // What @actions/cache 6.x prints on ACTIONS_CACHE_SERVICE_V2, GitHub.com's protocol: the upload
      // progress (lib/internal/uploadUtils.js, UploadProgress.display, at least once per save), and on a
      // failed upload a warning of its own before the save's "Failed to save" (uploadUtils.js,
      // uploadCacheArchiveSDK; cache.js, saveCacheV2).
      const uploaded = library(
        () => Promise.resolve(undefined),
        () => {
          process.stdout.write('Sent 143 of 143 (100.0%), 0.1 MBs/sec\n')
          return Promise.resolve(3)
        }
      )
      expect(await cacheRecordStore(process.env, { load: uploaded }).save('k-1')).toEqual(saved)
      const failed = library(
        () => Promise.resolve(undefined),
        () => {
          process.stdout.write(
            '::warning::uploadCacheArchiveSDK: internal error uploading cache archive: socket hang up\n'
          )
          process.stdout.write('::warning::Failed to save: socket hang up\n')
          return Promise.resolve(-1)
        }
      )
      expect(await cacheRecordStore(process.env, { load: failed }).save('k-2')).toEqual({
        kind: 'failed',
        message: 'uploadCacheArchiveSDK: internal error uploading cache archive: socket hang up'
      })
      expect(stdout).toEqual(['::debug::Sent 143 of 143 (100.0%), 0.1 MBs/sec\n'])
    })

    it('reports a save the library did not make (-1), and a library that throws', async () => {
      const store = (lib: () => Promise<CacheLibrary>) => cacheRecordStore(process.env, { load: lib })
      expect(
        await store(
          library(
            () => Promise.resolve(undefined),
            () => Promise.resolve(-1)
          )
        ).save('k')
      ).toEqual({ kind: 'failed', message: 'the cache service did not take it' })
      expect(await store(() => Promise.reject(new Error('Cannot find module'))).lookup('k-')).toEqual({
        kind: 'failed',
        message: 'Cannot find module'
      })
      expect(
        await store(library(() => Promise.reject(new Error('ValidationError: key too long')))).lookup('k-')
      ).toEqual({
        kind: 'failed',
        message: 'ValidationError: key too long'
      })
    })
  })
})
