/** What triggered the workflow, read from the runner's environment and the event payload file. */
import { onlyReleaseBlockChanged } from './conversation/markdown.js'

/** A release from the `release` event's payload. */
export interface PayloadRelease {
  tag: string
  name: string
  body: string
  url: string | undefined
  /** A `release: edited` whose only change is the action's link-back block (its own edit). */
  ownLinkBack?: true
  /** A `release: deleted` or `unpublished` (made a draft again): no release left to document. */
  withdrawn?: 'deleted' | 'unpublished'
}

export interface PushedCommit {
  id: string
  message: string
  author: string | undefined
}

export type Trigger =
  /** A tag ref (a pushed tag, or any event run on a tag), or a release event. */
  | { kind: 'tag'; repo: string; tag: string; release: PayloadRelease | undefined }
  | {
      kind: 'pull-request'
      repo: string
      number: number
      title: string
      url: string | undefined
      body: string
      base: string
      head: string
      /** The head commit (`pull_request.head.sha`); an `issue_comment` payload has none. */
      headSha?: string | undefined
      /** From the payload: how many files the pull request changes. */
      changedFiles: number | undefined
      /** From the payload: its labels' names. */
      labels: string[]
      /** A `pull_request` or `pull_request_target` closed without being merged: nothing changed. */
      closedUnmerged?: true
    }
  | {
      kind: 'push'
      repo: string
      branch: string
      commits: PushedCommit[]
      compareUrl: string | undefined
      /** The head commit's message, from the payload. */
      headMessage: string | undefined
      /** The pushed range; undefined when the push created the branch. */
      range: { before: string; after: string } | undefined
    }
  /** `schedule`, or `workflow_dispatch` on a branch: the changes since the workflow's last successful run. */
  | {
      kind: 'scheduled'
      repo: string
      event: 'schedule' | 'workflow_dispatch'
      branch: string
      /** The commit this run is on (`GITHUB_SHA`). */
      sha: string
      /** The workflow's file name (`docs.yml`), from `GITHUB_WORKFLOW_REF`. */
      workflow: string
    }
  /**
   * Anything else (`workflow_run`, `issues`, …): no context. '' outside a runner. `deletedRef`: a
   * push that deleted a branch or tag (`refs/tags/v1.2.0`), which has nothing to document.
   * `headSha`: a `workflow_run`'s triggering commit (its `GITHUB_SHA` is the default branch's).
   */
  | { kind: 'other'; event: string; deletedRef?: string; headSha?: string }

/** The variables the runner sets that say what triggered the run. */
export interface EventEnv {
  GITHUB_EVENT_NAME?: string | undefined
  GITHUB_EVENT_PATH?: string | undefined
  GITHUB_REF?: string | undefined
  GITHUB_REF_NAME?: string | undefined
  GITHUB_REF_TYPE?: string | undefined
  GITHUB_REPOSITORY?: string | undefined
  GITHUB_SHA?: string | undefined
  GITHUB_WORKFLOW_REF?: string | undefined
}

/**
 * The trigger of this run. A payload that cannot be read gives what the variables alone tell
 * (a tag ref still is one): context is a help, never a reason to fail.
 */
export function readTrigger(env: EventEnv, readFile: (path: string) => string): Trigger {
  const event = env.GITHUB_EVENT_NAME ?? ''
  const repo = env.GITHUB_REPOSITORY ?? ''
  const payload = readPayload(env.GITHUB_EVENT_PATH, readFile)
  // The first that fits: a deletion before the ref it deleted, a payload's release or pull request
  // before the ref, a tag ref before a branch.
  return (
    deletionTrigger(env, event, payload) ??
    releaseTrigger(event, repo, payload) ??
    pullRequestTrigger(event, repo, payload) ??
    tagRefTrigger(env, repo) ??
    pushTrigger(env, event, repo, payload) ??
    scheduledTrigger(env, event, repo) ??
    otherTrigger(event, payload)
  )
}

