/**
 * The reads that find a package's directory and its own commits at a tag, without a checkout: one
 * recursive tree, a few manifests, and the commits that touch a path.
 */
import type { getOctokit } from '@actions/github'
import { toCommit, type Commit } from '../commit.js'
import type { CountedRequest } from '../requests.js'

type Octokit = ReturnType<typeof getOctokit>

/** The files of a tree (directories left out), and whether GitHub cut the list short. */
export interface Tree {
  paths: string[]
  truncated: boolean
}

export interface PackageReads {
  /** The files at `ref`: one recursive tree read. */
  tree(ref: string): Promise<Tree>
  /** The text of file `path` at `ref`. */
  fileText(path: string, ref: string): Promise<string>
  /** Page `page` of the commits reachable from `ref` that touch `path`, newest first. */
  pathCommits(ref: string, path: string, page: number, perPage: number): Promise<Commit[]>
}

export function packageReads(
  client: () => Promise<Octokit>,
  owner: string,
  repo: string,
  request: CountedRequest
): PackageReads {
  return {
    tree: async (ref) => {
      const octokit = await client()
      const { data } = await octokit.rest.git.getTree({ owner, repo, tree_sha: ref, recursive: '1', request })
      const paths = data.tree.flatMap((entry) => (entry.type === 'blob' && entry.path ? [entry.path] : []))
      return { paths, truncated: data.truncated }
    },
    fileText: async (path, ref) => {
      const octokit = await client()
      const { data } = await octokit.rest.repos.getContent({ owner, repo, path, ref, request })
      if (Array.isArray(data) || data.type !== 'file' || !('content' in data)) throw new Error(`${path} is not a file`)
      return Buffer.from(data.content, 'base64').toString('utf8')
    },
    pathCommits: async (ref, path, page, perPage) => {
      const octokit = await client()
      const { data } = await octokit.rest.repos.listCommits({
        owner,
        repo,
        sha: ref,
        path,
        page,
        per_page: perPage,
        request
      })
      return data.map(toCommit)
    }
  }
}
