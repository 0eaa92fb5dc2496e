/**
 * Re-run records in the Actions cache service, through `@actions/cache` (both its v1 protocol,
 * `ACTIONS_CACHE_URL`, and v2, `ACTIONS_RESULTS_URL`). The record is the key (see record.ts): a
 * restore only looks the key up, and never downloads or extracts an archive; a save stores a
 * constant file. The library costs about 45 MB, so it is loaded on first use: never before the
 * first create on a first attempt.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { formatDuration } from '../base/duration.js'
import { errorMessage } from '../base/error-message.js'
import type { RecordStore } from './record.js'

/** Longest a lookup or a save may take before the step goes on without it. */
export const RECORD_TIME_LIMIT_MS = 5_000

/** What every entry holds: the record is in its key. */
export const ENTRY_CONTENT = 'docs-agent-action: the re-run record is the cache key.\n'

/**
 * The path every entry is saved from, as the library is given it. The service finds a key only
 * with the same version, a hash of these path strings (and of the compression tool): one that
 * names the runner's own directories, as RUNNER_TEMP (`<runner>/_work/_temp`) does, differs on the
 * next self-hosted runner of a pool, where a re-run may land, and the record would not be found
 * (docs.github.com/actions/reference/workflows-and-actions/dependency-caching#cache-key-matching,
 * github.com/actions/toolkit/issues/1433). `~` reads the same on every runner; the library's glob
 * expands it to the home directory when it saves.
 */
export const ENTRY_PATH = '~/.docs-agent-action-rerun'

/** The two calls of @actions/cache the store makes. */
export interface CacheLibrary {
  restoreCache(
    paths: string[],
    primaryKey: string,
    restoreKeys: string[],
    options: { lookupOnly: boolean }
  ): Promise<string | undefined>
  saveCache(paths: string[], key: string): Promise<number>
}

export interface CacheStoreOptions {
  /** Longest a call may take before the step goes on without it. */
  timeLimitMs?: number
  /** Loads the library (on first use). */
  load?: () => Promise<CacheLibrary>
}

// What the service answers a save when the run's cache token is read-only.
const WRITE_DENIED = /cache write denied:/i

/** The job's `cache-mode` as the runner exports it (actions/runner#4538): '' when the workflow sets none. */
const cacheModeOf = (env: Record<string, string | undefined>): string =>
  (env.ACTIONS_CACHE_MODE ?? '').trim().toLowerCase()

/**
 * Whether a record one attempt saves in the cache can be read by the next: not under a `cache-mode`
 * that refuses saves (`read`, the default of pull_request_target and issue_comment), skips restores
 * (`write-only`) or both (`none`)
 * (github.blog/changelog/2026-09-10-control-github-actions-cache-access-with-cache-mode).
 */
export function cacheKeepsRecords(env: Record<string, string | undefined>): boolean {
  return !['read', 'write-only', 'none'].includes(cacheModeOf(env))
}

export function cacheRecordStore(
  env: Record<string, string | undefined>,
  options: CacheStoreOptions = {}
): RecordStore {
  const { timeLimitMs = RECORD_TIME_LIMIT_MS, load = () => import('@actions/cache') } = options
  // As the library decides, without loading it: v2 needs ACTIONS_RESULTS_URL, v1 ACTIONS_CACHE_URL.
  const available = Boolean(env.ACTIONS_CACHE_URL || (env.ACTIONS_CACHE_SERVICE_V2 && env.ACTIONS_RESULTS_URL))
  // The runner says when a run may not write or read (the library then skips the call, as on a miss).
  const mode = cacheModeOf(env)
  const quietly = quietRunner(timeLimitMs)
  return {
    available,
    async lookup(prefix) {
      // The library would find nothing, though an earlier attempt's record may be there.
      if (mode === 'write-only' || mode === 'none') {
        return { kind: 'failed', message: `the cache mode of this run is ${mode}, which does not read the cache` }
      }
      const result = await quietly(async () =>
        (await load()).restoreCache([ENTRY_PATH], prefix, [], { lookupOnly: true })
      )
      if (result.kind === 'failed') return result
      return result.value === undefined ? { kind: 'missing' } : { kind: 'found', key: result.value }
    },
    async save(key) {
      if (mode === 'read' || mode === 'none') {
        return { kind: 'read-only', message: `the cache mode of this run is ${mode}` }
      }
      try {
        entryFile()
      } catch (error) {
        return { kind: 'failed', message: `could not write the entry's file (${errorMessage(error)})` }
      }
      const result = await quietly(async () => (await load()).saveCache([ENTRY_PATH], key))
      if (result.kind === 'failed') {
        return WRITE_DENIED.test(result.message) ? { kind: 'read-only', message: result.message } : result
      }
      // -1: not saved, whatever was printed (a key that exists is only an info line).
      return result.value === -1 ? { kind: 'failed', message: 'the cache service did not take it' } : { kind: 'saved' }
    }
  }
}

