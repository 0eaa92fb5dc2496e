/**
 * `automation` with `check`, in-process through `main` against the simulator and the fake GitHub on
 * a virtual clock: the check run is made in progress once the run is queued, and completed with how
 * it ended.
 */
import { describe, expect, it } from '@jest/globals'
import type { GitHubApiFake } from '../../simulator/github/index.js'
import { useFakeGitHub } from '../fixtures/github.js'
import { useStep } from '../fixtures/step.js'

// One describe for the file: its hooks stay its own when the mutation suite runs the files together.
describe('automation with check', () => {
  const KEY = 'mint_automation_secret_key_0123456789'
  const PROJECT = 'proj-auto'
  const READABLE = 'auto-readable-job'
  const HIDDEN = 'auto-hidden-job'
  const RUNS_PAGE = 'the Automation Runs page of the Mintlify dashboard'
  const step = useStep({ key: KEY, project: PROJECT, inputs: { automation: READABLE }, scenario: { runMs: 30_000 } })
  const virtual = step.virtual
  let github: GitHubApiFake
  const fake = useFakeGitHub(
    step.clock,
    { repo: 'acme/app', fresh: 'reset', each: (gh) => gh.addRepo('acme/docs') },
    (started) => (github = started)
  )
  const env = (extra: Record<string, string> = {}) => fake.env(extra)
  const run = (inputs: Record<string, string> = {}, extra: Record<string, string> = {}) =>
    step.run(inputs, { env: env(extra) })
  const triggers = () => step.requests('trigger')
  const runs = () => virtual().sim.runs()

  describe('with check', () => {
    const pushed = () => {
      const [commit = ''] = github.addCommits('acme/app', [{ message: 'Add export' }])
      return { GITHUB_EVENT_NAME: 'push', GITHUB_REF: 'refs/heads/main', GITHUB_SHA: commit, GITHUB_RUN_ID: '6001' }
    }

    it('makes the check in progress once the run is queued, and completes it with its docs pull request', async () => {
      const result = await run({ check: 'Docs automation', 'link-back': 'none' }, pushed())
      expect(result.code).toBe(0)
      const [check] = github.checkRunsOf('acme/app')
      expect(github.checkRunsOf('acme/app')).toHaveLength(1)
      expect(check).toMatchObject({ name: 'Docs automation', states: ['in_progress', 'success'] })
      // Made once the trigger answered, working on the run's job.
      const made = github.requests.find((r) => r.route === 'check-create')
      expect(made?.time).toBeGreaterThan(triggers()[0]?.time ?? Infinity)
      expect(JSON.parse(made?.body ?? '{}')).toMatchObject({
        status: 'in_progress',
        output: { title: `Docs agent working on job ${runs()[0]?.jobId ?? ''}` }
      })
      expect(check?.output.summary).toContain(`automation \`${READABLE}\`, run \`${runs()[0]?.instanceId ?? ''}\``)
      expect(result.outputs['check-run-id']).toBe(String(check?.id))
    })

    it('a run whose job cannot be read completes its check neutral, saying where to follow it', async () => {
      const result = await run({ automation: HIDDEN, check: 'Docs automation', 'link-back': 'none' }, pushed())
      expect(result.code).toBe(0)
      const [check] = github.checkRunsOf('acme/app')
      expect(check?.states).toEqual(['in_progress', 'neutral'])
      expect(check?.output.summary).toContain(RUNS_PAGE)
    })
  })
})
