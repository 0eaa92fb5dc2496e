/** The skip rules' inputs: `skip-labels`, `paths` or `paths-ignore`, and an empty `release-tags` list. */
import { InputError, parseList } from '../inputs.js'
import { parsePatterns, type FilterPattern } from './patterns.js'

/** What may skip a run that is not an explicit request. */
export interface SkipRules {
  /** `skip-labels` as written; none with `none`. Compared without case, as GitHub compares label names. */
  labels: string[]
  /** `paths` or `paths-ignore` (never both); undefined when neither is set. */
  paths: PathRule | undefined
  /**
   * `release-tags` is an empty JSON array: changesets' `publishedPackages` when nothing was
   * published. The run released nothing; the event's own context would document something else.
   */
  nothingReleased: boolean
}

export interface PathRule {
  input: 'paths' | 'paths-ignore'
  patterns: FilterPattern[]
}

export function parseSkipRules(get: (name: string) => string): SkipRules {
  const labels = parseList(get('skip-labels'))
  const none = labels.some((label) => label.toLowerCase() === 'none')
  if (none && labels.length > 1) {
    throw new InputError(
      'skip-labels',
      'none cannot be combined with labels: expected label names (comma or newline separated), or none.'
    )
  }
  const paths = parsePatterns(get('paths'), 'paths')
  const ignored = parsePatterns(get('paths-ignore'), 'paths-ignore')
  if (paths.length > 0 && ignored.length > 0) {
    throw new InputError(
      'paths-ignore',
      "cannot be combined with 'paths' (GitHub refuses both on one event too): to leave files out of 'paths', add them to it with !."
    )
  }
  const rule: PathRule | undefined =
    paths.length > 0
      ? { input: 'paths', patterns: paths }
      : ignored.length > 0
        ? { input: 'paths-ignore', patterns: ignored }
        : undefined
  // The changed files are the ones the context reads: with context: none there are none to judge.
  if (rule && get('context').toLowerCase() === 'none') {
    throw new InputError(rule.input, 'needs context: auto: the rule is judged on the changed files the context reads.')
  }
  return { labels: none ? [] : labels, paths: rule, nothingReleased: /^\[\s*\]$/.test(get('release-tags')) }
}
