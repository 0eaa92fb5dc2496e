import { afterEach, describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { EventEmitter } from 'node:events'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { MutantResult } from '../../scripts/mutation-baseline.js'
import { parseDiff } from '../../scripts/mutation/diff.js'
import { VERDICTS, verdictLine } from '../../scripts/mutation/reporter.js'
import {
  changeConfig,
  cutSuites,
  readVerdicts,
  runBounded,
  type Clock,
  type Host
} from '../../scripts/mutation/stryker.js'
import { treeReader } from '../../scripts/mutation/suites.js'
import type { TestIndex } from '../../scripts/mutation/touched-tests.js'
import { foldable } from '../../scripts/mutation/update.js'
import { judge, wilsonUpper } from '../../scripts/mutation/verdict.js'
import { FILES, MUTANTS, report, SCENARIOS_SUITE, TESTS, UNITS_SUITE } from './mutation-fixture.js'
import { gitRepo, type Repo } from './mutation-repo.js'

describe('cutSuites', () => {
  const read = (path: string): string | undefined => FILES[path]

  it('keeps each suite as it is with only the chosen test files, imported from the cut-down folder', () => {
    expect(cutSuites(read, new Set(['__tests__/b.test.ts', '__tests__/c.test.ts']))).toEqual([
      {
        path: '__tests__/mutation-change/mutation-units.suite.ts',
        text: "// Generated for one mutation run on a change (scripts/mutation/stryker.ts).\nimport '../b.test.js'\n"
      },
      {
        path: '__tests__/mutation-change/mutation-scenarios.suite.ts',
        text: `// Generated for one mutation run on a change (scripts/mutation/stryker.ts).\n${SCENARIOS_SUITE.replace("'./c.test.js'", "'../c.test.js'")}`
      }
    ])
  })

  it('keeps the unit suites with a skipped placeholder when none of theirs runs (the test environment resets there), and drops an empty second suite', () => {
    const [units, ...rest] = cutSuites(read, new Set())
    expect(rest).toEqual([])
    expect(units?.text).not.toContain('.test.js')
    expect(units?.text).toContain("placeholder.skip('no test file of this suite runs for the change'")
  })

  it('keeps everything for every test file', () => {
    const [units] = cutSuites(read, 'all')
    expect(units?.text).toContain(UNITS_SUITE.replaceAll("'./", "'../"))
  })
})

describe('changeConfig', () => {
  it("is the project's configuration with the change's ranges and suites, judged afterwards rather than by Stryker", () => {
    const base = {
      $schema: './node_modules/x.json',
      testRunner: 'jest',
      mutate: ['src/**/*.ts'],
      jest: { configFile: 'jest.config.js', config: { testMatch: ['old'], testTimeout: 5000 } },
      thresholds: { high: 90, low: 85, break: 85 },
      htmlReporter: { fileName: 'reports/mutation/mutation.html' },
      concurrency: 3
    }
    expect(changeConfig(base, ['src/x.ts:2-3'], ['__tests__/mutation-change/mutation-units.suite.ts'])).toEqual({
      testRunner: 'jest',
      mutate: ['src/x.ts:2-3'],
      jest: {
        configFile: 'jest.config.js',
        config: { testMatch: ['<rootDir>/__tests__/mutation-change/mutation-units.suite.ts'], testTimeout: 5000 }
      },
      thresholds: { high: 90, low: 85, break: null },
      reporters: ['clear-text', 'progress', 'json', 'change-verdicts'],
      appendPlugins: [expect.stringMatching(/scripts\/mutation\/reporter\.(js|ts)$/)],
      clearTextReporter: { reportTests: false },
      jsonReporter: { fileName: 'reports/mutation-change/mutation.json' },
      incremental: false,
      concurrency: 3
    })
  })
})

describe('runBounded', () => {
  let dir = ''
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  const script = (text: string): string => {
    dir = mkdtempSync(join(tmpdir(), 'mutation-bound-'))
    writeFileSync(join(dir, 'fake.cjs'), text)
    return join(dir, 'fake.cjs')
  }
  // A killed process whose parent died too may linger as a zombie until something reaps it.
  const alive = (pid: number): boolean => {
    const state = spawnSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' }).stdout.trim()
    return state !== '' && !state.startsWith('Z')
  }
  const until = async (path: string): Promise<string> => {
    while (!existsSync(path)) await new Promise((resolve) => setTimeout(resolve, 50))
    return readFileSync(path, 'utf8')
  }
  /** A clock the test moves: the deadline passes when the test says so. */
  const manualClock = (): Clock & { delays: number[]; pass: () => void; cancelled: () => number } => {
    const timers: Array<{ fire: () => void; live: boolean }> = []
    const delays: number[] = []
    return {
      now: () => 1_000,
      after: (ms, fire) => {
        const timer = { fire, live: true }
        timers.push(timer)
        delays.push(ms)
        return () => {
          timer.live = false
        }
      },
      delays,
      pass: () => {
        for (const timer of timers) if (timer.live) timer.fire()
      },
      cancelled: () => timers.filter((timer) => !timer.live).length
    }
  }

  it('lets a run that ends before its deadline finish, with its status and the mutants it instrumented', async () => {
    const fake = script("console.log('INFO Instrumented 1 source file(s) with 7 mutant(s)'); process.exitCode = 3")
    const clock = manualClock()
    await expect(runBounded(dir, [process.execPath, fake], { deadline: 21_000, clock })).resolves.toEqual({
      kind: 'finished',
      status: 3,
      mutants: 7
    })
    expect(clock.delays).toEqual([20_000])
    expect(clock.cancelled()).toBe(1)
  })

  it('stops a run at its deadline, with the mutants it had instrumented, however many', async () => {
    const ready = join(tmpdir(), `instrumented-${String(process.pid)}`)
    const fake = script(`
      console.log('INFO Instrumented 3 source file(s) with 500 mutant(s)')
      require('node:fs').writeFileSync(${JSON.stringify(ready)}, 'yes')
      setTimeout(() => {}, 60000)
    `)
    const clock = manualClock()
    const outcome = runBounded(dir, [process.execPath, fake], { deadline: 500, clock })
    await until(ready)
    rmSync(ready)
    expect(clock.delays).toEqual([0]) // a deadline already past is no reason to wait
    clock.pass()
    await expect(outcome).resolves.toEqual({ kind: 'out of time', mutants: 500 })
  })

  it("stops Stryker's whole process group at the deadline: its test runners too", async () => {
    const pidFile = join(tmpdir(), `grandchild-${String(process.pid)}`)
    const fake = script(`
      const { spawn } = require('node:child_process')
      const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' })
      require('node:fs').writeFileSync(${JSON.stringify(pidFile)}, String(child.pid))
      setTimeout(() => {}, 60000)
    `)
    const clock = manualClock()
    const outcome = runBounded(dir, [process.execPath, fake], { deadline: 21_000, clock })
    const grandchild = Number(await until(pidFile))
    rmSync(pidFile)
    clock.pass()
    await expect(outcome).resolves.toEqual({ kind: 'out of time', mutants: 0 })
    while (alive(grandchild)) await new Promise((resolve) => setTimeout(resolve, 50))
    expect(alive(grandchild)).toBe(false)
  })

  it('stops Stryker when its own process is stopped, then dies of the same signal', async () => {
    const pidFile = join(tmpdir(), `runner-${String(process.pid)}`)
    const fake = script(`
      const { spawn } = require('node:child_process')
      const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' })
      require('node:fs').writeFileSync(${JSON.stringify(pidFile)}, String(child.pid))
      setTimeout(() => {}, 60000)
    `)
    const host = new EventEmitter() as EventEmitter & Host
    const killed: Array<[number, string]> = []
    host.pid = 4242
    host.kill = (pid: number, signal: string) => killed.push([pid, signal])
    const run = runBounded(dir, [process.execPath, fake], { deadline: 21_000, clock: manualClock() }, host)
    const runner = Number(await until(pidFile))
    rmSync(pidFile)
    host.emit('SIGTERM', 'SIGTERM')
    await run
    expect(killed).toEqual([[4242, 'SIGTERM']])
    while (alive(runner)) await new Promise((resolve) => setTimeout(resolve, 50))
    expect(host.listenerCount('SIGTERM')).toBe(0)
  })
})

describe('readVerdicts', () => {
  let repo: Repo | undefined
  afterEach(() => repo?.dispose())

  it("reads the reporter's verdicts as a report's files, leaving out a last line the stop cut short", () => {
    repo = gitRepo({})
    const line = (status: string, column: number): string =>
      JSON.stringify({
        file: 'src/x.ts',
        mutatorName: 'ArithmeticOperator',
        replacement: 'n / 2',
        status,
        location: { start: { line: 2, column }, end: { line: 2, column: column + 5 } }
      })
    repo.write({ [VERDICTS]: `${line('Killed', 10)}\n${line('Survived', 3)}\n${line('Killed', 4).slice(0, 30)}` })
    expect(readVerdicts(repo.root)).toEqual({
      files: {
        'src/x.ts': {
          mutants: [
            expect.objectContaining({
              id: '0',
              status: 'Killed',
              location: { start: { line: 2, column: 10 }, end: { line: 2, column: 15 } }
            }),
            expect.objectContaining({ id: '1', status: 'Survived' })
          ]
        }
      }
    })
    expect(readVerdicts(join(repo.root, 'nowhere'))).toEqual({ files: {} })
  })

  it("keeps the location Stryker gives the reporter, its report's (from 1): a baseline mutant that lives now is found", () => {
    repo = gitRepo({})
    const { location, mutatorName, replacement } = MUTANTS.byOne
    const tested = { fileName: join(repo.root, 'src/x.ts'), mutatorName, replacement, status: 'Survived', location }
    repo.write({ [VERDICTS]: `${verdictLine(tested, repo.root)}\n` })
    const verdicts = readVerdicts(repo.root)
    expect(verdicts.files['src/x.ts']?.mutants[0]?.location).toEqual(location)
    expect(judge(verdicts, new Map(), [], report(), 85).weakened).toEqual([
      'src/x.ts:2:10 ArithmeticOperator (Killed in the baseline, Survived now)'
    ])
  })
})

describe('judge', () => {
  const lines = new Map([['src/x.ts', [[6, 6]] as Array<[number, number]>]])
  const result = (statuses: Record<string, string>): { files: Record<string, { mutants: MutantResult[] }> } => ({
    files: {
      'src/x.ts': {
        mutants: [
          { ...MUTANTS.uncovered, status: statuses.changed ?? 'Killed' },
          { ...MUTANTS.uncovered, id: '20', replacement: 'n * 2', status: statuses.changedToo ?? 'Killed' },
          { ...MUTANTS.byOne, status: statuses.byOne ?? 'Killed' },
          { ...MUTANTS.lived, status: statuses.lived ?? 'Survived' }
        ]
      }
    }
  })

  it('passes when the changed lines reach the threshold and no mutant the baseline detected lives', () => {
    expect(judge(result({}), lines, [], report(), 85)).toEqual({
      changed: {
        score: 100,
        total: 2,
        mutants: { killed: 2, timeout: 0, survived: 0, noCoverage: 0, ignored: 0, errors: 0 }
      },
      reran: 2,
      weakened: [],
      ignored: 0,
      passed: true
    })
  })

  it('fails under the threshold on the changed lines', () => {
    const verdict = judge(result({ changed: 'Survived' }), lines, [], report(), 85)
    expect(verdict.changed.score).toBe(50)
    expect(verdict.passed).toBe(false)
    expect(judge(result({ changed: 'Survived' }), lines, [], report(), 50).passed).toBe(true)
  })

  it('judges a sample by the most its change may score at 95 % confidence, all of a change by its score', () => {
    // 1 of 2 detected: 50 %, but out of a change of 40 mutants it may be as high as 87.9 %.
    const sampled = judge(result({ changed: 'Survived' }), lines, [], report(), 85, 40)
    expect(sampled.changed).toMatchObject({ score: 50, total: 2, upper: 87.9 })
    expect(sampled.passed).toBe(true)
    expect(judge(result({ changed: 'Survived' }), lines, [], report(), 95, 40).passed).toBe(false)
    // Every mutant of the change ran: its own score, no bound.
    expect(judge(result({ changed: 'Survived' }), lines, [], report(), 85, 2).changed.upper).toBeUndefined()
  })

  it.each([
    [0, 0, 100],
    [33, 42, 87.1],
    [30, 42, 81.3],
    [40, 40, 100],
    [0, 10, 21.3]
  ])('Wilson upper bound of %i detected in %i: %f %%', (detected, total, upper) => {
    expect(wilsonUpper(detected, total)).toBe(upper)
  })

  it('fails when a mutant the baseline detected lives now, naming it; one that lived before may live on', () => {
    const verdict = judge(result({ byOne: 'Survived' }), lines, [], report(), 85)
    expect(verdict.weakened).toEqual(['src/x.ts:2:10 ArithmeticOperator (Killed in the baseline, Survived now)'])
    expect(verdict.passed).toBe(false)
  })

  it('leaves out of the score and of what ran again a mutant with no verdict that counts: static, or an error', () => {
    const verdict = judge(result({ changed: 'Ignored', byOne: 'RuntimeError' }), lines, [], report(), 85)
    expect(verdict).toEqual(expect.objectContaining({ ignored: 2, reran: 1, weakened: [], passed: true }))
    expect(verdict.changed.total).toBe(1)
  })

  it('finds the baseline mutant where the change moved it', () => {
    const changes = parseDiff(
      'diff --git a/src/x.ts b/src/x.ts\n--- a/src/x.ts\n+++ b/src/x.ts\n@@ -0,0 +1 @@\n+// a line above\n'
    )
    const moved = result({ byOne: 'NoCoverage' })
    const mutants = moved.files['src/x.ts']?.mutants ?? []
    for (const mutant of mutants)
      mutant.location = {
        start: { ...mutant.location.start, line: mutant.location.start.line + 1 },
        end: { ...mutant.location.end, line: mutant.location.end.line + 1 }
      }
    expect(judge(moved, new Map([['src/x.ts', [[7, 7]]]]), changes, report(), 85).weakened).toEqual([
      'src/x.ts:3:10 ArithmeticOperator (Killed in the baseline, NoCoverage now)'
    ])
  })
})

describe('foldable', () => {
  let repo: Repo | undefined
  afterEach(() => repo?.dispose())

  it("drops the touched tests, moves the others to their lines now, takes the suites as they are and a moved source's results with it", () => {
    repo = gitRepo(FILES)
    const units = `${UNITS_SUITE}import './d.test.js'\n`
    repo.write({ '__tests__/mutation-units.suite.ts': units })
    const changes = parseDiff(`diff --git a/__tests__/a.test.ts b/__tests__/a.test.ts
--- a/__tests__/a.test.ts
+++ b/__tests__/a.test.ts
@@ -4,0 +5,2 @@
+// two lines
+// above
diff --git a/src/x.ts b/src/moved/x.ts
similarity index 100%
rename from src/x.ts
rename to src/moved/x.ts
`)
    const index: TestIndex = {
      byFile: new Map(),
      fileOf: new Map([
        [TESTS.one, ['__tests__/a.test.ts']],
        [TESTS.two, ['__tests__/a.test.ts']],
        [TESTS.zero, ['__tests__/b.test.ts']]
      ]),
      unmatched: new Map(),
      bySuite: new Map()
    }
    const { report: folded, dropped } = foldable(report(), changes, new Set([TESTS.two]), index, treeReader(repo.root))
    expect(dropped).toBe(1)
    expect(Object.keys(folded.files)).toEqual(['src/moved/x.ts'])
    const unitTests = folded.testFiles?.['__tests__/mutation-units.suite.ts']
    expect(unitTests?.source).toBe(units)
    expect(unitTests?.tests).toEqual([
      { id: TESTS.one, name: 'twice doubles one', location: { start: { line: 11, column: 5 } } },
      { id: TESTS.helper, name: 'uses the helper', location: { start: { line: 18, column: 3 } } }, // no file known: as it was
      { id: TESTS.zero, name: 'doubles zero', location: { start: { line: 5, column: 3 } } }
    ])
  })
})
