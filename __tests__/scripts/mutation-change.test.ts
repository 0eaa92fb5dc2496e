import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import type { BaselineRecord } from '../../scripts/mutation-baseline.js'
import {
  BOUND_MS,
  budgetSeconds,
  locate,
  mutantRange,
  parseBound,
  type ChangePlan
} from '../../scripts/mutation/change.js'
import { parseDiff } from '../../scripts/mutation/diff.js'
import { mutantsOf, planChange } from '../../scripts/mutation/plan.js'
import { decide, prepareChange } from '../../scripts/mutation/prepare.js'
import { A_TEST, B_TEST, FILES, MUTANTS, report, SOURCE, TESTS } from './mutation-fixture.js'
import { gitRepo, type Repo } from './mutation-repo.js'

describe('mutantsOf', () => {
  const ids = (touched: string[]): string[] => mutantsOf(report(), new Set(touched)).map((mutant) => mutant.id)

  it('picks the mutants a touched test killed, and those it covered that lived; not those another test killed', () => {
    expect(ids([TESTS.one])).toEqual([MUTANTS.byOne.id])
    // "doubles two" covered byOne too, but "doubles one" killed it.
    expect(ids([TESTS.two])).toEqual([MUTANTS.lived.id, MUTANTS.livedQuick.id])
    expect(ids([TESTS.scenario, TESTS.zero])).toEqual([MUTANTS.byZero.id, MUTANTS.lived.id])
    expect(ids([TESTS.helper])).toEqual([])
  })

  it('leaves a mutant that timed out to its verdict: the edit of a test it ran decides nothing the gate needs', () => {
    const timedOut = report()
    for (const mutant of timedOut.files['src/x.ts']?.mutants ?? []) {
      if (mutant.status === 'Survived') mutant.status = 'Timeout'
    }
    expect(mutantsOf(timedOut, new Set([TESTS.two]))).toEqual([])
  })
})

describe('locate and mutantRange', () => {
  const [change] = parseDiff(`diff --git a/src/x.ts b/src/y.ts
similarity index 90%
rename from src/x.ts
rename to src/y.ts
--- a/src/x.ts
+++ b/src/y.ts
@@ -1,0 +2,2 @@
+// two lines
+// above
@@ -5 +7 @@
-export function half(n: number): number {
+export function half(n: number, by = 2): number {
`)
  if (change === undefined) throw new Error('no change parsed')
  const changes = new Map([['src/x.ts', change]])

  it('finds a mutant where its unchanged lines are now, in the file as moved; none on a changed line', () => {
    expect(locate(changes, 'src/x.ts', MUTANTS.byOne)).toEqual({
      file: 'src/y.ts',
      mutant: MUTANTS.byOne,
      start: { line: 4, column: 10 },
      end: { line: 4, column: 15 }
    })
    expect(
      locate(changes, 'src/x.ts', {
        ...MUTANTS.uncovered,
        location: { start: { line: 5, column: 1 }, end: { line: 7, column: 2 } }
      })
    ).toBeUndefined()
    expect(locate(changes, 'src/other.ts', MUTANTS.byOne)).toEqual({
      file: 'src/other.ts',
      mutant: MUTANTS.byOne,
      ...MUTANTS.byOne.location
    })
  })

  it("gives Stryker's range: lines as they are, columns from 0 where the report counts from 1", () => {
    expect(mutantRange({ file: 'src/y.ts', start: { line: 4, column: 10 }, end: { line: 6, column: 1 } })).toBe(
      'src/y.ts:4:9-6:0'
    )
  })
})

