/**
 * The one place where what the step writes on GitHub loses its secrets: every request that is not
 * a read (comments, release notes, check runs, labels, reviewers, GraphQL mutations) has each text
 * of its parameters redacted before it is sent, whoever wrote the text: the step, the Agent API
 * (a job's message, a PR title) or GitHub itself.
 */
import type { Octokit } from '@octokit/core'
import { escapeHtml, escapeMarkdown, redact } from '../base/text.js'

/** Methods that write nothing, so carry no text of ours. */
const READS = new Set(['GET', 'HEAD'])
/** Options that are not the request's parameters: its credentials and its transport stay as they are. */
const NOT_PARAMETERS = new Set(['method', 'url', 'baseUrl', 'headers', 'request', 'mediaType'])

/**
 * Redacts `secrets` from every write `octokit` sends: as written, as HTML escapes them, and as
 * markdown escapes them (a link's label, markdown.ts), which GitHub renders as written.
 */
export function redactWrites(octokit: Pick<Octokit, 'hook'>, secrets: readonly string[]): void {
  const all = [...new Set([...secrets, ...secrets.map(escapeHtml), ...secrets.map(escapeMarkdown)])].filter(Boolean)
  octokit.hook.before('request', (options) => {
    if (READS.has(options.method.toUpperCase())) return
    const parameters = options as unknown as Record<string, unknown>
    for (const [name, value] of Object.entries(parameters)) {
      if (!NOT_PARAMETERS.has(name)) parameters[name] = scrubbed(value, all)
    }
  })
}

/** `value` with every string in it redacted, at any depth (a check run's `output`, GraphQL `variables`). */
function scrubbed(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return redact(value, secrets)
  if (Array.isArray(value)) return value.map((item) => scrubbed(item, secrets))
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, scrubbed(item, secrets)]))
}
