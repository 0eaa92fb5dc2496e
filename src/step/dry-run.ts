/** What a dry run shows instead of sending: the prompt, and what a grouped run would do. */
import type { Log } from '../base/log.js'
import { inline, plural } from '../base/text.js'
import type { GroupPlan } from './group/plan.js'
import type { RunStateWriter } from './run-state.js'

/** A dry run says which of the two a grouped run would do. */
export function dryRunGroup(plan: GroupPlan, run: RunStateWriter, log: Log): void {
  const name = plan.key.group
  if (plan.kind === 'follow-up') {
    const pull = { label: `${plan.key.docsRepository}#${plan.pull.number}`, url: plan.pull.url }
    run.grouped({ name, via: 'would-follow-up', pull })
    log.info(`Dry run: would add to ${pull.label} with a follow-up to job ${inline(plan.record.job)}.`)
  } else {
    run.grouped({ name, via: 'would-create' })
    log.info(`Dry run: would start a new job for group ${inline(name, 100)}.`)
  }
}

export function showPrompt(prompt: string, log: Log): void {
  log.info(`Dry run: nothing is sent. The prompt (${plural(prompt.length, 'character')}):`)
  // Each line behind a margin: text from GitHub or the prompt can never start a workflow command.
  for (const line of prompt.split(/\r?\n/)) log.info(`│ ${inline(line, 2000)}`)
}
