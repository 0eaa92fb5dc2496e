import { createHmac, hkdfSync } from 'node:crypto'
import { describe, expect, it } from '@jest/globals'
import { groupCommentBody, sourceLine } from '../../../src/github/group/comment.js'
import { decodeMarker, markerKey } from '../../../src/github/conversation/marker.js'
import {
  MAX_SOURCES,
  mergeRecords,
  openGroupRecord,
  sealGroupRecord,
  withSource,
  type GroupKey,
  type GroupRecord
} from '../../../src/github/group/record.js'

const KEY = 'mint_key_one'

/** A hand-made payload sealed with the right key: what only the key holder can write. */
function reseal(payload: string): string {
  const body = Buffer.from(payload).toString('base64url')
  const key = Buffer.from(hkdfSync('sha256', KEY, '', 'docs-agent-action group record v1', 32))
  const mac = createHmac('sha256', key).update(body).digest('hex').slice(0, 32)
  return `<!-- docs-agent-action:group ${body}.${mac} -->`
}
const group: GroupKey = { group: 'merged-prs', repository: 'acme/app', projectId: 'proj', docsRepository: 'acme/docs' }
const record: GroupRecord = {
  pr: 12,
  job: 'job_1',
  sources: [
    {
      kind: 'pull-request',
      label: 'acme/app#41',
      url: 'https://github.com/acme/app/pull/41',
      run: 'https://github.com/acme/app/actions/runs/1',
      via: 'created'
    }
  ],
  earlier: 0,
  last: 'a'.repeat(40)
}

describe('the group record', () => {
  it('opens what it sealed, for the same group, key and pull request', () => {
    const marker = sealGroupRecord(KEY, group, record)
    expect(marker).toMatch(/^<!-- docs-agent-action:group [A-Za-z0-9_-]+\.[0-9a-f]{32} -->$/)
    expect(openGroupRecord(KEY, group, 12, `text\n${marker}`)).toEqual({
      kind: 'found',
      group: group.group,
      record: { ...record, supersededBy: undefined }
    })
  })

  it("without a group to match, opens whichever group's record it is, and names that group", () => {
    const marker = sealGroupRecord(KEY, group, record)
    const { group: _name, ...anyGroup } = group
    expect(openGroupRecord(KEY, anyGroup, 12, marker)).toMatchObject({ kind: 'found', group: group.group })
    expect(openGroupRecord(KEY, { ...anyGroup, projectId: 'other' }, 12, marker)).toEqual({
      kind: 'rejected',
      reason: 'it is for another project'
    })
    expect(openGroupRecord(KEY, anyGroup, 13, marker).kind).toBe('rejected')
  })

  it('does not verify with another API key: a new key starts a new group pull request', () => {
    const marker = sealGroupRecord(KEY, group, record)
    expect(openGroupRecord('mint_key_two', group, 12, marker)).toEqual({
      kind: 'rejected',
      reason: 'its seal does not verify with this api-key'
    })
  })

  it.each([
    ['group', { ...group, group: 'other' }, 'it is for another group'],
    ['repository', { ...group, repository: 'acme/fork' }, 'it is for another workflow repository'],
    ['project', { ...group, projectId: 'p2' }, 'it is for another project'],
    ['docs repository', { ...group, docsRepository: 'evil/docs' }, 'it is for another docs repository']
  ])('is bound to its %s', (_, key, reason) => {
    expect(openGroupRecord(KEY, key, 12, sealGroupRecord(KEY, group, record))).toEqual({ kind: 'rejected', reason })
  })

  it('is bound to its pull request: a copy on another one is not followed', () => {
    expect(openGroupRecord(KEY, group, 13, sealGroupRecord(KEY, group, record))).toEqual({
      kind: 'rejected',
      reason: 'it was written for another pull request'
    })
  })

  it('rejects an edited payload, and one that is not a record', () => {
    const marker = sealGroupRecord(KEY, group, record)
    const [, payload = '', tag = ''] = /group ([^.]+)\.([0-9a-f]+)/.exec(marker) ?? []
    const edited = Buffer.from(Buffer.from(payload, 'base64url').toString('utf8').replace('job_1', 'job_2')).toString(
      'base64url'
    )
    expect(openGroupRecord(KEY, group, 12, marker.replace(payload, edited)).kind).toBe('rejected')
    expect(openGroupRecord(KEY, group, 12, marker.replace(tag, '0'.repeat(32))).kind).toBe('rejected')
    expect(openGroupRecord(KEY, group, 12, reseal('[1]'))).toEqual({
      kind: 'rejected',
      reason: 'it is not a record this version reads'
    })
    expect(openGroupRecord(KEY, group, 12, reseal('{not json')).kind).toBe('rejected')
    expect(openGroupRecord(KEY, group, 12, 'no marker')).toEqual({ kind: 'none' })
  })

  it('needs a job, and keeps only well-formed sources', () => {
    const noJob = sealGroupRecord(KEY, group, { ...record, job: '' })
    expect(openGroupRecord(KEY, group, 12, noJob)).toEqual({ kind: 'rejected', reason: 'it names no job' })
    const odd = sealGroupRecord(KEY, group, {
      ...record,
      sources: [
        { kind: 'bogus', label: 'x', via: 'created' } as never,
        { kind: 'release', label: 'v1', via: 'follow-up' }
      ]
    })
    const opened = openGroupRecord(KEY, group, 12, odd)
    expect(opened.kind === 'found' && opened.record.sources).toEqual([
      { kind: 'release', label: 'v1', url: undefined, run: undefined, via: 'follow-up' }
    ])
  })

  it('rejects a record of another version', () => {
    expect(openGroupRecord(KEY, group, 12, reseal(JSON.stringify({ v: 2, ...group, ...record })))).toEqual({
      kind: 'rejected',
      reason: 'it is not a record this version reads'
    })
  })

  it('stays bounded: the oldest sources are dropped and counted', () => {
    let grown: GroupRecord = { ...record, sources: [] }
    for (let i = 1; i <= MAX_SOURCES + 3; i++)
      grown = withSource(grown, { kind: 'pull-request', label: `#${i}`, via: 'follow-up' })
    expect(grown.sources).toHaveLength(MAX_SOURCES)
    expect(grown.sources[0]?.label).toBe('#4')
    expect(grown.earlier).toBe(3)
  })

  it("merged with what another run wrote meanwhile: every source once, oldest first, and either run's outsider mark", () => {
    const added = (label: string) => ({ kind: 'pull-request' as const, label, via: 'follow-up' as const })
    const read = withSource(record, added('acme/app#43'))
    const now = {
      ...withSource(withSource(record, added('acme/app#45')), added('acme/app#47')),
      untrusted: true as const
    }
    const merged = mergeRecords(read, now)
    expect(merged.sources.map((s) => s.label)).toEqual(['acme/app#41', 'acme/app#43', 'acme/app#45', 'acme/app#47'])
    expect(merged.untrusted).toBe(true)
    expect(mergeRecords({ ...now, untrusted: true }, { ...now, untrusted: undefined })).toEqual(now)
    expect(mergeRecords(record, record)).toEqual({ ...record, untrusted: undefined })
  })

  it('merged at the cap: a source the cap dropped meanwhile is not listed again, and the count stays right', () => {
    let full: GroupRecord = { ...record, sources: [] }
    for (let i = 1; i <= MAX_SOURCES; i++)
      full = withSource(full, { kind: 'pull-request', label: `#${i}`, via: 'follow-up' })
    const now = withSource(full, { kind: 'pull-request', label: '#51', via: 'follow-up' })
    const merged = mergeRecords(full, now)
    expect([merged.sources[0]?.label, merged.sources.length, merged.earlier]).toEqual(['#2', MAX_SOURCES, 1])
    // One `read` held that `now` lacks (written over by an older run) comes back, and the oldest is counted.
    const lost = mergeRecords(withSource(full, { kind: 'push', label: 'main @ 1a2b3c4', via: 'follow-up' }), now)
    expect([lost.sources[0]?.label, lost.sources.at(-1)?.label, lost.earlier]).toEqual(['#3', '#51', 2])
  })
})

