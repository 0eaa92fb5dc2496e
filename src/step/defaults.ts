/**
 * action.yml's defaults, for inputs given but empty: the runner applies a default only when the
 * key is absent from `with:`, and a workflow that forwards `${{ inputs.x }}` or an unset variable
 * passes ''. action.yml stays the source: __tests__/step/defaults.test.ts holds this copy to it.
 */
export const INPUT_DEFAULTS: Readonly<Record<string, string>> = {
  wait: 'true',
  timeout: '30m',
  'poll-interval': '2s',
  'max-poll-interval': '10s',
  'fail-on': 'failed, archived, timed-out',
  'base-url': 'https://api.mintlify.com',
  context: 'auto',
  'release-tags': '',
  'dry-run': 'false',
  preview: 'false',
  'on-rerun': 'resume',
  'allowed-non-write-users': '',
  'allowed-bots': '',
  'untrusted-context': 'withhold',
  'link-back': 'pull-request',
  'trigger-phrase': '/docs',
  group: '',
  'docs-repository': '',
  // Empty: github-token (settings.ts), so today's workflows keep working.
  'docs-token': '',
  reviewers: '',
  assignees: '',
  merge: 'none',
  'merge-method': 'squash',
  'skip-labels': 'skip-docs, no-docs',
  paths: '',
  'paths-ignore': '',
  check: '',
  'docs-checks': 'none'
}

/**
 * Defaults that are expressions only the runner can evaluate, and what an empty value means instead
 * (said in their action.yml descriptions too).
 */
export const EXPRESSION_DEFAULTS: Readonly<Record<string, string>> = {
  // No token: no GitHub API calls (context from the event payload only, no labels), with a notice.
  'github-token': '${{ github.token }}',
  // No matrix values: the re-run record is told apart by run, job, step, project and request only.
  'rerun-key': '${{ toJSON(matrix) }}'
}
