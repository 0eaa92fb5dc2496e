// What `context: auto` costs before the create: the step run in-process (scripts/in-process.ts) on
// a virtual clock against the Agent API simulator, reading a tag's context from the GitHub API fake
// with a real latency per answer. GitHub reads are real I/O, so this is real wall time.
import { performance } from 'node:perf_hooks'
import { GITHUB_TOKEN, runInProcess } from '../scripts/in-process.js'
import { GitHubApiFake, type CommitSeed, type RecordedRequest } from '../simulator/github.js'
import { AgentApiSimulator } from '../simulator/agent-api.js'
import { VirtualClock } from '../simulator/virtual-clock.js'

export const CONTEXT_LATENCY_MS = 100
const REPO = 'acme/widgets'
const TAG = 'v1.3.0'
const PROMPT = 'Document the changes of this release.'

export interface ContextTimes {
  runs: number
  latencyMs: number
  /** Step start → create received by the simulator, per run. */
  autoMs: number[]
  noneMs: number[]
  /** Of the `context: auto` runs: step start → the first GitHub request, and → the last round's first. */
  firstReadMs: number[]
  lastRoundMs: number[]
  /** The first `context: auto` run of the bench's process, which also loads @actions/github. */
  firstAutoMs: number
  /** GitHub requests of one `context: auto` run, and their routes (simulator/github.ts) round by round. */
  requests: number
  rounds: string[][]
  /** Characters the context added to the prompt. */
  contextChars: number
  /** The step's own log line about the context. */
  logLine: string
}

/** A release as a project of some age has one: 30 earlier version tags, 120 commits since the last. */
function seedRelease(github: GitHubApiFake): void {
  const earlier = [
    ...Array.from({ length: 10 }, (_, i) => `v0.${i + 1}.0`),
    ...Array.from({ length: 10 }, (_, i) => `v1.0.${i}`),
    ...Array.from({ length: 6 }, (_, i) => `v1.1.${i}`),
    ...Array.from({ length: 4 }, (_, i) => `v1.2.${i}`)
  ]
  let pr = 100
  const commit = (i: number): CommitSeed => {
    pr++
    if (i % 12 === 11) return { message: `Merge pull request #${pr} from acme/topic-${pr}\n\nTopic ${pr}`, parents: 2 }
    if (i % 9 === 8) {
      return { message: `build(deps): bump undici from 6.${i}.0 to 6.${i}.1`, author: { login: 'dependabot[bot]' } }
    }
    const kind = ['feat', 'fix', 'docs', 'refactor', 'perf'][i % 5] ?? 'chore'
    const scope = ['parser', 'cli', 'api', 'render', 'config', 'cache'][i % 6] ?? 'core'
    return {
      message: `${kind}(${scope}): ${kind === 'fix' ? 'handle' : 'support'} widget option ${i} in the ${scope} (#${pr})\n\nDetails of the change ${i}.`
    }
  }
  for (const name of earlier) {
    const shas = github.addCommits(
      REPO,
      Array.from({ length: 5 }, (_, i) => commit(i))
    )
    github.addTag(REPO, { name, at: shas.at(-1) ?? '' })
  }
  const since = github.addCommits(
    REPO,
    Array.from({ length: 120 }, (_, i) => commit(i))
  )
  github.addTag(REPO, { name: TAG, at: since.at(-1) ?? '' })
  const notes = [
    '## Highlights',
    '',
    '- Widgets can now be rendered server-side with `render({ mode: "server" })`.',
    '- The CLI gains `widgets check`, which validates a configuration without building.',
    '- Configuration files may be written in TOML as well as YAML.',
    '',
    "## What's Changed",
    '',
    ...Array.from(
      { length: 24 },
      (_, i) =>
        `* ${['feat', 'fix', 'docs'][i % 3] ?? 'feat'}: change ${i + 1} by @dev${i % 7} in https://github.com/${REPO}/pull/${200 + i}`
    ),
    '',
    '## New Contributors',
    '',
    `* @newcomer made their first contribution in https://github.com/${REPO}/pull/230`,
    '',
    `**Full Changelog**: https://github.com/${REPO}/compare/v1.2.3...${TAG}`
  ].join('\n')
  github.addRelease(REPO, { tag_name: TAG, name: `Widgets ${TAG}`, body: notes })
}

export async function measureContext(options: { runs: number }): Promise<ContextTimes> {
  const github = await GitHubApiFake.start({ token: GITHUB_TOKEN, latencyMs: CONTEXT_LATENCY_MS })
  const clock = new VirtualClock({ seed: 7 })
  const sim = await AgentApiSimulator.start({ clock, rateLimit: 10_000 })
  try {
    seedRelease(github)
    const env = {
      GITHUB_EVENT_NAME: 'push',
      GITHUB_REF: `refs/tags/${TAG}`,
      GITHUB_REF_TYPE: 'tag',
      GITHUB_REF_NAME: TAG,
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
          context
        },
        { clock, env }
      )
      const create = sim.requests.slice(firstSim).find((r) => r.operation === 'create')
      if (step.code !== 0 || !create) throw new Error(`the step (context: ${context}) failed:\n${step.everything()}`)
      const reads = github.requests.slice(firstGitHub)
      if (reads.some((r) => r.answeredStatus !== 200)) throw new Error(`a GitHub read failed: ${JSON.stringify(reads)}`)
      const prompt = (JSON.parse(create.body) as { prompt: string }).prompt
      // A request that leaves before the previous one is answered belongs to the same round.
      const rounds: RecordedRequest[][] = []
      for (const [i, read] of reads.entries()) {
        const round = rounds.at(-1)
        if (round && read.at - (reads[i - 1]?.at ?? 0) < CONTEXT_LATENCY_MS / 2) round.push(read)
        else rounds.push([read])
      }
      return {
        ms: create.at - startedAt,
        firstReadMs: (rounds[0]?.[0]?.at ?? NaN) - startedAt,
        lastRoundMs: (rounds.at(-1)?.[0]?.at ?? NaN) - startedAt,
        requests: reads.length,
        rounds: rounds.map((round) => round.map((r) => r.route).sort()),
        contextChars: prompt.length - PROMPT.length,
        logLine: step.at('info').find((line) => line.startsWith('Context: ')) ?? ''
      }
    }
    const first = await run('auto')
    await run('none')
    const result: ContextTimes = {
      runs: options.runs,
      latencyMs: CONTEXT_LATENCY_MS,
      autoMs: [],
      noneMs: [],
      firstReadMs: [],
      lastRoundMs: [],
      firstAutoMs: first.ms,
      requests: first.requests,
      rounds: first.rounds,
      contextChars: first.contextChars,
      logLine: first.logLine
    }
    for (let i = 0; i < options.runs; i++) {
      const auto = await run('auto')
      if (JSON.stringify(auto.rounds) !== JSON.stringify(first.rounds) || auto.contextChars !== first.contextChars) {
        throw new Error('context: auto read a different context from one run to the next')
      }
      result.autoMs.push(auto.ms)
      result.firstReadMs.push(auto.firstReadMs)
      result.lastRoundMs.push(auto.lastRoundMs)
      const none = await run('none')
      if (none.requests !== 0 || none.contextChars !== 0) throw new Error('context: none read GitHub')
      result.noneMs.push(none.ms)
    }
    return result
  } finally {
    await sim.close()
    await github.close()
  }
}
