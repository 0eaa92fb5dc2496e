/**
 * A step without a GitHub token: an empty `github-token`, or the unevaluated `${{ github.token }}`
 * that GitHub's local runner passes. In-process, against the simulator and a fake GitHub on loopback.
 */
import { describe, expect, it } from '@jest/globals'
import type { GitHubApiFake } from '../../simulator/github/index.js'
import { tagPush, useFakeGitHub } from '../fixtures/github.js'
import { useStep } from '../fixtures/step.js'

describe('no GitHub token', () => {
  const KEY = 'mint_no_token_secret_key_0'
  const REPO = 'acme/widgets'
  const step = useStep({ key: KEY, project: 'proj', prompt: 'Document it.', scenario: { runMs: 3000 } })
  const virtual = step.virtual
  let github: GitHubApiFake
  const fake = useFakeGitHub(step.clock, { repo: REPO, fresh: 'reset' }, (started) => (github = started))
  const tagPushed = (): Record<string, string> => fake.env(tagPush('v1.4.0'))
  const run = (inputs: Record<string, string>, env: Record<string, string>) => step.run(inputs, { env })
  const created = () => step.requests('create').length

  const TAG_WARNING =
    "Input 'github-token' is empty, so the agent will not get the release notes of v1.4.0 and the changes since the previous release: only what the event itself holds. No GitHub API calls are made and no labels are added. Leave the input out for the workflow's token."
  const NOTICE =
    "Input 'github-token' is empty: no GitHub API calls are made and no labels are added. Leave the input out for the workflow's token."

  it('on a tag push: a warning that says what the agent will not get, and the job is created', async () => {
    const result = await run({ 'github-token': '' }, tagPushed())
    expect(result.code).toBe(0)
    expect(created()).toBe(1)
    expect(result.at('warning')).toEqual([TAG_WARNING])
    expect(result.at('notice').filter((line) => line.includes('github-token'))).toEqual([])
    expect(github.requests).toEqual([])
  })

  it('in a dry run too: the prompt it shows is the one a run would send', async () => {
    const result = await run({ 'github-token': '', 'dry-run': 'true' }, tagPushed())
    expect(result.code).toBe(0)
    expect(result.at('warning')).toEqual([TAG_WARNING])
  })

  it.each([
    [
      'a branch push, whose commits are in the payload',
      {},
      { GITHUB_REF: 'refs/heads/main', GITHUB_REF_TYPE: 'branch', GITHUB_REF_NAME: 'main' }
    ],
    ['context: none', { context: 'none' }, {}],
    ['a follow-up, which sends no context', { 'job-id': 'job_1' }, {}],
    ['a wait-only step', { 'job-id': 'job_1', prompt: '' }, {}]
  ])('%s: a notice, no warning', async (_, inputs, env) => {
    virtual().sim.addJob('proj', { id: 'job_1', status: 'completed' })
    const result = await run({ 'github-token': '', ...inputs }, { ...tagPushed(), ...env })
    expect(result.at('notice')).toContain(NOTICE)
    expect(result.at('warning')).toEqual([])
  })

  it("the unevaluated defaults GitHub's local runner passes: read as empty, one notice naming them", async () => {
    const result = await run(
      { 'github-token': '${{ github.token }}', 'rerun-key': '${{ toJSON(matrix) }}' },
      tagPushed()
    )
    expect(result.code).toBe(0)
    expect(created()).toBe(1)
    expect(github.requests).toEqual([])
    expect(result.at('notice').filter((line) => line.includes('unevaluated'))).toEqual([
      "Inputs 'github-token' and 'rerun-key' are unevaluated expressions (${{ … }}), read as empty: only GitHub's runner evaluates expressions, and GitHub's local runner passes action.yml's defaults as written."
    ])
    expect(result.at('warning')).toEqual([TAG_WARNING])
  })

  // .env.example's run (README, "Try it locally") with INPUT_DRY-RUN=false: labels, and no token.
  it('labels and no token at all: the start said no labels are added, and nothing more is said of them', async () => {
    const result = await run({ 'github-token': '', labels: 'documentation, release' }, tagPushed())
    expect(result.code).toBe(0)
    expect(result.outputs['pr-number']).toBe('1')
    expect(result.at('warning')).toEqual([TAG_WARNING])
    expect(github.requests).toEqual([])
  })

  it('an unevaluated required input: the notice, then the error naming it', async () => {
    const result = await run({ 'api-key': '${{ secrets.MINTLIFY_API_KEY }}' }, {})
    expect(result.code).toBe(1)
    expect(virtual().sim.requests).toEqual([])
    expect(result.lines.map((line) => line.level)).toEqual(['notice', 'error'])
    expect(result.at('notice')[0]).toMatch(/^Input 'api-key' is an unevaluated expression/)
    expect(result.at('error')[0]).toMatch(/^Input 'api-key': required/)
  })
})
