/**
 * `preview: true`, in-process through `main` against the simulator and the fake GitHub on a
 * virtual clock: once the job ends with a docs PR, the branch's preview is asked for and waited on;
 * whatever goes wrong is one warning, and the step's result stands.
 */
import { describe, expect, it } from '@jest/globals'
import type { GitHubApiFake } from '../../simulator/github/index.js'
import type { RunState } from '../../src/report/state.js'
import { renderLinkBack } from '../../src/step/tracking/link-back-text.js'
import { useFakeGitHub } from '../fixtures/github.js'
import { runStateAt, settings } from '../fixtures/run-state.js'
import { useStep } from '../fixtures/step.js'

// One describe for the file: its hooks stay its own when the mutation suite runs the files together.
describe('preview', () => {
  const KEY = 'mint_preview_secret_key_0123456789'
  const PROJECT = 'proj-preview'
  const PR = 'https://github.com/acme/docs/pull/71'
  const BRANCH = 'mintlify/docs-update-71'
  const URL = 'https://proj-preview-mintlify-docs-update-71.mintlify.app'
  const step = useStep({
    key: KEY,
    project: PROJECT,
    prompt: 'Document release v1.2.3',
    inputs: { preview: 'true' },
    scenario: { runMs: 30_000, prLink: PR }
  })
  const virtual = step.virtual
  let github: GitHubApiFake
  const fake = useFakeGitHub(
    step.clock,
    {
      fresh: 'reset',
      each: (gh) => gh.addPull('acme/docs', { number: 71, title: 'Docs', head: BRANCH, base: 'main', files: [] })
    },
    (started) => (github = started)
  )
  const run = (extra: Record<string, string> = {}) => step.run(extra, { env: fake.env() })
  const previewRequests = () => step.requests('preview')

  it("asks for the docs PR's head branch and gives its URL: output, summary, log", async () => {
    const result = await run()
    expect(result.code).toBe(0)
    expect(result.outputs['preview-url']).toBe(URL)
    expect(result.outputs.status).toBe('completed')
    expect(github.requests.map((r) => `${r.method} ${r.rawPath}`)).toEqual(['GET /repos/acme/docs/pulls/71'])
    expect(previewRequests().map((r) => JSON.parse(r.body) as unknown)).toEqual([{ branch: BRANCH }])
    expect(previewRequests()[0]?.rawPath).toBe(`/v1/project/preview/${PROJECT}`)
    expect(result.summary).toContain(`<tr><th align="left">Preview</th><td><a href="${URL}/">${URL}/</a></td></tr>`)
    // The Branch row names the branch the preview is of, not the job's.
    expect(result.summary).toContain(`<tr><th align="left">Branch</th><td><code>${BRANCH}</code></td></tr>`)
    expect(result.at('info')).toContainEqual(`Asking Mintlify for the preview of branch ${BRANCH}`)
    expect(result.at('info')).toContainEqual(`Preview: ${URL}`)
    expect(result.at('warning')).toEqual([])
  })

  it('asks for nothing without preview: true, nor when the job ends without a PR', async () => {
    const off = await run({ preview: 'false' })
    expect(off.outputs['preview-url']).toBe('')
    expect(previewRequests()).toHaveLength(0)
    expect(off.summary).not.toContain('Preview')
    expect(github.requests).toHaveLength(0)
    virtual().sim.setScenario({ prLink: null, pr: false })
    const none = await run()
    expect(none.code).toBe(0)
    expect(none.outputs['preview-url']).toBe('')
    expect(previewRequests()).toHaveLength(0)
    expect(github.requests).toHaveLength(0)
  })

  it.each([
    [
      { plan: 'hobby' as const },
      /^No preview: Mintlify answered 403; preview deployments need a Pro or Enterprise plan\./
    ],
    [
      { outcome: 'failure' as const },
      /^The preview of mintlify\/docs-update-71 failed to build: Build failed: mint\.json is not valid/
    ],
    [
      { outcome: 'stuck' as const },
      /^The preview of mintlify\/docs-update-71 was not ready after 10m .*it may still appear at https:\/\/proj-preview/
    ],
    [{ perMinute: 0 }, /^No preview: Mintlify's limit of 5 preview requests a minute per organization/]
  ])('%j: one warning, preview-url empty, the result unchanged', async (previews, warning) => {
    virtual().sim.setPreviews(previews)
    const result = await run({ timeout: '1h' })
    expect(result.code).toBe(0)
    expect(result.outputs.status).toBe('completed')
    expect(result.outputs['preview-url']).toBe('')
    expect(result.at('warning')).toEqual([expect.stringMatching(warning)])
    expect(result.at('warning')[0]).toContain("The step's result does not change; preview-url is empty.")
    expect(result.at('error')).toEqual([])
    expect(result.summary).toContain('<tr><th align="left">Preview</th><td>')
  })

  it('a 429 is waited once (Retry-After), then the preview comes', async () => {
    virtual().sim.fail('preview', { kind: 'status', status: 429, headers: { 'retry-after': '20' } })
    const result = await run()
    expect(result.outputs['preview-url']).toBe(URL)
    const [first, second] = previewRequests()
    expect((second?.time ?? 0) - (first?.time ?? 0)).toBe(20_000)
  })

  it("the PR cannot be read: the job's branch when it is not the default, else a warning", async () => {
    github.fail('pull', { kind: 'status', status: 403, message: 'Resource not accessible by integration' })
    virtual().sim.setScenario({ record: { source: { repository: 'https://github.com/acme/docs', ref: BRANCH } } })
    const fallback = await run()
    expect(fallback.outputs['preview-url']).toBe(URL)
    expect(fallback.at('info')).toContainEqual(
      expect.stringMatching(
        /^Preview: could not read acme\/docs#71 \(Resource not accessible.*; asking for the job's branch mintlify\/docs-update-71 instead\.$/
      )
    )
    virtual().sim.setScenario({ record: undefined })
    const noToken = await run({ 'github-token': '' })
    expect(noToken.code).toBe(0)
    expect(noToken.outputs['preview-url']).toBe('')
    expect(noToken.at('warning')).toContainEqual(
      "No preview: docs-token and github-token are empty, and the job names no branch but the default one. The step's result does not change; preview-url is empty."
    )
  })

  it('preview: true with wait: false is an input error naming both, before any request', async () => {
    const result = await run({ wait: 'false' })
    expect(result.code).toBe(1)
    expect(result.at('error').join('\n')).toMatch(/preview.*wait: true/)
    expect(virtual().sim.requests).toHaveLength(0)
  })

  it('the link-back comment links the preview once built, and says nothing of one that is not', () => {
    const done = runStateAt(0)({ outcome: 'completed' }, { status: 'completed', prLink: PR })
    const lines = (preview: RunState['preview']) =>
      renderLinkBack(
        { state: { ...done, preview }, settings: settings({ preview: 'true' }) },
        { serverUrl: undefined, runUrl: undefined }
      )
    expect(lines({ url: URL, problem: undefined })).toContain(`Preview: [${URL}](${URL}/)`)
    expect(lines({ url: undefined, problem: 'No preview: 403' }).join('\n')).not.toContain('Preview')
    expect(lines(undefined).join('\n')).not.toContain('Preview')
  })
})
