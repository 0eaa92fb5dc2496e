// The fake cache service (protocol v1) driven by the real @actions/cache: what it stores and matches,
// and what the library returns, prints and how long it waits on each fault the fake injects.
import { describe, it, expect, beforeAll, afterAll, beforeEach, afterEach } from '@jest/globals'
import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { applyEnv, CacheServiceFake, type CacheFault, type CacheOperation } from '../../simulator/cache.js'
import { realTime } from '../../simulator/agent-api.js'
import { VirtualClock } from '../../simulator/virtual-clock.js'

const cache = await import('@actions/cache')

// zstd is installed: the library picks it without long mode, and the method is part of the version.
const ZSTD = 'zstd-without-long'
const ZSTD_MAGIC = '28b52ffd'
const GZIP_MAGIC = '1f8b'
// @actions/cache retries a refused connection or a 502/503/504 once, sleeping 5 s after each of its 2 attempts.
const RETRY_SLEEP_MS = 5_000

/** The version @actions/cache sends: sha256 of the paths, the compression method and its salt. */
const versionOf = (paths: string[], compression: string): string =>
  createHash('sha256')
    .update([...paths, compression, '1.0'].join('|'))
    .digest('hex')

interface Outcome<T> {
  value: T
  /** What the library printed, without `::debug::` lines and the `[command]` echo of tar. */
  lines: string[]
  debug: string[]
  /** The library's retry sleeps, in ms: recorded, not waited. */
  slept: number[]
}

/**
 * Runs `fn` with stdout captured, as the runner would read the library's workflow commands, and
 * with the library's retry sleeps (its 5 s timers) recorded and fired at once: what it would wait,
 * without waiting it. Other timers run as they are (a sleep of another length is waited, and not
 * recorded: the assertions on `slept` then fail).
 */
async function captured<T>(fn: () => Promise<T>): Promise<Outcome<T>> {
  const printed: string[] = []
  const slept: number[] = []
  const write = process.stdout.write
  const timer = globalThis.setTimeout
  process.stdout.write = (chunk: string | Uint8Array) => {
    printed.push(...String(chunk).split('\n'))
    return true
  }
  globalThis.setTimeout = ((handler: () => void, ms?: number) => {
    if (ms !== RETRY_SLEEP_MS) return timer(handler, ms)
    slept.push(ms)
    return timer(handler, 0)
  }) as typeof setTimeout
  try {
    const value = await fn()
    const lines = printed.filter((l) => l !== '' && !l.startsWith('::debug::') && !l.startsWith('[command]'))
    return { value, lines, debug: printed.filter((l) => l.startsWith('::debug::')), slept }
  } finally {
    process.stdout.write = write
    globalThis.setTimeout = timer
  }
}

