/**
 * `npm run demo -- --red-check`: a merged pull request's docs job whose docs pull request comes back
 * with a red Vale check ("Use 'administrator' instead of 'admin'"); with `docs-checks: fix` the step
 * sends the job one follow-up with the failure, the agent pushes a fix to the same branch, and the
 * new head's checks are green. Shows the log, the follow-up, the summary and the GitHub requests
 * the checks took. It shows; it checks nothing but the exit code.
 */
import { AgentApiSimulator } from '../simulator/agent-api.js'
import { linkDocsRepository } from '../simulator/docs-repository.js'
import { GitHubApiFake } from '../simulator/github/index.js'
import { mergedPullRequestRun } from './merged-pull-request.js'
import { FAKE_GITHUB_TOKEN, runAction } from './run-action.js'
import { summaryAsText } from './summary-text.js'

const REPO = 'acme/widgets'
const RUN_MS = 3000
const ADMIN = "Use 'administrator' instead of 'admin'"
const CHECK_ROUTES = ['pull', 'check-runs', 'check-suites', 'commit-status', 'check-annotations']

export async function redCheckDemo(): Promise<number> {
  const sim = await AgentApiSimulator.start({ scenario: { runMs: RUN_MS, finalStatus: 'completed', pr: true } })
  const github = await GitHubApiFake.start({ token: FAKE_GITHUB_TOKEN })
  try {
    // The docs repository's CI: Mintlify's validation runs two seconds on each head; red on the first.
    linkDocsRepository(sim, github, (gh, head) => {
      const id = gh.addCheckRun(head.repo, { name: 'Mintlify Validation', head_sha: head.sha, status: 'in_progress' })
      gh.at(gh.time.now() + 2000, () => {
        const red = head.round === 0
        gh.updateCheckRun(head.repo, id, {
          conclusion: red ? 'failure' : 'success',
          output: red
            ? { title: 'Vale: 1 error', summary: '1 error in 1 file' }
            : { title: 'Vale: no errors', summary: 'ok' }
        })
        if (red) gh.annotateCheckRun(id, [{ path: 'docs/settings/roles.mdx', start_line: 14, message: ADMIN }])
      })
    })
    github.addPull(REPO, { number: 61, title: 'Add roles', head: 'roles', base: 'main', files: [], merged: true })
    github.setPermission(REPO, 'alice', 'write')
    console.log('\n=== The docs pull request arrives green: docs-checks: fix ===')
    const event = mergedPullRequestRun({ repo: REPO, number: 61, head: 'roles', actor: 'alice', runId: '8200' })
    const run = await runAction(
      {
        'api-key': 'mint_demo_key_not_a_secret',
        'project-id': 'demo-project',
        'base-url': sim.url,
        prompt: 'Document this change.',
        'docs-checks': 'fix'
      },
      {
        echo: true,
        env: { ...event.env, GITHUB_SERVER_URL: 'https://github.com', GITHUB_API_URL: github.url },
        files: event.files
      }
    )
    console.log('\n--- the follow-up the agent received ---')
    console.log(sim.jobs('demo-project')[0]?.prompts[1] ?? '(none)')
    console.log('\n--- job summary, as text ---')
    console.log(summaryAsText(run.summary).trimEnd())
    const reads = github.requests.filter((r) => r.repo === 'acme/docs' && CHECK_ROUTES.includes(r.route))
    console.log(`\ndocs-checks: ${run.outputs['docs-checks'] ?? ''}  fix-rounds: ${run.outputs['fix-rounds'] ?? ''}`)
    console.log(`GitHub requests for the docs PR's checks: ${String(reads.length)}`)
    return run.code ?? 1
  } finally {
    await Promise.all([sim.close(), github.close()])
  }
}
