/**
 * The base of a scheduled or manual run's context: the commit of the newest successful run of the
 * same workflow on the same branch and event that is an ancestor of this run's commit.
 */
import type { Comparison, GitHubReader, WorkflowRun } from '../reader.js'

/** Runs tried, newest first: one whose commit left the branch (a force-push) is passed over. */
export const RUNS_TRIED = 3

export type LastRun =
  /** The base run, and the changes from its commit to this run's. */
  | { kind: 'found'; run: WorkflowRun; comparison: Comparison }
  /** No successful run yet, or none whose commit is in this run's history. */
  | { kind: 'none'; runs: number }
  /** A read failed (it is in the warning). */
  | { kind: 'unread' }

export type ReadAs = <T>(
  what: string,
  permission: string,
  get: (reader: GitHubReader) => Promise<T>
) => Promise<T | undefined>

export async function findLastRun(
  scheduled: { workflow: string; branch: string; event: string; sha: string },
  read: ReadAs
): Promise<LastRun> {
  const { workflow, branch, event, sha } = scheduled
  const runs = await read(`the successful runs of ${workflow}`, '`actions: read`', (r) =>
    r.successfulRuns(workflow, branch, event)
  )
  if (!runs) return { kind: 'unread' }
  for (const run of runs.slice(0, RUNS_TRIED)) {
    const comparison = await read(`the changes since ${run.headSha.slice(0, 7)}`, '`contents: read`', (r) =>
      r.compare(run.headSha, sha).catch((error: unknown) => {
        // A commit that is no longer in the repository: not a base, not a failure.
        if ((error as { status?: unknown } | undefined)?.status === 404) return null
        throw error
      })
    )
    if (comparison === undefined) return { kind: 'unread' }
    if (comparison === null) continue
    if (comparison.status === 'ahead' || comparison.status === 'identical') return { kind: 'found', run, comparison }
  }
  return { kind: 'none', runs: runs.length }
}
