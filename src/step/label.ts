/**
 * The docs pull request's labels (`labels`), once the job completed with it: one write, on a pull
 * request of the docs repository only; GitHub refusing is a warning, never a failed step or lost outputs.
 */
import { DOCS_TOKEN } from '../github/docs-client.js'
import { labelTarget } from '../github/labels.js'
import type { PullRequestRef } from '../github/pr-link.js'
import type { Log } from '../base/log.js'
import { inline } from '../base/text.js'
import type { RunState } from '../report/state.js'
import type { Settings } from './settings.js'

export interface LabelDeps {
  log: Log
  serverUrl?: string | undefined
  github: { addLabels(pr: PullRequestRef, labels: string[]): Promise<void> }
}

/** Labels the docs PR; GitHub refusing is a warning, never a failed step or lost outputs. */
export async function label(state: Readonly<RunState>, settings: Settings, deps: LabelDeps): Promise<void> {
  // No token at all: the run's start said that no labels are added (no-token.ts); a refusal here
  // would blame a permission.
  if (settings.labels.length === 0 || !settings.docsToken) return
  const bound = labelTarget(state.job?.prLink, state.job?.source?.repository, deps.serverUrl)
  if (bound?.kind !== 'label') {
    if (bound) deps.log.warning(`Not labelling ${inline(state.job?.prLink ?? '', 200)}: ${bound.reason}.`)
    return
  }
  const { pr } = bound
  const target = `${pr.owner}/${pr.repo}#${pr.number}`
  try {
    await deps.github.addLabels(pr, settings.labels)
    deps.log.info(`Labelled ${target}: ${settings.labels.map((name) => inline(name, 50)).join(', ')}`)
  } catch (error) {
    // A 422 is about the labels, not the token.
    if ((error as { status?: unknown }).status === 422) {
      const said = inline(error instanceof Error ? error.message : String(error), 300)
      deps.log.warning(`Could not label ${target}: GitHub refused the labels (${said}).`)
      return
    }
    deps.log.warning(
      `Could not label ${target} (${inline(error instanceof Error ? error.message : String(error), 300)}). The ${DOCS_TOKEN} needs 'pull-requests: write' (or 'issues: write') on ${pr.owner}/${pr.repo}; the default GITHUB_TOKEN cannot write to another repository: pass a fine-grained token or a GitHub App token as docs-token.`
    )
  }
}
