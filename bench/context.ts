// What `context: auto` costs before the create: the step run in-process (scripts/in-process.ts) on
// a virtual clock against the Agent API simulator, reading a tag's context from the GitHub API fake
// with a real latency per answer. GitHub reads are real I/O, so this is real wall time.
import { performance } from 'node:perf_hooks'
import { GITHUB_TOKEN, runInProcess } from '../scripts/in-process.js'
import { GitHubApiFake, type CommitSeed, type PullFileSeed, type RecordedRequest } from '../simulator/github/index.js'
import { AgentApiSimulator } from '../simulator/agent-api.js'
import { VirtualClock } from '../simulator/virtual-clock.js'

export const CONTEXT_LATENCY_MS = 100
const REPO = 'acme/widgets'
/** A monorepo of 5,000 tags, with a large release: the reads and the budget under load. */
const LARGE_REPO = 'acme/monorepo'
/** The same large release among 31 tags: what the tags cost is the difference. */
const FEW_TAGS_REPO = 'acme/large-release'
export const LARGE_TAGS = 5000
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
  /** GitHub requests of one `context: auto` run, and their routes (simulator/github/routes.ts) round by round. */
  requests: number
  rounds: string[][]
  /** Characters the context added to the prompt. */
  contextChars: number
  /** The step's own log line about the context. */
  logLine: string
  /** The same tag in a repository of LARGE_TAGS tags and a large release: step start → create received. */
  largeMs: number[]
  /** The same large release among 31 tags. */
  fewTagsMs: number[]
  largeRequests: number
  largeRounds: string[][]
  /** How the large release's context spends the budget: characters per part, in order. */
  sections: { title: string; chars: number }[]
}

/** A release as a project of some age has one: 30 earlier version tags, 120 commits since the last. */
function seedRelease(github: GitHubApiFake, repo = REPO, large = false, manyTags = large): void {
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
  if (manyTags) {
    // An auto-released package's tags fill the repository up to LARGE_TAGS.
    const [sha = ''] = github.addCommits(repo, [{ message: 'icons' }])
    for (let i = 0; i < LARGE_TAGS - earlier.length - 1; i++) {
      github.addTag(repo, { name: `@acme/icons@${Math.floor(i / 100)}.${i % 100}.0`, at: sha })
    }
  }
  for (const name of earlier) {
    const shas = github.addCommits(
      repo,
      Array.from({ length: 5 }, (_, i) => commit(i))
    )
    github.addTag(repo, { name, at: shas.at(-1) ?? '' })
  }
  const since = github.addCommits(
    repo,
    Array.from({ length: large ? 250 : 120 }, (_, i) => ({ ...commit(i), files: large ? filesOf(i) : [] }))
  )
  github.addTag(repo, { name: TAG, at: since.at(-1) ?? '' })
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
    `**Full Changelog**: https://github.com/${REPO}/compare/v1.2.3...${TAG}`,
    // A large release's notes run long: every change described.
    ...(large ? Array.from({ length: 400 }, (_, i) => `- Change ${i}: ${'a detailed description '.repeat(4)}`) : [])
  ].join('\n')
  github.addRelease(repo, { tag_name: TAG, name: `Widgets ${TAG}`, body: notes })
}

/** What commit `i` of a large release changes: source, its test, docs, a lockfile, an image now and then. */
function filesOf(i: number): PullFileSeed[] {
  const patch = (name: string, lines: number): string =>
    [
      `@@ -1,${lines} +1,${lines} @@`,
      ...Array.from({ length: lines }, (_, j) => `+export const ${name}${j} = ${j}`)
    ].join('\n')
  const files: PullFileSeed[] = [
    {
      filename: `packages/core/src/module${i}.ts`,
      status: 'modified',
      additions: 20 + (i % 50),
      deletions: 3,
      patch: patch(`m${i}_`, 20 + (i % 50))
    },
    {
      filename: `packages/core/__tests__/module${i}.test.ts`,
      status: 'modified',
      additions: 30,
      deletions: 0,
      patch: patch(`t${i}_`, 30)
    }
  ]
  if (i % 10 === 0)
    files.push({
      filename: `docs/guide/page${i}.md`,
      status: 'modified',
      additions: 8,
      deletions: 2,
      patch: patch(`d${i}_`, 8)
    })
  if (i % 25 === 0)
    files.push({
      filename: 'package-lock.json',
      status: 'modified',
      additions: 400,
      deletions: 380,
      patch: patch('lock', 200)
    })
  if (i % 50 === 0) files.push({ filename: `assets/logo${i}.png`, status: 'added', additions: 0, deletions: 0 })
  return files
}

/** Characters per part of a context: its head, then each `### ` section. */
function sectionsOf(context: string): { title: string; chars: number }[] {
  const parts = context.split(/\n\n(?=### )/)
  return parts.map((part, i) => ({
    title: i === 0 ? 'head (always whole)' : (/^### (.*)/.exec(part)?.[1] ?? '').replace(/ \([\d,]+\)$/, ''),
    chars: part.length + (i === 0 ? 0 : 2)
  }))
}

export async function measureContext(options: { runs: number }): Promise<ContextTimes> {
  const github = await GitHubApiFake.start({ token: GITHUB_TOKEN, latencyMs: CONTEXT_LATENCY_MS })
  const clock = new VirtualClock({ seed: 7 })
  const sim = await AgentApiSimulator.start({ clock, rateLimit: 10_000 })
  try {
    seedRelease(github)
    seedRelease(github, LARGE_REPO, true)
    seedRelease(github, FEW_TAGS_REPO, true, false)
    const envOf = (repo: string) => ({
      GITHUB_EVENT_NAME: 'push',
      GITHUB_REF: `refs/tags/${TAG}`,
      GITHUB_REF_TYPE: 'tag',
      GITHUB_REF_NAME: TAG,
      GITHUB_REPOSITORY: repo,
      GITHUB_API_URL: github.url
    })
    const run = async (context: 'auto' | 'none', repo = REPO) => {
      const env = envOf(repo)
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
        sections: sectionsOf(prompt.slice(PROMPT.length + 2)),
        logLine: step.at('info').find((line) => line.startsWith('Context: ')) ?? ''
      }
    }
    const first = await run('auto')
    await run('none')
    const large = await run('auto', LARGE_REPO)
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
      logLine: first.logLine,
      largeMs: [],
      fewTagsMs: [],
      largeRequests: large.requests,
      largeRounds: large.rounds,
      sections: large.sections
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
      const inLarge = await run('auto', LARGE_REPO)
      // Rounds are told apart by timing, which a loaded machine blurs: the requests are compared.
      if (JSON.stringify(inLarge.rounds.flat().sort()) !== JSON.stringify(large.rounds.flat().sort())) {
        throw new Error('context: auto read a different context from one run to the next')
      }
      result.largeMs.push(inLarge.ms)
      result.fewTagsMs.push((await run('auto', FEW_TAGS_REPO)).ms)
    }
    return result
  } finally {
    await sim.close()
    await github.close()
  }
}
