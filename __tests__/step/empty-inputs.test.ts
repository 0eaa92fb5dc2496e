/**
 * Each optional input given empty, as a forwarding workflow passes it (`name: ''`, which the runner
 * hands over as INPUT_<NAME>='' without action.yml's default): the run has the input's default.
 * In-process, where the step reads the inputs as it reads them from the runner; what only a process
 * shows (the variables themselves, a proxy from the environment) is action-inputs.e2e.test.ts's.
 */
import { describe, expect, it } from '@jest/globals'
import { pushedCommit } from '../fixtures/action-process.js'
import { useStep } from '../fixtures/step.js'

const KEY = 'mint_empty_inputs_key_0123456789'
const PROMPT = 'Document release v1.2.3'

describe('an optional input given empty, as a forwarding workflow passes it: its default', () => {
  const step = useStep({
    key: KEY,
    project: 'proj-empty',
    prompt: PROMPT,
    inputs: { 'poll-interval': '500ms', timeout: '30s' },
    scenario: { runMs: 300 }
  })
  const emptyRun = (name: string, extra: Record<string, string> = {}, options: Parameters<typeof step.run>[1] = {}) =>
    step.run({ ...extra, [name]: '' }, options)
  const settingsLine = (run: Awaited<ReturnType<typeof step.run>>) =>
    run.at('debug').find((line) => line.startsWith('Mode '))

  it('prompt: the prompt comes from prompt-file', async () => {
    const run = await emptyRun('prompt', { 'prompt-file': 'p.md' }, { files: { 'p.md': 'From the file.' } })
    expect(run.code).toBe(0)
    expect(step.sim().jobs('proj-empty').at(-1)?.prompts[0]).toBe('From the file.')
  })

  it('prompt-file: the prompt input is the prompt', async () => {
    const run = await emptyRun('prompt-file')
    expect(run.code).toBe(0)
    expect(run.outputs.prompt).toBe(PROMPT)
  })

  it('job-id: a new job is created', async () => {
    const run = await emptyRun('job-id')
    expect(run.code).toBe(0)
    expect(step.requests('create')).toHaveLength(1)
    expect(step.requests('message')).toHaveLength(0)
  })

  it('wait: true, the step waits for the job to complete', async () => {
    const run = await emptyRun('wait')
    expect(run.code).toBe(0)
    expect(run.outputs.status).toBe('completed')
    expect(step.requests('get').length).toBeGreaterThan(0)
  })

  it('timeout: 30m', async () => {
    const run = await emptyRun('timeout')
    expect(run.code).toBe(0)
    expect(settingsLine(run)).toBe(
      'Mode create; timeout 1800000ms; polls from 500ms up to 10000ms; base URL ' + new URL(step.sim().url).origin
    )
  })

  it('poll-interval: 2s', async () => {
    const run = await emptyRun('poll-interval')
    expect(run.code).toBe(0)
    expect(settingsLine(run)).toContain('; polls from 2000ms up to 10000ms;')
  })

  it('max-poll-interval: 10s', async () => {
    const run = await emptyRun('max-poll-interval', { 'poll-interval': '1s' })
    expect(run.code).toBe(0)
    expect(settingsLine(run)).toContain('; polls from 1000ms up to 10000ms;')
  })

  it('fail-on: failed, archived, timed-out (a failed job fails the step)', async () => {
    step.sim().setScenario({ finalStatus: 'failed', pr: false })
    const run = await emptyRun('fail-on')
    expect(run.code).toBe(1)
    expect(run.at('error')).toEqual([
      `Docs agent job ${run.outputs['job-id'] ?? ''} ended failed (fail-on includes 'failed').`
    ])
  })

  it('github-token: no GitHub API calls, one notice', async () => {
    const run = await emptyRun('github-token')
    expect(run.code).toBe(0)
    expect(run.at('notice')[0]).toBe(
      "Input 'github-token' is empty: no GitHub API calls are made and no labels are added. Leave the input out for the workflow's token."
    )
    expect(run.at('warning')).toEqual([])
  })

  it('context: auto, the pushed commits join the prompt', async () => {
    const run = await emptyRun('context', {}, pushedCommit('Add the export command'))
    expect(run.code).toBe(0)
    expect(run.outputs.prompt).toContain('Add the export command')
    expect(step.sim().jobs('proj-empty').at(-1)?.prompts[0]).toBe(run.outputs.prompt)
  })

  it('dry-run: false, the job is created', async () => {
    const run = await emptyRun('dry-run')
    expect(run.code).toBe(0)
    expect(step.requests('create')).toHaveLength(1)
    expect(run.outputs.status).toBe('completed')
  })
})
