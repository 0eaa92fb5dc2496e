import { afterEach, describe, expect, it } from '@jest/globals'
import type { BaselineRecord } from '../../scripts/mutation-baseline.js'
import { scoreTrend } from '../../scripts/mutation-baseline.js'
import type { ChangePlan } from '../../scripts/mutation/change.js'
import { byRecency, parseBlame } from '../../scripts/mutation/recency.js'
import { seeded, select, shuffled } from '../../scripts/mutation/sample.js'
import { resultLine, type ChangeVerdict } from '../../scripts/mutation/verdict.js'
import { gitRepo, type Repo } from './mutation-repo.js'

describe('seeded', () => {
  it('draws the same numbers from the same seed, and others from another', () => {
    const draw = (seed: string): number[] => Array.from({ length: 5 }, seeded(seed))
    expect(draw('abc1234')).toEqual(draw('abc1234'))
    expect(draw('abc1234')).not.toEqual(draw('abc1235'))
    for (const value of draw('abc1234')) expect(value >= 0 && value < 1).toBe(true)
    expect(shuffled([1, 2, 3, 4, 5, 6], seeded('x')).sort()).toEqual([1, 2, 3, 4, 5, 6])
  })
})

describe('select', () => {
  const items = Array.from({ length: 10 }, (_, index) => index)
  const limits = { seconds: 5, count: Infinity, cost: () => 1, brings: (item: number) => [item], seed: 'abc1234' }

  it('takes every group whole while it fits', () => {
    expect(select([items.slice(0, 2), items.slice(2, 5)], limits)).toEqual({
      chosen: new Set([0, 1, 2, 3, 4]),
      sampled: false,
      seconds: 5
    })
  })

  it('past the budget, fills it with a sample of the rest, the same for the same seed', () => {
    const groups = [items.slice(0, 2), items.slice(2, 6), items.slice(6)]
    const first = select(groups, limits)
    expect(first.sampled).toBe(true)
    expect(first.seconds).toBe(5)
    expect([...first.chosen].slice(0, 2)).toEqual([0, 1]) // the newest group whole
    expect(first.chosen.size).toBe(5)
    expect(select(groups, limits)).toEqual(first)
    const others = new Set(['a', 'b', 'c', 'd'].map((seed) => [...select(groups, { ...limits, seed }).chosen].join()))
    expect(others.size).toBeGreaterThan(1)
  })

  it('samples the newest group that does not fit before any older one', () => {
    // The newest commit holds 8 mutants and 5 fit: all 5 are its own, whatever the seed.
    const groups = [items.slice(0, 8), items.slice(8)]
    for (const seed of ['a', 'b', 'c', 'd', 'e']) {
      const { chosen, sampled } = select(groups, { ...limits, seed })
      expect(sampled).toBe(true)
      expect(chosen.size).toBe(5)
      for (const item of chosen) expect(item).toBeLessThan(8)
    }
    // What it leaves goes to the older groups, drawn.
    expect([...select(groups, { ...limits, seconds: 9 }).chosen].filter((item) => item >= 8)).toHaveLength(1)
  })

  it('stops at the count, and counts what a range brings with it', () => {
    expect(select([items], { ...limits, seconds: 100, count: 3 }).chosen.size).toBe(3)
    // 0's range holds 1 and 2: taking it takes them, and costs them.
    const brings = (item: number): number[] => (item === 0 ? [0, 1, 2] : [item])
    const chosen = select([[0], [5, 6, 7]], { ...limits, seconds: 4, brings })
    expect(chosen).toEqual(expect.objectContaining({ sampled: true, seconds: 4 }))
    expect([...chosen.chosen].slice(0, 3)).toEqual([0, 1, 2])
    expect(chosen.chosen.size).toBe(4) // and one of 5, 6, 7, drawn
    expect(select([[0]], { ...limits, seconds: 2, brings }).chosen.size).toBe(0)
  })
})

describe('parseBlame and byRecency', () => {
  let repo: Repo | undefined
  afterEach(() => repo?.dispose())

  it("reads git blame's porcelain: each line's commit and each commit's time", () => {
    const a = 'a'.repeat(40)
    const b = 'b'.repeat(40)
    const text = [
      `${a} 1 1 2`,
      'committer-time 100',
      'filename src/x.ts',
      '\tline one',
      `${a} 2 2`,
      '\tline two',
      `${b} 7 3 1`,
      'committer-time 200',
      '\tline three'
    ].join('\n')
    expect(parseBlame(text)).toEqual({
      lineOf: new Map([
        [1, a],
        [2, a],
        [3, b]
      ]),
      timeOf: new Map([
        [a, 100],
        [b, 200]
      ])
    })
  })

  it('groups items by the commit of their first line, the newest first: uncommitted lines before any commit', () => {
    repo = gitRepo({ 'src/x.ts': 'one\ntwo\nthree\n' })
    repo.commit('first')
    repo.write({ 'src/x.ts': 'one\ntwo, changed\nthree\n' })
    const item = (line: number): { file: string; start: { line: number } } => ({ file: 'src/x.ts', start: { line } })
    const [one, two, three] = [item(1), item(2), item(3)]
    expect(byRecency(repo.root, [one, two, three])).toEqual([[two], [one, three]])
  })
})

