/**
 * The job linked back where people look: one comment on the pull request (updated in place by the
 * progress, re-runs, later runs and follow-ups), a block in the release notes, a comment on the
 * docs pull request. Each is written from the run's state (link-back-text.ts) as the job goes
 * (progress.ts) and at the end. Whatever GitHub refuses is one warning, and that target is written
 * no more in the step; the outputs and the result stand.
 */
import type { Log } from '../../base/log.js'
import { formatCount, inline } from '../../base/text.js'
import { refused, type ConversationApi } from '../../github/conversation/api.js'
import { DOCS_TOKEN } from '../../github/docs-client.js'
import { codeSpan, withReleaseBlock } from '../../github/conversation/markdown.js'
import { commentBody, markerKey, type LinkMarker } from '../../github/conversation/marker.js'
import { LinkBackThread } from '../../github/conversation/thread.js'
import { holdsGroupRecord } from '../../github/group/record.js'
import { labelTarget } from '../../github/labels.js'
import type { PermissionResult } from '../../github/permissions.js'
import { pullRequest } from '../../report/verdict.js'
import { handledCommand } from '../comment/records.js'
import { docsPrLines, releaseBlock, renderLinkBack, type LinkBackReport } from './link-back-text.js'

/** What the conversation needs from the step's surroundings. */
export interface ConversationDeps {
  log: Log
  /** The login `github-token` writes as (read once). */
  identity(): Promise<string>
  /** Comments, reactions and release notes of `owner/name`. */
  api(repository: string): ConversationApi
  /** The same, with `docs-token`: the docs pull request's comment. */
  docs: Pick<ConversationDeps, 'identity' | 'api'>
  /** `login`'s permission on the workflow's repository (a command needs write, maintain or admin), or why it is not known. */
  permission(login: string): Promise<PermissionResult>
  /** `GITHUB_SERVER_URL`. */
  serverUrl: string | undefined
  /** The workflow run's page, when on a runner. */
  runUrl: string | undefined
}

/** Where the job is linked back, as the step found them. */
export interface LinkTargets {
  /** The pull request that triggered the run (or was commented on). */
  thread: LinkBackThread | undefined
  /** The release of a tag run, when `release` is asked for. */
  release: { repository: string; tag: string } | undefined
  /** Comment on the docs pull request too. */
  docsPr: boolean
  /** Whether this run resumed an older run's record: a later request is what the comment reports. */
  superseded?: (() => boolean) | undefined
}

type Target = 'pull-request' | 'release' | 'docs-pr'

/** GitHub refuses release notes longer than this: 422 "body is too long (maximum is 125000 characters)". */
export const MAX_RELEASE_BODY_CHARS = 125_000

/** The link-back's writes of one step. */
export class LinkBack {
  /** Targets GitHub refused once: written no more. */
  readonly #refused = new Set<Target>()
  /** The release's writes, one after another (each reads the notes it edits). */
  #release: Promise<void> = Promise.resolve()
  /** The docs pull request, judged once per link: its comment thread, or undefined when it is not commented on. */
  #docs: { url: string; thread: LinkBackThread | undefined } | undefined

  constructor(
    /** What is said, taken at each write: the state as it is then (a copy). */
    private readonly report: () => LinkBackReport,
    private readonly targets: LinkTargets,
    private readonly deps: ConversationDeps
  ) {}

  /**
   * Writes each target from the state as it is now (a body a target already has is not written
   * again): `final` at the step's end, which is logged; else the progress. Never throws. The pull
   * request's comment is asked for at once, so that a record saved in it at the same moment goes
   * out in the same write (thread.ts).
   */
  async write(final: boolean): Promise<void> {
    const report = this.report()
    const { state, settings } = report
    // A dry run sends nothing; a run nobody permitted, or a skipped one, leaves no trace.
    if (settings.dryRun || state.outcome === 'not-permitted' || state.outcome === 'skipped') return
    if (!final) {
      const docs = state.job?.prLink ? `, docs pull request ${inline(state.job.prLink, 200)}` : ''
      this.deps.log.debug(
        `Progress: job ${inline(state.jobId ?? '')} ${inline(state.job?.status ?? 'unknown', 40)}${docs}`
      )
    }
    await Promise.all([
      this.onPullRequest(report, final),
      this.inRelease(report, final),
      this.onDocsPullRequest(report, final)
    ])
  }

