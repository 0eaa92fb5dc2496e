/**
 * Runs the step in-process as the runner would, through `main(host)`: inputs with action.yml's
 * defaults, the real client over loopback HTTP to the simulator, and a virtual clock shared with
 * the simulator, so every scenario takes milliseconds. What the step wrote is recorded.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { inputDefaults, readAction } from './action-metadata.js'
import type { VirtualClock } from '../simulator/virtual-clock.js'
import { main } from '../src/step/main.js'
import type { Lookup, RecordStore, Saved } from '../src/rerun/record.js'

export const GITHUB_TOKEN = 'ghs_harness_token_0000000000000000000'
const DEFAULTS = inputDefaults(readAction(), GITHUB_TOKEN)

export type Level = 'info' | 'debug' | 'notice' | 'warning' | 'error'

export interface StepRun {
  code: number
  /** The last value of each output, as the runner keeps it. */
  outputs: Record<string, string>
  /** Every output write and secret registration and log line, in order, as `kind name`. */
  events: string[]
  summary: string
  lines: { level: Level; message: string }[]
  /** Lines of one level. */
  at(level: Level): string[]
  /** Everything written: log lines, outputs, summary (for leak checks). */
  everything(): string
}

export interface StepOptions {
  clock: VirtualClock
  /** Runner variables (GITHUB_*); none by default. */
  env?: Record<string, string>
  /**
   * Files the step may read (prompt-file, the event payload), by path in the workspace: written to
   * a temporary GITHUB_WORKSPACE (prompt-file is read from disk, confined to it).
   */
  files?: Record<string, string>
  records?: RecordStore
  /** Aborts as the runner's cancel would. */
  cancel?: AbortController
  /** Makes writing the summary fail. */
  summaryFails?: boolean
  /** Sees each log line as it is written (to act at a moment of the run, e.g. cancel). */
  onLine?: (level: Level, message: string) => void
}

export async function runInProcess(inputs: Record<string, string>, options: StepOptions): Promise<StepRun> {
  const values: Record<string, string> = { ...DEFAULTS, ...inputs }
  const outputs: Record<string, string> = {}
  const events: string[] = []
  const lines: { level: Level; message: string }[] = []
  let summary = ''
  const cancel = options.cancel ?? new AbortController()
  const workspace = mkdtempSync(join(tmpdir(), 'docs-agent-ws-'))
  for (const [path, content] of Object.entries(options.files ?? {})) writeFileSync(join(workspace, path), content)
  const logAt =
    (level: Level) =>
    (message: string): void => {
      lines.push({ level, message })
      events.push(`${level} ${message}`)
      options.onLine?.(level, message)
    }
  const code = await main({
    input: (name) => (values[name] ?? '').trim(),
    setSecret: (secret) => events.push(`secret ${secret}`),
    setOutput: (name, value) => {
      outputs[name] = value
      events.push(`output ${name}`)
    },
    writeSummary: (markdown) => {
      if (options.summaryFails) return Promise.reject(new Error('EACCES: summary file not writable'))
      summary += markdown
      return Promise.resolve()
    },
    log: {
      info: logAt('info'),
      debug: logAt('debug'),
      notice: logAt('notice'),
      warning: logAt('warning'),
      error: logAt('error')
    },
    env: { GITHUB_WORKSPACE: workspace, ...options.env },
    readFile: (path) => {
      const content = options.files?.[path]
      if (content === undefined)
        throw Object.assign(new Error(`ENOENT: no such file, open '${path}'`), { code: 'ENOENT' })
      return content
    },
    clock: options.clock,
    signals: { signal: cancel.signal, received: () => (cancel.signal.aborted ? 'SIGTERM' : undefined) },
    records: options.records ?? new MemoryRecords(false),
    // GitHub's rate-limit waits run on the throttling plugin's real timers, not the virtual clock (a read's
    // waits between tries do): a second of them is 1 ms here.
    githubPace: { msPerSecond: 1 }
  }).finally(() => rmSync(workspace, { recursive: true, force: true }))
  return {
    code,
    outputs,
    events,
    summary,
    lines,
    at: (level) => lines.filter((line) => line.level === level).map((line) => line.message),
    everything: () => [...lines.map((l) => l.message), JSON.stringify(outputs), summary].join('\n')
  }
}

/**
 * Re-run record keys kept in memory, with the cache service's rules: keys are immutable, and a
 * lookup by prefix gets the newest. (The real store, over @actions/cache, has its own tests
 * against a fake cache service.)
 */
export class MemoryRecords implements RecordStore {
  /** Every key saved, oldest first. */
  readonly keys: string[] = []
  /** Makes lookups (or saves) fail with this message. */
  failRestore: string | undefined
  failSave: string | undefined
  /** Saves are refused as on a run whose cache is read-only. */
  readOnly = false

  constructor(readonly available = true) {}

  lookup(prefix: string): Promise<Lookup> {
    if (this.failRestore) return Promise.resolve({ kind: 'failed', message: this.failRestore })
    const key = this.keys.findLast((k) => k.startsWith(prefix))
    return Promise.resolve(key === undefined ? { kind: 'missing' } : { kind: 'found', key })
  }

  save(key: string): Promise<Saved> {
    if (this.readOnly) return Promise.resolve({ kind: 'read-only', message: 'cache write denied: read-only token' })
    if (this.failSave) return Promise.resolve({ kind: 'failed', message: this.failSave })
    if (this.keys.includes(key))
      return Promise.resolve({ kind: 'failed', message: `Unable to reserve cache with key ${key}` })
    this.keys.push(key)
    return Promise.resolve({ kind: 'saved' })
  }
}
