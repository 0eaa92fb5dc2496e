import { describe, expect, it } from '@jest/globals'
import { inputDefaults, readAction } from '../../scripts/action-metadata.js'
import { createHash } from 'node:crypto'
import { fingerprint } from '../../src/base/fingerprint.js'
import {
  MAX_KEY_LENGTH,
  openRecord,
  recordPrefix,
  restoreRecord,
  runIdentity,
  saveRecord,
  sealRecord,
  type Lookup,
  type RecordedStep,
  type RecordStore,
  type RerunRecord,
  type RunIdentity,
  type Saved
} from '../../src/rerun/record.js'
import { parseSettings, type Settings } from '../../src/step/settings.js'

const DEFAULTS = inputDefaults(readAction(), 'tok')
const settings = (inputs: Record<string, string> = {}): Settings =>
  parseSettings({
    get: (name) => ({ ...DEFAULTS, 'api-key': 'k', 'project-id': 'p', prompt: 'Document v2', ...inputs })[name] ?? '',
    readFile: () => ''
  })
const run: RunIdentity = { runId: '42', attempt: 3, job: 'docs', action: 'agent' }

describe('runIdentity', () => {
  it('reads the run from the runner variables', () => {
    expect(
      runIdentity({ GITHUB_RUN_ID: '42', GITHUB_RUN_ATTEMPT: '3', GITHUB_JOB: 'docs', GITHUB_ACTION: 'agent' })
    ).toEqual(run)
    expect(runIdentity({ GITHUB_RUN_ID: '42' })).toEqual({ runId: '42', attempt: 1, job: '', action: '' })
  })

  it.each([
    {},
    { GITHUB_RUN_ID: '' },
    { GITHUB_RUN_ID: '1', GITHUB_RUN_ATTEMPT: '0' },
    { GITHUB_RUN_ID: '1', GITHUB_RUN_ATTEMPT: '1.5' },
    { GITHUB_RUN_ID: '1', GITHUB_RUN_ATTEMPT: 'x' }
  ])('is undefined outside a run, or with an attempt that is not a positive whole number: %j', (env) => {
    expect(runIdentity(env)).toBeUndefined()
  })
})

describe('recordPrefix', () => {
  it('one prefix for every attempt of the step, lower-case hex', () => {
    const prefix = recordPrefix(run, settings())
    expect(prefix).toMatch(/^docs-agent-rerun-[0-9a-f]{40}-$/)
    expect(recordPrefix({ ...run, attempt: 1 }, settings())).toBe(prefix)
  })

  it('changes with anything that makes it another step or another request, and with the api-key', () => {
    const base = recordPrefix(run, settings())
    const others = [
      recordPrefix({ ...run, runId: '43' }, settings()),
      recordPrefix({ ...run, job: 'docs2' }, settings()),
      recordPrefix({ ...run, action: 'agent2' }, settings()),
      recordPrefix(run, settings({ 'rerun-key': '{"os":"windows"}' })),
      recordPrefix(run, settings({ 'project-id': 'q' })),
      recordPrefix(run, settings({ prompt: 'Document v3' })),
      recordPrefix(run, settings({ 'job-id': 'j1' })),
      recordPrefix(run, settings({ 'job-id': 'j2' })),
      recordPrefix(run, settings({ 'job-id': 'j1', prompt: '' })),
      recordPrefix(run, settings({ 'job-id': 'j1', prompt: 'Document v3' })),
      recordPrefix(run, settings({ 'job-id': 'j2', prompt: '' })),
      recordPrefix(run, settings({ automation: 'a1', prompt: '' })),
      recordPrefix(run, settings({ automation: 'a2', prompt: '' })),
      recordPrefix(run, settings({ 'api-key': 'k2' }))
    ]
    expect(new Set([base, ...others]).size).toBe(others.length + 1)
  })

  it('does not change with what does not make another request', () => {
    expect(recordPrefix(run, settings({ timeout: '1h', labels: 'docs', 'poll-interval': '5s' }))).toBe(
      recordPrefix(run, settings())
    )
    expect(recordPrefix(run, settings({ wait: 'false' }))).toBe(recordPrefix(run, settings()))
  })

  it('says nothing of the prompt or the api-key', () => {
    const prefix = recordPrefix(run, settings({ 'api-key': 'mint_secret', prompt: 'Document v2' }))
    expect(prefix).not.toContain(createHash('sha256').update('Document v2').digest('hex').slice(0, 8))
    expect(prefix).not.toContain('mint_secret')
  })
})