describe('CacheServiceFake with @actions/cache 6.3 (v1 protocol)', () => {
  let fake: CacheServiceFake
  let root: string
  let dir: string
  let restoreEnv: () => void

  const writeData = (content: string): void => {
    rmSync(dir, { recursive: true, force: true })
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'data.txt'), content)
  }
  const readData = (): string => readFileSync(join(dir, 'data.txt'), 'utf8')
  const save = (key: string, paths = [dir]): Promise<Outcome<number>> => captured(() => cache.saveCache(paths, key))
  const restore = (key: string, restoreKeys: string[] = [], paths = [dir]): Promise<Outcome<string | undefined>> =>
    captured(() => cache.restoreCache(paths, key, restoreKeys))
  const summary = (): string[] => fake.requests.map((r) => `${r.method} ${r.operation} ${r.status ?? 'none'}`)
  const mask = (id: number): string => `::add-mask::${fake.url}_archives/${id}`

  beforeAll(async () => {
    fake = await CacheServiceFake.start()
    root = mkdtempSync(join(tmpdir(), 'cache-fake-'))
    dir = join(root, 'data')
  })
  afterAll(async () => {
    await fake.close()
    rmSync(root, { recursive: true, force: true })
  })
  beforeEach(async () => {
    await fake.up()
    fake.reset()
    fake.time = realTime
    // RUNNER_TEMP: where the library writes its archive; RUNNER_DEBUG would add a listing request on a miss.
    restoreEnv = applyEnv({ ...fake.env(), RUNNER_TEMP: join(root, 'runner'), RUNNER_DEBUG: undefined })
    writeData('first')
  })
  afterEach(() => restoreEnv())

  it('sets the v1 variables and unsets the v2 switch and the cache mode', () => {
    expect(fake.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/)
    expect(fake.env()).toEqual({
      ACTIONS_CACHE_URL: fake.url,
      ACTIONS_RUNTIME_TOKEN: fake.token,
      ACTIONS_CACHE_SERVICE_V2: undefined,
      ACTIONS_RESULTS_URL: undefined,
      ACTIONS_CACHE_MODE: undefined
    })
    expect('ACTIONS_CACHE_SERVICE_V2' in process.env).toBe(false)
  })

  it('saves an archive, then restores it by its exact key into the same path', async () => {
    const saved = await save('deps-1')
    const [entry] = fake.entries
    if (!entry) throw new Error('nothing stored')
    expect(saved.value).toBe(entry.id)
    expect(entry).toMatchObject({ key: 'deps-1', version: versionOf([dir], ZSTD), committed: true, created: 1 })
    expect(entry.archive.subarray(0, 4).toString('hex')).toBe(ZSTD_MAGIC)
    expect(saved.lines).toEqual([`Cache Size: ~0 MB (${entry.size} B)`, 'Cache saved successfully'])
    expect(summary()).toEqual(['POST reserve 201', 'PATCH upload 204', 'POST commit 204'])
    const [reserve, upload] = fake.requests
    expect(reserve?.headers).toMatchObject({
      authorization: `Bearer ${fake.token}`,
      accept: 'application/json;api-version=6.0-preview.1'
    })
    expect(upload?.headers['content-range']).toBe(`bytes 0-${entry.size - 1}/*`)

    rmSync(dir, { recursive: true })
    fake.requests.length = 0
    const restored = await restore('deps-1')
    expect(restored.value).toBe('deps-1')
    expect(readData()).toBe('first')
    expect(restored.lines).toEqual([
      mask(entry.id),
      `Cache Size: ~0 MB (${entry.size} B)`,
      'Cache restored successfully'
    ])
    expect(fake.requests.map((r) => `${r.method} ${r.path} ${r.status ?? 'none'}`)).toEqual([
      `GET /_apis/artifactcache/cache?keys=deps-1&version=${entry.version} 200`,
      `GET /_archives/${entry.id} 200`
    ])
  })

  it('restores by prefix the most recently created match, and an exact key before any prefix', async () => {
    await save('k-attempt-1')
    writeData('second')
    await save('k-attempt-2')
    expect(fake.entries.map((e) => [e.key, e.created])).toEqual([
      ['k-attempt-1', 1],
      ['k-attempt-2', 2]
    ])

    rmSync(dir, { recursive: true })
    expect((await restore('k-attempt-3', ['k-attempt-'])).value).toBe('k-attempt-2')
    expect(readData()).toBe('second')
    expect((await restore('k-attempt-1', ['k-attempt-'])).value).toBe('k-attempt-1')
    expect(readData()).toBe('first')
    // The primary key is prefix-matched too, as the real service does.
    expect((await restore('k-attempt')).value).toBe('k-attempt-2')
  })

  it('misses quietly: no entry, another path (another version), or after eviction', async () => {
    const miss = await restore('deps-1')
    expect(miss).toMatchObject({ value: undefined, lines: [] })
    expect(summary()).toEqual(['GET lookup 204'])

    await save('deps-1')
    const elsewhere = join(root, 'elsewhere')
    const other = await restore('deps-1', [], [elsewhere])
    expect(other).toMatchObject({ value: undefined, lines: [] })
    expect(fake.requests.at(-1)?.path).toContain(`version=${versionOf([elsewhere], ZSTD)}`)

    fake.evict()
    expect(fake.entries).toEqual([])
    expect((await restore('deps-1')).value).toBeUndefined()
  })

  it('keeps keys immutable: a second save of the same key and version is refused with an info line', async () => {
    await save('deps-1')
    writeData('changed')
    const again = await save('deps-1')
    const version = versionOf([dir], ZSTD)
    expect(again.value).toBe(-1)
    // core.info, not ::warning::: the library takes it for another job saving the same key.
    expect(again.lines).toEqual([
      'Failed to save: Unable to reserve cache with key deps-1, another job may be creating this cache. ' +
        `More details: Cache already exists. Scope: refs/heads/main, Key: deps-1, Version: ${version}`
    ])
    expect(summary().slice(3)).toEqual(['POST reserve 409'])
    expect(fake.entries).toHaveLength(1)

    // Another path is another version: that one is a new entry.
    const elsewhere = join(root, 'elsewhere')
    mkdirSync(elsewhere, { recursive: true })
    expect((await save('deps-1', [elsewhere])).value).toBeGreaterThan(0)
    expect(fake.entries.map((e) => e.key)).toEqual(['deps-1', 'deps-1'])
  })

  type Row = [CacheOperation, CacheFault, 'restore' | 'save', 'cacheId' | -1 | undefined, (id: number) => unknown[]]
  it.each<Row>([
    [
      'lookup',
      { status: 500 },
      'restore',
      undefined,
      () => ['::warning::Failed to restore: getCacheEntry failed: Cache service responded with 500']
    ],
    [
      'lookup',
      { status: 401 },
      'restore',
      undefined,
      () => ['::warning::Failed to restore: Cache service responded with 401']
    ],
    [
      'lookup',
      { status: 403, message: 'cache read denied: read-only scopes' },
      'restore',
      undefined,
      () => ['::warning::Failed to restore: cache read denied: read-only scopes']
    ],
    [
      'download',
      { status: 500 },
      'restore',
      undefined,
      (id) => [mask(id), '::warning::Failed to restore: downloadCache failed: Cache service responded with 500']
    ],
    [
      'reserve',
      { status: 500 },
      'save',
      -1,
      () => ['::warning::Failed to save: reserveCache failed: Cache service responded with 500']
    ],
    [
      'reserve',
      { status: 403, message: 'cache write denied: read-only token' },
      'save',
      -1,
      () => [
        '::warning::Failed to save: Unable to reserve cache with key fresh. More details: cache write denied: read-only token'
      ]
    ],
    [
      'upload',
      { status: 500 },
      'save',
      'cacheId',
      () => [
        expect.stringMatching(
          /^::warning::Failed to save: uploadChunk \(start: 0, end: \d+\) failed: Cache service responded with 500$/
        )
      ]
    ],
    [
      'commit',
      { status: 500 },
      'save',
      'cacheId',
      () => [
        expect.stringMatching(/^Cache Size: ~0 MB \(\d+ B\)$/),
        '::warning::Failed to save: commitCache failed: Cache service responded with 500'
      ]
    ]
  ])('%s answering %j: %s gives %s at once, with a warning', async (op, fault, action, expected, lines) => {
    await save('seed')
    const seedId = fake.entries[0]?.id ?? 0
    const seeded = fake.requests.length
    fake.fail(op, fault)
    const outcome = action === 'restore' ? await restore('seed') : await save('fresh')
    const fresh = fake.entries.find((e) => e.key === 'fresh')
    // After a reserve, the library returns the cache id even though the upload or commit failed.
    expect(outcome.value).toBe(expected === 'cacheId' ? fresh?.id : expected)
    expect(outcome.lines).toEqual(lines(seedId))
    // At once: no retry, no sleep.
    expect(outcome.slept).toEqual([])
    expect(fake.requests.slice(seeded).filter((r) => r.operation === op)).toHaveLength(1)
    if (expected === 'cacheId') {
      // The reserved entry stays uncommitted and blocks its key: a retry of the save is refused.
      expect(fresh?.committed).toBe(false)
      expect((await save('fresh')).value).toBe(-1)
    }
  })

  it('down: connection refused makes restore and save give up after ~10 s, then works again on the same URL', async () => {
    await save('seed')
    const url = fake.url
    await fake.down()
    // One capture around both: stdout is one stream, and the two calls print while the other runs.
    const both = await captured(() => Promise.all([cache.restoreCache([dir], 'seed'), cache.saveCache([dir], 'fresh')]))
    const [restored, saved] = both.value
    const port = new URL(url).port
    expect(restored).toBeUndefined()
    expect(saved).toBe(-1)
    expect([...both.lines].sort()).toEqual([
      `::warning::Failed to restore: getCacheEntry failed: connect ECONNREFUSED 127.0.0.1:${port}`,
      `::warning::Failed to save: reserveCache failed: connect ECONNREFUSED 127.0.0.1:${port}`
    ])
    // Each of the two calls: 5 s after each of its 2 attempts.
    expect(both.slept).toEqual([RETRY_SLEEP_MS, RETRY_SLEEP_MS, RETRY_SLEEP_MS, RETRY_SLEEP_MS])

    await fake.up()
    expect(fake.url).toBe(url)
    expect((await restore('seed')).value).toBe('seed')
  })

  it('hang: restore and save wait with no answer (3 min each try, so the caller must bound them)', async () => {
    await save('seed')
    fake.fail('lookup', 'hang')
    fake.fail('reserve', 'hang')
    fake.requests.length = 0
    let settled = 0
    const both = captured(() =>
      Promise.all([cache.restoreCache([dir], 'seed'), cache.saveCache([dir], 'fresh')]).finally(() => settled++)
    )
    while (fake.requests.filter((r) => r.fault === 'hang').length < 2) await sleep(10)
    await sleep(1000)
    expect(settled).toBe(0)
    expect(fake.requests.map((r) => [r.operation, r.status, r.fault])).toEqual(
      expect.arrayContaining([
        ['lookup', undefined, 'hang'],
        ['reserve', undefined, 'hang']
      ])
    )

    // Dropping the hung connections is an error the library retries once, 5 s later: here it succeeds.
    await fake.down()
    await fake.up()
    const { value, lines, slept } = await both
    expect(slept).toEqual([RETRY_SLEEP_MS, RETRY_SLEEP_MS])
    expect(value).toEqual(['seed', fake.entries.find((e) => e.key === 'fresh')?.id])
    expect(lines.filter((l) => l.startsWith('::'))).toEqual([mask(1)])
  })

  it('delay: answers late but normally', async () => {
    await save('seed')
    const clock = new VirtualClock()
    fake.time = clock
    fake.fail('lookup', { delayMs: 300 })
    const started = clock.now()
    const restored = await restore('seed')
    expect(restored.value).toBe('seed')
    expect(clock.now() - started).toBe(300)
    expect(restored.slept).toEqual([])
    expect(fake.requests.find((r) => r.operation === 'lookup')).toMatchObject({ status: 200, fault: 'delay' })
  })

  it('lists caches of the primary key when RUNNER_DEBUG=1 and the lookup misses', async () => {
    await save('deps-1')
    process.env.RUNNER_DEBUG = '1'
    const other = await restore('deps-1', [], [join(root, 'elsewhere')])
    expect(other.value).toBeUndefined()
    expect(summary().slice(3)).toEqual(['GET lookup 204', 'GET list 200'])
    expect(other.debug).toContainEqual(
      expect.stringMatching(/^::debug::No matching cache found for cache key 'deps-1'/)
    )
    expect(other.debug).toContainEqual(
      expect.stringContaining(`Cache Key: deps-1, Cache Version: ${versionOf([dir], ZSTD)}`)
    )
  })

  it('stores gzip archives as well: without zstd on PATH the version changes, the fake does not care', async () => {
    // A PATH with tar and gzip only: the library's zstd probe fails and it falls back to gzip.
    const bin = join(root, 'bin-gzip')
    mkdirSync(bin, { recursive: true })
    for (const tool of ['tar', 'gzip']) symlinkSync(`/usr/bin/${tool}`, join(bin, tool))
    const restorePath = applyEnv({ PATH: bin })
    try {
      expect((await save('deps-gz')).value).toBeGreaterThan(0)
    } finally {
      restorePath()
    }
    const [entry] = fake.entries
    expect(entry?.version).toBe(versionOf([dir], 'gzip'))
    expect(entry?.archive.subarray(0, 2).toString('hex')).toBe(GZIP_MAGIC)

    rmSync(dir, { recursive: true })
    expect((await restore('deps-gz')).value).toBeUndefined() // zstd on PATH again: another version
    const gzipAgain = applyEnv({ PATH: bin })
    try {
      expect((await restore('deps-gz')).value).toBe('deps-gz')
    } finally {
      gzipAgain()
    }
    expect(readData()).toBe('first')
  })

  it('speaks the protocol strictly to a raw client', async () => {
    const api = `${fake.url}_apis/artifactcache/`
    const call = async (method: string, path: string, body?: string, headers: Record<string, string> = {}) => {
      const res = await fetch(`${api}${path}`, {
        method,
        headers: { authorization: `Bearer ${fake.token}`, 'content-type': 'application/json', ...headers },
        body
      })
      return { status: res.status, text: await res.text() }
    }
    const reserve = JSON.stringify({ key: 'raw', version: 'v1', cacheSize: 6 })
    const created = await call('POST', 'caches', reserve)
    expect(created.status).toBe(201)
    const { cacheId } = JSON.parse(created.text) as { cacheId: number }
    expect((await call('POST', 'caches', reserve)).status).toBe(409)
    // Chunks may arrive in any order (the library uploads 4 at a time).
    expect((await call('PATCH', `caches/${cacheId}`, 'def', { 'content-range': 'bytes 3-5/*' })).status).toBe(204)
    expect((await call('PATCH', `caches/${cacheId}`, 'abc', { 'content-range': 'bytes 0-3/*' })).status).toBe(400)
    expect((await call('PATCH', `caches/${cacheId}`, 'abc', { 'content-range': 'bytes 0-2' })).status).toBe(400)
    expect((await call('POST', `caches/${cacheId}`, JSON.stringify({ size: 6 }))).status).toBe(400) // gap at 0-2
    expect(fake.entries[0]).toMatchObject({ size: 3, committed: false })
    expect((await call('GET', `cache?keys=raw&version=v1`)).status).toBe(204) // not committed yet
    expect((await call('PATCH', `caches/${cacheId}`, 'abc', { 'content-range': 'bytes 0-2/*' })).status).toBe(204)
    expect((await call('POST', `caches/${cacheId}`, JSON.stringify({ size: 7 }))).text).toContain('received 6')
    expect((await call('POST', `caches/${cacheId}`, JSON.stringify({ size: 6 }))).status).toBe(204)
    expect((await call('PATCH', `caches/${cacheId}`, 'x', { 'content-range': 'bytes 6-6/*' })).status).toBe(409)
    expect((await call('POST', `caches/${cacheId}`, JSON.stringify({ size: 6 }))).status).toBe(409)

    const hit = await call('GET', 'cache?keys=nope,ra&version=v1')
    expect(JSON.parse(hit.text)).toEqual({
      cacheKey: 'raw',
      cacheVersion: 'v1',
      scope: 'refs/heads/main',
      creationTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      archiveLocation: `${fake.url}_archives/${cacheId}`
    })
    const archive = await fetch(`${fake.url}_archives/${cacheId}`)
    expect([archive.status, archive.headers.get('content-length'), await archive.text()]).toEqual([200, '6', 'abcdef'])

    expect((await call('GET', 'cache?version=v1')).status).toBe(400)
    expect((await call('POST', 'caches', '{"key": "k"}')).status).toBe(400)
    expect((await call('POST', 'caches/999', JSON.stringify({ size: 1 }))).status).toBe(404)
    expect((await call('DELETE', `caches/${cacheId}`)).status).toBe(404)
    expect((await call('GET', 'cache?keys=raw&version=v1', undefined, { authorization: 'Bearer wrong' })).status).toBe(
      401
    )
  })
})
