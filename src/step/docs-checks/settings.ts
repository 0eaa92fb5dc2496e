/** `docs-checks`: what the step does with the checks on the docs pull request once the job ends with one. */
import { InputError, parseChoice } from '../inputs.js'

export type DocsChecks = 'none' | 'wait' | 'fix'

export const DOCS_CHECKS: readonly DocsChecks[] = ['none', 'wait', 'fix']

/**
 * The value, or an input error naming the input and its values, before any request. A dry run
 * takes it as it is (and, sending nothing, has no docs pull request to check), as it takes
 * `labels`, `preview` and `check`: `dry-run: true` is how a workflow is tried as it stands.
 */
export function parseDocsChecks(value: string, step: { wait: boolean; automation: boolean }): DocsChecks {
  // parseChoice's error names the input and its three values.
  const found = parseChoice(value, 'docs-checks', DOCS_CHECKS)
  if (found === 'none') return found
  const why = !step.wait
    ? 'needs wait: true (a step that returns before the job ends has no docs pull request to check)'
    : step.automation
      ? "does not go with automation (an automation's job can be followed, but it is not this step's to message)"
      : undefined
  if (why) throw new InputError('docs-checks', `${found} ${why}.`)
  return found
}
