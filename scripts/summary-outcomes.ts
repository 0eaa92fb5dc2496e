/**
 * The job summary of every outcome, as the step really writes it: each case runs the step
 * in-process (`main(host)`) against the Agent API simulator on a seeded virtual clock, so the
 * summaries are the same on every run. For the gallery (scripts/summary-gallery.ts) and the
 * rendering test (__tests__/report/summary-render.test.ts).
 */
import { AgentApiSimulator, type JobScenario } from '../simulator/agent-api.js'
import { GitHubApiFake } from '../simulator/github/index.js'
import { VirtualClock } from '../simulator/virtual-clock.js'
import { SUMMARY_PROMPT_CHARS } from '../src/report/summary.js'
import { GITHUB_TOKEN, runInProcess } from './in-process.js'

export interface SummaryOutcome {
  /** File-safe slug. */
  name: string
  title: string
  markdown: string
}

const KEY = 'mint_gallery_key_0123456789'
const PROJECT = 'proj-gallery'
const PROMPT = 'Document release v1.2.3: the new `export` command and the --dry-run flag.'
const FOLLOW_UP_JOB = 'job_8d41c7a09e2b5f36'
// The simulator names new jobs at random; the summaries show this id instead (same length and
// characters, so the layout is unchanged).
const STABLE_JOB_ID = 'job_3f9c2a71e0b84d56'

interface Case {
  name: string
  title: string
  scenario?: Partial<JobScenario>
  inputs?: Record<string, string>
  /** Seeds jobs, queues faults or hooks requests before the step runs. */
  prepare?(sim: AgentApiSimulator, cancel: AbortController): void
  /** Runs on the push of tag v1.2.3, whose release a fake GitHub holds: the summary shows the context. */
  release?: boolean
}

const REPO = 'acme/widgets'
const TAG = 'v1.2.3'

/** A short history: v1.2.2, three changes, v1.2.3 and its release notes. */
function seedRelease(github: GitHubApiFake): Record<string, string> {
  const [previous, , , released] = github.addCommits(REPO, [
    { message: 'Release 1.2.2' },
    { message: 'Add the `export` command (#41)', author: { login: 'alice' } },
    { message: 'sync: --dry-run shows what would change (#42)', author: { login: 'bob' } },
    { message: 'Fix YAML anchors in widgets.yml (#43)', author: { login: 'alice' } }
  ])
  github.addTag(REPO, { name: 'v1.2.2', at: previous ?? '' })
  github.addTag(REPO, { name: TAG, at: released ?? '' })
  github.addRelease(REPO, {
    tag_name: TAG,
    name: 'Widgets 1.2.3',
    body: '## Highlights\n- `widgets export` writes every widget to JSON or YAML.\n- `widgets sync --dry-run` lists the changes.'
  })
  return {
    GITHUB_EVENT_NAME: 'push',
    GITHUB_REF: `refs/tags/${TAG}`,
    GITHUB_REF_TYPE: 'tag',
    GITHUB_REF_NAME: TAG,
    GITHUB_REPOSITORY: REPO,
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_API_URL: github.url
  }
}

