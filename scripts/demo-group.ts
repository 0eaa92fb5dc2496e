/**
 * The second half of `npm run demo`: two merged pull requests of a made-up repository, each run on
 * its own ref with `group: merged-prs`, share one docs pull request. The second run adds to the
 * first's with a follow-up; the comment on the docs pull request lists both. Shows the requests of
 * each run per path. It shows; it checks nothing but the exit codes.
 */
import { AgentApiSimulator } from '../simulator/agent-api.js'
import { linkDocsRepository } from '../simulator/docs-repository.js'
import { GitHubApiFake } from '../simulator/github/index.js'
import { mergedPullRequestRun } from './merged-pull-request.js'
import { FAKE_GITHUB_TOKEN, runAction } from './run-action.js'

const REPO = 'acme/widgets'
const DOCS = 'acme/docs'
const RUN_MS = 3000

/** Requests per method and path (numbers and ids folded), as `count  METHOD path`. */
function perPath(requests: readonly { method: string; rawPath: string }[]): string[] {
  const counts = new Map<string, number>()
  for (const { method, rawPath } of requests) {
    const path = rawPath
      .split('?', 1)[0]
      ?.replace(/\/job_[0-9a-f]+/, '/{id}')
      .replace(/\/\d+(?=\/|$)/g, '/{n}')
    const key = `${method} ${path ?? ''}`
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  return [...counts].map(([key, n]) => `${String(n).padStart(3)}  ${key}`)
}

export async function groupDemo(): Promise<number> {
  const sim = await AgentApiSimulator.start({ scenario: { runMs: RUN_MS, finalStatus: 'completed', pr: true } })
  const github = await GitHubApiFake.start({ token: FAKE_GITHUB_TOKEN })
  try {
    linkDocsRepository(sim, github)
    github.addRepo(DOCS)
    for (const [number, title] of [
      [51, 'Add `widgets import`'],
      [52, 'Rename --out to --output']
    ] as const) {
      github.addPull(REPO, { number, title, head: `feature-${number}`, base: 'main', files: [], merged: true })
    }
    github.setPermission(REPO, 'alice', 'write')
    console.log(`\n=== One docs pull request for many changes: group merged-prs, docs-repository ${DOCS} ===`)
    console.log(`  on: pull_request: types: [closed]
  concurrency: { group: docs-merged-prs, cancel-in-progress: false }
  - uses: docs-agent/docs-agent-action@v1
    with:
      prompt: Document this change.
      group: merged-prs
      docs-repository: ${DOCS}`)
    let code = 0
    for (const [index, number] of [51, 52].entries()) {
      const before = { github: github.requests.length, agent: sim.requests.length }
      const event = mergedPullRequestRun({
        repo: REPO,
        number,
        head: `feature-${number}`,
        actor: 'alice',
        runId: String(8100 + index)
      })
      const run = await runAction(
        {
          'api-key': 'mint_demo_key_not_a_secret',
          'project-id': 'demo-project',
          'base-url': sim.url,
          prompt: 'Document this change.',
          group: 'merged-prs',
          'docs-repository': DOCS
        },
        {
          env: { ...event.env, GITHUB_SERVER_URL: 'https://github.com', GITHUB_API_URL: github.url },
          files: event.files
        }
      )
      code ||= run.code ?? 1
      const group = run.stdout.split('\n').filter((line) => line.startsWith('Group '))
      console.log(`\n--- run ${index + 1}: pull request #${number} merged, on refs/pull/${number}/merge ---`)
      for (const line of group) console.log(line)
      console.log(
        `job-id: ${run.outputs['job-id'] ?? ''}  grouped: ${run.outputs.grouped ?? ''}  pr-link: ${run.outputs['pr-link'] ?? ''}`
      )
      console.log('GitHub requests per path:')
      for (const line of perPath(github.requests.slice(before.github))) console.log(line)
      console.log('Agent API requests per path:')
      for (const line of perPath(sim.requests.slice(before.agent))) console.log(line)
    }
    const docsPr = sim.jobs('demo-project')[0]?.job.prLink?.split('/').pop()
    console.log(`\n--- the action's one comment on ${DOCS}#${docsPr ?? '?'} ---`)
    console.log(github.commentsOf(DOCS, Number(docsPr))[0]?.body.replace(/\n<!--[\s\S]*$/, '') ?? '(none)')
    return code
  } finally {
    await Promise.all([sim.close(), github.close()])
  }
}
