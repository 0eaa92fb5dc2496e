/**
 * The context of a pull request whose own text is withheld from the agent: what GitHub itself
 * says about it (number, link, counts), none of what its author wrote or named.
 */
import { inline, plural } from '../../base/text.js'
import { unlisted } from './changed.js'
import type { ContextResult } from './context.js'
import type { Trigger } from '../event.js'
import type { PullRequestFacts } from '../trust.js'

/** What is left out, in one phrase for the prompt, the log and the summary. */
export const WITHHELD = 'title, description, branch name, commits and files'

export function withheldContext(
  trigger: Extract<Trigger, { kind: 'pull-request' }>,
  pr: PullRequestFacts | undefined,
  why: string
): ContextResult {
  const counts = [
    trigger.changedFiles === undefined ? undefined : plural(trigger.changedFiles, 'changed file'),
    pr?.commits === undefined ? undefined : plural(pr.commits, 'commit'),
    pr?.additions === undefined || pr.deletions === undefined ? undefined : `+${pr.additions} −${pr.deletions} lines`
  ].filter((count) => count !== undefined)
  const lines = [
    '---',
    '',
    '## Context from GitHub',
    '',
    `This request comes from a GitHub Actions run for pull request #${trigger.number} of ${trigger.repo}. ` +
      `Its ${WITHHELD} are not included: ${why}.`,
    '',
    `- Pull request: #${trigger.number}${trigger.url ? ` (${trigger.url})` : ''}`
  ]
  if (counts.length) lines.push(`- Size: ${counts.join(', ')}`)
  return {
    text: lines.join('\n'),
    description: `Pull request #${trigger.number}: its author’s text withheld (${inline(why, 300)})`,
    warning: undefined,
    requests: 0,
    changed: [
      unlisted(`pull request #${trigger.number}`, 'they are withheld with its author’s text, so they were not read')
    ]
  }
}
