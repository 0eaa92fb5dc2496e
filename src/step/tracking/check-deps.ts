/** Where the check run (`check`) goes: the commit, the token's client, its name and external id. */
import type { Clock } from '../../base/clock.js'
import type { Log } from '../../base/log.js'
import type { CheckRunApi } from '../../github/check-run.js'
import type { GitHubClient } from '../../github/client.js'
import type { Trigger } from '../../github/event.js'
import type { RunIdentity } from '../../rerun/record.js'
import type { Settings } from '../settings.js'
import type { CheckDeps } from './check.js'
import { personalToken } from './check-problem.js'
import type { Where } from './link-back-text.js'

/**
 * The commit a check goes on: a pull request's head (read from GitHub for a comment, whose event
 * does not hold it), a tag's commit, a `workflow_run`'s triggering commit, else `GITHUB_SHA`.
 */
export async function checkCommit(
  trigger: Trigger,
  sha: string | undefined,
  api: CheckRunApi
): Promise<string | undefined> {
  if (trigger.kind === 'pull-request') return trigger.headSha ?? (await api.pullHead(trigger.number))
  // A release's GITHUB_SHA is its tagged commit, but an annotated tag's push may name the tag object.
  if (trigger.kind === 'tag') return api.tagCommit(trigger.tag).catch(() => sha)
  // A workflow_run's GITHUB_SHA is the default branch's last commit, not the one its run was for.
  if (trigger.kind === 'other' && trigger.headSha) return trigger.headSha
  return sha
}

/**
 * Where the check run goes (`check`); undefined when there is none to keep, or no token to write it
 * with (one warning).
 */
export function checkDeps(
  settings: Settings,
  wired: {
    clock: Clock
    env: Record<string, string | undefined>
    github: GitHubClient
    trigger: Trigger
    run: RunIdentity | undefined
    log: Log
    where: Where
  }
): CheckDeps | undefined {
  const { env, log, run } = wired
  const repository = env.GITHUB_REPOSITORY
  if (!settings.check) return undefined
  if (settings.dryRun) {
    // A dry run sends nothing, the check run included: said, so a missing check is not a mystery.
    log.notice(`Input 'check' is set, but this is a dry run: no check run is made.`)
    return undefined
  }
  if (!settings.githubToken || !repository) {
    const missing = repository ? "'github-token' is empty" : 'GITHUB_REPOSITORY is not set'
    log.warning(`Input 'check' is set, but ${missing}: no check run is made.`)
    return undefined
  }
  const api = wired.github.checkRuns(repository)
  const runPrefix = run && `docs-agent-action:${run.runId}`
  const waitOnly = settings.mode === 'wait-only'
  return {
    ...wired.where,
    log,
    clock: wired.clock,
    api,
    name: settings.check,
    commit: () => checkCommit(wired.trigger, env.GITHUB_SHA || undefined, api),
    externalId: run && `${runPrefix}:${run.attempt}${waitOnly ? ':wait' : ''}`,
    runPrefix,
    attempt: run?.attempt ?? 1,
    mayExist: waitOnly || (run?.attempt ?? 1) > 1,
    personal: personalToken(settings.githubToken)
  }
}
