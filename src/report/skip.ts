/** The skip rules' decision in the summary: its row, and in a dry run the files it was made on. */
import { escapeHtml, formatCount, inline, plural } from '../base/text.js'
import type { SkipState } from './state.js'

/** Paths a dry run's summary lists per list of changed files; the rest are counted. */
const LISTED = 300

/** The `Skip rules` row: HTML, every value escaped. */
export function skipRow(skip: SkipState, dryRun: boolean): string {
  const decided = skip.skipped ? (dryRun ? 'would skip this run' : 'skipped this run') : 'not skipped'
  return escapeHtml(`${decided}: ${inline(skip.reason, 300)}`)
}

/** The changed files a path rule judged, as plain text for a block; undefined when none were. */
export function judgedFiles(skip: SkipState | undefined): { title: string; text: string } | undefined {
  const lists = skip?.files
  if (!lists?.length) return undefined
  const count = lists.reduce((sum, list) => sum + list.paths.length, 0)
  const text = lists
    .map((list) => {
      const head = `${list.of}: ${plural(list.paths.length, 'path')}${list.incomplete ? `, may be incomplete (${list.incomplete})` : ''}`
      const shown = list.paths.slice(0, LISTED).map((path) => `  ${inline(path, 300)}`)
      const rest = list.paths.length - shown.length
      return [head, ...shown, ...(rest > 0 ? [`  … and ${formatCount(rest)} more`] : [])].join('\n')
    })
    .join('\n')
  return { title: `${plural(count, 'changed file')} the skip rules judged`, text }
}
