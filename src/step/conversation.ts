/**
 * The conversation on GitHub: a `/docs` comment on a pull request becomes the step's request, and
 * the job is linked back where people look: one comment on the pull request (updated in place by
 * re-runs, later runs and follow-ups), a block in the release notes, a comment on the docs pull
 * request. Whatever GitHub refuses here is one warning; the outputs and the result stand.
 */
import { errorMessage } from '../base/error-message.js'
import type { Log } from '../base/log.js'
import { formatCount, inline } from '../base/text.js'
import type { CommentKind, ConversationApi } from '../github/comments.js'
import { READ_ONLY_CACHE_EVENTS, commandText, type CommentEvent } from '../github/command.js'
import { botAllowed } from '../github/permissions.js'
import type { Trigger } from '../github/event.js'
import {
  codeSpan,
  commentBody,
  decodeMarker,
  markdownLink,
  mention,
  ownComments,
  withReleaseBlock,
  type HandledCommand,
  type IssueComment,
  type LinkMarker
} from '../github/link-back.js'
import { parsePullRequestUrl } from '../github/pr-link.js'
import { pullRequest } from '../report/verdict.js'
import type { RunState } from '../report/state.js'
import type { RecordStore } from '../rerun/record.js'
import { MAX_PROMPT_CHARS, type CommandSettings, type Settings } from './settings.js'

/** What the conversation needs from the step's surroundings. */
export interface ConversationDeps {
  log: Log
  /** The login `github-token` writes as (read once). */
  identity(): Promise<string>
  /** Comments, reactions and release notes of `owner/name`. */
  api(repository: string): ConversationApi
  /**
   * Whether `login` may command: write, maintain or admin on the workflow's repository. Undefined
   * when the permission could not be read.
   */
  mayWrite(login: string): Promise<boolean | undefined>
  /** `GITHUB_SERVER_URL`. */
  serverUrl: string | undefined
  /** The workflow run's page, when on a runner. */
  runUrl: string | undefined
}

/** Why a comment is not a request: the one log line the step ends with. */
export interface Ignored {
  ignored: string
}

/**
 * The request in the event's comment, or why there is none. A writer's `/docs …` on a pull
 * request that links to a job is a follow-up to it; on one that does not, a new job.
 */
export async function readCommand(
  settings: CommandSettings,
  comment: CommentEvent | undefined,
  thread: LinkBackThread | undefined,
  deps: ConversationDeps
): Promise<Settings | Ignored> {
  if (!comment || !thread) return { ignored: 'Not a comment on a pull request: nothing to do.' }
  const who = `@${inline(comment.author.login, 60)}`
  if (comment.action !== 'created' && comment.action !== 'submitted')
    return { ignored: `Comment by ${who} was ${inline(comment.action, 20)}: only a new comment can be a request.` }
  const asked = commandText(comment.body, settings.triggerPhrase)
  if (asked === undefined)
    return { ignored: `Comment by ${who} does not start with ${settings.triggerPhrase}: nothing to do.` }
  if (!asked) return { ignored: `Comment by ${who} has nothing after ${settings.triggerPhrase}: nothing to do.` }
  if (comment.author.bot && !botAllowed(comment.author.login, settings.allowedBots))
    return { ignored: `${who} is a bot not listed in allowed-bots: its comment is not a request.` }
  const may = await deps.mayWrite(comment.author.login)
  if (may === undefined)
    return { ignored: `Could not read ${who}'s permission on ${comment.repo}: the comment is not acted on.` }
  if (!may) return { ignored: `${who} has no write access to ${comment.repo}: the comment is not a request.` }

  let prompt = asked
  if (prompt.length > MAX_PROMPT_CHARS) {
    deps.log.warning(
      `The request has ${formatCount(prompt.length)} characters; the first ${formatCount(MAX_PROMPT_CHARS)} are sent.`
    )
    prompt = prompt.slice(0, MAX_PROMPT_CHARS)
  }
  await acknowledge(comment, thread.api, deps.log)
  const marker = await thread.marker().catch(() => undefined)
  // A re-run of the run that handled this comment asks the same again, so its re-run record matches.
  const again = marker?.command?.id === comment.id ? marker.command : undefined
  const linked = again ? again.job : marker?.job
  const command = { author: comment.author.login, text: asked, id: comment.id }
  if (linked) {
    deps.log.info(`${settings.triggerPhrase} from ${who}: a follow-up to job ${inline(linked)}.`)
    return { ...settings, mode: 'message', jobId: linked, prompt, command: { ...command, kind: 'follow-up' } }
  }
  deps.log.info(`${settings.triggerPhrase} from ${who}: no job is linked to this pull request, so a new one.`)
  return { ...settings, mode: 'create', prompt, command: { ...command, kind: 'create' } }
}

