import type { Trigger } from './event.js'
import { formatCount, inline } from '../base/text.js'

/**
 * What the context of this run reads from GitHub's API, so what the agent does not get without a
 * token; undefined when the event's payload holds all of it (a branch push's commits) or there is
 * no context to read.
 */
export function readFromGitHub(trigger: Trigger, releaseTags: number): string | undefined {
  if (releaseTags > 0) {
    return `the release notes and the changes of ${releaseTags === 1 ? 'the released tag' : `the ${formatCount(releaseTags)} released tags`}`
  }
  switch (trigger.kind) {
    case 'tag':
      // A release event's payload carries the notes; a tag push carries nothing but the tag's name.
      return trigger.release
        ? `the changes since the release before ${inline(trigger.tag, 100)}`
        : `the release notes of ${inline(trigger.tag, 100)} and the changes since the previous release`
    case 'pull-request':
      return `the files pull request #${trigger.number} changes, with their patches`
    case 'scheduled':
      return "the changes since the workflow's last successful run"
    case 'push':
    case 'other':
      return undefined
  }
}
