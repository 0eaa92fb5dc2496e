import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import type { BaselineRecord } from '../../scripts/mutation-baseline.js'
import {
  decide,
  locate,
  MAX_MUTANTS,
  mutantRange,
  mutantsOf,
  planChange,
  prepareChange,
  type ChangePlan
} from '../../scripts/mutation/change.js'
import { parseDiff } from '../../scripts/mutation/diff.js'
import { A_TEST, B_TEST, FILES, MUTANTS, report, SOURCE, TESTS } from './mutation-fixture.js'
import { gitRepo, type Repo } from './mutation-repo.js'

describe('mutantsOf', () => {
  const ids = (found: ReturnType<typeof mutantsOf>): Record<keyof typeof found, string[]> => ({
    killed: found.killed.map(({ mutant }) => mutant.id),
    covered: found.covered.map(({ mutant }) => mutant.id),
    cheap: found.cheap.map(({ mutant }) => mutant.id)
  })
  const quick = (id: string): boolean => id !== TESTS.scenario

  it('picks the mutants a touched test killed, and apart those it covered that lived; not those another test killed', () => {
    expect(ids(mutantsOf(report(), new Set([TESTS.one]), quick))).toEqual({
      killed: [MUTANTS.byOne.id],
      covered: [],
      cheap: []
    })
    // "doubles two" covered byOne too, but "doubles one" killed it.
    expect(ids(mutantsOf(report(), new Set([TESTS.two]), quick))).toEqual({
      killed: [],
      covered: [MUTANTS.lived.id, MUTANTS.livedQuick.id],
      cheap: [MUTANTS.livedQuick.id] // the other runs a scenario too
    })
    expect(ids(mutantsOf(report(), new Set([TESTS.scenario, TESTS.zero]), quick))).toEqual({
      killed: [MUTANTS.byZero.id],
      covered: [MUTANTS.lived.id],
      cheap: []
    })
    expect(ids(mutantsOf(report(), new Set([TESTS.helper])))).toEqual({ killed: [], covered: [], cheap: [] })
  })

  it('leaves a mutant that timed out to its verdict: the edit of a test it ran decides nothing the gate needs', () => {
    const timedOut = report()
    for (const mutant of timedOut.files['src/x.ts']?.mutants ?? []) {
      if (mutant.status === 'Survived') mutant.status = 'Timeout'
    }
    expect(ids(mutantsOf(timedOut, new Set([TESTS.two])))).toEqual({ killed: [], covered: [], cheap: [] })
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
  const plan = (ranges: string[], reruns: number, weight = reruns + 2, leftOut = 0): ChangePlan => ({
    lines: new Map([['src/x.ts', [[2, 3]]]]),
    reruns: Array.from({ length: reruns }, () => ({
      file: 'src/x.ts',
      mutant: MUTANTS.byOne,
      ...MUTANTS.byOne.location
    })),
    leftOut,
    weight,
    ranges,
    testFiles: new Set(['__tests__/a.test.ts'])
  })

  it('skips with one line when no range is left, saying whether tests changed', () => {
    expect(decide(plan([], 0), 0, 'abc1234 (2026-11-26)')).toEqual({
      kind: 'skip',
      line: 'Mutation testing on the change: skipped: since abc1234 (2026-11-26), no src/ line and no test the mutation suites run changed.'
    })
    expect(decide(plan([], 0), 3, 'abc1234 (2026-11-26)').line).toBe(
      "Mutation testing on the change: skipped: since abc1234 (2026-11-26), no src/ line changed, and the 3 edited tests decided no mutant's verdict in the baseline."
    )
  })

  it('stops before running when what the ranges hold is more than fits, naming the refresh', () => {
    const decision = decide(plan(['src/x.ts:2-3'], 3, MAX_MUTANTS + 1), 1, 'abc1234 (2026-11-26)')
    expect(decision.kind).toBe('too large')
    expect(decision.line).toContain(`About ${String(MAX_MUTANTS + 1)} mutants to run: more than fits in CI's 3 minutes`)
    expect(decision.line).toContain('`npm run mutation`')
    expect(decision.line).toContain('`npm run mutation:update`')
    expect(decide(plan(['src/x.ts:2-3'], 3, MAX_MUTANTS), 1, 'abc1234 (2026-11-26)').kind).toBe('run')
  })

  it('runs, saying what, and what it left out', () => {
    expect(decide(plan(['src/x.ts:2-3'], 2), 1, 'abc1234 (2026-11-26)')).toEqual({
      kind: 'run',
      line: 'Mutation testing on the change since abc1234 (2026-11-26): 2 changed src/ lines in 1 files, 2 baseline mutants again for the edited tests, about 4 mutants in all; tests from 1 test files.'
    })
    expect(decide(plan(['src/x.ts:2-3'], 2, 4, 7), 1, 'abc1234 (2026-11-26)').line).toContain(
      ' 7 more that they covered and that lived are left to `npm run mutation:update` or the full run (scenarios cover them, or more than fit).'
    )
  })
})

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

  it('skips when neither src/ nor a test the suites run changed since the baseline', () => {
    repo.write({ 'docs/readme.md': 'changed\n' })
    const { decision, plan } = prepareChange(repo.root)
    expect(plan.ranges).toEqual([])
    expect(decision.kind).toBe('skip')
  })

  it("runs exactly a changed function's changed lines, on the test files that covered that file", () => {
    repo.write({
      'src/x.ts': SOURCE.replace('return n / 2', 'return n * 0.5'),
      'src/index.ts': '// left out, as Stryker leaves it\n'
    })
    const { decision, plan } = prepareChange(repo.root)
    expect(plan.ranges).toEqual(['src/x.ts:6-6'])
    expect(plan.reruns).toEqual([])
    expect(plan.testFiles).toEqual(new Set(['__tests__/a.test.ts', '__tests__/b.test.ts', '__tests__/c.test.ts']))
    expect(decision.kind).toBe('run')
  })

  it('runs only the mutants an edited test killed or covered alive, on the test files that cover those', () => {
    repo.write({ '__tests__/b.test.ts': B_TEST.replace('toBe(0)', 'toStrictEqual(0)') })
    const { plan, touched } = prepareChange(repo.root)
    expect([...touched.ids]).toEqual([TESTS.zero])
    expect(plan.ranges).toEqual(['src/x.ts:2:2-2:14'])
    expect(plan.reruns.map((rerun) => rerun.mutant.id)).toEqual([MUTANTS.byZero.id])
    // byOne sits inside byZero's range: what covers either runs.
    expect(plan.weight).toBe(2)
    expect(plan.testFiles).toEqual(new Set(['__tests__/a.test.ts', '__tests__/b.test.ts']))
  })

  it('adds the mutants an edited test covered that lived, when unit tests alone cover them and while there is room', () => {
    repo.write({ '__tests__/a.test.ts': A_TEST.replace('twice(2)).toBe(4)', 'twice(2)).toEqual(4)') })
    const prepared = prepareChange(repo.root)
    expect(prepared.plan.reruns.map((rerun) => rerun.mutant.id)).toEqual([MUTANTS.livedQuick.id])
    expect(prepared.plan).toEqual(expect.objectContaining({ leftOut: 1, weight: 1, ranges: ['src/x.ts:1:16-1:17'] }))
    const { changes, report: baseline, touched } = prepared
    expect(planChange(changes, baseline, touched, 0)).toEqual(
      expect.objectContaining({ reruns: [], leftOut: 2, weight: 0, ranges: [] })
    )
  })

  it('runs every test file when a changed src/ file has no baseline to say what covers it', () => {
    repo.write({ 'src/new.ts': 'export const one = 1\n' })
    expect(prepareChange(repo.root).plan).toEqual(
      expect.objectContaining({ ranges: ['src/new.ts:1-1'], testFiles: 'all' })
    )
  })

  it('leaves a mutant on a changed line to the changed lines, and follows a test edit and a src edit together', () => {
    repo.write({
      'src/x.ts': SOURCE.replace('return n * 2', 'return n + n'),
      '__tests__/a.test.ts': A_TEST.replace(
        "it('doubles one', () => {",
        "it('doubles one', () => {\n    expect(twice(3)).toBe(6)"
      )
    })
    const { plan } = prepareChange(repo.root)
    expect(plan.ranges).toEqual(['src/x.ts:2-2'])
    expect(plan.reruns).toEqual([]) // byOne is on line 2, which changed
  })
})