/** A reaction says the command was read; reviews take none (GitHub has no reactions for them). */
async function acknowledge(comment: CommentEvent, api: ConversationApi, log: Log): Promise<void> {
  const kind: CommentKind | undefined =
    comment.event === 'issue_comment'
      ? 'issue'
      : comment.event === 'pull_request_review_comment'
        ? 'review-comment'
        : undefined
  if (!kind) return
  try {
    await api.react(kind, comment.id, 'eyes')
  } catch (error) {
    log.warning(refused('react to the comment', error, 'pull-requests: write (or issues: write)'))
  }
}

/**
 * The one comment the action keeps on an issue or pull request: found by its marker among the
 * comments of the token's own identity, created once, then updated in place.
 */
export class LinkBackThread {
  private found: Promise<IssueComment | undefined> | undefined
  private commentId: number | undefined

  constructor(
    readonly api: ConversationApi,
    readonly repository: string,
    readonly number: number,
    /** The login the token writes as (read once for the step). */
    private readonly identity: () => Promise<string>
  ) {}

  /** The action's comment, read once (later writes keep it current). Throws when GitHub refuses. */
  comment(): Promise<IssueComment | undefined> {
    this.found ??= this.read().then((list) => {
      const own = list[0]
      this.commentId = own?.id
      return own
    })
    return this.found
  }

  /** What the marker holds now. */
  async marker(): Promise<LinkMarker | undefined> {
    const own = await this.comment()
    return own && decodeMarker(own.body)
  }

  private last: Promise<unknown> = Promise.resolve()

  /**
   * Rewrites the comment from what its marker holds, after any update still under way: the re-run
   * record's save and the final link-back may overlap, and neither may lose what the other wrote.
   */
  update(render: (previous: LinkMarker | undefined) => string): Promise<void> {
    const next = this.last.then(async () => this.write(render(await this.marker())))
    this.last = next.catch(() => undefined)
    return next
  }

  /**
   * Writes `body` into the comment, creating it when there is none. After a create, a comment of
   * the action's that is older (a concurrent run's) wins: the new one is deleted and the old updated.
   */
  async write(body: string): Promise<void> {
    await this.comment()
    if (this.commentId !== undefined) {
      await this.api.updateComment(this.commentId, body)
      this.found = Promise.resolve({ id: this.commentId, body, author: '' })
      return
    }
    const created = await this.api.createComment(this.number, body)
    this.commentId = created.id
    this.found = Promise.resolve({ id: created.id, body, author: '' })
    // Only the duplicate this run made is removed: a concurrent run removes its own.
    const oldest = (await this.read())[0]
    if (oldest && oldest.id < created.id) {
      this.commentId = oldest.id
      this.found = Promise.resolve({ id: oldest.id, body, author: '' })
      await this.api.deleteComment(created.id)
      await this.api.updateComment(oldest.id, body)
    }
  }

  private async read(): Promise<IssueComment[]> {
    const me = await this.identity()
    return ownComments(await this.api.listComments(this.number), me)
  }
}

/**
 * The re-run record in the link-back comment, for triggers whose Actions cache is read-only: a
 * re-run reads the job from it and resumes instead of creating or messaging again. The marker holds
 * the record's key, which is the record itself, sealed (rerun/record.ts), as in the cache.
 */
export function commentRecords(
  thread: LinkBackThread,
  runUrl: string | undefined,
  command: HandledCommand | undefined
): RecordStore {
  return {
    available: true,
    lookup: async (prefix) => {
      try {
        const key = (await thread.marker())?.record
        return typeof key === 'string' && key.startsWith(prefix) ? { kind: 'found', key } : { kind: 'missing' }
      } catch (error) {
        return { kind: 'failed', message: errorMessage(error) }
      }
    },
    save: async (key) => {
      try {
        const lines = ['**Docs agent:** working on the job; this comment is updated when the step ends.']
        if (runUrl) lines.push('', markdownLink('workflow run', runUrl))
        await thread.update((previous) => commentBody(lines, { job: previous?.job, record: key, command }))
        return { kind: 'saved' }
      } catch (error) {
        return { kind: 'failed', message: errorMessage(error) }
      }
    }
  }
}

