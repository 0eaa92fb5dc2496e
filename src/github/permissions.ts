import { errorMessage } from '../base/error-message.js'
import { unreachable } from './unreachable.js'

/** A user's role on a repository, as the collaborators permission API names it (`role_name`). */
export type RepoPermission = 'admin' | 'maintain' | 'write' | 'triage' | 'read' | 'none'

const ROLES: readonly RepoPermission[] = ['admin', 'maintain', 'write', 'triage', 'read', 'none']

/** What a read found: the permission, or why it is not known (which never counts as allowed). */
export type PermissionResult =
  | { known: true; permission: RepoPermission }
  /** `network`: the connection to GitHub failed, so the token's permissions are not in question. */
  | { known: false; error: string; network?: true }

/** One permission read: `none` for a user GitHub does not know (404); throws on any other failure. */
export type ReadPermission = (login: string) => Promise<RepoPermission>

/**
 * The permission of a collaborators-permission answer. `role_name` tells `maintain` and `triage`
 * apart; a custom role's name is none of ours, so its base `permission` decides. Undefined when
 * neither is a role we know.
 */
export function toRepoPermission(roleName: unknown, permission: unknown): RepoPermission | undefined {
  return ROLES.find((role) => role === roleName) ?? ROLES.find((role) => role === permission)
}

/** Whether the permission lets its holder push to the repository. */
export function mayWrite(permission: RepoPermission): boolean {
  return permission === 'write' || permission === 'maintain' || permission === 'admin'
}

/** A GitHub App's account: its login ends in `[bot]`. */
export function isBot(login: string): boolean {
  return login.toLowerCase().endsWith('[bot]')
}

/**
 * Whether `allowedBots` (names with or without `[bot]`, any case, or `*`) admits the bot `login`.
 * A login that is not a bot's is never admitted here.
 */
export function botAllowed(login: string, allowedBots: readonly string[]): boolean {
  if (!isBot(login)) return false
  const name = withoutBotSuffix(login)
  return allowedBots.some((entry) => entry === '*' || withoutBotSuffix(entry) === name)
}

function withoutBotSuffix(login: string): string {
  const lower = login.trim().toLowerCase()
  return lower.endsWith('[bot]') ? lower.slice(0, -'[bot]'.length) : lower
}

/** Permission reads within one run: one request per login (logins are case-insensitive on GitHub). */
export class Permissions {
  private readonly results = new Map<string, Promise<PermissionResult>>()

  constructor(private readonly read: ReadPermission) {}

  of(login: string): Promise<PermissionResult> {
    const key = login.toLowerCase()
    let result = this.results.get(key)
    if (!result) {
      result = this.read(login).then(
        (permission): PermissionResult => ({ known: true, permission }),
        (error: unknown): PermissionResult => {
          const lost = unreachable(error)
          return lost ? { known: false, error: lost, network: true } : { known: false, error: errorMessage(error) }
        }
      )
      this.results.set(key, result)
    }
    return result
  }
}
