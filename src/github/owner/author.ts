/**
 * Whoever caused the run, for `reviewers: author` and `assignees: author`: the pull request's
 * author on a pull request event, the release's author on `release`, else the workflow run's actor
 * (a tag push, `workflow_dispatch`, `schedule`, and any run with `release-tags`). A `/docs`
 * command's commenter is the step's to know: it comes before all of these.
 */
import { isRecord, readPayload } from '../event.js'

/** The variables that say who caused the run. */
export interface AuthorEnv {
  GITHUB_EVENT_NAME?: string | undefined
  GITHUB_EVENT_PATH?: string | undefined
  GITHUB_ACTOR?: string | undefined
}

/** A login, and who that is in words for the log; no login when the event does not say. */
export interface RunAuthor {
  login: string | undefined
  role: string
}

const PULL_EVENTS = ['pull_request', 'pull_request_target', 'pull_request_review', 'pull_request_review_comment']

/** `releaseSet`: the run documents the tags of `release-tags`, whoever pushed them. */
export function runAuthor(env: AuthorEnv, readFile: (path: string) => string, releaseSet: boolean): RunAuthor {
  const event = env.GITHUB_EVENT_NAME ?? ''
  const actor = { login: env.GITHUB_ACTOR || undefined, role: "the workflow run's actor" }
  if (releaseSet) return actor
  if (PULL_EVENTS.includes(event)) {
    const payload = readPayload(env.GITHUB_EVENT_PATH, readFile)
    const pr = isRecord(payload.pull_request) ? payload.pull_request : {}
    return { login: login(pr.user), role: "the pull request's author" }
  }
  if (event === 'release') {
    const payload = readPayload(env.GITHUB_EVENT_PATH, readFile)
    const release = isRecord(payload.release) ? payload.release : {}
    return { login: login(release.author), role: "the release's author" }
  }
  return actor
}

function login(user: unknown): string | undefined {
  return isRecord(user) && typeof user.login === 'string' && user.login ? user.login : undefined
}
