import { publicUserJson, userJson } from '../github-objects.js'
import type { Actor, CustomRole, RoleName, Store } from './state.js'
import { type Answer, errorBody, type Handlers, notFound, ok } from './answers.js'

export const LEGACY_PERMISSION: Record<RoleName, CustomRole['permission']> = {
  admin: 'admin',
  maintain: 'write',
  write: 'write',
  triage: 'read',
  read: 'read',
  none: 'none'
}

export function actorJson(s: Store, actor: Actor): Record<string, unknown> {
  let id = s.actorIds.get(actor.login)
  if (id === undefined) {
    id = 1000 + s.actorIds.size
    s.actorIds.set(actor.login, id)
  }
  return userJson(s.url, actor.login, id, actor.type ?? (actor.login.endsWith('[bot]') ? 'Bot' : 'User'))
}

export function permissionJson(s: Store, login: string, role: CustomRole): Record<string, unknown> {
  const rank = ['none', 'read', 'write', 'admin'].indexOf(role.permission)
  return {
    permission: role.permission,
    role_name: role.role_name,
    user: {
      ...actorJson(s, { login }),
      permissions: {
        admin: rank >= 3,
        maintain: role.role_name === 'maintain' || rank >= 3,
        push: rank >= 2,
        triage: role.role_name === 'triage' || rank >= 2,
        pull: rank >= 1
      },
      role_name: role.role_name
    }
  }
}

/** The answers of collaborator-permission. */
export const REPOSITORY_ROUTES: Handlers<'collaborator-permission'> = {
  'collaborator-permission': (s, r, route) => {
    const entry = r.permissions.get(route.login.toLowerCase())
    return entry ? ok(permissionJson(s, entry.login, entry.role)) : notFound(route.name)
  }
}

/** GET /user: the token's account when it is a person's; an installation token cannot read it. */
export function userAnswer(s: Store): Answer {
  // A person's token: the public-user fields (the private ones need the user scope).
  if (s.identity.kind === 'user') return ok(publicUserJson(actorJson(s, { login: s.identity.login })))
  return { status: 403, json: errorBody(403, 'Resource not accessible by integration', 'user') }
}
