/**
 * Whether a group's record on the docs pull request says its job was given text written by someone
 * without write access. A grouped run that gives the group's job such text marks the record there;
 * a follow-up that reaches the same job another way (a `/docs` command on one of the group's pull
 * requests, whose link-back marker was written before) learns it only from the record. Only the
 * token's own comment counts, sealed with this API key for this repository, project and pull request.
 */
import { inline } from '../../base/text.js'
import { openGroupRecord } from '../../github/group/record.js'
import { refusalOf, said } from '../../github/owner/refusal.js'
import type { GroupRecordReads, Target } from './deps.js'

/** Why the job carries an outsider's text by its group's record; undefined when no record of `jobId` says so. */
export async function groupRecordOutsider(
  seal: { apiKey: string; projectId: string },
  jobId: string | undefined,
  target: Target,
  deps: GroupRecordReads
): Promise<string | undefined> {
  const docs = deps.groupDocs?.(target.repository)
  if (!docs || !jobId) return undefined
  const where = { repository: deps.repository ?? '', projectId: seal.projectId, docsRepository: target.repository }
  try {
    const me = (await docs.identity()).toLowerCase()
    for (const comment of await docs.comments(target.pr.number)) {
      if (comment.author.toLowerCase() !== me) continue
      const opened = openGroupRecord(seal.apiKey, where, target.pr.number, comment.body)
      if (opened.kind === 'found' && opened.record.job === jobId && opened.record.untrusted)
        return `group ${inline(opened.group, 100)}'s record on ${target.label} says a run gave its job such text`
    }
    return undefined
  } catch (error) {
    // Unread is not "no record": the strictest reading.
    return `the comments of ${target.label} could not be read (${said(refusalOf(error))}), so whether a group's run gave its job such text is unknown`
  }
}
