/**
 * The previous release of a tag, reading only tags of its component: first those of its major
 * (`v1`, which also brings `v10`…, left aside by the parser), then the whole component (`v`). A
 * patch, minor or pre-release costs one request however many tags the repository has; a new
 * major two. (GitHub has no way to ask for fewer: matching-refs takes a prefix only.)
 */
import type { TagRef } from '../reader.js'
import { previousVersion, type VersionTag } from './version.js'

export interface PreviousRelease {
  /** The previous release's tag; undefined when the component has no lower version, or a read failed. */
  previous: string | undefined
  /** The tags of the first read (they include `tag` itself); undefined when it failed. */
  refs: TagRef[] | undefined
  /** Whether every read needed succeeded, so that `previous` undefined means there is none. */
  complete: boolean
}

/** `list(prefix)`: the tags starting with `prefix`, or undefined when they could not be read. */
export async function findPreviousRelease(
  tag: VersionTag,
  list: (prefix: string) => Promise<TagRef[] | undefined>
): Promise<PreviousRelease> {
  let first: TagRef[] | undefined
  for (const prefix of tag.prefixes) {
    const refs = await list(prefix)
    if (!refs) return { previous: undefined, refs: first, complete: false }
    first ??= refs
    // Every lower version sharing this prefix is above any that does not, so the first found is it.
    const previous = previousVersion(
      tag,
      refs.map((ref) => ref.name)
    )
    if (previous !== undefined) return { previous, refs: first, complete: true }
  }
  return { previous: undefined, refs: first, complete: true }
}
