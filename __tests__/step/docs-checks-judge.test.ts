// What judge() counts as a failing check run, as a table: GitHub's conclusions that the fake GitHub
// cannot make (only GitHub sets `stale`, on a run left incomplete 14 days; `startup_failure` is in
// its schema's conclusions, "List check runs for a Git reference").
import { describe, expect, it } from '@jest/globals'
import type { DocsChecksApi, DocsCheckRun } from '../../src/github/docs-checks.js'
import { judge } from '../../src/step/docs-checks/judge.js'

const HEAD = 'a'.repeat(40)
const api = (runs: DocsCheckRun[]): DocsChecksApi => ({
  head: () => Promise.resolve(HEAD),
  checkRuns: () => Promise.resolve(runs),
  statuses: () => Promise.resolve([]),
  annotations: () => Promise.resolve([])
})
const run = (conclusion: string): DocsCheckRun => ({
  id: 1,
  name: 'Mintlify Validation',
  status: 'completed',
  conclusion,
  url: undefined,
  title: 'Stopped',
  summary: '',
  annotations: 0
})

describe('judge', () => {
  it.each([
    ['failure', true],
    ['timed_out', true],
    ['action_required', true],
    ['stale', true],
    ['startup_failure', true],
    ['success', false],
    ['neutral', false],
    ['skipped', false],
    ['cancelled', false]
  ])('a check run concluded %s fails: %s', async (conclusion, fails) => {
    const judged = await judge(api([run(conclusion)]), HEAD)
    expect(judged.failures.map((f) => [f.conclusion, f.title])).toEqual(fails ? [[conclusion, 'Stopped']] : [])
    expect(judged.running).toBe(false)
  })
})