type TriggerOf<K extends Trigger['kind']> = Extract<Trigger, { kind: K }>

/**
 * A push that deleted its branch or tag: the payload's `deleted`, or `after` all zeros. GitHub's
 * docs give such a run's commit ("When you delete a branch, the SHA in the workflow run (and its
 * associated refs) reverts to the default branch", docs.github.com/actions/reference/events-that-trigger-workflows#push),
 * so the run is modelled as happening, and the deleted ref is the payload's, not `GITHUB_REF`.
 */
function deletionTrigger(
  env: EventEnv,
  event: string,
  payload: Record<string, unknown>
): TriggerOf<'other'> | undefined {
  if (event !== 'push' || (payload.deleted !== true && !/^0{40}(0{24})?$/.test(text(payload.after)))) return undefined
  return { kind: 'other', event, deletedRef: text(payload.ref) || (env.GITHUB_REF ?? '') }
}

/**
 * A `release` event with a tag name; an edit that only rewrote the action's own link-back is marked,
 * and so is a release deleted or unpublished. `on: release` without `types` runs on every activity
 * type, and GitHub skips only a draft's created, edited and deleted
 * (docs.github.com/actions/reference/events-that-trigger-workflows#release).
 */
function releaseTrigger(event: string, repo: string, payload: Record<string, unknown>): TriggerOf<'tag'> | undefined {
  if (event !== 'release' || !isRecord(payload.release)) return undefined
  const release = payload.release
  const tag = text(release.tag_name)
  if (!tag) return undefined
  const body = text(release.body)
  const own = payload.action === 'edited' && ownLinkBack(payload.changes, body)
  const withdrawn = payload.action === 'deleted' || payload.action === 'unpublished' ? payload.action : undefined
  return {
    kind: 'tag',
    repo,
    tag,
    release: {
      tag,
      name: text(release.name),
      body,
      url: text(release.html_url) || undefined,
      ...(own ? { ownLinkBack: true as const } : {}),
      ...(withdrawn ? { withdrawn } : {})
    }
  }
}

/** A pull request event, or a review or a comment on one (an issue_comment's `issue` is its PR). */
function pullRequestTrigger(
  event: string,
  repo: string,
  payload: Record<string, unknown>
): TriggerOf<'pull-request'> | undefined {
  const onPull =
    PULL_EVENTS.includes(event) ||
    (event === 'issue_comment' && isRecord(payload.issue) && isRecord(payload.issue.pull_request))
  const pr = event === 'issue_comment' ? payload.issue : payload.pull_request
  if (!onPull || !isRecord(pr) || typeof pr.number !== 'number') return undefined
  return {
    kind: 'pull-request',
    repo,
    number: pr.number,
    title: text(pr.title),
    url: text(pr.html_url) || undefined,
    body: text(pr.body),
    base: isRecord(pr.base) ? text(pr.base.ref) : '',
    head: isRecord(pr.head) ? text(pr.head.ref) : '',
    headSha: (isRecord(pr.head) && text(pr.head.sha)) || undefined,
    changedFiles: typeof pr.changed_files === 'number' ? pr.changed_files : undefined,
    labels: Array.isArray(pr.labels) ? pr.labels.filter(isRecord).map((label) => text(label.name)) : [],
    ...(payload.action === 'closed' && pr.merged === false ? { closedUnmerged: true as const } : {})
  }
}

/** Any event run on a tag ref. */
function tagRefTrigger(env: EventEnv, repo: string): TriggerOf<'tag'> | undefined {
  const tag = tagName(env)
  return tag ? { kind: 'tag', repo, tag, release: undefined } : undefined
}

