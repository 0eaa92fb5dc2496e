/** The failure messages: what a cancellation or an error that ended the step says. */
import { ApiError, mayHaveTakenEffect } from '../agent-api/errors.js'
import { explainTrigger } from './automation.js'
import { errorMessage } from '../base/error-message.js'
import type { Mode, ReportedSettings, RunState } from './state.js'
import { inline } from '../base/text.js'
import { WORDING } from './wording.js'

/** The message of a cancellation, by where it found the step. */
export function cancelMessage(mode: Mode, state: RunState, requestSent: boolean): string {
  const words = WORDING[mode]
  const id = inline(state.jobId ?? '')
  if (state.phase === 'posting' && requestSent) {
    return `Cancelled while ${words.request.replace(/^The /, 'the ')} was in flight: ${words.mayHaveActed}. Check ${words.dashboard}.`
  }
  if (state.phase !== 'reading' && mode !== 'wait-only') {
    return `Cancelled before ${words.request.replace(/^The /, 'the ')} was sent: ${words.nothingSent}.`
  }
  return `Cancelled while waiting for job ${id}. Resume with job-id: ${id}.`
}

/** The step's failure message for an error that ended it. */
export function explain(error: unknown, settings: ReportedSettings, state: RunState): string {
  if (!(error instanceof ApiError)) return `Unexpected error: ${inline(errorMessage(error), 500)}`
  const posting = state.phase === 'posting'
  const jobId = state.jobId ?? ''
  const words = WORDING[settings.mode]
  const request = posting ? words.failing(jobId) : `Reading job ${jobId}`
  const trigger = posting && state.automation && explainTrigger(error, settings.projectId, state.automation.id)
  if (trigger) return trigger
  if (posting && mayHaveTakenEffect(error)) {
    return `${request} failed after the request was sent (${error.message}): ${words.mayHaveActed}. It was not retried, to avoid a duplicate job and pull request; check the agent jobs in the dashboard before running again.`
  }
  // Keys, as Mintlify publishes them (mintlify.com/docs/api/introduction, "Set an expiration date",
  // "Restrict keys by IP address", "Restrict admin keys by scope"): an expired key is answered 401;
  // a key with an IP allow-list is answered 403 from any other address, as a read-only key is on a POST.
  switch (error.kind) {
    case 'unauthorized':
      return `${request} failed: the Agent API refused the key (401). The key may have expired (a key expires 7, 30, 60 or 90 days after it is made, unless made without expiration): check on the dashboard's API keys page that the 'api-key' input holds a current admin API key (one starting with mint_), and replace it if it expired.`
    case 'forbidden':
      return `${request} failed: the Agent API forbade it (403). A key with an IP allow-list is answered 403 from any other address, and a GitHub-hosted runner's address changes: use a key without one, or a runner whose fixed address is on it. Check too that the key in 'api-key' belongs to project '${settings.projectId}'${posting ? ' and has the write scope' : ''}.`
    case 'not-found':
      if (settings.mode === 'create')
        return posting
          ? `${request} failed (${error.message}). Check the 'project-id' input.`
          : `${request} failed: job not found (${error.message}), though this step created it; look for it in the Mintlify dashboard.`
      return `${request} failed: job not found (${error.message}). Check the 'job-id' input and that it belongs to project '${settings.projectId}'.`
    case 'rate-limited':
      return `${request} failed: rate limited (${error.message}). The Agent API allows 100 jobs and messages per project per hour: spread the runs out (a concurrency: group runs them one at a time), or raise 'timeout' so the step waits longer for the limit to clear.`
    case 'redirect':
      return `${request} failed: ${error.message}. Redirects are not followed with the API key; check the 'base-url' input.`
    case 'proxy':
      return `${request} failed: ${error.message}; nothing reached the API. ${error.status === 407 ? 'The proxy wants credentials: put them in HTTPS_PROXY (http://user:password@host:port).' : 'Check the proxy in HTTPS_PROXY and NO_PROXY.'}`
    case 'tls':
      return `${request} failed: ${error.message}; nothing reached the API. If a proxy or gateway re-signs TLS, give its CA certificate to Node with NODE_EXTRA_CA_CERTS; else check 'base-url'.`
    case 'not-sent':
      return `${request} failed: ${error.message}; nothing reached the API. Check 'base-url' and the runner's network.`
    case 'invalid':
    case 'unavailable':
    case 'server-error':
    case 'no-answer':
    case 'bad-response':
      return `${request} failed: ${error.message}.`
  }
}