describe('resultLine', () => {
  const verdict = (total: number, score: number, extra: Partial<ChangeVerdict> = {}): ChangeVerdict => ({
    changed: {
      score,
      total,
      mutants: { killed: 0, timeout: 0, survived: 0, noCoverage: 0, ignored: 0, errors: 0 }
    },
    reran: 0,
    weakened: [],
    ignored: 0,
    passed: true,
    ...extra
  })
  const plan = (parts: Partial<ChangePlan> = {}): Pick<ChangePlan, 'lines' | 'changed' | 'reruns'> => ({
    lines: new Map([['src/x.ts', [[1, 40]]]]),
    changed: { all: 412, chosen: Array.from({ length: 64 }, () => CANDIDATE), sampled: true },
    reruns: { all: 0, chosen: [], sampled: false },
    ...parts
  })
  const run = { seed: 'c0ffee1234', breakAt: 85, planned: 64, seconds: 151.4 }

  it("judges the score on what ran and says the sample's size and seed", () => {
    expect(resultLine(verdict(64, 92.19), plan(), run)).toBe(
      'Mutation testing on the change: 92.19 % of 64 mutants detected (a sample of 64 of 412 on the changed lines, seeded by c0ffee1; break at 85 %); 151 s.'
    )
  })

  it('says how many had no verdict when the time was up, not counting them', () => {
    expect(resultLine(verdict(40, 90, { ignored: 2 }), plan(), run)).toContain(
      '90 % of 40 mutants detected (a sample of 64 of 412'
    )
    expect(resultLine(verdict(40, 90, { ignored: 2 }), plan(), run)).toContain(
      '; 22 mutants had no verdict when the time was up, not counted against the score; 151 s.'
    )
    expect(resultLine(verdict(40, 90, { ignored: 2 }), plan(), { ...run, planned: 43 })).toContain(
      '; 1 mutant had no verdict when the time was up'
    )
    expect(resultLine(verdict(0, 100), plan(), run)).toContain(
      'no mutant on the changed lines had a verdict (a sample of 64 of 412 on the changed lines, seeded by c0ffee1)'
    )
  })

  it('says what ran again for the edited tests, and whether a test got weaker', () => {
    const tests = plan({
      lines: new Map(),
      changed: { all: 0, chosen: [], sampled: false },
      reruns: { all: 3795, chosen: Array.from({ length: 60 }, () => CANDIDATE), sampled: true }
    })
    expect(resultLine(verdict(0, 100, { reran: 47 }), tests, { ...run, planned: 65 })).toBe(
      'Mutation testing on the change: no src/ line changed; 47 mutants ran again for the edited tests (a sample of 60 of 3795 they decided in the baseline, seeded by c0ffee1), 0 of them detected in the baseline but not now; 18 mutants had no verdict when the time was up, not counted against the score; 151 s.'
    )
  })
})

const CANDIDATE = {
  file: 'src/x.ts',
  start: { line: 1, column: 1 },
  end: { line: 1, column: 2 },
  mutatorName: 'StringLiteral',
  cost: 2
}

describe('scoreTrend', () => {
  const record = (commit: string, score: number, run: BaselineRecord['run'] = 'full'): BaselineRecord => ({
    commit: commit.repeat(40),
    date: '2026-12-07',
    run,
    score,
    mutants: { killed: 0, timeout: 0, survived: 0, noCoverage: 0, ignored: 0, errors: 0 },
    fullRun: { commit: commit.repeat(40), date: '2026-12-07', score }
  })

  it("says when the weekly run's score fell under the previous baseline's, by how much", () => {
    expect(scoreTrend(record('a', 89.87), record('b', 88.1))).toEqual({
      fell: true,
      line: "Score fell: 88.1 %, 1.77 points under the previous baseline's 89.87 % at aaaaaaa (2026-12-07, full run)."
    })
  })

  it('says when it held or rose, and when there was no baseline before', () => {
    expect(scoreTrend(record('a', 89.87, 'update'), record('b', 90))).toEqual({
      fell: false,
      line: "Score: 90 %, 0.13 points over the previous baseline's 89.87 % at aaaaaaa (2026-12-07, update)."
    })
    expect(scoreTrend(record('a', 90), record('b', 90)).line).toBe(
      "Score: 90 %, as the previous baseline's 90 % at aaaaaaa (2026-12-07, full run)."
    )
    expect(scoreTrend(undefined, record('b', 90))).toEqual({ fell: false, line: 'Score: 90 % (no previous baseline).' })
  })
})