/** Where the job is linked back, as the step found them. */
export interface LinkTargets {
  /** The pull request that triggered the run (or was commented on). */
  thread: LinkBackThread | undefined
  /** The release of a tag run, when `release` is asked for. */
  release: { repository: string; tag: string } | undefined
  /** Comment on the docs pull request too. */
  docsPr: boolean
}

/** What the comment says about the job. */
export interface Report {
  state: RunState
  settings: Settings
}

/** The link-back comment: where the docs are, the job, the run, and how to ask for changes. */
export function renderLinkBack(
  { state, settings }: Report,
  deps: Pick<ConversationDeps, 'serverUrl' | 'runUrl'>
): string[] {
  const lines = [`**Docs agent:** ${headline(state, deps.serverUrl)}`]
  const facts = [state.jobId ? `job ${codeSpan(state.jobId)}` : undefined]
  if (state.job?.status) facts.push(`status ${codeSpan(state.job.status, 40)}`)
  if (deps.runUrl) facts.push(markdownLink('workflow run', deps.runUrl))
  const known = facts.filter((fact) => fact !== undefined)
  if (known.length) lines.push('', known.join(' · '))
  if (settings.command) {
    const what = settings.command.kind === 'follow-up' ? 'a follow-up' : 'a new job'
    lines.push('', `Last request: ${what}, from ${mention(settings.command.author)}.`)
  }
  if (state.jobId)
    lines.push('', `To ask for changes, comment ${codeSpan(`${settings.triggerPhrase} <what to change>`)} here.`)
  return lines
}

function headline(state: RunState, serverUrl: string | undefined): string {
  const pr = pullRequest(state)
  if (pr.kind === 'link') {
    const ref = parsePullRequestUrl(pr.url, serverUrl)
    return `docs pull request ${markdownLink(ref ? `${ref.owner}/${ref.repo}#${ref.number}` : pr.url, pr.url)}`
  }
  const status = codeSpan(state.job?.status ?? 'unknown', 40)
  switch (state.outcome) {
    case 'completed':
      return pr.kind === 'unusable'
        ? 'the job sent a pull request link that is not http(s).'
        : 'no docs changes were needed.'
    case 'failed':
    case 'archived':
      return `no docs pull request: the job ended ${status}.`
    case 'started':
    case 'timed-out':
    case 'cancelled':
      return state.jobId ? `no docs pull request yet: the job is ${status}.` : 'no job was started.'
    default:
      return state.jobId
        ? `no docs pull request yet: the step ended before the job did (${status}).`
        : 'no job was started: see the workflow run.'
  }
}

/**
 * After the step: the pull request's comment, the release notes' block and the docs pull
 * request's comment, each as asked for. Each refusal is one warning.
 */