/** A push to a branch. */
function pushTrigger(
  env: EventEnv,
  event: string,
  repo: string,
  payload: Record<string, unknown>
): TriggerOf<'push'> | undefined {
  if (event !== 'push' || !env.GITHUB_REF?.startsWith('refs/heads/')) return undefined
  return {
    kind: 'push',
    repo,
    branch: env.GITHUB_REF_NAME || env.GITHUB_REF.slice('refs/heads/'.length),
    commits: Array.isArray(payload.commits) ? payload.commits.filter(isRecord).map(pushedCommit) : [],
    compareUrl: text(payload.compare) || undefined,
    headMessage: isRecord(payload.head_commit) ? text(payload.head_commit.message) : undefined,
    range: pushedRange(text(payload.before), text(payload.after))
  }
}

/** `before` and `after` of a push; undefined when either is missing or all zeros (a created branch). */
function pushedRange(before: string, after: string): { before: string; after: string } | undefined {
  const commit = (sha: string): boolean => /^[0-9a-f]{40,64}$/i.test(sha) && !/^0+$/.test(sha)
  return commit(before) && commit(after) ? { before, after } : undefined
}

/** `schedule`, or `workflow_dispatch` on a branch, with the commit and the workflow file it runs. */
function scheduledTrigger(env: EventEnv, event: string, repo: string): TriggerOf<'scheduled'> | undefined {
  const workflow = /\/\.github\/workflows\/([^/@]+)@/.exec(env.GITHUB_WORKFLOW_REF ?? '')?.[1]
  if (
    (event === 'schedule' || event === 'workflow_dispatch') &&
    env.GITHUB_REF?.startsWith('refs/heads/') &&
    env.GITHUB_SHA &&
    workflow
  ) {
    return {
      kind: 'scheduled',
      repo,
      event,
      branch: env.GITHUB_REF_NAME || env.GITHUB_REF.slice('refs/heads/'.length),
      sha: env.GITHUB_SHA,
      workflow
    }
  }
  return undefined
}

/**
 * Any other event. On `workflow_run`, `GITHUB_SHA` and `GITHUB_REF` are the default branch's last
 * commit and ref (docs.github.com/actions/reference/events-that-trigger-workflows#workflow_run): the
 * commit the triggering run was for is the payload's `workflow_run.head_sha`.
 */
function otherTrigger(event: string, payload: Record<string, unknown>): TriggerOf<'other'> {
  const run = event === 'workflow_run' && isRecord(payload.workflow_run) ? payload.workflow_run : {}
  const headSha = text(run.head_sha)
  return /^[0-9a-f]{40}([0-9a-f]{24})?$/i.test(headSha) ? { kind: 'other', event, headSha } : { kind: 'other', event }
}

const PULL_EVENTS = ['pull_request', 'pull_request_target', 'pull_request_review', 'pull_request_review_comment']

function tagName(env: EventEnv): string | undefined {
  if (env.GITHUB_REF_TYPE === 'tag' && env.GITHUB_REF_NAME) return env.GITHUB_REF_NAME
  if (env.GITHUB_REF?.startsWith('refs/tags/')) return env.GITHUB_REF.slice('refs/tags/'.length)
  return undefined
}

function pushedCommit(commit: Record<string, unknown>): PushedCommit {
  const author = isRecord(commit.author) ? text(commit.author.username) || text(commit.author.name) : ''
  return { id: text(commit.id), message: text(commit.message), author: author || undefined }
}

/** The event payload; {} when there is none or it cannot be read. */
export function readPayload(path: string | undefined, readFile: (path: string) => string): Record<string, unknown> {
  if (!path) return {}
  try {
    const json: unknown = JSON.parse(readFile(path))
    return isRecord(json) ? json : {}
  } catch {
    return {}
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : ''
}

/** The edit changed the notes alone (`changes` names nothing else), and only in the action's block. */
function ownLinkBack(changes: unknown, body: string): boolean {
  if (!isRecord(changes) || Object.keys(changes).join() !== 'body' || !isRecord(changes.body)) return false
  return onlyReleaseBlockChanged(text(changes.body.from), body)
}
