// A path rule with GitHub's semantics in a run, in-process through `main` against the Agent API
// simulator and the fake GitHub on a virtual clock: `**` inside a segment crosses `/` (GitHub's
// filter pattern cheat sheet), so the release is documented. The patterns' table: skip-patterns.test.ts.
import { describe, expect, it } from '@jest/globals'
import type { GitHubApiFake } from '../../simulator/github/index.js'
import { useFakeGitHub } from '../fixtures/github.js'
import { useStep } from '../fixtures/step.js'

describe('a release judged by the path rule', () => {
  const APP = 'acme/app'
  const step = useStep({ key: 'mint_paths_key_0123456789', project: 'proj-paths', prompt: 'Document this change.' })
  let github: GitHubApiFake
  const fake = useFakeGitHub(step.clock, { repo: APP, fresh: 'requests', seed }, (started) => (github = started))

  function seed(): void {
    const commit = (message: string, filename: string): string =>
      github.addCommits(APP, [{ message, files: [{ filename, status: 'modified', additions: 1, deletions: 1 }] }])[0] ??
      ''
    github.addTag(APP, { name: 'v1.0.0', at: commit('Initial', 'src/index.ts') })
    github.addTag(APP, { name: 'v1.1.0', at: commit('feat: the parser', 'src/lib/a.ts') })
  }

  it('paths: src/**.ts documents a release that changed only src/lib/a.ts', async () => {
    const result = await step.run(
      { paths: 'src/**.ts', 'link-back': 'none' },
      {
        env: fake.env({
          GITHUB_EVENT_NAME: 'push',
          GITHUB_REPOSITORY: APP,
          GITHUB_REF: 'refs/tags/v1.1.0',
          GITHUB_REF_NAME: 'v1.1.0',
          GITHUB_REF_TYPE: 'tag',
          GITHUB_EVENT_PATH: '/event.json'
        }),
        files: { '/event.json': '{}' }
      }
    )
    expect([result.code, result.outputs.skipped, result.outputs['skip-reason']]).toEqual([0, 'false', ''])
    expect(step.requests('create')).toHaveLength(1)
    expect(result.at('info')).toContain(
      'Skip rules: not skipped: paths matches 1 of the 1 changed file of v1.0.0...v1.1.0: src/lib/a.ts.'
    )
  })
})
