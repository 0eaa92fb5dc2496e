/** The open pull requests of the docs repository, and one's state, through an Octokit loaded on demand. */
import type { getOctokit } from '@actions/github'
import type { DocsPull } from './find.js'
import type { CountedRequest } from '../requests.js'

type Octokit = ReturnType<typeof getOctokit>

/** `GET /repos/{owner}/{repo}/pulls?state=open`, newest first, one page of 100. */
export async function openPulls(
  client: () => Promise<Octokit>,
  repository: string,
  request: CountedRequest
): Promise<DocsPull[]> {
  const [owner = '', repo = ''] = repository.split('/')
  const octokit = await client()
  const { data } = await octokit.rest.pulls.list({
    owner,
    repo,
    state: 'open',
    sort: 'created',
    direction: 'desc',
    per_page: 100,
    request
  })
  return data.map((pull) => ({ number: pull.number, url: pull.html_url, head: pull.head.ref }))
}

/** `GET /repos/{owner}/{repo}/pulls/{number}`: whether it is still open (a merged one is `closed` and `merged`). */
export async function pullState(
  client: () => Promise<Octokit>,
  repository: string,
  number: number,
  request: CountedRequest
): Promise<'open' | 'closed' | 'merged'> {
  const [owner = '', repo = ''] = repository.split('/')
  const octokit = await client()
  const { data } = await octokit.rest.pulls.get({ owner, repo, pull_number: number, request })
  return data.merged ? 'merged' : data.state === 'open' ? 'open' : 'closed'
}