  private async onPullRequest(report: LinkBackReport, final: boolean): Promise<void> {
    const { thread, superseded } = this.targets
    if (!thread || this.#refused.has('pull-request')) return
    if (superseded?.()) {
      if (final) this.deps.log.info('A later request is linked back on the pull request: its comment is left as it is.')
      return
    }
    try {
      await thread.update((previous) => {
        // A write queued before GitHub refused one is not sent.
        if (this.#refused.has('pull-request')) return undefined
        // The re-run records, when this trigger keeps them there, stay for re-runs of these runs.
        const job = report.state.jobId ?? previous?.job
        // Kept with its job: a later /docs command's follow-up inherits it (step/outsider.ts).
        const outsider = report.state.outsider || (previous?.outsider && previous.job === job)
        const marker: LinkMarker = {
          job,
          records: previous?.records,
          command: handledCommand(report.settings) ?? previous?.command,
          ...(outsider ? { outsider: true } : {})
        }
        return commentBody(renderLinkBack(report, this.deps), marker, thread.seal)
      })
      if (final) this.deps.log.info(`Linked back on ${thread.repository}#${thread.number}.`)
    } catch (error) {
      const what = `comment on ${thread.repository}#${thread.number}`
      this.refusedOnce('pull-request', refused(what, error, 'pull-requests: write (or issues: write)'))
    }
  }

  private inRelease(report: LinkBackReport, final: boolean): Promise<void> {
    const { release } = this.targets
    // Only a job has a state to show; a run that started none leaves the notes as they are.
    if (!release || !report.state.jobId) return Promise.resolve()
    this.#release = this.#release.then(() => this.writeRelease(release, report, final))
    return this.#release
  }

  private async writeRelease(
    { repository, tag }: { repository: string; tag: string },
    report: LinkBackReport,
    final: boolean
  ): Promise<void> {
    if (this.#refused.has('release')) return
    const { log } = this.deps
    const name = inline(tag, 100)
    try {
      const api = this.deps.api(repository)
      const notes = await api.release(tag)
      if (!notes) {
        if (final) log.info(`No release for ${name}: release notes not linked.`)
        return
      }
      const body = withReleaseBlock(notes.body, releaseBlock(report, this.deps))
      if (body.length > MAX_RELEASE_BODY_CHARS) {
        this.refusedOnce(
          'release',
          `Not linking the job back in the notes of release ${name}: with the docs block they would be ${formatCount(body.length)} characters, over GitHub's limit of ${formatCount(MAX_RELEASE_BODY_CHARS)}; the outputs are unchanged.`
        )
        return
      }
      if (body !== notes.body) await api.updateRelease(notes.id, body)
      if (final) log.info(`Linked back in the notes of release ${name}.`)
    } catch (error) {
      this.refusedOnce('release', refused(`edit the notes of release ${name}`, error, 'contents: write'))
    }
  }

  private async onDocsPullRequest(report: LinkBackReport, final: boolean): Promise<void> {
    const { state } = report
    const link = pullRequest(state)
    // A grouped run's docs pull request has the group's comment: one comment from the action, not two.
    if (!this.targets.docsPr || link.kind !== 'link' || state.group || this.#refused.has('docs-pr')) return
    const thread = this.docsThread(link.url, report)
    if (!thread) return
    const where = `${thread.repository}#${thread.number}`
    const { release } = this.targets
    const source = {
      thread: this.targets.thread && `${this.targets.thread.repository}#${this.targets.thread.number}`,
      // A tag may hold `@user`, `owner/repo#1` or HTML: written as code, it stays text.
      release: release && `release ${codeSpan(release.tag, 100)} of ${release.repository}`
    }
    try {
      await thread.update((_marker, body) =>
        // A group's comment (its record included) is the group's runs' alone: a `/docs` follow-up to
        // the group's job leaves it as it is, or the next run of the group would not find its record.
        this.#refused.has('docs-pr') || (body !== undefined && holdsGroupRecord(body))
          ? undefined
          : commentBody(
              docsPrLines(report, source, this.deps),
              { job: state.jobId, ...(state.outsider ? { outsider: true } : {}) },
              thread.seal
            )
      )
      if (final) this.deps.log.info(`Linked back on the docs pull request ${where}.`)
    } catch (error) {
      const needs = `pull-requests: write on ${thread.repository}`
      this.refusedOnce('docs-pr', refused(`comment on ${where}`, error, needs, DOCS_TOKEN))
    }
  }

  /** The docs pull request's thread: only one in the job's repository is commented on, as `labels` does. */
  private docsThread(url: string, { state, settings }: LinkBackReport): LinkBackThread | undefined {
    if (this.#docs?.url === url) return this.#docs.thread
    const target = labelTarget(url, state.job?.source?.repository, this.deps.serverUrl)
    let thread: LinkBackThread | undefined
    if (target?.kind === 'label') {
      const { owner, repo, number } = target.pr
      const repository = `${owner}/${repo}`
      const { docs } = this.deps
      const identity = (): Promise<string> => docs.identity()
      thread = new LinkBackThread(docs.api(repository), repository, number, identity, markerKey(settings.apiKey))
    } else {
      this.deps.log.warning(`Not commenting on the docs pull request ${inline(url, 200)}: ${target?.reason ?? ''}.`)
    }
    this.#docs = { url, thread }
    return thread
  }

  /** The first refusal of a target is one warning; the target is written no more. */
  private refusedOnce(target: Target, warning: string): void {
    if (this.#refused.has(target)) return
    this.#refused.add(target)
    this.deps.log.warning(warning)
  }
}
