// What `release-tags` costs before the create: twelve packages released together, read from the
// GitHub API fake with a real latency per answer, the step run in-process on a virtual clock against
// the Agent API simulator. GitHub reads are real I/O, so this is real wall time.
import { performance } from 'node:perf_hooks'
import { GITHUB_TOKEN, runInProcess } from '../scripts/in-process.js'
import { GitHubApiFake } from '../simulator/github/index.js'
import { AgentApiSimulator } from '../simulator/agent-api.js'
import { VirtualClock } from '../simulator/virtual-clock.js'
import { median } from './stats.js'

export const RELEASE_SET_LATENCY_MS = 100
export const RELEASE_SET_PACKAGES = 12
const REPO = 'acme/monorepo'
const PROMPT = 'Document what these packages changed.'
/** Commits of each round. */
const COMMITS = 20

export interface ReleaseSetTimes {
  runs: number
  /** Step start → create received, per run, with release-tags and with context: none. */
  setMs: number[]
  noneMs: number[]
  requests: number
  /** Characters of each package's part of the context, in the order given. */
  packageChars: number[]
  contextChars: number
}

function seed(github: GitHubApiFake): string[] {
  const commit = (message: string, filename: string): string =>
    github.addCommits(REPO, [
      {
        message,
        files: [
          {
            filename,
            status: 'modified',
            additions: 20,
            deletions: 4,
            patch: `@@ -1,4 +1,20 @@\n${'+line\n'.repeat(20)}`
          }
        ]
      }
    ])[0] ?? ''
  const names = Array.from({ length: RELEASE_SET_PACKAGES }, (_, p) => `@acme/pkg-${p}`)
  // Package p's previous release is tagged before the last 12 − p rounds of commits: ranges of
  // 240 commits (pkg-0) down to 20 (pkg-11), so the parts show the sharing by size of change.
  names.forEach((name, p) => {
    github.addTag(REPO, { name: `${name}@1.0.0`, at: commit(`${name}: 1.0.0`, 'README.md') })
    for (let c = 0; c < COMMITS; c++) commit(`${name}: change ${c}`, `packages/pkg-${p}/src/file-${c}.ts`)
  })
  const head = commit('Version Packages', 'README.md')
  for (const name of names) {
    github.addTag(REPO, { name: `${name}@1.1.0`, at: head })
    github.addRelease(REPO, { tag_name: `${name}@1.1.0`, body: `### Minor changes\n\n- ${name}: a new option.` })
  }
  return names
}

export async function measureReleaseSet(options: { runs: number }): Promise<ReleaseSetTimes> {
  const github = await GitHubApiFake.start({ token: GITHUB_TOKEN, latencyMs: RELEASE_SET_LATENCY_MS })
  const clock = new VirtualClock({ seed: 11 })
  const sim = await AgentApiSimulator.start({ clock, rateLimit: 10_000 })
  try {
    const names = seed(github)
    const published = JSON.stringify(names.map((name) => ({ name, version: '1.1.0' })))
    const env = {
      GITHUB_EVENT_NAME: 'push',
      GITHUB_REF: 'refs/heads/main',
      GITHUB_REPOSITORY: REPO,
      GITHUB_API_URL: github.url
    }
    const run = async (context: 'auto' | 'none') => {
      const firstGitHub = github.requests.length
      const firstSim = sim.requests.length
      const startedAt = performance.now()
      const step = await runInProcess(
        {
          'api-key': 'mint_bench_key',
          'project-id': 'proj_bench',
          'base-url': sim.url,
          prompt: PROMPT,
          wait: 'false',
          context,
          'release-tags': published
        },
        { clock, env }
      )
      const create = sim.requests.slice(firstSim).find((r) => r.operation === 'create')
      if (step.code !== 0 || !create) throw new Error(`the step (context: ${context}) failed:\n${step.everything()}`)
      const reads = github.requests.slice(firstGitHub)
      if (reads.some((r) => r.answeredStatus !== 200))
        throw new Error(`a GitHub read failed: ${step.at('warning').join('\n')}`)
      const prompt = (JSON.parse(create.body) as { prompt: string }).prompt
      const context_ = prompt.slice(PROMPT.length + 2)
      return {
        ms: create.at - startedAt,
        requests: reads.length,
        contextChars: context_.length,
        packageChars: context_
          .split('\n\n### ')
          .slice(1)
          .map((part) => part.length + 6)
      }
    }
    await run('auto') // loads @actions/github
    const result: ReleaseSetTimes = {
      runs: options.runs,
      setMs: [],
      noneMs: [],
      requests: 0,
      packageChars: [],
      contextChars: 0
    }
    for (let i = 0; i < options.runs; i++) {
      const set = await run('auto')
      result.setMs.push(set.ms)
      result.requests = set.requests
      result.packageChars = set.packageChars
      result.contextChars = set.contextChars
      result.noneMs.push((await run('none')).ms)
    }
    return result
  } finally {
    await sim.close()
    await github.close()
  }
}

export function releaseSetSummary(times: ReleaseSetTimes): string {
  const ms = (values: number[]) => `median ${median(values).toFixed(0)} ms, max ${Math.max(...values).toFixed(0)} ms`
  const added = times.setMs.map((value, i) => value - (times.noneMs[i] ?? 0))
  return [
    `Release set of ${RELEASE_SET_PACKAGES} packages (changesets JSON), GitHub latency ${RELEASE_SET_LATENCY_MS} ms, ${times.runs} runs:`,
    `- step start → create: ${ms(times.setMs)}; context: none ${ms(times.noneMs)}; added ${ms(added)}`,
    `- GitHub requests: ${times.requests}`,
    `- context: ${times.contextChars.toLocaleString('en-US')} characters; per package (largest change first): ${times.packageChars.map((c) => c.toLocaleString('en-US')).join(', ')}`
  ].join('\n')
}
