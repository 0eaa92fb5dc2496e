/**
 * The `group` and `docs-repository` inputs: runs that name the same group share one open docs
 * pull request. Checked before any request; a `/docs` command keeps its own target (no group).
 */
import { quoted } from '../inputs.js'

/** Throws the step's input error for `input`. */
type Fail = (input: string, message: string) => never

export interface GroupSettings {
  name: string
  /** `owner/name`: where the group's docs pull request is looked for. */
  docsRepository: string
}

const NAME = /^[A-Za-z0-9._/-]{1,100}$/
const REPOSITORY = /^[A-Za-z0-9-]{1,39}\/[A-Za-z0-9._-]{1,100}$/

/**
 * The group, or undefined without one. `wait` and `jobId` are the step's: a group needs a step
 * that waits (only the wait learns the docs pull request) and cannot be combined with `job-id`.
 */
export function parseGroup(
  get: (name: string) => string,
  step: { wait: boolean; jobId: string },
  fail: Fail
): GroupSettings | undefined {
  const name = get('group')
  const docsRepository = get('docs-repository')
  if (docsRepository && !REPOSITORY.test(docsRepository))
    fail('docs-repository', `${quoted(docsRepository)} is not a repository: expected owner/name.`)
  if (!name) return undefined
  if (!NAME.test(name))
    fail(
      'group',
      `"${name.slice(0, 120)}" is not a group name: expected 1 to 100 letters, digits, '-', '_', '.' or '/'.`
    )
  if (step.jobId) fail('group', "cannot be combined with 'job-id': a group finds its job by itself.")
  if (!docsRepository || !step.wait)
    fail(
      'group',
      "needs 'docs-repository' (owner/name of the docs repository) and 'wait: true' (only a step that waits learns the docs pull request)."
    )
  return { name, docsRepository }
}