describe('the group comment', () => {
  it('lists every source with its run, says how the job goes on, and carries both markers', () => {
    const body = groupCommentBody(
      KEY,
      group,
      withSource(record, {
        kind: 'release',
        label: 'v1.2.0',
        url: 'https://github.com/acme/app/releases/tag/v1.2.0',
        via: 'follow-up'
      })
    )
    expect(body).toContain('this pull request gathers the docs changes of group `merged-prs` of acme/app')
    expect(body).toContain('Sources (2), oldest first:')
    expect(body).toContain(
      '- pull request [acme/app#41](https://github.com/acme/app/pull/41) · [workflow run](https://github.com/acme/app/actions/runs/1) · started the job'
    )
    expect(body).toContain('- release [v1.2.0](https://github.com/acme/app/releases/tag/v1.2.0) · added by a follow-up')
    expect(decodeMarker(body, { key: markerKey(KEY), repository: group.docsRepository, number: 12 })?.job).toBe('job_1')
    expect(openGroupRecord(KEY, group, 12, body).kind).toBe('found')
    expect(body).not.toContain('Superseded')
  })

  it('says when it was superseded, and counts sources no longer listed', () => {
    const body = groupCommentBody(KEY, group, { ...record, supersededBy: 15, earlier: 4 })
    expect(body.startsWith('**Superseded** by acme/docs#15: later changes of group `merged-prs` go there.')).toBe(true)
    expect(body).toContain('Sources (5), oldest first:')
    expect(body).toContain('- … 4 earlier, no longer listed')
  })

  it('shows a source without a page as code, and untrusted labels inert', () => {
    expect(sourceLine({ kind: 'push', label: 'main @ 1a2b3c4', via: 'created' })).toBe(
      '- push `main @ 1a2b3c4` · started the job'
    )
    expect(sourceLine({ kind: 'schedule', label: 'x`y', via: 'follow-up' })).toBe(
      "- scheduled run `x'y` · added by a follow-up"
    )
    expect(sourceLine({ kind: 'manual', label: 'a', via: 'created' })).toContain('manual run')
    expect(sourceLine({ kind: 'other', label: 'a', via: 'created' })).toContain('- run `a`')
  })
})
