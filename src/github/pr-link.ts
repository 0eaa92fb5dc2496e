/** A pull request a `prLink` points at. */
export interface PullRequestRef {
  owner: string
  repo: string
  number: number
}

/** The link, normalised, when it is an absolute http(s) URL; undefined otherwise. */
export function httpUrl(link: string | undefined): string | undefined {
  if (!link) return undefined
  try {
    const url = new URL(link)
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined
  } catch {
    return undefined
  }
}

const NAME = /^[A-Za-z0-9_.-]+$/

/**
 * The pull request behind a link of the form `https://{host}/{owner}/{repo}/pull/{number}`
 * (trailing path such as `/files` allowed), on github.com or on the host of
 * `GITHUB_SERVER_URL` (GitHub Enterprise). Undefined for anything else.
 */
export function parsePullRequestUrl(
  link: string | undefined,
  serverUrl: string | undefined
): PullRequestRef | undefined {
  const href = httpUrl(link)
  if (!href) return undefined
  const url = new URL(href)
  const hosts = new Set(['github.com'])
  if (serverUrl) {
    try {
      hosts.add(new URL(serverUrl).host.toLowerCase())
    } catch {
      // A malformed GITHUB_SERVER_URL only means we recognise github.com alone.
    }
  }
  if (!hosts.has(url.host.toLowerCase())) return undefined
  const [owner, repo, pull, number] = url.pathname.split('/').slice(1)
  if (!owner || !repo || pull !== 'pull' || !number || !/^[1-9]\d{0,9}$/.test(number)) return undefined
  if (!NAME.test(owner) || !NAME.test(repo) || repo === '.' || repo === '..') return undefined
  return { owner, repo, number: Number(number) }
}
