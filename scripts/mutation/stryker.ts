// Running Stryker for a change: on the suites cut down to the test files that matter, with its own
// configuration (the project's, with the change's ranges and a reporter that keeps each verdict as it
// comes), stopped when the bound's time is up.
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, posix } from 'node:path'
import { fileURLToPath } from 'node:url'
import { VERDICTS } from './reporter.js'
import { SUITES, type Reader } from './suites.js'
import type { MutantResult } from '../mutation-baseline.js'

/** Where the cut-down suites go for one run: under __tests__/ (Jest's root), ignored by git. */
export const CHANGE_SUITES = '__tests__/mutation-change'
/** The run's configuration and reports. */
export const CHANGE_REPORTS = 'reports/mutation-change'
/** The plugin that writes VERDICTS, as built beside this file. */
const REPORTER = fileURLToPath(new URL('reporter.js', import.meta.url))

const REFERENCE = /'(\.{1,2}\/[^']+)'/g

/**
 * Each suite file as it is, with only the lines that import a test file of `testFiles` left of
 * its imports, moved to CHANGE_SUITES. The unit suites' file is always there: the test environment
 * resets its "killed" flag when that file starts (stryker-environment.cjs).
 */
export function cutSuites(read: Reader, testFiles: ReadonlySet<string> | 'all'): Array<{ path: string; text: string }> {
  return SUITES.flatMap((suite, index) => {
    let kept = 0
    const lines = (read(suite) ?? '').split('\n').filter((line) => {
      const targets = [...line.matchAll(REFERENCE)].map((match) =>
        posix.normalize(posix.join(posix.dirname(suite), match[1] ?? ''))
      )
      if (targets.length === 0) return true
      const wanted = targets.every((target) => testFiles === 'all' || testFiles.has(target.replace(/\.js$/, '.ts')))
      if (wanted) kept++
      return wanted
    })
    if (kept === 0 && index > 0) return []
    const text = lines
      .map((line) =>
        line.replace(REFERENCE, (_, specifier: string) => {
          const target = posix.relative(CHANGE_SUITES, posix.join(posix.dirname(suite), specifier))
          return `'${target.startsWith('.') ? target : `./${target}`}'`
        })
      )
      .join('\n')
    const placeholder =
      kept === 0
        ? "\nimport { it as placeholder } from '@jest/globals'\nplaceholder.skip('no test file of this suite runs for the change', () => undefined)\n"
        : ''
    return [
      {
        path: posix.join(CHANGE_SUITES, posix.basename(suite)),
        text: `// Generated for one mutation run on a change (scripts/mutation/stryker.ts).\n${text}${placeholder}`
      }
    ]
  })
}

/** The project's Stryker configuration for a run on a change. */
export function changeConfig(
  base: Record<string, unknown>,
  ranges: string[],
  suites: string[]
): Record<string, unknown> {
  const jest = base.jest as { config?: Record<string, unknown> } & Record<string, unknown>
  const config: Record<string, unknown> = {
    ...base,
    mutate: ranges,
    jest: { ...jest, config: { ...jest.config, testMatch: suites.map((suite) => `<rootDir>/${suite}`) } },
    reporters: ['clear-text', 'progress', 'json', 'change-verdicts'],
    appendPlugins: [REPORTER],
    clearTextReporter: { reportTests: false },
    jsonReporter: { fileName: `${CHANGE_REPORTS}/mutation.json` },
    // Judged by scripts/mutation/verdict.ts on the changed lines, not by Stryker on everything.
    thresholds: { ...(base.thresholds as object), break: null },
    // Not incremental: Stryker knows a test by its suite file, which an edit inside a test file the
    // suite imports leaves as it was, so it would keep the edited tests' verdicts; and it would add
    // every verdict outside the ranges to the report.
    incremental: false
  }
  delete config.$schema
  delete config.htmlReporter
  return config
}

/** A clock for the deadline: the system's, or a test's. */
export interface Clock {
  now: () => number
  /** Calls `fire` after `ms`; returns what cancels it. */
  after: (ms: number, fire: () => void) => () => void
}

export const systemClock: Clock = {
  now: () => Date.now(),
  after: (ms, fire) => {
    const timer = setTimeout(fire, ms)
    return () => clearTimeout(timer)
  }
}

export interface Bound {
  /** When to stop, in the clock's time. */
  deadline: number
  clock?: Clock
}

/** How Stryker's run ended, and how many mutants it said it instrumented (0 before it says). */
export type Outcome = { kind: 'finished'; status: number; mutants: number } | { kind: 'out of time'; mutants: number }

