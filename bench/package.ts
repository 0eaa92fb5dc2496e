// What finding a package's own commits costs: a package tag of a monorepo of 5,000 files, read from
// the GitHub API fake with a real latency per answer, against the same range tagged as a single
// package (`v1.1.0`, which reads no tree, manifest or commit page). The step runs in-process on a
// virtual clock against the Agent API simulator; GitHub reads are real I/O, so this is real wall time.
import { performance } from 'node:perf_hooks'
import { GITHUB_TOKEN, runInProcess } from '../scripts/in-process.js'
import { GitHubApiFake } from '../simulator/github/index.js'
import { AgentApiSimulator } from '../simulator/agent-api.js'
import { VirtualClock } from '../simulator/virtual-clock.js'
import { median } from './stats.js'

export const PACKAGE_LATENCY_MS = 100
export const PACKAGE_FILES = 5_000
const PACKAGES = 50
const REPO = 'acme/monorepo'
const PROMPT = 'Document this release.'
/** The range: 200 commits, one in ten to the package released. */
const RANGE = 200

export interface PackageTimes {
  runs: number
  /** Step start → create received, per run: the package tag, and the same range as a single package's tag. */
  packageMs: number[]
  singleMs: number[]
  /** Requests of the package tag, by route, and of the single package's. */
  routes: Record<string, number>
  singleRequests: number
  /** The package's commits listed first, of those it has. */
  ownListed: number
  own: number
}

function seed(github: GitHubApiFake): void {
  const files: Record<string, string> = {}
  for (let p = 0; p < PACKAGES; p++) {
    files[`packages/pkg-${p}/package.json`] = JSON.stringify({ name: `@acme/pkg-${p}` })
    for (let f = 1; f < PACKAGE_FILES / PACKAGES; f++)
      files[`packages/pkg-${p}/src/file-${f}.ts`] = `export const f = ${f}\n`
  }
  const [init] = github.addCommits(REPO, [{ message: 'Import', contents: files }])
  github.addTag(REPO, { name: '@acme/pkg-7@1.0.0', at: init ?? '' })
  github.addTag(REPO, { name: 'v1.0.0', at: init ?? '' })
  for (let c = 0; c < RANGE; c++) {
    const p = c % 10 === 0 ? 7 : (c % PACKAGES) + (c % PACKAGES === 7 ? 1 : 0)
    const filename = `packages/pkg-${p}/src/file-${(c % 90) + 1}.ts`
    github.addCommits(REPO, [
      {
        message: `pkg-${p}: change ${c}`,
        files: [{ filename, status: 'modified', additions: 3, deletions: 1, patch: `@@ -1 +1,3 @@\n+change ${c}` }]
      }
    ])
  }
  const [head] = github.addCommits(REPO, [{ message: 'Version Packages', contents: { 'CHANGELOG.md': 'x' } }])
  github.addTag(REPO, { name: '@acme/pkg-7@1.1.0', at: head ?? '' })
  github.addTag(REPO, { name: 'v1.1.0', at: head ?? '' })
  for (const tag of ['@acme/pkg-7@1.1.0', 'v1.1.0']) github.addRelease(REPO, { tag_name: tag, body: '- A new option.' })
}

export async function measurePackageTag(options: { runs: number }): Promise<PackageTimes> {
  const github = await GitHubApiFake.start({ token: GITHUB_TOKEN, latencyMs: PACKAGE_LATENCY_MS })
  const clock = new VirtualClock({ seed: 13 })
  const sim = await AgentApiSimulator.start({ clock, rateLimit: 10_000 })
  try {
    seed(github)
    const run = async (tag: string) => {
      const firstGitHub = github.requests.length
      const firstSim = sim.requests.length
      const startedAt = performance.now()
      const step = await runInProcess(
        { 'api-key': 'mint_bench_key', 'project-id': 'proj_bench', 'base-url': sim.url, prompt: PROMPT, wait: 'false' },
        {
          clock,
          env: {
            GITHUB_EVENT_NAME: 'push',
            GITHUB_REF: `refs/tags/${tag}`,
            GITHUB_REF_TYPE: 'tag',
            GITHUB_REF_NAME: tag,
            GITHUB_REPOSITORY: REPO,
            GITHUB_API_URL: github.url
          }
        }
      )
      const create = sim.requests.slice(firstSim).find((r) => r.operation === 'create')
      if (step.code !== 0 || !create) throw new Error(`the step (${tag}) failed:\n${step.everything()}`)
      const reads = github.requests.slice(firstGitHub)
      if (reads.some((r) => r.answeredStatus !== 200))
        throw new Error(`a GitHub read failed: ${step.at('warning').join('\n')}`)
      const prompt = (JSON.parse(create.body) as { prompt: string }).prompt
      const own = prompt.split('\n### ').find((part) => part.startsWith('Changes to packages/pkg-7'))
      return {
        ms: create.at - startedAt,
        reads,
        ownListed: own ? own.split('\n').filter((line) => line.startsWith('- pkg-7:')).length : 0
      }
    }
    await run('v1.1.0') // loads @actions/github
    const result: PackageTimes = {
      runs: options.runs,
      packageMs: [],
      singleMs: [],
      routes: {},
      singleRequests: 0,
      ownListed: 0,
      own: RANGE / 10
    }
    for (let i = 0; i < options.runs; i++) {
      const pkg = await run('@acme/pkg-7@1.1.0')
      result.packageMs.push(pkg.ms)
      result.routes = {}
      for (const read of pkg.reads) result.routes[read.route] = (result.routes[read.route] ?? 0) + 1
      result.ownListed = pkg.ownListed
      const single = await run('v1.1.0')
      result.singleMs.push(single.ms)
      result.singleRequests = single.reads.length
    }
    return result
  } finally {
    await sim.close()
    await github.close()
  }
}

export function packageSummary(times: PackageTimes): string {
  const ms = (values: number[]) => `median ${median(values).toFixed(0)} ms, max ${Math.max(...values).toFixed(0)} ms`
  const added = times.packageMs.map((value, i) => value - (times.singleMs[i] ?? 0))
  const total = Object.values(times.routes).reduce((sum, n) => sum + n, 0)
  const routes = Object.entries(times.routes)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([route, n]) => `${route} ${n}`)
    .join(', ')
  return [
    `Package tag in a monorepo of ${PACKAGE_FILES.toLocaleString('en-US')} files, GitHub latency ${PACKAGE_LATENCY_MS} ms, ${times.runs} runs:`,
    `- step start → create: ${ms(times.packageMs)}; the same range as a single package's tag ${ms(times.singleMs)}; added ${ms(added)}`,
    `- GitHub requests: ${total} (${routes}), against ${times.singleRequests}`,
    `- the package's own commits listed first: ${times.ownListed} of ${times.own}`
  ].join('\n')
}
