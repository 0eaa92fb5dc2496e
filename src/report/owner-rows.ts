/** The summary's rows for the docs pull request's owner: who was asked to review it, who is assigned, how it merges. */
import { escapeHtml, inline } from '../base/text.js'
import type { OwnerState } from './state.js'

/** `[name, html]` rows; every value escaped. */
export function ownerRows(owner: OwnerState): [string, string][] {
  const text = (value: string): string => escapeHtml(inline(value, 300))
  const people = (who: string[]): string => text(who.map((w) => (w.includes('/') ? w : `@${w}`)).join(', '))
  const rows: [string, string][] = [['Reviewers', owner.reviewers.length ? people(owner.reviewers) : 'none']]
  if (owner.assignees.length) rows.push(['Assignees', people(owner.assignees)])
  const merge = owner.merge
  if (merge) {
    const how = `(${merge.method})`
    rows.push([
      'Merge',
      merge.result === 'auto-merge'
        ? text(`auto-merge on ${how}: it merges once its required checks and reviews pass`)
        : merge.result === 'merged'
          ? text(`merged ${how}`)
          : text(`left open: ${merge.why ?? 'see the log'}`)
    ])
  }
  return rows
}
