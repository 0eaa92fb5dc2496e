/**
 * The skip rules with `automation`, in-process through `main` against the simulator and the fake
 * GitHub on a virtual clock: a skip label or a `[skip docs]` marker spares the automation's
 * trigger (and its credits) as it spares a job; a path rule is an input error until the trigger
 * reads changed files.
 */
import { describe, expect, it } from '@jest/globals'
import type { GitHubApiFake } from '../../simulator/github/index.js'
import { useFakeGitHub } from '../fixtures/github.js'
import { useStep } from '../fixtures/step.js'

describe('skip rules with automation', () => {
  const APP = 'acme/app'
  const AUTOMATION = 'auto-readable-job'
  const step = useStep({
    key: 'mint_skip_automation_key_0123456789',
    project: 'proj-skip-auto',
    inputs: { automation: AUTOMATION },
    scenario: { runMs: 3000 }
  })
  let github: GitHubApiFake
  const fake = useFakeGitHub(
    step.clock,
    { repo: APP, fresh: 'reset', each: (gh) => gh.setPermission(APP, 'mona', 'write') },
    (started) => (github = started)
  )
  const run = (inputs: Record<string, string>, event: { name: string; payload: unknown; ref?: string }) =>
    step.run(inputs, {
      env: fake.env({
        GITHUB_EVENT_NAME: event.name,
        GITHUB_REPOSITORY: APP,
        GITHUB_ACTOR: 'mona',
        GITHUB_EVENT_PATH: '/event.json',
        ...(event.ref ? { GITHUB_REF: event.ref } : {})
      }),
      files: { '/event.json': JSON.stringify(event.payload) }
    })
  const merged = (labels: string[], title = 'Add the export command') => ({
    name: 'pull_request',
    ref: 'refs/pull/21/merge',
    payload: {
      action: 'closed',
      pull_request: {
        number: 21,
        title,
        body: '',
        merged: true,
        user: { login: 'mona' },
        head: { ref: 'b21', repo: { full_name: APP } },
        base: { ref: 'main', repo: { full_name: APP } },
        html_url: `https://github.com/${APP}/pull/21`,
        labels: labels.map((name) => ({ name }))
      }
    }
  })
  const writes = () => github.requests.filter((r) => r.method !== 'GET' && r.route !== 'graphql')

  it('a merged pull request labelled skip-docs triggers nothing: skipped, exit 0, one notice', async () => {
    const result = await run({}, merged(['skip-docs']))
    const reason = 'skip-labels: pull request #21 has the label skip-docs'
    expect([result.code, result.outputs.skipped, result.outputs['skip-reason']]).toEqual([0, 'true', reason])
    expect([step.requests('trigger'), result.outputs['automation-run-id'], result.outputs['job-id']]).toEqual([
      [],
      '',
      ''
    ])
    expect(result.at('notice')).toEqual([`Skipped, no job started: ${reason}.`])
    expect(writes()).toEqual([])
  })

  it('a [skip docs] marker in the title skips it too; without one, the automation is triggered', async () => {
    const marked = await run({}, merged([], 'chore: bump deps [skip docs]'))
    expect([marked.outputs.skipped, step.requests('trigger')]).toEqual(['true', []])
    const plain = await run({ 'link-back': 'none' }, merged(['bug']))
    expect([plain.code, plain.outputs.skipped, step.requests('trigger').length]).toEqual([0, 'false', 1])
  })

  it.each(['paths', 'paths-ignore'])(
    '%s with automation: an input error naming both, before any request',
    async (input) => {
      const result = await run({ [input]: 'src/**' }, merged([]))
      expect(result.code).toBe(1)
      expect(result.at('error')).toEqual([
        `Input '${input}': not with 'automation': the trigger reads no changed files, so a path rule has nothing to judge: filter on the workflow's own on.<event>.paths, or use skip-labels and [skip docs] markers, which apply.`
      ])
      expect([github.requests, step.requests('trigger')]).toEqual([[], []])
    }
  )
})
