/** A changed file as the action reads it, from GitHub's answer for a comparison or a pull request. */
export interface ChangedFile {
  filename: string
  status: string
  additions: number
  deletions: number
  previousFilename: string | undefined
  /** The unified diff; undefined when GitHub leaves it out (binary, or too large). */
  patch: string | undefined
}

/** A file entry as GitHub's compare and pull request files answer it (the fields read). */
interface FileData {
  filename: string
  status: string
  additions: number
  deletions: number
  previous_filename?: string
  patch?: string
}

export function changedFile(file: FileData): ChangedFile {
  return {
    filename: file.filename,
    status: file.status,
    additions: file.additions,
    deletions: file.deletions,
    previousFilename: file.previous_filename,
    patch: file.patch
  }
}