describe('decide', () => {
  const SEED = 'c0ffee1234567890'
  const plan = (ranges: string[], parts: Partial<Pick<ChangePlan, 'changed' | 'reruns'>> = {}): ChangePlan => ({
    lines: new Map([['src/x.ts', [[2, 3]]]]),
    changed: { all: 2, chosen: [], sampled: false },
    reruns: { all: 0, chosen: [], sampled: false },
    ranges,
    testFiles: new Set(['__tests__/a.test.ts']),
    seconds: 12.4,
    ...parts
  })

  it('skips with one line when nothing is to run, saying whether src/ or tests changed', () => {
    expect(decide({ ...plan([]), lines: new Map() }, 0, 'abc1234 (2026-11-26)', SEED)).toEqual({
      kind: 'skip',
      line: 'Mutation testing on the change: skipped: since abc1234 (2026-11-26), no src/ line and no test the mutation suites run changed.'
    })
    expect(
      decide(
        { ...plan([]), lines: new Map(), reruns: { all: 0, chosen: [], sampled: false } },
        3,
        'abc1234 (2026-11-26)',
        SEED
      ).line
    ).toBe(
      "Mutation testing on the change: skipped: since abc1234 (2026-11-26), no src/ line changed, and the 3 edited tests decided none of the baseline's mutants."
    )
    expect(
      decide(plan([], { changed: { all: 0, chosen: [], sampled: false } }), 0, 'abc1234 (2026-11-26)', SEED).line
    ).toBe(
      'Mutation testing on the change: skipped: since abc1234 (2026-11-26), 2 changed src/ lines in 1 files hold 0 mutants, and no test the mutation suites run changed.'
    )
  })

  it('runs, saying what the changed lines hold and the edited tests decided, and how much of it runs', () => {
    expect(decide(plan(['src/x.ts:2:2-2:14']), 0, 'abc1234 (2026-11-26)', SEED)).toEqual({
      kind: 'run',
      line: 'Mutation testing on the change since abc1234 (2026-11-26): 2 changed src/ lines in 1 files hold 2 mutants, all of them run; no test the mutation suites run changed; tests from 1 test files; the mutants should take about 12 s.'
    })
    const sampled = decide(
      plan(['src/x.ts:2:2-2:14'], {
        changed: { all: 412, chosen: Array.from({ length: 64 }, () => CANDIDATE), sampled: true },
        reruns: { all: 37, chosen: [], sampled: true }
      }),
      5,
      'abc1234 (2026-11-26)',
      SEED
    )
    expect(sampled.line).toContain(
      "2 changed src/ lines in 1 files hold 412 mutants, 64 of them run (the newest commits' lines first, then a sample seeded by c0ffee1)"
    )
    expect(sampled.line).toContain(
      "the 5 edited tests decided 37 of the baseline's mutants, none of them fit after the changed lines' (the weekly run has them)"
    )
  })
})

const CANDIDATE = { file: 'src/x.ts', ...MUTANTS.byOne.location, mutatorName: 'ArithmeticOperator', cost: 2 }