const CASES: Case[] = [
  { name: 'completed-pr', title: 'Completed with a pull request, on a release tag', release: true },
  { name: 'completed-no-pr', title: 'Completed without a pull request', scenario: { pr: false } },
  {
    name: 'completed-unusable-link',
    title: 'Completed with an unusable pull request link',
    scenario: { prLink: 'javascript:alert(1)' }
  },
  { name: 'failed', title: 'Job failed', scenario: { finalStatus: 'failed', pr: false } },
  { name: 'archived', title: 'Job archived', scenario: { finalStatus: 'archived', pr: false } },
  { name: 'timed-out', title: 'Timed out', scenario: { runMs: 600_000 }, inputs: { timeout: '10s' } },
  {
    name: 'cancelled',
    title: 'Cancelled while waiting',
    prepare: (sim, cancel) => {
      let polls = 0
      sim.onRequest = (request) => {
        if (request.operation === 'get' && ++polls === 2) cancel.abort()
      }
    }
  },
  { name: 'bad-input', title: 'Bad input', inputs: { timeout: 'soon' } },
  {
    name: 'follow-up',
    title: 'Follow-up to an existing job',
    inputs: { 'job-id': FOLLOW_UP_JOB, prompt: 'Also document the CLI flags of `export`.' },
    prepare: (sim) => sim.addJob(PROJECT, { id: FOLLOW_UP_JOB, status: 'completed', prompt: PROMPT })
  },
  { name: 'no-wait', title: 'Started without waiting (wait: false)', inputs: { wait: 'false' } },
  {
    name: 'ambiguous-create',
    title: 'Create answered 502 after creating the job',
    prepare: (sim) => sim.fail('create', { kind: 'status', status: 502, effect: true })
  },
  {
    name: 'hostile-text',
    title: 'Hostile text from the server and the prompt',
    scenario: {
      record: {
        model: '<img src=x onerror=alert(1)>\u202Egnp.exe',
        source: { repository: 'https://github.com/acme/docs', ref: 'main\u202Egnp.exe' }
      }
    },
    inputs: { prompt: hostilePrompt() }
  },
  { name: 'dry-run', title: 'Dry run', inputs: { 'dry-run': 'true' } },
  {
    name: 'skipped',
    title: 'Skipped by paths-ignore, on a release tag',
    release: true,
    inputs: { 'paths-ignore': '**' }
  }
]

/**
 * A prompt with workflow-command and HTML look-alikes, a blank line, a 500-character token with
 * no break opportunity, and an emoji sequence straddling the summary's cut, so a careless
 * truncation would leave half a surrogate pair.
 */
function hostilePrompt(): string {
  const token = '0123456789abcdef'.repeat(32).slice(0, 500)
  let text = `Document the release.\n::error::x\n<script>alert(1)</script>\n\nChecksum: ${token}\n`
  const line = 'Describe each changed option with an example.\n'
  const emoji = '👩🏽‍💻'
  while (text.length + line.length < SUMMARY_PROMPT_CHARS - 4) text += line
  return `${text.padEnd(SUMMARY_PROMPT_CHARS - 4, '.')}${emoji} and the rest of the prompt.`
}

/** Runs one case with a fresh simulator and clock, and returns the summary the step wrote. */
async function capture(spec: Case): Promise<SummaryOutcome> {
  const clock = new VirtualClock({ seed: 42 })
  const sim = await AgentApiSimulator.start({ apiKey: KEY, clock, scenario: { runMs: 30_000, ...spec.scenario } })
  const github = spec.release ? await GitHubApiFake.start({ token: GITHUB_TOKEN, time: clock }) : undefined
  try {
    const cancel = new AbortController()
    spec.prepare?.(sim, cancel)
    const env = github ? seedRelease(github) : {}
    const run = await runInProcess(
      { 'api-key': KEY, 'project-id': PROJECT, 'base-url': sim.url, prompt: PROMPT, ...spec.inputs },
      { clock, cancel, env }
    )
    let markdown = run.summary
    for (const { job } of sim.jobs(PROJECT))
      if (job.id !== FOLLOW_UP_JOB) markdown = markdown.split(job.id).join(STABLE_JOB_ID)
    return { name: spec.name, title: spec.title, markdown }
  } finally {
    await Promise.all([sim.close(), github?.close()])
  }
}

/** Every outcome's summary, in a fixed order. */
export async function summaryOutcomes(): Promise<SummaryOutcome[]> {
  const outcomes: SummaryOutcome[] = []
  // One at a time: each case owns its simulator and clock, and the order stays fixed.
  for (const spec of CASES) outcomes.push(await capture(spec))
  return outcomes
}
