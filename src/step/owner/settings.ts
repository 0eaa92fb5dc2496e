/**
 * The `reviewers`, `assignees`, `merge` and `merge-method` inputs: who owns the docs pull request
 * once the job ends with one, and whether it merges by itself. Checked before any request.
 */
import type { MergeMethod } from '../../github/owner/api.js'
import { LOGIN } from '../inputs.js'

/** Throws the step's input error for `input`. */
type Fail = (input: string, message: string) => never

/** Someone to ask: a login, a team of the docs repository's organization, or whoever caused the run. */
export type Person = { kind: 'author' } | { kind: 'user'; login: string } | { kind: 'team'; org: string; slug: string }

export interface OwnerSettings {
  reviewers: Person[]
  /** Never a team: GitHub assigns people only. */
  assignees: Person[]
  /** `auto`: GitHub's auto-merge, or a merge at once when nothing is left to wait for. */
  merge: 'none' | 'auto'
  mergeMethod: MergeMethod
  /** `docs-repository` (owner/name): `merge: auto` acts only on a pull request there; undefined when not set. */
  docsRepository: string | undefined
}

/** GitHub adds at most this many assignees to an issue or pull request. */
export const MAX_ASSIGNEES = 10

// A team as organization/slug.
const TEAM = /^@?([A-Za-z0-9][A-Za-z0-9-]{0,38})\/([A-Za-z0-9][A-Za-z0-9_.-]{0,99})$/
const PEOPLE = 'logins (mona), teams (org/team-slug) and the word author, comma or newline separated'
const ASSIGNABLE = 'logins (mona) and the word author, comma or newline separated'
const CHOICES = { merge: ['none', 'auto'], 'merge-method': ['squash', 'merge', 'rebase'] } as const

/** The owner inputs; `wait` is the step's: only a step that waits learns the docs pull request. */
export function parseOwner(get: (name: string) => string, step: { wait: boolean }, fail: Fail): OwnerSettings {
  const choice = <K extends keyof typeof CHOICES>(name: K): (typeof CHOICES)[K][number] => {
    const value = get(name).toLowerCase()
    const found = CHOICES[name].find((known) => known === value)
    if (found === undefined) fail(name, `"${get(name).slice(0, 60)}" is not one of ${CHOICES[name].join(', ')}.`)
    return found
  }
  const owner: OwnerSettings = {
    reviewers: people(get('reviewers'), 'reviewers', PEOPLE, fail),
    assignees: people(get('assignees'), 'assignees', ASSIGNABLE, fail),
    merge: choice('merge'),
    mergeMethod: choice('merge-method'),
    docsRepository: get('docs-repository') || undefined
  }
  const team = owner.assignees.find((person) => person.kind === 'team')
  if (team) fail('assignees', `"${teamName(team)}" is a team: GitHub assigns people only; expected ${ASSIGNABLE}.`)
  if (owner.assignees.length > MAX_ASSIGNEES)
    fail('assignees', `${owner.assignees.length} people: GitHub assigns at most ${MAX_ASSIGNEES}.`)
  const asked = owner.reviewers.length > 0 ? 'reviewers' : owner.assignees.length > 0 ? 'assignees' : undefined
  const input = owner.merge === 'auto' ? 'merge' : asked
  if (input && !step.wait)
    fail(input, 'needs wait: true (a step that returns before the job ends has no docs pull request to act on).')
  return owner
}

/** `org/team-slug`. */
export function teamName(team: Extract<Person, { kind: 'team' }>): string {
  return `${team.org}/${team.slug}`
}

/** Comma- or newline-separated, without repeats (logins and teams are case-insensitive on GitHub). */
function people(value: string, input: string, form: string, fail: Fail): Person[] {
  const result: Person[] = []
  const bad: string[] = []
  for (const item of value.split(/[,\n]/).map((part) => part.trim())) {
    if (!item) continue
    const person = parsePerson(item)
    if (!person) {
      bad.push(`"${item.slice(0, 120)}"`)
      continue
    }
    const key = JSON.stringify(person).toLowerCase()
    if (!result.some((known) => JSON.stringify(known).toLowerCase() === key)) result.push(person)
  }
  // Every bad entry at once: a user fixes them in one edit, not one run each.
  if (bad.length === 1) fail(input, `${bad[0] ?? ''} is not a login, a team or author: expected ${form}.`)
  if (bad.length > 1) fail(input, `${bad.join(', ')} are not logins, teams or author: expected ${form}.`)
  return result
}

function parsePerson(item: string): Person | undefined {
  // `@author` is the account named author; the bare word is whoever caused the run.
  if (item.toLowerCase() === 'author') return { kind: 'author' }
  const login = LOGIN.exec(item)?.[1]
  if (login) return { kind: 'user', login }
  const team = TEAM.exec(item)
  return team ? { kind: 'team', org: team[1] ?? '', slug: team[2] ?? '' } : undefined
}
