/**
 * The action's one comment on a group's docs pull request: every source that fed it (pull request,
 * release or push, with the run that added it), updated in place by each run of the group, and the
 * group's sealed record under it. Pure: rendering only.
 */
import { codeSpan, markdownLink } from '../conversation/markdown.js'
import { commentBody, markerKey } from '../conversation/marker.js'
import { sealGroupRecord, type GroupKey, type GroupRecord, type GroupSource } from './record.js'

const KIND_WORDS: Record<GroupSource['kind'], string> = {
  'pull-request': 'pull request',
  release: 'release',
  push: 'push',
  schedule: 'scheduled run',
  manual: 'manual run',
  other: 'run'
}

/** One line of the list: what the source is, where it is, the run that added it. */
export function sourceLine(source: GroupSource): string {
  const parts = [
    `${KIND_WORDS[source.kind]} ${source.url ? markdownLink(source.label, source.url) : codeSpan(source.label)}`
  ]
  if (source.run) parts.push(markdownLink('workflow run', source.run))
  parts.push(source.via === 'created' ? 'started the job' : 'added by a follow-up')
  return `- ${parts.join(' · ')}`
}

/** The comment's body: what it gathers, the sources oldest first, how to ask for changes, then the markers. */
export function groupCommentBody(apiKey: string, key: GroupKey, record: GroupRecord): string {
  const lines: string[] = []
  if (record.supersededBy !== undefined)
    lines.push(
      `**Superseded** by ${key.docsRepository}#${record.supersededBy}: later changes of group ${codeSpan(key.group)} go there.`,
      ''
    )
  lines.push(
    `**Docs agent:** this pull request gathers the docs changes of group ${codeSpan(key.group)} of ${key.repository}; each run of the group adds to it while it is open.`,
    '',
    `Sources (${record.sources.length + record.earlier}), oldest first:`,
    ''
  )
  if (record.earlier > 0) lines.push(`- … ${record.earlier} earlier, no longer listed`)
  lines.push(...record.sources.map(sourceLine))
  lines.push('', `Job ${codeSpan(record.job)}. The next run of the group sends it a follow-up.`)
  // The link-back marker too, sealed for this pull request: a docs-pr link-back finds this comment, not a second one.
  const seal = { key: markerKey(apiKey), repository: key.docsRepository, number: record.pr }
  return `${commentBody(lines, { job: record.job }, seal)}\n${sealGroupRecord(apiKey, key, record)}`
}
