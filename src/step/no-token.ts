/** What an empty `github-token` costs a run, said once at its start. */
import type { Log } from '../base/log.js'
import type { Trigger } from '../github/event.js'
import { readFromGitHub } from '../github/without-token.js'
import type { CommandSettings, Settings } from './settings.js'

/** An empty token is a warning when it costs the agent its context, a notice otherwise. */
export function sayNoToken(settings: Settings | CommandSettings, trigger: Trigger, log: Log): void {
  const newJob = settings.mode === 'create' || settings.mode === 'command'
  const lost = newJob && settings.context === 'auto' ? readFromGitHub(trigger, settings.releaseTags.length) : undefined
  // docs-token, when given, still reaches the docs repository.
  const calls = settings.docsToken
    ? 'No GitHub API calls are made on this repository (docs-token still reaches the docs repository).'
    : 'No GitHub API calls are made and no labels are added.'
  if (lost) {
    log.warning(
      `Input 'github-token' is empty, so the agent will not get ${lost}: only what the event itself holds. ${calls} ` +
        "Leave the input out for the workflow's token."
    )
  } else {
    log.notice(`Input 'github-token' is empty: ${lowerFirst(calls)} Leave the input out for the workflow's token.`)
  }
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1)
}
