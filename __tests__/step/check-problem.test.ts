// The check run's warnings name the cause: a person's token (by GitHub's token prefixes), GitHub
// failing or not answering, or a missing permission.
import { describe, expect, it } from '@jest/globals'
import { checkProblem, personalToken, transient } from '../../src/step/tracking/check-problem.js'

const answered = (status: number, message: string) => Object.assign(new Error(message), { status, response: {} })

describe('checkProblem', () => {
  it('knows a person’s token by its prefix, whatever GitHub’s message', () => {
    expect(['ghp_x', 'github_pat_x', 'gho_x', 'ghu_x'].map(personalToken)).toEqual([true, true, true, true])
    expect(['ghs_x', 'v1.abc', ''].map(personalToken)).toEqual([false, false, false])
    const warning = checkProblem('create the check run', answered(403, 'Forbidden'), 'checks: write', true)
    expect(warning).toContain("Check runs need the workflow's token (github.token) or a GitHub App's token")
    expect(warning).not.toContain('checks: write')
  })

  it('asks for the permission only for a refusal', () => {
    expect(checkProblem('x', answered(403, 'Resource not accessible by integration'), 'checks: write', false)).toMatch(
      /needs checks: write/
    )
    expect(checkProblem('x', answered(502, 'Bad Gateway'), 'checks: write', false)).toMatch(
      /\(HTTP 502\): GitHub failed .*not a missing permission/
    )
    expect(checkProblem('x', Object.assign(new Error('aborted'), { status: 500 }), 'checks: write', false)).toMatch(
      /did not answer in time .*not a missing permission/
    )
  })

  it('sends a fixed state again only after an answered 5xx or a lost connection', () => {
    expect(transient(answered(502, 'Bad Gateway'))).toBe(true)
    expect(transient(answered(422, 'Invalid'))).toBe(false)
    expect(transient(Object.assign(new Error('aborted'), { status: 500 }))).toBe(false)
  })
})
