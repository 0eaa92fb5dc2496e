/**
 * The context's reads of GitHub: counted, their failures collected for the one warning, and
 * GitHub's text kept as a reviewer sees it rendered.
 */
import type { GitHubReader } from '../client.js'
import { visibleText } from '../../base/hidden.js'
import type { ContextOptions } from './context.js'

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
  requests: () => number
  /** GitHub's text as a reviewer sees it rendered: what is hidden there never reaches the agent. */
  visible: <T>(value: T) => Promise<T>
  /** Characters removed as hidden so far. */
  hidden: () => number
}

/** Reads counted, and what failed collected for the one warning. */
export function reading(options: ContextOptions): Reading {
  const missing: Missing[] = []
  let requests = 0
  let hidden = 0
  const visible = <T>(value: T): Promise<T> => visibleText(value, (removed) => (hidden += removed))
  const read: Read = async (what, permission, get) => {
    if (!options.reader) {
      missing.push({ what, permission, error: new Error("the 'github-token' input is empty") })
      return undefined
    }
    requests++
    try {
      return await visible(await get(options.reader))
    } catch (error) {
      missing.push({ what, permission, error })
      return undefined
    }
  }
  return { read, missing, requests: () => requests, visible, hidden: () => hidden }
}
