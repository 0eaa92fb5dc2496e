/**
 * The context's reads of GitHub: counted, their failures collected for the one warning, and
 * GitHub's text kept as a reviewer sees it rendered.
 */
import type { GitHubReader } from '../reader.js'
import { visibleText } from '../../base/hidden.js'

export const CONTENTS = '`contents: read`'

/** A read that failed, for the one warning. */
export interface Missing {
  what: string
  permission: string
  error: unknown
}

export type Read = <T>(
  what: string,
  permission: string,
  get: (reader: GitHubReader) => Promise<T>
) => Promise<T | undefined>

/** What `reading` gives: reads counted, what failed collected for the one warning, hidden text removed. */
export interface Reading {
  read: Read
  missing: Missing[]
  /** The requests the reads sent: every try and every page. */
  requests: () => number
  /** GitHub's text as a reviewer sees it rendered: what is hidden there never reaches the agent. */
  visible: <T>(value: T) => Promise<T>
  /** Characters removed as hidden so far. */
  hidden: () => number
}

/** Reads of `reader` (undefined without a token) counted, and what failed collected for the one warning. */
export function reading(reader: GitHubReader | undefined): Reading {
  const missing: Missing[] = []
  /** When each of `missing` started, among the reads: the warning lists them in that order, whenever they failed. */
  const starts: number[] = []
  let hidden = 0
  const visible = <T>(value: T): Promise<T> => visibleText(value, (removed) => (hidden += removed))
  const failed = (start: number, failure: Missing): void => {
    const at = starts.filter((earlier) => earlier < start).length
    starts.splice(at, 0, start)
    missing.splice(at, 0, failure)
  }
  let started = 0
  const read: Read = async (what, permission, get) => {
    const start = started++
    if (!reader) {
      failed(start, { what, permission, error: new Error("the 'github-token' input is empty") })
      return undefined
    }
    try {
      return await visible(await get(reader))
    } catch (error) {
      failed(start, { what, permission, error })
      return undefined
    }
  }
  return { read, missing, requests: () => reader?.requests() ?? 0, visible, hidden: () => hidden }
}
