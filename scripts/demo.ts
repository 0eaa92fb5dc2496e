/**
 * `npm run demo`: the built action as a release workflow runs it, on the push of tag v1.4.0 of a
 * made-up repository. The Agent API simulator and the GitHub fake run on loopback; the fake holds
 * the repository's short history (v1.3.0, four changes, v1.4.0 and its release notes), so the
 * action reads the release context from it as it would from GitHub. Then it shows the prompt the
 * agent received, the pull request, the outputs and the job summary (as text, and rendered as GitHub
 * shows it in build/demo-summary.html). It shows; it checks nothing but the exit code, so a change
 * in the wording of the context does not break it. With `--red-check`, only the docs checks' demo
 * (demo-red-check.ts): a red Vale check on the docs pull request, the follow-up, and the green head.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { AgentApiSimulator } from '../simulator/agent-api.js'
import { linkDocsRepository } from '../simulator/docs-repository.js'
import { GitHubApiFake } from '../simulator/github/index.js'
import { groupDemo } from './demo-group.js'
import { redCheckDemo } from './demo-red-check.js'
import { ROOT } from './action-metadata.js'
import { githubPage, renderLikeGitHub } from './github-render.js'
import { FAKE_GITHUB_TOKEN, runAction } from './run-action.js'
import { summaryAsText } from './summary-text.js'

const REPO = 'acme/widgets'
const TAG = 'v1.4.0'
const RUN_MS = 5000

/** The made-up history, through the fake's public API only (how it serves tags and diffs may change). */
function seedHistory(github: GitHubApiFake): void {
  const [previous, , , , , released] = github.addCommits(REPO, [
    { message: 'Release 1.3.0' },
    { message: 'Add the `widgets export` command (#41)', author: { login: 'alice' } },
    { message: 'sync: --dry-run shows what would change (#42)', author: { login: 'bob' } },
    { message: 'Fix YAML anchors in widgets.yml (#43)', author: null },
    { message: 'Bump undici from 6.21.0 to 6.22.0 (#44)', author: { login: 'dependabot[bot]' } },
    { message: 'Release 1.4.0' }
  ])
  github.addTag(REPO, { name: 'v1.3.0', at: previous ?? '', annotated: { message: 'v1.3.0' } })
  github.addTag(REPO, { name: TAG, at: released ?? '', annotated: { message: TAG } })
  github.addRelease(REPO, {
    tag_name: TAG,
    name: 'Widgets 1.4.0',
    body: [
      '## Highlights',
      '- `widgets export` writes every widget to JSON or YAML.',
      '- `widgets sync --dry-run` lists the changes without making them.',
      '',
      '## Fixes',
      '- YAML anchors in `widgets.yml` are resolved.'
    ].join('\n')
  })
}

function heading(title: string): void {
  console.log(`\n--- ${title} ---`)
}

if (process.argv.includes('--red-check')) {
  process.exitCode = await redCheckDemo()
  process.exit()
}

const sim = await AgentApiSimulator.start({
  scenario: { runMs: RUN_MS, finalStatus: 'completed', pr: true },
  // A preview that builds in a few seconds (Mintlify's take a minute or so).
  previews: { queuedMs: 1000, buildMs: 3000 }
})
const github = await GitHubApiFake.start({ token: FAKE_GITHUB_TOKEN })
try {
  seedHistory(github)
  // Each job's docs pull request exists in the fake, with its head branch (the preview's branch).
  linkDocsRepository(sim, github)
  console.log(`Agent API simulator at ${sim.url} (the job takes ${String(RUN_MS / 1000)} s and opens a pull request)`)
  console.log(`GitHub fake at ${github.url}: ${REPO}, with tags v1.3.0 and ${TAG} and the release notes of ${TAG}`)
  console.log(`The workflow runs on the push of tag ${TAG}, with this step:`)
  console.log(`  - uses: docs-agent/docs-agent-action@<a commit of main> # @v1 once released (README, Versions)
    with:
      prompt: Update the docs for this release.
      project-id: demo-project
      api-key: \${{ secrets.MINTLIFY_API_KEY }}
      preview: true`)

  heading('action log')
  const run = await runAction(
    {
      'api-key': 'mint_demo_key_not_a_secret',
      'project-id': 'demo-project',
      'base-url': sim.url,
      prompt: 'Update the docs for this release.',
      preview: 'true'
    },
    {
      echo: true,
      // What the runner sets on a tag push (the payload adds nothing the action reads for a tag).
      env: {
        GITHUB_EVENT_NAME: 'push',
        GITHUB_REF: `refs/tags/${TAG}`,
        GITHUB_REF_TYPE: 'tag',
        GITHUB_REF_NAME: TAG,
        GITHUB_REPOSITORY: REPO,
        GITHUB_SERVER_URL: 'https://github.com',
        GITHUB_API_URL: github.url
      }
    }
  )

  heading('the prompt the agent received')
  console.log(sim.jobs('demo-project').at(-1)?.prompts[0] ?? '(no job was created)')

  heading('the docs pull request')
  console.log(run.outputs['pr-link'] || '(none)')

  heading("the docs pull request's preview")
  console.log(run.outputs['preview-url'] || '(none)')

  heading('outputs (GITHUB_OUTPUT)')
  for (const [name, value] of Object.entries(run.outputs)) {
    // The prompt is shown above; the job record repeats the outputs before it.
    const shown = name === 'prompt' || name === 'job' ? `(${String(value.length)} characters)` : value
    console.log(`${name}: ${shown}`)
  }

  const page = join(ROOT, 'build', 'demo-summary.html')
  mkdirSync(join(ROOT, 'build'), { recursive: true })
  writeFileSync(page, githubPage('Job summary of the demo', renderLikeGitHub(run.summary).html))
  heading(`job summary (GITHUB_STEP_SUMMARY), as text; rendered as GitHub shows it in ${relative(ROOT, page)}`)
  console.log(summaryAsText(run.summary).trimEnd())

  heading('requests')
  for (const request of github.requests)
    console.log(`GitHub     ${request.method} ${request.rawPath} -> ${String(request.answeredStatus ?? '-')}`)
  for (const request of sim.requests)
    console.log(`Agent API  ${request.method} ${request.rawPath} -> ${String(request.answeredStatus ?? '-')}`)

  console.log(`\nThe action exited with code ${String(run.code)}.`)
  process.exitCode = run.code ?? 1
  const grouped = await groupDemo()
  console.log(`\nThe grouped runs exited with code ${String(grouped)}.`)
  process.exitCode ||= grouped
} finally {
  await Promise.all([sim.close(), github.close()])
}