/**
 * The file under ENTRY_PATH, with ENTRY_CONTENT: written only when it is not there yet, through a
 * rename, so that another job's save on the same machine never archives it half-written.
 */
function entryFile(): void {
  const dir = join(homedir(), ENTRY_PATH.slice(2))
  const file = join(dir, 'record.txt')
  try {
    if (readFileSync(file, 'utf8') === ENTRY_CONTENT) return
  } catch {
    // Not there yet.
  }
  mkdirSync(dir, { recursive: true })
  const partial = `${file}.${process.pid}`
  writeFileSync(partial, ENTRY_CONTENT)
  renameSync(partial, file)
}

type Quiet<T> = { kind: 'done'; value: T } | { kind: 'failed'; message: string }

// What @actions/cache prints through @actions/core when it gives up (it then returns as if nothing
// was found or saved): `::warning::Failed to restore: …` (`::error::` on a 5xx in v2), or a plain
// `Failed to save: Unable to reserve cache …` line when the key exists; on the v2 protocol
// (GitHub.com's), a failed upload warns `uploadCacheArchiveSDK: …` first (lib/internal/uploadUtils.js).
const LIBRARY_FAILURE =
  /^(?:::(?:warning|error)::)?((?:Failed to (?:restore|save)|Cache reservation failed|uploadCacheArchiveSDK: )[^\n]*)/
// Its progress lines (`Sent … of` is v2's upload), and the tar commands it runs, are of no use in the step's log.
const LIBRARY_CHATTER =
  /^(?:Cache (?:Size|restored|saved|hit|not found)|(?:Received|Sent) \d+ of|Lookup only|\[command\])/

/**
 * Runs library calls within the time limit, turning the library's own warnings and errors into a
 * failure the caller reports once, its own way, and its progress lines into debug lines. The
 * filter stays on until every call has settled, even one given up on; other output (the step's
 * own log goes on meanwhile) passes through untouched.
 */
function quietRunner(timeLimitMs: number): <T>(call: () => Promise<T>) => Promise<Quiet<T>> {
  let pending = 0
  let original: typeof process.stdout.write | undefined
  let failure: ((message: string) => void) | undefined
  const install = (): void => {
    if (pending++ > 0) return
    const write = process.stdout.write.bind(process.stdout)
    // eslint-disable-next-line @typescript-eslint/unbound-method -- put back as it was, never called unbound
    original = process.stdout.write
    process.stdout.write = (chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8')
      const failed = LIBRARY_FAILURE.exec(text)
      if (failed) {
        failure?.(decodeCommand(failed[1] ?? ''))
        return true
      }
      if (LIBRARY_CHATTER.test(text)) return write(`::debug::${text}`)
      return (write as (...args: unknown[]) => boolean)(chunk, ...rest)
    }
  }
  const uninstall = (): void => {
    if (--pending === 0 && original) process.stdout.write = original
  }
  return async <T>(call: () => Promise<T>): Promise<Quiet<T>> => {
    let message: string | undefined
    failure = (text) => (message ??= text)
    install()
    let timer: NodeJS.Timeout | undefined
    const settled = call().finally(uninstall)
    const limit = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeLimitMs).unref()
    })
    try {
      const value = await Promise.race([settled, limit])
      if (value === 'timeout') {
        settled.catch(() => undefined)
        return { kind: 'failed', message: `the cache service did not answer within ${formatDuration(timeLimitMs)}` }
      }
      return message === undefined ? { kind: 'done', value } : { kind: 'failed', message }
    } catch (error) {
      return { kind: 'failed', message: error instanceof Error ? error.message : String(error) }
    } finally {
      clearTimeout(timer)
    }
  }
}

/** A workflow command's data back as text (`%25` `%0D` `%0A`). */
function decodeCommand(data: string): string {
  return data.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%').trim()
}
