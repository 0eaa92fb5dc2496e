// The check run's warnings name the cause: a person's token (by GitHub's token prefixes), GitHub
// failing or not answering, or a missing permission.
import { describe, expect, it } from '@jest/globals'
import { RequestError } from '@octokit/request-error'
import { refused } from '../../src/github/conversation/api.js'
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

  it('names GitHub’s rate limits, which no permission lifts, rather than ask for one', () => {
    // As Octokit throws GitHub's answers (docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api).
    const limited = (status: number, message: string, headers: Record<string, string>) =>
      new RequestError(message, status, {
        request: { method: 'POST', url: 'https://api.github.com/repos/acme/app/check-runs', headers: {} },
        response: { status, url: '', headers, data: { message } }
      })
    const spent = limited(403, 'API rate limit exceeded for installation ID 1.', {
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(Date.parse('2026-11-22T11:05:00Z') / 1000)
    })
    expect(checkProblem('create the check run', spent, 'checks: write', false)).toBe(
      "Could not create the check run (HTTP 403): API rate limit exceeded for installation ID 1.. GitHub's API rate limit for the token is spent until 11:05 UTC, not a missing permission; the outputs are unchanged."
    )
    // No reset given: the limit is named all the same.
    expect(
      checkProblem('x', limited(429, 'API rate limit exceeded', { 'x-ratelimit-remaining': '0' }), 'p', false)
    ).toMatch(/\. GitHub's API rate limit for the token is spent, not a missing permission;/)
    const secondary = limited(429, 'You have exceeded a secondary rate limit.', { 'retry-after': '60' })
    expect(checkProblem('create the check run', secondary, 'checks: write', false)).toMatch(
      /GitHub's secondary rate limit, not a missing permission/
    )
    expect(refused('comment', secondary, 'pull-requests: write')).toBe(
      "Could not comment (HTTP 429): You have exceeded a secondary rate limit.. GitHub's secondary rate limit, not a missing permission; the outputs are unchanged."
    )
    // A refusal that is not a rate limit still asks for the permission.
    expect(refused('comment', answered(403, 'Resource not accessible by integration'), 'pull-requests: write')).toMatch(
      /needs pull-requests: write/
    )
  })

  it('sends a fixed state again only after an answered 5xx or a lost connection', () => {
    expect(transient(answered(502, 'Bad Gateway'))).toBe(true)
    expect(transient(answered(422, 'Invalid'))).toBe(false)
    expect(transient(Object.assign(new Error('aborted'), { status: 500 }))).toBe(false)
  })
})