const INSTRUMENTED = /Instrumented \d+ source file\(s\) with (\d+) mutant\(s\)/

/** Stryker on Node 24 (it needs Node >= 22), or on this Node where scripts/node24.sh has none. */
export function strykerCommand(root: string, args: string[]): [string, ...string[]] {
  const node =
    execFileSync('bash', [join(root, 'scripts', 'node24.sh')], { encoding: 'utf8' }).trim() || process.execPath
  return [node, join(root, 'node_modules/@stryker-mutator/core/bin/stryker.js'), ...args]
}

/** What runBounded needs of its own process: signals to pass on, and a way to die of one. */
export interface Host {
  once: (signal: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void) => unknown
  removeListener: (signal: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void) => unknown
  kill: (pid: number, signal: NodeJS.Signals) => unknown
  pid: number
}

/** Runs Stryker (`command`), its output passed through, and stops it (its whole process group) at the deadline. */
export async function runBounded(
  root: string,
  command: [string, ...string[]],
  bound: Bound,
  host: Host = process
): Promise<Outcome> {
  const [program, ...args] = command
  // Its own process group: stopping it stops its test runners too.
  const child = spawn(program, args, { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  let mutants = 0
  const run = { stopped: false }
  const stop = (): void => {
    if (run.stopped || child.pid === undefined || child.exitCode !== null) return
    run.stopped = true
    process.kill(-child.pid, 'SIGKILL')
  }
  const watch = (chunk: Buffer, to: NodeJS.WriteStream): void => {
    to.write(chunk)
    const found = INSTRUMENTED.exec(chunk.toString('utf8'))
    if (found) mutants = Number(found[1])
  }
  child.stdout.on('data', (chunk: Buffer) => watch(chunk, process.stdout))
  child.stderr.on('data', (chunk: Buffer) => watch(chunk, process.stderr))
  const clock = bound.clock ?? systemClock
  const cancel = clock.after(Math.max(0, bound.deadline - clock.now()), stop)
  // Stryker's group is not ours: when this process is stopped (a time limit, Ctrl-C), it stops too.
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const
  const forward = (signal: NodeJS.Signals): void => {
    if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGKILL')
    host.kill(host.pid, signal)
  }
  for (const signal of signals) host.once(signal, forward)
  const status = await new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? 1)))
  cancel()
  for (const signal of signals) host.removeListener(signal, forward)
  if (!run.stopped) return { kind: 'finished', status, mutants }
  // A stopped run leaves its sandbox behind.
  rmSync(join(root, '.stryker-tmp'), { recursive: true, force: true })
  return { kind: 'out of time', mutants }
}

/** The verdicts the reporter wrote, as a report's files: what ran, however the run ended. */
export function readVerdicts(root: string): { files: Record<string, { mutants: MutantResult[] }> } {
  const path = join(root, VERDICTS)
  const files: Record<string, { mutants: MutantResult[] }> = {}
  // Each verdict ends with a newline: what follows the last one is empty, or cut short by the stop.
  const lines = existsSync(path) ? readFileSync(path, 'utf8').split('\n').slice(0, -1) : []
  lines.forEach((line, index) => {
    const { file, ...mutant } = JSON.parse(line) as Omit<MutantResult, 'id'> & { file: string }
    ;(files[file] ??= { mutants: [] }).mutants.push({ id: String(index), ...mutant })
  })
  return { files }
}

/** Writes the cut-down suites and the configuration; returns the configuration's path. */
export function prepare(root: string, read: Reader, ranges: string[], testFiles: ReadonlySet<string> | 'all'): string {
  rmSync(join(root, CHANGE_SUITES), { recursive: true, force: true })
  mkdirSync(join(root, CHANGE_SUITES), { recursive: true })
  mkdirSync(join(root, CHANGE_REPORTS), { recursive: true })
  const suites = cutSuites(read, testFiles)
  for (const suite of suites) writeFileSync(join(root, suite.path), suite.text)
  const base = JSON.parse(readFileSync(join(root, 'stryker.config.json'), 'utf8')) as Record<string, unknown>
  const path = join(CHANGE_REPORTS, 'stryker.config.json')
  const config = changeConfig(
    base,
    ranges,
    suites.map((suite) => suite.path)
  )
  writeFileSync(join(root, path), `${JSON.stringify(config, null, 2)}\n`)
  return path
}

export function cleanUp(root: string): void {
  rmSync(join(root, CHANGE_SUITES), { recursive: true, force: true })
}