describe('sealRecord and openRecord', () => {
  const step = settings()
  const record: RerunRecord = {
    jobId: 'job_1',
    attempt: 2,
    answeredAt: 1_764_000_000_000,
    mayHaveActed: false,
    prompt: fingerprint('Document v2'),
    answer: fingerprint('{"id":"job_1"}')
  }
  const seal = (r: RerunRecord, identity = run, s: RecordedStep = step): string => sealRecord(identity, s, r) ?? ''

  it('puts the record in a key the cache accepts, and reads it back', () => {
    const key = seal(record)
    expect(key.startsWith(recordPrefix(run, step))).toBe(true)
    expect(key).toMatch(/^[0-9a-z-]+$/)
    expect(key).toBe(
      `${recordPrefix(run, step)}2-1764000000000-0-${record.prompt}-${record.answer ?? ''}-${Buffer.from('job_1').toString('hex')}-${key.slice(-32)}`
    )
    expect(openRecord(run, step, key)).toEqual({ kind: 'found', record })
  })

  it('keeps a create whose answer was lost (no job id, may have acted), and any job id the server gave', () => {
    const lost = { ...record, jobId: undefined, mayHaveActed: true, answer: undefined }
    expect(openRecord(run, step, seal(lost))).toEqual({ kind: 'found', record: lost })
    const odd = { ...record, jobId: 'Job,-ID ✓\n' }
    expect(seal(odd)).not.toContain(',')
    expect(openRecord(run, step, seal(odd))).toEqual({ kind: 'found', record: odd })
  })

  it("keeps an automation's run after its job, and reads a key without one as before", () => {
    const triggered = { ...record, automationRun: 'run_1 ✓', answer: undefined }
    const key = seal(triggered)
    expect(key).toMatch(
      new RegExp(`-${Buffer.from('job_1').toString('hex')}-${Buffer.from('run_1 ✓').toString('hex')}-[0-9a-f]{32}$`)
    )
    expect(openRecord(run, step, key)).toEqual({ kind: 'found', record: triggered })
    expect(openRecord(run, step, seal(record))).toEqual({ kind: 'found', record })
  })

  it('fits job ids up to the 512 characters of a key, and no longer', () => {
    // Two hex digits a character: an attempt of two digits makes the room even when it is not.
    const empty = (attempt: number) => seal({ ...record, attempt, jobId: undefined }).length
    const attempt = (MAX_KEY_LENGTH - empty(2)) % 2 === 0 ? 2 : 10
    const room = (MAX_KEY_LENGTH - empty(attempt)) / 2
    const longest = { ...record, attempt, jobId: 'a'.repeat(room) }
    expect(seal(longest)).toHaveLength(MAX_KEY_LENGTH)
    expect(openRecord(run, step, seal(longest))).toEqual({ kind: 'found', record: longest })
    expect(sealRecord(run, step, { ...longest, jobId: 'a'.repeat(room + 1) })).toBeUndefined()
  })

  it('rejects a key whose signature is wrong: tampered, another api-key, another run or step', () => {
    const key = seal(record)
    const prefix = recordPrefix(run, step)
    const moved = (other: string, from: string) => `${prefix}${other.slice(from.length)}`
    const wrong = { kind: 'rejected', reason: 'its signature is wrong' }
    const otherKey = settings({ 'api-key': 'k2' })
    const otherRun = { ...run, runId: '43' }
    const otherStep = settings({ prompt: 'Document v3' })
    for (const forged of [
      key.replace('-0-', '-1-'),
      key.replace(`${prefix}2-`, `${prefix}1-`),
      key.replace(Buffer.from('job_1').toString('hex'), Buffer.from('job_2').toString('hex')),
      `${key.slice(0, -1)}${key.endsWith('0') ? '1' : '0'}`,
      moved(seal(record, run, otherKey), recordPrefix(run, otherKey)),
      moved(seal(record, otherRun), recordPrefix(otherRun, step)),
      moved(seal(record, run, otherStep), recordPrefix(run, otherStep))
    ]) {
      expect(openRecord(run, step, forged)).toEqual(wrong)
    }
  })

  it.each([
    ['another prefix', (key: string) => key.replace('docs-agent-rerun-', 'docs-agent-rerum-')],
    ['a field missing', (key: string) => key.replace('-0-', '-')],
    ['an upper-case field', (key: string) => key.toUpperCase()],
    ['a short signature', (key: string) => key.slice(0, -1)],
    ['an odd job id', (key: string) => key.replace(Buffer.from('job_1').toString('hex'), '6a6')],
    ['a path', () => `${recordPrefix(run, step)}../../etc/passwd`]
  ])('rejects what is not a record of this step: %s', (_name, change) => {
    expect(openRecord(run, step, change(seal(record)))).toEqual({
      kind: 'rejected',
      reason: 'not a record of this step'
    })
  })
})

describe('restoreRecord and saveRecord', () => {
  const step = settings()
  const record: RerunRecord = {
    jobId: 'job_1',
    attempt: 1,
    answeredAt: 5,
    mayHaveActed: false,
    prompt: fingerprint('p'),
    answer: undefined
  }
  const store = (lookup: Lookup, saved: Saved = { kind: 'saved' }) => {
    const calls: string[] = []
    const s: RecordStore = {
      available: true,
      lookup: (prefix) => {
        calls.push(`lookup ${prefix}`)
        return Promise.resolve(lookup)
      },
      save: (key) => {
        calls.push(`save ${key}`)
        return Promise.resolve(saved)
      }
    }
    return { s, calls }
  }

  it('looks up by the prefix and opens what it finds', async () => {
    const key = sealRecord(run, step, record) ?? ''
    const { s, calls } = store({ kind: 'found', key })
    expect(await restoreRecord(s, run, step)).toEqual({ kind: 'found', record })
    expect(calls).toEqual([`lookup ${recordPrefix(run, step)}`])
    expect(await restoreRecord(store({ kind: 'found', key: `${key}0` }).s, run, step)).toMatchObject({
      kind: 'rejected'
    })
  })

  it('passes on a miss or a failure', async () => {
    expect(await restoreRecord(store({ kind: 'missing' }).s, run, step)).toEqual({ kind: 'missing' })
    const failed = { kind: 'failed', message: 'down' } as const
    expect(await restoreRecord(store(failed).s, run, step)).toEqual(failed)
  })

  it('saves under the sealed key, and says so when the record does not fit', async () => {
    const { s, calls } = store({ kind: 'missing' }, { kind: 'read-only', message: 'mode read' })
    expect(await saveRecord(s, run, step, record)).toEqual({ kind: 'read-only', message: 'mode read' })
    expect(calls).toEqual([`save ${sealRecord(run, step, record) ?? ''}`])
    expect(await saveRecord(s, run, step, { ...record, jobId: 'j'.repeat(300) })).toEqual({
      kind: 'failed',
      message: 'the job id is too long to keep in a cache key'
    })
    expect(calls).toHaveLength(1)
  })
})
