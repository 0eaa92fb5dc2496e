// What judge() counts as a failing check run, as a table: GitHub's conclusions that the fake GitHub
// cannot make (only GitHub sets `stale`, on a run left incomplete 14 days; `startup_failure` is in
// its schema's conclusions, "List check runs for a Git reference"). And what the fake cannot show
// either: a suite not completed whose runs came after the runs read (a read between two reads).
import { describe, expect, it } from '@jest/globals'
import type { DocsChecksApi, DocsCheckRun, DocsCheckSuite } from '../../src/github/docs-checks.js'
import { fixable, judge } from '../../src/step/docs-checks/judge.js'

const HEAD = 'a'.repeat(40)
const api = (runs: DocsCheckRun[], suites: DocsCheckSuite[] = []): DocsChecksApi => ({
  head: () => Promise.resolve(HEAD),
  checkRuns: () => Promise.resolve(runs),
  checkSuites: () => Promise.resolve(suites),
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
    ['cancelled', true]
  ])('a check run concluded %s fails: %s', async (conclusion, fails) => {
    const judged = await judge(api([run(conclusion)]), HEAD, true)
    expect(judged.failures.map((f) => [f.conclusion, f.title])).toEqual(fails ? [[conclusion, 'Stopped']] : [])
    expect(judged.running).toBe(false)
  })

  it('a cancelled run fails, yet is nothing to ask the agent to fix', async () => {
    const judged = await judge(api([run('cancelled'), { ...run('failure'), name: 'Vale' }]), HEAD, true)
    expect(fixable(judged.failures).map((f) => f.name)).toEqual(['Vale'])
  })

  it.each(['queued', 'in_progress', 'waiting', 'requested', 'pending'])(
    'a suite %s with no check running: checks still to come, running while waited for, named when not',
    async (status) => {
      const suites = [
        { app: 'Mintlify', status },
        { app: 'GitHub Actions', status: 'completed' }
      ]
      const waited = await judge(api([run('success')], suites), HEAD, true)
      expect([waited.running, waited.toCome, waited.failures]).toEqual([true, ['Mintlify'], []])
      const past = await judge(api([run('failure')], suites), HEAD, false)
      expect([past.running, past.toCome, past.failures.length]).toEqual([false, ['Mintlify'], 1])
    }
  )

  it('suites are read only once nothing runs: none while a check run runs', async () => {
    let reads = 0
    const counted = (runs: DocsCheckRun[]): DocsChecksApi => ({
      ...api(runs),
      checkSuites: () => {
        reads++
        return Promise.resolve([])
      }
    })
    await judge(counted([{ ...run('success'), status: 'in_progress', conclusion: null }]), HEAD, true)
    expect(reads).toBe(0)
    const judged = await judge(counted([run('success')]), HEAD, true)
    expect([reads, judged.running, judged.toCome]).toEqual([1, false, []])
  })
})
