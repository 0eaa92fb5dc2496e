/**
 * Which pull request `labels` may go to. The link comes from the Agent API, and the labels go out
 * with the workflow's token through `GITHUB_API_URL`: only a pull request in the job's own
 * repository (`source.repository`), on the GitHub the token is for (`GITHUB_SERVER_URL`), is
 * labelled, so a wrong or hostile link never spends the token elsewhere.
 */
import { inline } from '../base/text.js'
import { httpUrl, parsePullRequestUrl, type PullRequestRef } from './pr-link.js'

export type LabelTarget = { kind: 'label'; pr: PullRequestRef } | { kind: 'refused'; reason: string }

const DEFAULT_SERVER = 'https://github.com'

/** The pull request to label, or why not; undefined when there is no link at all. */
export function labelTarget(
  prLink: string | undefined,
  sourceRepository: string | undefined,
  serverUrl: string | undefined
): LabelTarget | undefined {
  if (!prLink) return undefined
  const pr = parsePullRequestUrl(prLink, serverUrl)
  if (!pr) return { kind: 'refused', reason: 'it is not a pull request on this GitHub server' }
  const server = hostOf(serverUrl || DEFAULT_SERVER)
  const prHost = new URL(prLink).host
  if (prHost !== server) {
    return {
      kind: 'refused',
      reason: `it is on ${inline(prHost, 100)}, and the github-token is for ${inline(server ?? 'an unreadable GITHUB_SERVER_URL', 100)}`
    }
  }
  const source = repositoryOf(sourceRepository)
  if (!source) {
    return {
      kind: 'refused',
      reason: sourceRepository
        ? `the job's repository (${inline(sourceRepository, 200)}) is not a GitHub repository URL`
        : 'the job names no repository to check it against'
    }
  }
  const same =
    source.host === prHost &&
    source.owner.toLowerCase() === pr.owner.toLowerCase() &&
    source.repo.toLowerCase() === pr.repo.toLowerCase()
  if (!same) {
    return { kind: 'refused', reason: `it is not in the job's repository (${inline(sourceRepository ?? '', 200)})` }
  }
  return { kind: 'label', pr }
}

// The URL parser lower-cases http(s) hosts.
function hostOf(url: string): string | undefined {
  const href = httpUrl(url)
  return href === undefined ? undefined : new URL(href).host
}

/** `https://{host}/{owner}/{repo}` (a `.git` suffix or a trailing slash allowed), as the API gives it. */
function repositoryOf(url: string | undefined): { host: string; owner: string; repo: string } | undefined {
  const href = httpUrl(url)
  if (!href) return undefined
  const { host, pathname } = new URL(href)
  const match = /^\/([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+?)(?:\.git)?\/?$/.exec(pathname)
  if (!match) return undefined
  const [, owner = '', repo = ''] = match
  return { host, owner, repo }
}
