/** What the prompt phase works with, and the prompt it builds (prompt.ts, prompt-context.ts). */
import type { Clock } from '../base/clock.js'
import type { Log } from '../base/log.js'
import type { ContextResult } from '../github/context/context.js'
import type { Trigger } from '../github/event.js'
import type { Permissions } from '../github/permissions.js'
import type { GitHubReader } from '../github/reader.js'
import type { TrustFacts } from '../github/trust.js'

/** A prompt as built, with the context it took. */
export interface BuiltPrompt {
  prompt: string
  context: ContextResult | undefined
  /** Why the job carries text written by someone without write access (outsider.ts); undefined when it does not. */
  outsider?: string | undefined
}

export interface PromptDeps {
  log: Log
  clock: Clock
  signal: AbortSignal
  repository?: string | undefined
  trigger(): Trigger
  trust(): TrustFacts
  permissions: Permissions
  github: { reader(repository: string, signal: AbortSignal): GitHubReader }
}
