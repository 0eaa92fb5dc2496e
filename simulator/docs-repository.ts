// Ties the Agent API simulator to the fake GitHub: each job the simulator creates has its docs pull
// request in the fake's docs repository (open, on a branch of its own), as the agent opens one.
import type { AgentApiSimulator } from './agent-api.js'
import type { GitHubApiFake } from './github.js'

/** From now on, each job `sim` creates gets pull request #prNumber in `gh`'s docs repository. */
export function linkDocsRepository(sim: AgentApiSimulator, gh: GitHubApiFake): void {
  sim.onJobCreated = (job) =>
    gh.addPull(job.repository, {
      number: job.prNumber,
      title: `Docs: ${job.id}`,
      head: `mintlify/${job.id}`,
      base: 'main',
      files: [],
      user: { login: 'mintlify[bot]', type: 'Bot' }
    })
}
