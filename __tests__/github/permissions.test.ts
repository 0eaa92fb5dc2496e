// Whose permission counts: the collaborators permission API read through the action's GitHub
// client against the fake GitHub, the roles that may write, bots, and one read per login.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { GitHubClient } from '../../src/github/client.js'
import {
  botAllowed,
  isBot,
  mayWrite,
  Permissions,
  toRepoPermission,
  type RepoPermission
} from '../../src/github/permissions.js'
import { GitHubApiFake, type Fault } from '../../simulator/github/index.js'
import { testClient } from '../fixtures/github.js'

const REPO = 'acme/app'
let fake: GitHubApiFake
let github: GitHubClient

beforeAll(async () => {
  fake = await GitHubApiFake.start({ token: 'tok' })
  github = testClient('tok', fake.url)
})
afterAll(async () => {
  await fake.close()
})
beforeEach(() => {
  fake.reset()
})

const read = (login: string): Promise<RepoPermission> => github.permission(REPO, login, AbortSignal.timeout(5000))

describe('reading a permission', () => {
  it('reads every role by its role name, maintain and triage told apart', async () => {
    const roles: RepoPermission[] = ['admin', 'maintain', 'write', 'triage', 'read', 'none']
    for (const role of roles) fake.setPermission(REPO, `u-${role}`, role)
    for (const role of roles) expect(await read(`u-${role}`)).toBe(role)
    expect(fake.requests.map((r) => r.rawPath)).toEqual(
      roles.map((role) => `/repos/acme/app/collaborators/u-${role}/permission`)
    )
    expect(fake.requests.every((r) => r.authorization === 'token tok')).toBe(true)
  })

  it('reads a custom role as its base permission', async () => {
    fake.setPermission(REPO, 'editor', { role_name: 'docs-editor', permission: 'write' })
    fake.setPermission(REPO, 'viewer', { role_name: 'auditor', permission: 'read' })
    expect(await read('editor')).toBe('write')
    expect(await read('viewer')).toBe('read')
  })

  it('reads a login GitHub does not know (404) as none', async () => {
    expect(await read('stranger')).toBe('none')
  })

  it('throws on any other failure', async () => {
    fake.fail('collaborator-permission', { kind: 'status', status: 403, message: 'Resource not accessible' })
    // A 5xx is tried again (retry.test.ts): this one stays.
    fake.fail('collaborator-permission', ...Array<Fault>(4).fill({ kind: 'status', status: 500 }))
    await expect(read('mona')).rejects.toMatchObject({ status: 403 })
    await expect(read('mona')).rejects.toMatchObject({ status: 500 })
  })

  it('throws when the read is aborted', async () => {
    fake.fail('collaborator-permission', { kind: 'hang' })
    await expect(github.permission(REPO, 'mona', AbortSignal.timeout(50))).rejects.toThrow()
  })
})

describe('toRepoPermission', () => {
  it('takes role_name first, then the legacy permission, else nothing', () => {
    expect(toRepoPermission('maintain', 'write')).toBe('maintain')
    expect(toRepoPermission('triage', 'read')).toBe('triage')
    expect(toRepoPermission('docs-editor', 'write')).toBe('write')
    expect(toRepoPermission(undefined, 'admin')).toBe('admin')
    expect(toRepoPermission('docs-editor', 'push')).toBeUndefined()
    expect(toRepoPermission(undefined, undefined)).toBeUndefined()
  })

  it('throws, naming what GitHub said, when neither is a role', async () => {
    const odd = await GitHubApiFake.start()
    try {
      odd.setPermission(REPO, 'mona', { role_name: 'custom', permission: 'push' as 'write' })
      const client = testClient('tok', odd.url)
      await expect(client.permission(REPO, 'mona', AbortSignal.timeout(5000))).rejects.toThrow(
        "GitHub answered role 'custom', permission 'push'"
      )
    } finally {
      await odd.close()
    }
  })
})

describe('mayWrite', () => {
  it('is true for write, maintain and admin only', () => {
    const roles: RepoPermission[] = ['admin', 'maintain', 'write', 'triage', 'read', 'none']
    expect(roles.filter(mayWrite)).toEqual(['admin', 'maintain', 'write'])
  })
})

describe('bots', () => {
  it('knows a bot by the [bot] ending of its login, in any case', () => {
    expect(isBot('dependabot[bot]')).toBe(true)
    expect(isBot('Renovate[BOT]')).toBe(true)
    expect(isBot('bot')).toBe(false)
    expect(isBot('[bot]mona')).toBe(false)
  })

  it('admits a listed bot, named with or without [bot], in any case', () => {
    expect(botAllowed('dependabot[bot]', ['dependabot'])).toBe(true)
    expect(botAllowed('dependabot[bot]', ['renovate', 'Dependabot[bot]'])).toBe(true)
    expect(botAllowed('Dependabot[bot]', [' dependabot '])).toBe(true)
    expect(botAllowed('dependabot[bot]', ['renovate'])).toBe(false)
    expect(botAllowed('dependabot[bot]', [])).toBe(false)
    expect(botAllowed('dependabot[bot]', ['dependabot[bot]x'])).toBe(false)
  })

  it('admits every bot with *, and never a user', () => {
    expect(botAllowed('anything[bot]', ['*'])).toBe(true)
    expect(botAllowed('mona', ['*'])).toBe(false)
    expect(botAllowed('mona', ['mona'])).toBe(false)
  })
})

describe('Permissions', () => {
  it('reads each login once per run, whatever its case, and keeps failures as unknown', async () => {
    fake.setPermission(REPO, 'Mona', 'maintain')
    fake.failAlways('collaborator-permission', null)
    const permissions = new Permissions(read)
    const [a, b] = await Promise.all([permissions.of('mona'), permissions.of('MONA')])
    expect(a).toEqual({ known: true, permission: 'maintain' })
    expect(b).toBe(a)
    fake.fail(
      'collaborator-permission',
      ...Array<Fault>(4).fill({ kind: 'status', status: 500, message: 'Server Error' })
    )
    const failed = await permissions.of('hubot')
    expect(failed).toEqual({ known: false, error: expect.stringMatching(/^Server Error - https:\/\/docs/) })
    expect(await permissions.of('hubot')).toBe(failed)
    expect(await permissions.of('stranger')).toEqual({ known: true, permission: 'none' })
    expect(fake.requests).toHaveLength(1 + 4 + 1)
  })

  it('keeps a connection lost on every try as unknown for the network, not the token', async () => {
    fake.failAlways('collaborator-permission', { kind: 'reset' })
    const permissions = new Permissions(read)
    expect(await permissions.of('mona')).toEqual({
      known: false,
      error: `could not reach GitHub at ${new URL(fake.url).host}: read ECONNRESET`,
      network: true
    })
  })

  it('keeps a non-Error failure as unknown, with its text', async () => {
    const permissions = new Permissions(() => Promise.reject(new Error('boom')))
    expect(await permissions.of('x')).toEqual({ known: false, error: 'boom' })
    // A rejection need not be an Error; its text is kept all the same.
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
    const odd = new Permissions(() => Promise.reject('plain text'))
    expect(await odd.of('x')).toEqual({ known: false, error: 'plain text' })
  })
})
