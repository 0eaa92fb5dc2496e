/**
 * One line of what the agent was asked, for the link-back and the check run: the command and whose
 * it is, or what triggered a new job (a tag or release, a pull request, the pushed range, the
 * changes since the last run), in markdown with every value made inert.
 */
import { codeSpan, markdownLink, mention } from '../github/conversation/markdown.js'
import type { Trigger } from '../github/event.js'
import { formatCount, plural } from '../base/text.js'
import type { Settings } from './settings.js'

/** How many release tags are named before the rest are counted. */
const TAGS_NAMED = 3

export function askedFor(trigger: Trigger, settings: Settings): string | undefined {
  const { command } = settings
  if (command) {
    const what = command.kind === 'follow-up' ? 'follow-up' : 'request'
    return `${mention(command.author)}'s ${what} ${codeSpan(command.text, 80)}`
  }
  if (settings.mode === 'message') return 'a follow-up to the job'
  if (settings.mode === 'wait-only') return undefined
  const tags = settings.releaseTags.map(({ tag }) => codeSpan(tag, 60))
  if (tags.length) {
    const rest = tags.length > TAGS_NAMED ? ` and ${formatCount(tags.length - TAGS_NAMED)} more` : ''
    return `the release of ${tags.slice(0, TAGS_NAMED).join(', ')}${rest}`
  }
  switch (trigger.kind) {
    case 'tag':
      return `${trigger.release ? 'release' : 'tag'} ${codeSpan(trigger.tag, 60)}`
    case 'pull-request': {
      const label = `${trigger.repo}#${trigger.number}`
      return `pull request ${trigger.url ? markdownLink(label, trigger.url) : codeSpan(label)}`
    }
    case 'push': {
      const commits = plural(trigger.commits.length, 'commit')
      const range = trigger.compareUrl ? markdownLink(commits, trigger.compareUrl) : commits
      return `the push to ${codeSpan(trigger.branch, 60)} (${range})`
    }
    case 'scheduled':
      return `the changes on ${codeSpan(trigger.branch, 60)} since the last successful run of ${codeSpan(trigger.workflow, 60)}, up to ${codeSpan(trigger.sha.slice(0, 7))}`
    case 'other':
      return trigger.event ? `a ${codeSpan(trigger.event, 40)} run` : undefined
  }
}
