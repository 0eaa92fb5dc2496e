import { describe, expect, it } from '@jest/globals'
import { inputDefaults, readAction } from '../../scripts/action-metadata.js'
import { parseRecord, recordKeys, runIdentity, type RunIdentity } from '../../src/rerun/record.js'
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

describe('recordKeys', () => {
  it('one key per attempt, under a prefix shared by every attempt of the step', () => {
    const { prefix, key } = recordKeys(run, settings())
    expect(prefix).toMatch(/^docs-agent-rerun-[0-9a-f]{40}-attempt-$/)
    expect(key).toBe(`${prefix}3`)
    expect(recordKeys({ ...run, attempt: 1 }, settings()).prefix).toBe(prefix)
  })

  it('changes with anything that makes it another step or another request', () => {
    const base = recordKeys(run, settings()).prefix
    const others = [
      recordKeys({ ...run, runId: '43' }, settings()),
      recordKeys({ ...run, job: 'docs2' }, settings()),
      recordKeys({ ...run, action: 'agent2' }, settings()),
      recordKeys(run, settings({ 'rerun-key': '{"os":"windows"}' })),
      recordKeys(run, settings({ 'project-id': 'q' })),
      recordKeys(run, settings({ prompt: 'Document v3' })),
      recordKeys(run, settings({ 'job-id': 'j1' })),
      recordKeys(run, settings({ 'job-id': 'j2' })),
      recordKeys(run, settings({ 'job-id': 'j1', prompt: '' })),
      recordKeys(run, settings({ 'job-id': 'j1', prompt: 'Document v3' }))
    ].map((keys) => keys.prefix)
    expect(new Set([base, ...others]).size).toBe(others.length + 1)
  })

  it('does not change with what does not make another request', () => {
    const base = recordKeys(run, settings()).prefix
    expect(recordKeys(run, settings({ timeout: '1h', labels: 'docs', wait: 'false' })).prefix).toBe(base)
  })
})

describe('parseRecord', () => {
  const valid = {
    jobId: 'job_1',
    attempt: 1,
    answeredAt: 5,
    prompt: 'p',
    context: { description: 'd', text: 't' },
    mayHaveActed: false,
    answer: { id: 'job_1', status: 'completed' }
  }

  it('reads back a record as saved', () => {
    expect(parseRecord(JSON.stringify(valid))).toEqual(valid)
  })

  it('reads a record of a create whose answer was lost: no job id, may have acted', () => {
    expect(parseRecord(JSON.stringify({ attempt: 2, answeredAt: 5, prompt: 'p', mayHaveActed: true }))).toEqual({
      jobId: undefined,
      attempt: 2,
      answeredAt: 5,
      prompt: 'p',
      context: undefined,
      mayHaveActed: true,
      answer: undefined
    })
  })

  it('takes optional parts only when they have their shape', () => {
    const record = parseRecord(
      JSON.stringify({ ...valid, prompt: 7, context: { description: 'd' }, mayHaveActed: 'yes', answer: [1] })
    )
    expect(record).toEqual({ ...valid, prompt: '', context: undefined, mayHaveActed: false, answer: undefined })
    expect(
      parseRecord(JSON.stringify({ ...valid, context: { description: 1, text: 't' }, answer: null }))
    ).toMatchObject({ context: undefined, answer: undefined })
  })

  it.each([
    'not json',
    'null',
    '"text"',
    '[]',
    JSON.stringify({ ...valid, jobId: '' }),
    JSON.stringify({ ...valid, jobId: 5 }),
    JSON.stringify({ ...valid, attempt: '1' }),
    JSON.stringify({ ...valid, answeredAt: undefined }),
    JSON.stringify({ attempt: 1, answeredAt: 5 })
  ])('is undefined for what is not one of ours: %s', (text) => {
    expect(parseRecord(text)).toBeUndefined()
  })
})
