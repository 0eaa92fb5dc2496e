/**
 * The preview phase (`preview: true`): once the job ends with a docs pull request, asks Mintlify
 * for that branch's preview and waits for it. A preview never changes the step's result: what
 * goes wrong is one warning, and `preview-url` stays empty.
 */
import type { Clock } from '../base/clock.js'
import { formatDuration } from '../base/duration.js'
import { errorMessage } from '../base/error-message.js'
import type { Log } from '../base/log.js'
import { inline } from '../base/text.js'
import type { PreviewApi } from '../agent-api/client.js'
import type { AgentJob } from '../agent-api/job.js'
import { awaitPreview, PREVIEW_MAX_MS, type PreviewEnd } from '../agent-api/preview.js'
import { parsePullRequestUrl, type PullRequestRef } from '../github/pr-link.js'
import type { RunStateWriter } from './run-state.js'
import type { Settings } from './settings.js'

export interface PreviewDeps {
  previews: PreviewApi
  clock: Clock
  log: Log
  signal: AbortSignal
  serverUrl: string | undefined
  /** GitHub with `docs-token`: the docs pull request's head branch. */
  github: { pullBranch(pr: PullRequestRef, signal: AbortSignal): Promise<string> }
}

/** Longest the read of the docs pull request's branch may take. */
const BRANCH_READ_MS = 10_000
/** A job's `source.ref` of one of these is the docs' own branch, not the pull request's. */
const DEFAULT_BRANCHES = new Set(['main', 'master'])

export async function preview(
  settings: Settings,
  deps: PreviewDeps,
  run: RunStateWriter,
  job: AgentJob,
  deadline: number
): Promise<void> {
  const target = await branchOf(settings, deps, job)
  if (target === undefined) return
  if ('problem' in target) {
    deps.log.warning(`${target.problem} ${UNCHANGED}`)
    run.previewed(undefined, target.problem)
    return
  }
  const { branch } = target
  // Only a branch read from the pull request is the summary's Branch; the job's own is there already.
  const read = target.read ? branch : undefined
  deps.log.info(`Asking Mintlify for the preview of branch ${inline(branch, 200)}`)
  const started = deps.clock.now()
  const end = await awaitPreview(deps.previews, branch, {
    clock: deps.clock,
    signal: deps.signal,
    deadline,
    debug: (message) => deps.log.debug(message)
  })
  if (end.kind === 'cancelled') return
  if (end.kind === 'ready') {
    deps.log.info(`Preview: ${inline(end.url, 500)}`)
    run.previewed(end.url, undefined, read)
    return
  }
  const problem = describe(end, branch, deps.clock.now() - started)
  deps.log.warning(`${problem} ${UNCHANGED}`)
  run.previewed(undefined, problem, read)
}

const UNCHANGED = "The step's result does not change; preview-url is empty."

/**
 * The docs pull request's head branch, read from GitHub; else the job's branch when it is not
 * the default one; else why there is no branch. Undefined when the step was cancelled meanwhile.
 */
async function branchOf(
  settings: Settings,
  deps: PreviewDeps,
  job: AgentJob
): Promise<{ branch: string; read: boolean } | { problem: string } | undefined> {
  const pr = parsePullRequestUrl(job.prLink, deps.serverUrl)
  let why = pr ? 'docs-token and github-token are empty' : 'the job links no GitHub pull request'
  if (pr && settings.docsToken) {
    const signal = AbortSignal.any([deps.signal, deps.clock.timeout(BRANCH_READ_MS)])
    try {
      return { branch: await deps.github.pullBranch(pr, signal), read: true }
    } catch (error) {
      if (deps.signal.aborted) return undefined
      why = `could not read ${pr.owner}/${pr.repo}#${pr.number} (${inline(errorMessage(error), 300)}; docs-token (github-token when not given) needs 'pull-requests: read' there)`
    }
  }
  const ref = job.source?.ref
  if (ref && !DEFAULT_BRANCHES.has(ref)) {
    deps.log.info(`Preview: ${why}; asking for the job's branch ${inline(ref, 200)} instead.`)
    return { branch: ref, read: false }
  }
  return { problem: `No preview: ${why}, and the job names no branch but the default one.` }
}

/** One sentence on why there is no preview URL. */
function describe(end: Exclude<PreviewEnd, { kind: 'ready' | 'cancelled' }>, branch: string, took: number): string {
  const of = `The preview of ${inline(branch, 200)}`
  switch (end.kind) {
    case 'not-available':
      return `No preview: Mintlify answered 403; preview deployments need a Pro or Enterprise plan.`
    case 'rate-limited':
      return `No preview: Mintlify's limit of 5 preview requests a minute per organization was reached, and again after waiting once.`
    case 'failed':
      return `${of} failed to build${end.summary ? `: ${inline(end.summary, 300)}` : ''} (${inline(end.url, 300)}).`
    case 'timed-out':
      return `${of} was not ready after ${formatDuration(took)} (at most ${formatDuration(PREVIEW_MAX_MS)}, within timeout); it may still appear at ${inline(end.url, 300)}.`
    case 'error':
      return `No preview: asking Mintlify for it failed (${inline(end.error.message, 300)}).`
  }
}
