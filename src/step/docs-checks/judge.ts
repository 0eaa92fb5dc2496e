/**
 * One look at the docs pull request's head: its check runs and commit statuses, judged, and once
 * nothing of theirs runs, its check suites: one not completed holds checks still to come. A check
 * run ended badly in `failure`, `timed_out`, `action_required`, `stale`, `startup_failure` or `cancelled`; a status in
 * `failure` or `error`. A cancelled run reported no problem: it is not red for the agent to fix (`fixable`). Each failure comes with its problems: a check run's output title and summary and its
 * annotations (`path:line: message`), a status's description. All of it is the docs repository's
 * CI's text: untrusted, kept as read here and made inert where it is shown (problems.ts).
 */
import type { DocsAnnotation, DocsChecksApi, DocsCheckRun, DocsStatus } from '../../github/docs-checks.js'
import type { DocsCheckRow } from '../../report/state.js'

// `stale`: GitHub's own, for a run left incomplete 14 days; `startup_failure`: in GitHub's schema.
// `cancelled`: a required check passes only as success, neutral or skipped (GitHub's "Status checks":
// a skipped job reports success; bulldozer#223 matched that rule), so a cancelled one blocks the merge.
const FAILED_RUN = ['failure', 'timed_out', 'action_required', 'stale', 'startup_failure', 'cancelled']
const FAILED_STATUS = ['failure', 'error']
/** Annotations read of one failing check run (one page): the follow-up says how many more it has. */
export const ANNOTATIONS_READ = 100

/** A failing check run or status, with what it says is wrong. */
export interface Failure {
  name: string
  conclusion: string
  title: string
  /** A check run's summary, a status's description. */
  summary: string
  annotations: DocsAnnotation[]
  /** Annotations the check run has, read or not. */
  annotationCount: number
}

export interface Judged {
  head: string
  /** A check run not completed, a status still pending, or (when waited for) checks still to come. */
  running: boolean
  /** The apps whose check suites are not completed while no check runs: their checks are still to come. */
  toCome: string[]
  rows: DocsCheckRow[]
  failures: Failure[]
}

/** The failures the agent can act on: a cancelled run found nothing, so there is nothing to ask it to fix. */
export function fixable(failures: readonly Failure[]): Failure[] {
  return failures.filter((failure) => failure.conclusion !== 'cancelled')
}

/**
 * Reads the checks on `head`; a failure's annotations only once nothing runs (they are read once).
 * `waitToCome`: checks still to come count as running (settle.ts bounds how long).
 */
export async function judge(api: DocsChecksApi, head: string, waitToCome: boolean): Promise<Judged> {
  const [runs, statuses] = await Promise.all([api.checkRuns(head), api.statuses(head)])
  let running = runs.some((run) => run.status !== 'completed') || statuses.some((s) => s.state === 'pending')
  const toCome = running ? [] : await appsToCome(api, head)
  running ||= waitToCome && toCome.length > 0
  const failures: Failure[] = []
  if (!running) {
    for (const run of runs.filter((r) => FAILED_RUN.includes(r.conclusion ?? ''))) {
      const annotations = run.annotations > 0 ? await api.annotations(run.id, ANNOTATIONS_READ) : []
      failures.push(runFailure(run, annotations))
    }
    failures.push(...statuses.filter((s) => FAILED_STATUS.includes(s.state)).map(statusFailure))
  }
  const rows = [...runs.map(runRow), ...statuses.map(statusRow)].map((row) => ({
    ...row,
    problems: problemsOf(failures.find((f) => f.name === row.name && f.conclusion === row.conclusion)).slice(0, 3)
  }))
  return { head, running, toCome, rows, failures }
}

/**
 * The apps with a check suite not completed on `head`, read only once no check runs (while one
 * runs, the head is waited for anyway: no read is spent). GitHub makes each app's suite at the
 * push, `queued` with no check run, before the app makes its runs
 * (https://docs.github.com/en/rest/guides/using-the-rest-api-to-interact-with-checks); a suite not
 * completed whose runs the runs read did not show running got them after that read.
 */
async function appsToCome(api: DocsChecksApi, head: string): Promise<string[]> {
  const suites = await api.checkSuites(head)
  return [...new Set(suites.filter((suite) => suite.status !== 'completed').map((suite) => suite.app))]
}

function runFailure(run: DocsCheckRun, annotations: DocsAnnotation[]): Failure {
  const { name, title, summary } = run
  return { name, conclusion: run.conclusion ?? '', title, summary, annotations, annotationCount: run.annotations }
}

function statusFailure(status: DocsStatus): Failure {
  const { context: name, state: conclusion, description: summary } = status
  return { name, conclusion, title: '', summary, annotations: [], annotationCount: 0 }
}

function runRow(run: DocsCheckRun): Omit<DocsCheckRow, 'problems'> {
  return { name: run.name, conclusion: run.status === 'completed' ? (run.conclusion ?? '') : run.status, url: run.url }
}

function statusRow(status: DocsStatus): Omit<DocsCheckRow, 'problems'> {
  return { name: status.context, conclusion: status.state, url: status.url }
}

/** A failure's problems, one line each (not yet made inert): title, summary lines, annotations. */
export function problemsOf(failure: Failure | undefined): string[] {
  if (!failure) return []
  const said = [failure.title, ...failure.summary.split(/\r?\n|\r/)].map((line) => line.trim()).filter(Boolean)
  return [...said, ...failure.annotations.map((a) => `${a.path}:${a.line}: ${a.message}`)]
}
