/** What the owner phase works with: the step's clock, log and GitHub, and the docs pull request it acts on. */
import type { Clock } from '../../base/clock.js'
import type { Log } from '../../base/log.js'
import type { Trigger } from '../../github/event.js'
import type { OwnerApi } from '../../github/owner/api.js'
import type { RunAuthor } from '../../github/owner/author.js'
import type { Permissions } from '../../github/permissions.js'
import type { PullRequestRef } from '../../github/pr-link.js'
import type { TrustFacts } from '../../github/trust.js'
import type { DocsReads } from '../../github/group/find.js'

/** A group's record on the docs pull request, as the owner phase reads it (group-outsider.ts). */
export interface GroupRecordReads {
  /** The docs repository's reads with `docs-token`; undefined when there is no token. */
  groupDocs?: ((repository: string) => Pick<DocsReads, 'identity' | 'comments'>) | undefined
  /** `GITHUB_REPOSITORY`, which a group's record is bound to. */
  repository?: string | undefined
}

export interface OwnerDeps extends GroupRecordReads {
  log: Log
  clock: Clock
  signal: AbortSignal
  /** `GITHUB_SERVER_URL`: the token is spent only on a pull request of this GitHub. */
  serverUrl: string | undefined
  /** The docs pull request with `docs-token`; throws when there is none. */
  github: { owner(pr: PullRequestRef): OwnerApi }
  /** Whoever caused the run, as the event says (a `/docs` command's commenter comes first). */
  author(): RunAuthor
  trigger(): Trigger
  trust(): TrustFacts
  permissions: Permissions
}

/** The pull request, as the log names it. */
export interface Target {
  pr: PullRequestRef
  /** `owner/name#n`. */
  label: string
  /** `owner/name`. */
  repository: string
}
