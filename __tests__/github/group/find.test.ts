import { describe, expect, it } from '@jest/globals'
import { groupCommentBody } from '../../../src/github/group/comment.js'
import { findGroupPull, MAX_SCANNED, type DocsPull, type DocsReads } from '../../../src/github/group/find.js'
import type { GroupKey, GroupRecord } from '../../../src/github/group/record.js'
import type { IssueComment } from '../../../src/github/conversation/marker.js'

const KEY = 'mint_key'
const ME = 'github-actions[bot]'
const group: GroupKey = { group: 'g', repository: 'acme/app', projectId: 'p', docsRepository: 'acme/docs' }
const record = (pr: number, extra: Partial<GroupRecord> = {}): GroupRecord => ({
  pr,
  job: `job_${pr}`,
  sources: [],
  earlier: 0,
  ...extra
})
const pull = (number: number): DocsPull => ({
  number,
  url: `https://github.com/acme/docs/pull/${number}`,
  head: `b${number}`
})

/** Open pull requests (newest first) and their comments, counting reads; `fail` throws for a read. */
function docs(
  pulls: number[],
  comments: Record<number, IssueComment[]>,
  fail?: (what: string) => unknown
): DocsReads & { reads: string[] } {
  const reads: string[] = []
  const maybe = (what: string): void => {
    reads.push(what)
    const error = fail?.(what)
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- a non-Error thrown is a case
    if (error) throw error
  }
  return {
    reads,
    // Each read is one request here: a fake neither retries nor pages.
    requests: () => reads.length,
    identity: () => Promise.resolve(ME),
    openPulls: () => {
      maybe('pulls')
      return Promise.resolve(pulls.map(pull))
    },
    comments: (number) => {
      maybe(`comments ${number}`)
      return Promise.resolve(comments[number] ?? [])
    }
  }
}

let nextId = 1
const own = (pr: number, extra: Partial<GroupRecord> = {}, author = ME): IssueComment => ({
  id: nextId++,
  author,
  body: groupCommentBody(KEY, group, record(pr, extra))
})

describe('finding the group docs pull request', () => {
  it('finds the newest open pull request carrying the record, and stops there', async () => {
    const reads = docs([9, 7, 5], { 9: [{ id: 1, author: 'mona', body: 'hi' }], 7: [own(7)], 5: [own(5)] })
    const found = await findGroupPull(KEY, group, reads)
    expect(found).toMatchObject({
      kind: 'found',
      pull: pull(7),
      record: { pr: 7, job: 'job_7' },
      ignored: [],
      requests: 3
    })
    expect(reads.reads).toEqual(['pulls', 'comments 9', 'comments 7'])
  })

  it("skips a run's own new pull request: another one of the group is what it looks for", async () => {
    const reads = docs([9, 7], { 9: [own(9)], 7: [own(7)] })
    expect(await findGroupPull(KEY, group, reads, 9)).toMatchObject({ kind: 'found', pull: pull(7) })
    expect(reads.reads).toEqual(['pulls', 'comments 7'])
  })

  it('finds nothing when no open pull request has it (merged or closed ones are not listed)', async () => {
    expect(await findGroupPull(KEY, group, docs([3, 2], {}))).toEqual({
      kind: 'none',
      scanned: 2,
      unread: 0,
      ignored: [],
      requests: 3
    })
  })

  it('ignores a copy by anyone else, and says so', async () => {
    const found = await findGroupPull(KEY, group, docs([4], { 4: [own(4, {}, 'mallory')] }))
    expect(found).toMatchObject({ kind: 'none', ignored: ['a copy of the record by mallory on acme/docs#4'] })
  })

  it("ignores a record sealed with another key, or another group's, or one moved from another pull request", async () => {
    const otherKey: IssueComment = { id: 90, author: ME, body: groupCommentBody('mint_old', group, record(4)) }
    const otherGroup: IssueComment = {
      id: 91,
      author: ME,
      body: groupCommentBody(KEY, { ...group, group: 'h' }, record(4))
    }
    const moved: IssueComment = { id: 92, author: ME, body: groupCommentBody(KEY, group, record(3)) }
    const found = await findGroupPull(KEY, group, docs([4], { 4: [otherKey, otherGroup, moved] }))
    expect(found).toMatchObject({
      kind: 'none',
      ignored: ['a record on acme/docs#4 (its seal does not verify with this api-key)']
    })
  })

  it('passes over a superseded record to an older one, and takes the newest comment of a pull request first', async () => {
    const older = own(6, { job: 'job_old' })
    const newer = own(6, { job: 'job_new' })
    const found = await findGroupPull(
      KEY,
      group,
      docs([8, 6], { 8: [own(8, { supersededBy: 10 })], 6: [older, newer] })
    )
    expect(found).toMatchObject({ kind: 'found', pull: pull(6), record: { job: 'job_new' }, commentId: newer.id })
  })

  it(`reads the comments of at most the ${MAX_SCANNED} newest open pull requests`, async () => {
    const many = Array.from({ length: MAX_SCANNED + 5 }, (_, i) => 100 - i)
    const reads = docs(many, { [many[MAX_SCANNED] ?? 0]: [own(many[MAX_SCANNED] ?? 0)] })
    // The ones past them are counted: the group's may be among them.
    expect(await findGroupPull(KEY, group, reads)).toMatchObject({ kind: 'none', scanned: MAX_SCANNED, unread: 5 })
    expect(reads.reads).toHaveLength(MAX_SCANNED + 1)
  })

  it('is unreadable when a read fails (the client has retried what was worth it) or is refused: never a guess', async () => {
    const always = docs([7], {}, () => Object.assign(new Error('Server Error'), { status: 500 }))
    expect(await findGroupPull(KEY, group, always)).toEqual({
      kind: 'unreadable',
      message: 'HTTP 500: Server Error',
      network: false,
      requests: 1
    })
    const refused = docs([7], {}, (what) =>
      what === 'comments 7' ? Object.assign(new Error('Not Found'), { status: 404 }) : undefined
    )
    expect(await findGroupPull(KEY, group, refused)).toEqual({
      kind: 'unreadable',
      message: 'HTTP 404: Not Found',
      network: false,
      requests: 2
    })
    const odd = docs([], {}, () => 'not an error')
    expect(await findGroupPull(KEY, group, odd)).toMatchObject({ kind: 'unreadable', message: 'not an error' })
  })

  it('says the network when GitHub could not be reached, not a status', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:443'), {
      status: 500,
      request: { url: 'https://api.github.com/repos/acme/docs/pulls' },
      cause: Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:443'), { code: 'ECONNREFUSED' })
    })
    expect(
      await findGroupPull(
        KEY,
        group,
        docs([7], {}, () => refused)
      )
    ).toMatchObject({
      kind: 'unreadable',
      message: 'could not reach GitHub at api.github.com: connect ECONNREFUSED 10.0.0.1:443',
      network: true
    })
  })
})
