// The re-run record keeps whether the job carries an outsider's text (step/outsider.ts): a resumed
// attempt inherits it. It rides in the flags field beside "may have acted", so older keys still open.
import { describe, expect, it } from '@jest/globals'
import {
  openRecord,
  sealRecord,
  type RecordedStep,
  type RerunRecord,
  type RunIdentity
} from '../../src/rerun/record.js'

const run: RunIdentity = { runId: '42', attempt: 2, job: 'docs', action: 'agent' }
const step: RecordedStep = { mode: 'create', prompt: 'Document v2', projectId: 'p', rerunKey: '', apiKey: 'k' }
const record: RerunRecord = {
  jobId: 'job_1',
  attempt: 1,
  answeredAt: 1_700_000_000_000,
  mayHaveActed: false,
  prompt: 'ab'.repeat(8),
  answer: undefined
}

describe('the outsider flag of a re-run record', () => {
  it.each([
    [false, false],
    [true, false],
    [false, true],
    [true, true]
  ])('may have acted %s, outsider %s: kept as sealed', (mayHaveActed, outsider) => {
    const kept = { ...record, mayHaveActed, ...(outsider ? { outsider } : {}) }
    const key = sealRecord(run, step, kept) ?? ''
    expect(openRecord(run, step, key)).toEqual({ kind: 'found', record: kept })
  })

  it('a key whose flag was changed does not verify', () => {
    const key = sealRecord(run, step, record) ?? ''
    const flipped = key.replace(/^(.*?-\d+-\d+-)0-/, '$12-')
    expect(flipped).not.toBe(key)
    expect(openRecord(run, step, flipped)).toEqual({ kind: 'rejected', reason: 'its signature is wrong' })
  })
})
