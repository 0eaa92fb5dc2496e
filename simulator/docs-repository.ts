// Ties the Agent API simulator to the fake GitHub: each job the simulator creates has its docs pull
// request in the fake's docs repository (open, on a branch of its own), as the agent opens one.
// With a CI, the docs repository's checks run on each head the pull request gets: its first, and
// the new commit the agent pushes for each follow-up (`round` 1, 2…).
import type { AgentApiSimulator } from './agent-api.js'
import type { GitHubApiFake } from './github/index.js'

/** What the docs repository's CI does on a head of a job's pull request: checks and statuses made on `sha`. */
export type DocsCi = (gh: GitHubApiFake, head: { repo: string; sha: string; round: number }) => void

/** From now on, each job `sim` creates gets pull request #prNumber in `gh`'s docs repository. */
export function linkDocsRepository(sim: AgentApiSimulator, gh: GitHubApiFake, ci?: DocsCi): void {
  const rounds = new Map<string, number>()
  sim.onJobCreated = (job) => {
    gh.addPull(job.repository, {
      number: job.prNumber,
      title: `Docs: ${job.id}`,
      head: `mintlify/${job.id}`,
      base: 'main',
      files: [],
      user: { login: 'mintlify[bot]', type: 'Bot' }
    })
    rounds.set(job.id, 0)
    ci?.(gh, { repo: job.repository, sha: gh.pullHead(job.repository, job.prNumber) ?? '', round: 0 })
  }
  // The agent goes on on the same branch: a follow-up is a new commit on the pull request (with a
  // CI only, so that scenarios without one keep their heads).
  sim.onJobMessaged = (job) => {
    if (!ci || gh.pullHead(job.repository, job.prNumber) === undefined) return
    const round = (rounds.get(job.id) ?? 0) + 1
    rounds.set(job.id, round)
    ci(gh, { repo: job.repository, sha: gh.pushToPull(job.repository, job.prNumber), round })
  }
}
