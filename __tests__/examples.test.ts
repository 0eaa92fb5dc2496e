// The examples as a user copies them: each job that runs the action has a time limit, the token's
// permissions cover the context its events call for, the actions they use are at one version
// across examples, and the release example never loses its context to an unset secret.
import { describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import { pinnedFiles, refsIn } from '../scripts/pin-examples.js'
import { inputDefaults, readAction } from '../scripts/action-metadata.js'
import { parseDuration } from '../src/base/duration.js'
import { parseSettings } from '../src/step/settings.js'

interface Step {
  uses?: string
  with?: Record<string, unknown>
}
interface Job {
  if?: string
  needs?: string[] | string
  concurrency?: unknown
  permissions?: Record<string, string> | string
  'timeout-minutes'?: number
  steps?: Step[]
}
interface Workflow {
  on: Record<string, unknown>
  concurrency?: unknown
  permissions?: Record<string, string> | string
  jobs: Record<string, Job>
}

const DIR = join(process.cwd(), 'examples')
const examples = readdirSync(DIR)
  .filter((file) => file.endsWith('.yml'))
  .map((file) => ({ file, workflow: parse(readFileSync(join(DIR, file), 'utf8')) as Workflow }))
const DEFAULT_TIMEOUT = inputDefaults(readAction(), '').timeout ?? ''
const isAction = (step: Step): boolean => step.uses?.startsWith('docs-agent/docs-agent-action@') ?? false

/** The scopes the context of a new job reads on these events (src/github/context.ts, last-run.ts). */
function contextScopes(events: string[], releaseTags: boolean): string[] {
  const scopes = new Set<string>()
  for (const event of events) {
    // With release-tags (a dispatched release's tag), the release set replaces the last run's changes.
    if (['workflow_dispatch', 'schedule'].includes(event) && !releaseTags) scopes.add('actions').add('contents')
    if (['pull_request', 'pull_request_target', 'release'].includes(event)) scopes.add('contents')
  }
  if (releaseTags) scopes.add('contents')
  return [...scopes].sort()
}

/** The scopes a job's token can read: its own permissions, else the workflow's. */
function readable(workflow: Workflow, job: Job): string[] {
  const permissions = job.permissions ?? workflow.permissions ?? 'read-all'
  if (typeof permissions === 'string') return permissions === 'read-all' ? ['actions', 'contents'] : []
  return Object.entries(permissions)
    .filter(([, level]) => level === 'read' || level === 'write')
    .map(([scope]) => scope)
}

describe('examples', () => {
  it('are there', () => {
    expect(examples.length).toBeGreaterThanOrEqual(7)
  })

  it.each(examples)('$file: every job that runs the action has timeout-minutes', ({ workflow }) => {
    const jobs = Object.entries(workflow.jobs).filter(([, job]) => job.steps?.some(isAction))
    expect(jobs.length).toBeGreaterThan(0)
    for (const [name, job] of jobs) expect([name, typeof job['timeout-minutes']]).toEqual([name, 'number'])
  })

  it.each(examples)("$file: each step's timeout ends before its job's timeout-minutes", ({ workflow }) => {
    // GitHub cancels a job at timeout-minutes ("the maximum number of minutes to let a job run before
    // GitHub automatically cancels it", docs.github.com, jobs.<job_id>.timeout-minutes): a step whose own
    // timeout ends first reports how it ended (a rate limit that outlasted it, a time-out and how to
    // resume) instead of a cancel.
    for (const [name, job] of Object.entries(workflow.jobs))
      for (const step of (job.steps ?? []).filter(isAction)) {
        const given = step.with?.timeout
        const text = typeof given === 'string' || typeof given === 'number' ? String(given) : DEFAULT_TIMEOUT
        const timeout = parseDuration(text) ?? Infinity
        expect([name, timeout < (job['timeout-minutes'] ?? 360) * 60_000]).toEqual([name, true])
      }
  })

  it.each(examples)("$file: a new job's token reads what its events' context needs", ({ workflow }) => {
    // A tag push of `push: tags` needs contents: read too; a push to branches carries its commits.
    const events = Object.keys(workflow.on).flatMap((event) =>
      event === 'push' && (workflow.on.push as { tags?: unknown } | null)?.tags !== undefined ? ['release'] : [event]
    )
    for (const job of Object.values(workflow.jobs)) {
      for (const step of (job.steps ?? []).filter(isAction)) {
        const inputs = step.with ?? {}
        const newJob = inputs['job-id'] === undefined && inputs.context !== 'none'
        if (!newJob) continue
        const needed = contextScopes(events, inputs['release-tags'] !== undefined)
        expect(needed.filter((scope) => !readable(workflow, job).includes(scope))).toEqual([])
      }
    }
  })

  it.each(examples)(
    '$file: a job with an `if` keeps its concurrency group on the job (a skipped run would cancel a pending one)',
    ({ workflow }) => {
      const gated = Object.entries(workflow.jobs).filter(
        ([, job]) => job.if !== undefined && job.needs === undefined && job.steps?.some(isAction)
      )
      if (gated.length > 0) expect(workflow.concurrency).toBeUndefined()
    }
  )

  it.each(examples)('$file: a wait-only job runs only when the job it waits for was started', ({ workflow }) => {
    for (const [name, job] of Object.entries(workflow.jobs))
      for (const step of (job.steps ?? []).filter(isAction)) {
        const jobId = step.with?.['job-id']
        const from = /^\$\{\{ needs\.([\w-]+)\.outputs\.job-id \}\}$/.exec(typeof jobId === 'string' ? jobId : '')?.[1]
        if (from) expect([name, job.if]).toEqual([name, `needs.${from}.outputs.job-id != ''`])
      }
  })

  // README: "Try it without spending a job: add `dry-run: true` under `with:`"; release-docs.yml
  // says the same. Expressions stand for values a run gives them (the docs repository an owner/name).
  it.each(examples)('$file: with dry-run: true added, the inputs of each step are accepted', ({ workflow }) => {
    for (const step of Object.values(workflow.jobs)
      .flatMap((job) => job.steps ?? [])
      .filter(isAction)) {
      const inputs: Record<string, string> = { 'dry-run': 'true' }
      for (const [name, value] of Object.entries(step.with ?? {}))
        inputs[name] ??= String(value)
          .replace(/\$\{\{ vars\.DOCS_REPOSITORY \}\}/g, 'acme/docs')
          .replace(/\$\{\{[^}]*\}\}/g, 'value')
          .trim()
      const source = { get: (name: string) => inputs[name] ?? '', readFile: () => 'A prompt.' }
      expect(() => parseSettings(source, { commands: true })).not.toThrow()
    }
  })

  it.each(examples)(
    "$file: a job on a pull request's own events leaves a fork's pull requests out (no secrets there: api-key would be empty)",
    ({ workflow }) => {
      // GitHub gives runs of pull_request, pull_request_review and pull_request_review_comment for a
      // fork's pull request no secrets and a read-only GITHUB_TOKEN ("Workflows in forked
      // repositories", Events that trigger workflows); issue_comment and pull_request_target run in
      // the base repository with both.
      const forked = ['pull_request', 'pull_request_review', 'pull_request_review_comment']
      if (!Object.keys(workflow.on).some((event) => forked.includes(event))) return
      for (const [name, job] of Object.entries(workflow.jobs))
        if (job.steps?.some(isAction))
          expect([name, job.if ?? '']).toEqual([
            name,
            expect.stringContaining('github.event.pull_request.head.repo.full_name == github.repository')
          ])
    }
  )

  it('use one version of each action across examples', () => {
    const versions = new Map<string, Set<string>>()
    for (const { workflow } of examples)
      for (const job of Object.values(workflow.jobs))
        for (const { uses } of job.steps ?? []) {
          const [action = '', version = ''] = (uses ?? '').split('@')
          if (uses) versions.set(action, (versions.get(action) ?? new Set()).add(version))
        }
    const mixed = [...versions].filter(([, found]) => found.size > 1).map(([action, found]) => [action, [...found]])
    expect(mixed).toEqual([])
    expect(versions.get('actions/checkout')).toEqual(new Set(['v5']))
  })

  it("release-docs.yml: docs-token falls back to the workflow's token when the secret is unset", () => {
    const release = examples.find(({ file }) => file === 'release-docs.yml')?.workflow
    const step = Object.values(release?.jobs ?? {})
      .flatMap((job) => job.steps ?? [])
      .find(isAction)
    expect(step?.with?.['docs-token']).toBe('${{ secrets.DOCS_REPO_TOKEN || github.token }}')
  })

  it('name one token secret, DOCS_REPO_TOKEN, always with the fallback, in the examples, README and docs', () => {
    const found = pinnedFiles('.').flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/\$\{\{ (secrets\.\w*TOKEN\w*[^}]*?) \}\}/g)].map(
        (match) => `${file}: ${match[1] ?? ''}`
      )
    )
    expect(found.length).toBeGreaterThan(0)
    // The workflow's own token needs no secret; every other token is the docs repository's.
    const others = found.filter(
      (use) => !/: secrets\.(DOCS_REPO_TOKEN \|\| github\.token|NPM_TOKEN|GITHUB_TOKEN)$/.test(use)
    )
    expect(others).toEqual([])
  })

  it('name no docs repository of their own: a variable, which a copy sets', () => {
    for (const { file, workflow } of examples)
      for (const step of Object.values(workflow.jobs).flatMap((job) => job.steps ?? []))
        if (step.with?.['docs-repository'] !== undefined)
          expect([file, step.with['docs-repository']]).toEqual([file, '${{ vars.DOCS_REPOSITORY }}'])
  })
})

/** Whether this clone holds `ref` as a commit (a tag, a branch or a SHA). */
function exists(ref: string): boolean {
  try {
    execFileSync('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

describe('the refs a user copies', () => {
  const uses = pinnedFiles('.').flatMap((file) => refsIn(readFileSync(file, 'utf8')).map((ref) => ({ file, ref })))

  it('are there, each a full commit SHA until the first release', () => {
    expect(uses.length).toBeGreaterThanOrEqual(examples.length)
    for (const { file, ref } of uses) expect([file, ref]).toEqual([file, expect.stringMatching(/^[0-9a-f]{40}$/)])
  })

  it('each name a commit of this repository (npm run examples:pin re-pins them)', () => {
    const shallow = execFileSync('git', ['rev-parse', '--is-shallow-repository'], { encoding: 'utf8' }).trim()
    const missing = uses.filter(({ ref }) => !exists(ref)).map(({ file, ref }) => `${file}: ${ref}`)
    if (missing.length > 0 && shallow === 'true')
      throw new Error(
        `This clone is shallow, so these refs may exist and not be here: ${missing.join(', ')}. Fetch the history (actions/checkout with fetch-depth: 0, or git fetch --unshallow) and run again.`
      )
    expect(missing).toEqual([])
  })
})
