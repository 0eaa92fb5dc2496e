/**
 * Two runs on one pull request at once, as the examples set them up: the merged pull request's run
 * (document-merged-pr.yml, in the concurrency group docs-agent-merged-prs) is still waiting for its
 * job, and keeps writing the link-back comment, while a reviewer's `/docs` command runs
 * (docs-commands.yml, in the group docs-agent-<number>): the comment invites that command as soon
 * as the job exists. Neither run may drop what the other wrote in the comment's marker.
 */
import { describe, expect, it } from '@jest/globals'
import { GITHUB_TOKEN } from '../../scripts/in-process.js'
import { commentBody, decodeMarker, markerKey } from '../../src/github/conversation/marker.js'
import { LinkBackThread } from '../../src/github/conversation/thread.js'
import { testClient } from '../fixtures/github.js'
import { APP, DOCS, usePullRequest } from '../fixtures/pull-request.js'

describe('the link-back comment, written by two runs at once', () => {
  const KEY = 'mint_conversation_key_0123456789'
  const SEAL = { key: markerKey(KEY), repository: APP, number: 7 }
  const pr = usePullRequest({
    key: KEY,
    project: 'proj-talk',
    scenario: { runMs: 3000 },
    installation: true,
    repos: [APP, DOCS],
    pull: { merged: true },
    permissions: [[APP, 'mona', 'write']]
  })
  const { step, github } = pr
  const command = {
    action: 'created',
    issue: { number: 7, title: 'Add --dry-run', user: { login: 'mona' }, pull_request: { url: 'x' } },
    comment: { id: 900, body: '/docs Also mention the --dry-run default.', user: { login: 'mona', type: 'User' } }
  }
  const marker = () => decodeMarker(github().commentsOf(APP, 7)[0]?.body ?? '', SEAL)

  it("a run's later write keeps the re-run record a /docs command's run saved meanwhile: re-running that run sends nothing again", async () => {
    const merged = await pr.run({ prompt: 'Document this change' })
    const jobId = merged.outputs['job-id'] ?? ''
    // The merged pull request's run, as it stands while it waits: its thread knows the comment as
    // it last wrote it. (The in-process harness cannot hold one run mid-wait while another runs:
    // both would move the one virtual clock.)
    const client = testClient(GITHUB_TOKEN, github().url)
    const me = client.conversation(APP).identity()
    const waiting = new LinkBackThread(client.conversation(APP), APP, 7, () => me, markerKey(KEY))
    expect((await waiting.marker())?.job).toBe(jobId)

    const first = await pr.run({}, { event: 'issue_comment', payload: command, runId: '5010' })
    expect(first.outputs).toMatchObject({ command: 'follow-up', 'job-id': jobId })
    expect(marker()?.records).toHaveLength(1)

    // Its job changes (or it ends): it rewrites the comment, keeping the marker's records and command
    // as link-back.ts does.
    await waiting.update((previous) =>
      commentBody(
        ['**Docs agent:** working on the docs.'],
        { job: jobId, records: previous?.records, command: previous?.command },
        SEAL
      )
    )
    expect(marker()?.records).toHaveLength(1)
    expect(marker()?.command).toEqual({ id: 900, kind: 'follow-up', job: jobId })

    // The command's run is re-run (cancelled, timed out, failed): it resumes the job.
    const again = await pr.run({}, { event: 'issue_comment', payload: command, runId: '5010', attempt: '2' })
    expect(again.at('info')).toContain(`Resuming job ${jobId} from attempt 1`)
    expect(step.requests('message')).toHaveLength(1)
  })
})