export async function linkBack(report: Report, targets: LinkTargets, deps: ConversationDeps): Promise<void> {
  const { state, settings } = report
  // A dry run sends nothing, and a run nobody permitted leaves no trace on the pull request.
  if (settings.dryRun || state.outcome === 'not-permitted') return
  const { log } = deps
  if (targets.thread) {
    const thread = targets.thread
    try {
      await thread.update((previous) => {
        // The re-run record, when this trigger keeps one there, stays for a re-run of this run.
        const record = previous?.record
        const marker: LinkMarker = {
          job: state.jobId ?? previous?.job,
          ...(record ? { record } : {}),
          command: handledCommand(settings) ?? previous?.command
        }
        return commentBody(renderLinkBack(report, deps), marker)
      })
      log.info(`Linked back on ${thread.repository}#${thread.number}.`)
    } catch (error) {
      log.warning(
        refused(`comment on ${thread.repository}#${thread.number}`, error, 'pull-requests: write (or issues: write)')
      )
    }
  }
  const link = pullRequest(state)
  const docs = link.kind === 'link' ? link.url : undefined
  if (targets.release && docs) {
    const { repository, tag } = targets.release
    try {
      const api = deps.api(repository)
      const release = await api.release(tag)
      if (!release) log.info(`No release for ${inline(tag, 100)}: release notes not linked.`)
      else {
        const ref = parsePullRequestUrl(docs, deps.serverUrl)
        const block = `**Docs:** ${markdownLink(ref ? `${ref.owner}/${ref.repo}#${ref.number}` : docs, docs)}`
        const body = withReleaseBlock(release.body, block)
        if (body !== release.body) await api.updateRelease(release.id, body)
        log.info(`Linked back in the notes of release ${inline(tag, 100)}.`)
      }
    } catch (error) {
      log.warning(refused(`edit the notes of release ${inline(tag, 100)}`, error, 'contents: write'))
    }
  }
  const docsPr = parsePullRequestUrl(docs, deps.serverUrl)
  if (targets.docsPr && docsPr) {
    const repository = `${docsPr.owner}/${docsPr.repo}`
    const thread = new LinkBackThread(deps.api(repository), repository, docsPr.number, () => deps.identity())
    try {
      const source = targets.thread
        ? `${targets.thread.repository}#${targets.thread.number}`
        : targets.release
          ? `release ${inline(targets.release.tag, 100)} of ${targets.release.repository}`
          : 'a workflow'
      const lines = [`**Docs agent:** this pull request was opened for ${source}.`]
      if (deps.runUrl) lines.push('', markdownLink('Workflow run', deps.runUrl))
      lines.push(
        '',
        targets.thread
          ? `To ask for changes, comment ${codeSpan(`${settings.triggerPhrase} <what to change>`)} on ${targets.thread.repository}#${targets.thread.number}.`
          : `To ask for changes, send a follow-up to job ${codeSpan(state.jobId ?? '')}.`
      )
      await thread.write(commentBody(lines, { job: state.jobId }))
      log.info(`Linked back on the docs pull request ${repository}#${docsPr.number}.`)
    } catch (error) {
      log.warning(refused(`comment on ${repository}#${docsPr.number}`, error, `pull-requests: write on ${repository}`))
    }
  }
}

/** What the marker remembers of the command that drove the step. */
function handledCommand(settings: Settings): HandledCommand | undefined {
  const { command } = settings
  if (!command) return undefined
  return { id: command.id, kind: command.kind, job: settings.mode === 'message' ? settings.jobId : undefined }
}

/** GitHub said no: what was refused and the permission the token needs. */
function refused(what: string, error: unknown, permission: string): string {
  const status = (error as { status?: unknown }).status
  const code = typeof status === 'number' ? ` (HTTP ${status})` : ''
  return `Could not ${what}${code}: ${inline(errorMessage(error), 200)}. The 'github-token' input needs ${permission}; the outputs are unchanged.`
}

/** How the step talks on GitHub: the request it makes, where its re-run record lives, where it links back. */
export interface Conversation {
  settings: Settings
  records: RecordStore
  targets: LinkTargets
}

/**
 * Reads the trigger for the conversation: the comment's request (or why there is none), the
 * pull request or release to link back on, and, on triggers whose Actions cache is read-only, the
 * link-back comment as the re-run record.
 */
export async function converse(
  settings: Settings | CommandSettings,
  event: { name: string; trigger: Trigger; comment: CommentEvent | undefined; records: RecordStore },
  deps: ConversationDeps
): Promise<Conversation | Ignored> {
  const { trigger, comment } = event
  const pull = comment
    ? { repository: comment.repo, number: comment.pullNumber }
    : trigger.kind === 'pull-request'
      ? { repository: trigger.repo, number: trigger.number }
      : undefined
  const linking = settings.linkBack.has('pull-request')
  // A command reads the pull request's comment for its job even when it is not to be written.
  const thread =
    pull && (linking || settings.mode === 'command')
      ? new LinkBackThread(deps.api(pull.repository), pull.repository, pull.number, () => deps.identity())
      : undefined
  const resolved = settings.mode === 'command' ? await readCommand(settings, comment, thread, deps) : settings
  if ('ignored' in resolved) return resolved
  const keepsRecord = READ_ONLY_CACHE_EVENTS.includes(event.name) && thread && linking
  return {
    settings: resolved,
    records: keepsRecord ? commentRecords(thread, deps.runUrl, handledCommand(resolved)) : event.records,
    targets: {
      thread: linking ? thread : undefined,
      release:
        settings.linkBack.has('release') && trigger.kind === 'tag'
          ? { repository: trigger.repo, tag: trigger.tag }
          : undefined,
      docsPr: settings.linkBack.has('docs-pr')
    }
  }
}
