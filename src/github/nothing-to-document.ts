/** Runs that have nothing to document: the step ends with one log line, and starts no job. */
import { inline } from '../base/text.js'
import type { Trigger } from './event.js'

/**
 * Why this run has nothing to document, for one log line and no job; undefined when it may have
 * something: a push that deleted a branch or tag, a release edit that only rewrote the action's
 * own link-back, a release deleted or unpublished, a pull request closed without being merged (a
 * workflow `on: pull_request: types: [closed]` whose job has no `if: …merged`).
 */
export function nothingToDocument(trigger: Trigger): string | undefined {
  if (trigger.kind === 'other' && trigger.deletedRef !== undefined) {
    return `The push deleted ${refName(trigger.deletedRef)}: nothing to document.`
  }
  if (trigger.kind === 'pull-request' && trigger.closedUnmerged) {
    return `Pull request #${trigger.number} was closed without being merged: nothing to document.`
  }
  if (trigger.kind === 'tag' && trigger.release?.ownLinkBack) {
    return "The release's notes changed only in the action's own link-back block: nothing to document."
  }
  if (trigger.kind === 'tag' && trigger.release?.withdrawn) {
    return `Release ${inline(trigger.tag, 100)} was ${trigger.release.withdrawn}: nothing to document.`
  }
  return undefined
}

/** `tag v1.2.0`, `branch feature/x`, or the ref as it is. */
function refName(ref: string): string {
  const [, kind, name] = /^refs\/(tags|heads)\/(.+)$/.exec(ref) ?? []
  if (name === undefined) return ref ? inline(ref, 120) : 'a ref'
  return `${kind === 'tags' ? 'tag' : 'branch'} ${inline(name, 100)}`
}