describe('prepareChange', () => {
  let repo: Repo

  beforeEach(() => {
    repo = gitRepo(FILES)
    const commit = repo.commit('baseline')
    const record: BaselineRecord = {
      commit,
      date: '2026-11-26',
      run: 'full',
      score: 50,
      mutants: { killed: 2, timeout: 0, survived: 1, noCoverage: 1, ignored: 0, errors: 0 },
      fullRun: { commit, date: '2026-11-26', score: 50 }
    }
    mkdirSync(join(repo.root, 'stryker-baseline'))
    writeFileSync(join(repo.root, 'stryker-baseline/baseline.json'), JSON.stringify(record))
    writeFileSync(join(repo.root, 'stryker-baseline/incremental.json.gz'), gzipSync(JSON.stringify(report())))
    repo.commit('the baseline')
  })

  afterEach(() => repo.dispose())

  // The time the step has used when it plans: none, so the whole budget is there.
  const prepared = (): ReturnType<typeof prepareChange> => prepareChange(repo.root, 0, () => 0)
  const ids = (plan: ChangePlan, part: 'changed' | 'reruns'): Array<string | undefined> =>
    plan[part].chosen.map((candidate) => candidate.mutant?.id)

  it('skips when neither src/ nor a test the suites run changed since the baseline', () => {
    repo.write({ 'docs/readme.md': 'changed\n' })
    const { decision, plan } = prepared()
    expect(plan.ranges).toEqual([])
    expect(decision.kind).toBe('skip')
  })

  it("runs exactly the mutants of a changed function's changed lines, as Stryker lists them, on the test files that covered that file", () => {
    repo.write({
      'src/x.ts': SOURCE.replace('return n / 2', 'return n * 0.5'),
      'src/index.ts': '// left out, as Stryker leaves it\n'
    })
    const { decision, plan } = prepared()
    expect(plan.changed.chosen.map(({ mutatorName, replacement }) => `${mutatorName} ${replacement ?? ''}`)).toEqual([
      'ArithmeticOperator n / 0.5'
    ])
    expect(plan.changed).toEqual(expect.objectContaining({ all: 1, sampled: false }))
    expect(plan.ranges).toEqual(['src/x.ts:6:9-6:16'])
    expect(plan.reruns.all).toBe(0)
    expect(plan.testFiles).toEqual(new Set(['__tests__/a.test.ts', '__tests__/b.test.ts', '__tests__/c.test.ts']))
    expect(decision.kind).toBe('run')
  })

  it('runs only the mutants an edited test killed or covered alive, with what their ranges hold, on the test files that cover those', () => {
    repo.write({ '__tests__/b.test.ts': B_TEST.replace('toBe(0)', 'toStrictEqual(0)') })
    const { plan, touched } = prepared()
    expect([...touched.ids]).toEqual([TESTS.zero])
    expect(plan.ranges).toEqual(['src/x.ts:2:2-2:14'])
    // byOne sits inside byZero's range: it runs too, and what covers either runs.
    expect(ids(plan, 'reruns')).toEqual([MUTANTS.byZero.id])
    expect(plan.seconds).toBe(0.6)
    expect(plan.testFiles).toEqual(new Set(['__tests__/a.test.ts', '__tests__/b.test.ts']))
  })

  it('runs those an edited test covered that lived too, and past the budget a sample seeded by the commit', () => {
    repo.write({ '__tests__/a.test.ts': A_TEST.replace('twice(2)).toBe(4)', 'twice(2)).toEqual(4)') })
    const { plan, changes, report: baseline, touched, seed } = prepared()
    expect(ids(plan, 'reruns')).toEqual([MUTANTS.lived.id, MUTANTS.livedQuick.id])
    expect(plan.reruns.sampled).toBe(false)
    const input = { changes, report: baseline, touched, listed: [], seed, byRecency: () => [] }
    // lived runs a scenario (2 s), livedQuick unit tests alone (0.3 s): in one second, only the latter fits.
    const small = planChange({ ...input, seconds: 1 })
    expect(small).toEqual(expect.objectContaining({ ranges: ['src/x.ts:1:16-1:17'], seconds: 0.3 }))
    expect(small.reruns).toEqual(expect.objectContaining({ all: 2, sampled: true }))
    expect(planChange({ ...input, seconds: 0 })).toEqual(expect.objectContaining({ ranges: [], seconds: 0 }))
  })

  it('leaves the edited tests a third of the time when changed lines would take it all, and gives the reruns what the lines leave', () => {
    repo.write({ '__tests__/a.test.ts': A_TEST.replace('twice(2)).toBe(4)', 'twice(2)).toEqual(4)') })
    const { changes, report: baseline, touched, seed } = prepared()
    // Forty changed lines' mutants of src/x.ts, which a scenario covers: 2 s each.
    const listed = Array.from({ length: 40 }, (_, line) => ({
      file: 'src/x.ts',
      start: { line: 100 + line, column: 1 },
      end: { line: 100 + line, column: 2 },
      mutatorName: 'BooleanLiteral',
      replacement: 'false'
    }))
    const plan = (seconds: number): ChangePlan =>
      planChange({ changes, report: baseline, touched, listed, seed, seconds, byRecency: (all) => [all] })
    // lived (2 s) and livedQuick (0.3 s) fit in a third of 30 s: the lines get the other 27.7 s, 13 mutants.
    const shared = plan(30)
    expect(ids(shared, 'reruns')).toEqual([MUTANTS.lived.id, MUTANTS.livedQuick.id])
    expect(shared.changed).toEqual(expect.objectContaining({ all: 40, sampled: true }))
    expect(shared.changed.chosen).toHaveLength(13)
    // In 3 s a third is 1 s: the changed lines take one mutant (2 s), the reruns the 1 s left, livedQuick.
    const tight = plan(3)
    expect(tight.changed.chosen).toHaveLength(1)
    expect(ids(tight, 'reruns')).toEqual([MUTANTS.livedQuick.id])
    expect(tight.seconds).toBe(2.3)
  })

  it('runs every test file when a changed src/ file has no baseline to say what covers it', () => {
    repo.write({ 'src/new.ts': "export const word = 'one'\n" })
    const { plan } = prepared()
    expect(plan).toEqual(expect.objectContaining({ ranges: ['src/new.ts:1:20-1:25'], testFiles: 'all' }))
  })

  it('leaves a mutant on a changed line to the changed lines, and follows a test edit and a src edit together', () => {
    repo.write({
      'src/x.ts': SOURCE.replace('return n * 2', 'return n + n'),
      '__tests__/a.test.ts': A_TEST.replace(
        "it('doubles one', () => {",
        "it('doubles one', () => {\n    expect(twice(3)).toBe(6)"
      )
    })
    const { plan } = prepared()
    expect(plan.ranges).toEqual(['src/x.ts:2:9-2:14'])
    expect(plan.reruns.all).toBe(0) // byOne is on line 2, which changed
  })
})

describe('the bound of the step', () => {
  it('is 3 minutes, or --bound <seconds> kept between 100 and 180; anything else is a usage error', () => {
    expect(parseBound([])).toBe(BOUND_MS)
    expect(parseBound(['--bound', '150'])).toBe(150_000)
    expect(parseBound(['--bound', '75'])).toBe(100_000)
    expect(parseBound(['--bound', '120'])).toBe(120_000)
    expect(parseBound(['--bound', '900'])).toBe(180_000)
    expect(parseBound(['--bound'])).toBeUndefined()
    expect(parseBound(['--bound', '2m'])).toBeUndefined()
    expect(parseBound(['--limit', '120'])).toBeUndefined()
    expect(parseBound(['--bound', '120', 'x'])).toBeUndefined()
  })

  it("leaves the mutants what is left of it after preparing, Stryker's start, the stop and the slack", () => {
    expect(budgetSeconds(5_000)).toBe(180 - 10 - 5 - 50 - 20)
    expect(budgetSeconds(5_000, 120_000)).toBe(120 - 10 - 5 - 50 - 20)
    expect(budgetSeconds(60_000, 120_000)).toBe(0)
  })
})
