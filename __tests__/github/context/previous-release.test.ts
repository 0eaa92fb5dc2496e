/** The previous release is found reading as few tags as the prefixes allow. */
import { expect, it } from '@jest/globals'
import { findPreviousRelease } from '../../../src/github/context/previous-release.js'
import type { TagRef } from '../../../src/github/reader.js'
import { parseTag } from '../../../src/github/context/version.js'

const TAGS = ['v0.9.0', 'v1.0.0', 'v1.1.0', 'v10.0.0', 'v2.0.0-rc.1', 'pkg@1.0.0', 'latest']
const ref = (name: string): TagRef => ({ name, type: 'commit', sha: `sha-${name}` })

async function find(tag: string, fail: string[] = []) {
  const asked: string[] = []
  const version = parseTag(tag)
  if (!version) throw new Error(`${tag} is not a version`)
  const found = await findPreviousRelease(version, (prefix) => {
    asked.push(prefix)
    return Promise.resolve(fail.includes(prefix) ? undefined : TAGS.filter((t) => t.startsWith(prefix)).map(ref))
  })
  return { ...found, asked, refs: found.refs?.map((r) => r.name) }
}

it('a release within its major: one read of the major', async () => {
  expect(await find('v1.2.0')).toEqual({
    previous: 'v1.1.0',
    refs: ['v1.0.0', 'v1.1.0', 'v10.0.0'],
    complete: true,
    asked: ['v1']
  })
})

it('a new major: the major, then the component; the first read is kept (it holds the tag)', async () => {
  expect(await find('v2.0.0')).toEqual({
    previous: 'v1.1.0',
    refs: ['v2.0.0-rc.1'],
    complete: true,
    asked: ['v2', 'v']
  })
})

it('none lower in the component: complete, no previous', async () => {
  expect(await find('pkg@0.1.0')).toEqual({ previous: undefined, refs: [], complete: true, asked: ['pkg@0', 'pkg@'] })
})

it('a failed read stops the search: not complete', async () => {
  expect(await find('v2.0.0', ['v'])).toEqual({
    previous: undefined,
    refs: ['v2.0.0-rc.1'],
    complete: false,
    asked: ['v2', 'v']
  })
  expect(await find('v1.2.0', ['v1'])).toEqual({ previous: undefined, refs: undefined, complete: false, asked: ['v1'] })
})
