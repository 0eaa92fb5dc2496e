/**
 * The comment thread: the one comment the action keeps on an issue or pull request, found by its
 * marker, created once, then updated in place.
 */
import type { ConversationApi } from './api.js'
import { decodeMarker, ownComments, type IssueComment, type LinkMarker, type MarkerSeal } from './marker.js'

/** A comment's new body from its marker and body (both undefined when there is none yet); undefined: unchanged. */
export type Render = (previous: LinkMarker | undefined, body: string | undefined) => string | undefined

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
    private readonly identity: () => Promise<string>,
    /** The marker's key (`markerKey`): a comment whose marker does not verify is not the action's. */
    private readonly key: Buffer
  ) {}

  /** What this thread's markers are sealed with. */
  get seal(): MarkerSeal {
    return { key: this.key, repository: this.repository, number: this.number }
  }

  /** The action's comment, read once until the next update reads it again. Throws when GitHub refuses. */
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
    return own && decodeMarker(own.body, this.seal)
  }

  private last: Promise<unknown> = Promise.resolve()
  /** The renders of the next write, and that write: updates asked for while one is under way go out as one. */
  private next: { renders: Render[]; written: Promise<void> } | undefined

  /**
   * Rewrites the comment from what its marker holds, after any update still under way: the re-run
   * record's save, the progress and the final link-back may overlap, and none may lose what another
   * wrote. `render` gets the comment's body too; when it returns undefined, it changes nothing.
   * Updates asked for while another is under way wait for it, then are rendered in order and
   * written once; a body the comment already has is not written again. Each write renders from
   * the comment as GitHub has it then, read again: another run may have written it since (the
   * merged pull request's run still waiting for its job while a `/docs` command's run saves its
   * re-run record; the examples put the two in different concurrency groups), and rendering from
   * what this run read earlier would drop that record, so a re-run of that run would send again.
   */
  update(render: Render): Promise<void> {
    if (!this.next) {
      const renders: Render[] = []
      const written = this.last.then(async () => {
        this.next = undefined
        this.found = undefined
        const current = (await this.comment())?.body
        let body = current
        for (const each of renders)
          body = each(body === undefined ? undefined : decodeMarker(body, this.seal), body) ?? body
        if (body !== undefined && body !== current) await this.write(body)
      })
      this.next = { renders, written }
      this.last = written.catch(() => undefined)
    }
    this.next.renders.push(render)
    return this.next.written
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
    return ownComments(await this.api.listComments(this.number), me, this.seal)
  }
}
