/**
 * What the docs checks phase says: each check by name, conclusion and link in the log (one line
 * each, the CI's text inert), the state the outputs, the summary and the progress read, and one
 * warning naming the checks still failing after the round.
 */
import { inline, plural } from '../../base/text.js'
import type { DocsChecksState } from '../../report/state.js'
import type { Log } from '../../base/log.js'
import type { RunStateWriter } from '../run-state.js'
import type { Settled } from './settle.js'

interface Where {
  deps: { log: Log; follow?: { changed(): void } | undefined }
  run: RunStateWriter
  label: string
}

/** Records the checks of `settled` and logs them; the result. */
export function verdictOf(at: Where, settled: Settled, final: boolean): DocsChecksState['result'] {
  const { judged } = settled
  const result = settled.kind === 'timed-out' ? 'timed-out' : judged.failures.length ? 'failure' : 'success'
  const before = at.run.state.docsChecks
  at.run.docsChecked({
    ...before,
    result: final ? result : 'waiting',
    checks: judged.rows,
    rounds: before?.rounds ?? 0,
    head: judged.head
  })
  const { log } = at.deps
  log.info(
    `Checks on ${at.label} (head ${judged.head.slice(0, 7)}): ${judged.rows.length ? plural(judged.rows.length, 'check') : 'none'}.`
  )
  for (const row of judged.rows) {
    // Behind a margin, one line: a check's text never starts a workflow command.
    log.info(`│ ${inline(row.name, 100)}: ${inline(row.conclusion, 40)}${row.url ? ` ${inline(row.url, 300)}` : ''}`)
    for (const problem of row.problems) log.info(`│   ${inline(problem, 300)}`)
  }
  return result
}

/** The phase's end: the state, the log, and a warning when the round left checks failing. */
export function report(at: Where, settled: Settled, round: boolean): void {
  const result = verdictOf(at, settled, true)
  at.deps.follow?.changed()
  const { log } = at.deps
  const failing = settled.judged.failures.map((f) => inline(f.name, 100))
  if (result === 'timed-out') {
    log.warning(`Checks on ${at.label} were still running when the timeout ended: docs-checks is timed-out.`)
  } else if (result === 'failure' && round) {
    log.warning(`Checks on ${at.label} still fail after the agent's round of fixes: ${failing.join(', ')}.`)
  } else {
    log.info(`docs-checks: ${result}${failing.length ? ` (failing: ${failing.join(', ')})` : ''}.`)
  }
}
