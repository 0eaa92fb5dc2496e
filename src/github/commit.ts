/** A commit as the context reads it: from a comparison, or from the commits that touch a path. */
export interface Commit {
  sha: string
  message: string
  /** More than one parent: a merge. */
  parents: number
  author: { login: string; bot: boolean } | undefined
}

/** A commit as GitHub's REST API lists it (compare and list-commits answer the same shape). */
export interface CommitData {
  sha: string
  commit: { message: string }
  parents: readonly unknown[]
  /** The GitHub account; null or empty when the commit's email matches none. */
  author: { login?: string; type?: string } | null
}

export function toCommit(commit: CommitData): Commit {
  const login = commit.author?.login
  return {
    sha: commit.sha,
    message: commit.commit.message,
    parents: commit.parents.length,
    author: login ? { login, bot: commit.author?.type === 'Bot' || login.endsWith('[bot]') } : undefined
  }
}
