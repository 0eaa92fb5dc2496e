import { describe, expect, it } from '@jest/globals'
import { parsePreviewRequested, parsePreviewStatus } from '../../src/agent-api/deployment.js'
import { awaitPreview, PREVIEW_MAX_MS, PREVIEW_RATE_WAIT_MS, type PreviewOptions } from '../../src/agent-api/preview.js'
import type { PreviewScenario } from '../../simulator/agent-api.js'
import { useAgentClient } from '../fixtures/agent-client.js'

// One describe for the file: its hooks stay its own when the mutation suite runs the files together.
describe('preview deployments', () => {
  const start = useAgentClient({ seed: 3, apiKey: 'mint_preview_key', projectId: 'proj_1' })

  async function setUp(previews: Partial<PreviewScenario> = {}, timeoutMs = 30 * 60_000) {
    const { sim, clock, client } = await start({ previews })
    const debug: string[] = []
    const options: PreviewOptions = {
      clock,
      signal: new AbortController().signal,
      deadline: clock.now() + timeoutMs,
      debug: (line) => debug.push(line)
    }
    return { clock, sim, client, options, debug }
  }

  it('asks for the branch, follows queued and in_progress to success, and gives the URL', async () => {
    const { sim, client, options, clock } = await setUp({ queuedMs: 4_000, buildMs: 30_000 })
    const start = clock.now()
    const end = await awaitPreview(client, 'mintlify/docs-update-1a2b', options)
    expect(end).toEqual({ kind: 'ready', url: 'https://proj-1-mintlify-docs-update-1a2b.mintlify.app' })
    const asked = sim.requests.filter((r) => r.operation === 'preview')
    expect(asked).toHaveLength(1)
    expect(asked[0]?.rawPath).toBe('/v1/project/preview/proj_1')
    expect(JSON.parse(asked[0]?.body ?? '')).toEqual({ branch: 'mintlify/docs-update-1a2b' })
    expect(asked[0]?.headers.authorization).toBe('Bearer mint_preview_key')
    const reads = sim.requests.filter((r) => r.operation === 'preview-status')
    // Every 5 s from the request until the deployment ended 34 s after it.
    expect(reads).toHaveLength(7)
    expect(reads.every((r) => r.rawPath === '/v1/project/update-status/status_0001')).toBe(true)
    expect(clock.now() - start).toBe(35_000)
  })

  it('redeploys a branch that has a preview: a new deployment, the same URL', async () => {
    const { sim, client, options } = await setUp({ queuedMs: 0, buildMs: 1_000 })
    const first = await awaitPreview(client, 'docs/one', options)
    const second = await awaitPreview(client, 'docs/one', options)
    expect(second).toEqual(first)
    expect(sim.deployments().map((d) => d.statusId)).toEqual(['status_0001', 'status_0002'])
  })

  it('a plan without previews: not available, after one request', async () => {
    const { sim, client, options } = await setUp({ plan: 'hobby' })
    expect(await awaitPreview(client, 'docs/one', options)).toEqual({ kind: 'not-available' })
    expect(sim.requests).toHaveLength(1)
  })

  it('a failed deployment: failed, with the URL and what the service said', async () => {
    const { client, options } = await setUp({ outcome: 'failure', queuedMs: 0, buildMs: 6_000 })
    expect(await awaitPreview(client, 'docs/one', options)).toEqual({
      kind: 'failed',
      url: 'https://proj-1-docs-one.mintlify.app',
      summary: 'Build failed: mint.json is not valid'
    })
  })

  it('a deployment that never ends: timed out after 10 minutes at most, whatever the step has left', async () => {
    const { sim, client, options, clock } = await setUp({ outcome: 'stuck' }, 60 * 60_000)
    const start = clock.now()
    expect(await awaitPreview(client, 'docs/one', options)).toEqual({
      kind: 'timed-out',
      url: 'https://proj-1-docs-one.mintlify.app'
    })
    expect(clock.now() - start).toBeLessThanOrEqual(PREVIEW_MAX_MS)
    expect(clock.now() - start).toBeGreaterThan(PREVIEW_MAX_MS - 10_000)
    expect(sim.requests.filter((r) => r.operation === 'preview')).toHaveLength(1)
  })

  it('ends by the step deadline when that comes first', async () => {
    const { client, options, clock } = await setUp({ outcome: 'stuck' }, 12_000)
    const start = clock.now()
    expect((await awaitPreview(client, 'docs/one', options)).kind).toBe('timed-out')
    expect(clock.now() - start).toBeLessThanOrEqual(12_000)
  })

  // The window opened 25 s before (5 deployments of one 5 s poll each): 35 s left. The simulator's
  // 429 carries no Retry-After unless asked to, as none is documented: then the step's own 60 s.
  it.each([
    ['without Retry-After (the default): waits 60 s', {}, 60],
    ['with Retry-After: waits it', { retryAfter: true }, 35]
  ])('the organization asked 5 times this minute, %s once, then gets it', async (_, scenario, seconds) => {
    const { sim, client, options, clock, debug } = await setUp({ ...scenario, queuedMs: 0, buildMs: 0 })
    for (let i = 0; i < 5; i++) await awaitPreview(client, `other-${i}`, options)
    const before = clock.now()
    expect(await awaitPreview(client, 'docs/one', options)).toEqual({
      kind: 'ready',
      url: 'https://proj-1-docs-one.mintlify.app'
    })
    const asked = sim.requests.filter((r) => r.operation === 'preview').slice(5)
    expect(asked.map((r) => r.answeredStatus)).toEqual([429, 202])
    expect(asked.map((r) => r.time - before)).toEqual([0, seconds * 1000])
    expect(debug).toEqual([`Preview: rate limited; asking again in ${seconds} s`])
  })

  it('a 429 without Retry-After waits 60 s; a second 429 gives up', async () => {
    const { sim, client, options } = await setUp()
    sim.fail('preview', { kind: 'status', status: 429 }, { kind: 'status', status: 429 })
    expect(await awaitPreview(client, 'docs/one', options)).toEqual({ kind: 'rate-limited' })
    const asked = sim.requests.filter((r) => r.operation === 'preview')
    expect(asked.map((r) => r.time - (asked[0]?.time ?? 0))).toEqual([0, PREVIEW_RATE_WAIT_MS])
  })

  it('a 429 with a Retry-After of 0 waits 60 s as without one, then gets it', async () => {
    const { sim, client, options } = await setUp({ queuedMs: 0, buildMs: 0 })
    sim.fail('preview', { kind: 'status', status: 429, headers: { 'retry-after': '0' } })
    expect((await awaitPreview(client, 'docs/one', options)).kind).toBe('ready')
    const asked = sim.requests.filter((r) => r.operation === 'preview')
    expect(asked.map((r) => r.time - (asked[0]?.time ?? 0))).toEqual([0, PREVIEW_RATE_WAIT_MS])
  })

  it('a 429 whose wait would pass the deadline: rate limited, without waiting', async () => {
    const { sim, client, options, clock } = await setUp({}, 30_000)
    sim.fail('preview', { kind: 'status', status: 429 })
    const start = clock.now()
    expect(await awaitPreview(client, 'docs/one', options)).toEqual({ kind: 'rate-limited' })
    expect(clock.now()).toBe(start)
    expect(sim.requests).toHaveLength(1)
  })

  it('a failed status read is read again; a 5xx on the request itself is not sent twice', async () => {
    const { sim, client, options } = await setUp({ queuedMs: 0, buildMs: 7_000 })
    sim.fail('preview-status', { kind: 'status', status: 502 })
    expect((await awaitPreview(client, 'docs/one', options)).kind).toBe('ready')
    sim.fail('preview', { kind: 'status', status: 502, effect: true })
    const end = await awaitPreview(client, 'docs/two', options)
    expect(end.kind).toBe('error')
    expect(sim.requests.filter((r) => r.operation === 'preview')).toHaveLength(2)
  })

  it("a status read answered 429 is read again after its Retry-After, or by the deadline's end", async () => {
    const { sim, client, options, clock, debug } = await setUp({ queuedMs: 0, buildMs: 1_000 }, 5 * 60_000)
    sim.fail('preview-status', { kind: 'status', status: 429, headers: { 'retry-after': '60' } })
    expect((await awaitPreview(client, 'docs/one', options)).kind).toBe('ready')
    const reads = sim.requests.filter((r) => r.operation === 'preview-status').map((r) => r.time)
    expect(reads.map((t) => t - (reads[0] ?? 0))).toEqual([0, 60_000])
    expect(debug).toEqual([
      "Preview: reading the deployment's status failed (answered 429: Simulated HTTP 429); reading it again in 60 s"
    ])

    sim.fail('preview-status', { kind: 'status', status: 429, headers: { 'retry-after': '3600' } })
    const start = clock.now()
    expect((await awaitPreview(client, 'docs/two', options)).kind).toBe('timed-out')
    expect(sim.requests.filter((r) => r.operation === 'preview-status')).toHaveLength(3)
    expect(clock.now() - start).toBe(5_000)
  })

  it('cancelled while waiting: cancelled', async () => {
    const { client, options } = await setUp({ outcome: 'stuck' })
    const cancel = new AbortController()
    cancel.abort()
    expect(await awaitPreview(client, 'docs/one', { ...options, signal: cancel.signal })).toEqual({
      kind: 'cancelled'
    })
  })

  it('a branch is required (400) and the key is checked (401) by the simulator', async () => {
    const { sim } = await setUp()
    const post = (body: string, key = 'mint_x') =>
      fetch(`${sim.url}/v1/project/preview/proj_1`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body
      })
    expect((await post('{}')).status).toBe(400)
    expect((await post('{"branch":"a"}', 'nope')).status).toBe(401)
    expect(
      (await fetch(`${sim.url}/v1/project/update-status/none`, { headers: { authorization: 'Bearer mint_x' } })).status
    ).toBe(404)
    expect(
      (await fetch(`${sim.url}/v1/project/preview/proj_1`, { headers: { authorization: 'Bearer mint_x' } })).status
    ).toBe(405)
  })

  it('reads only usable answers', () => {
    expect(parsePreviewRequested({ statusId: 's', previewUrl: 'https://a.mintlify.app' })).toEqual({
      statusId: 's',
      previewUrl: 'https://a.mintlify.app'
    })
    expect(parsePreviewRequested({ statusId: 's', previewUrl: 'javascript:alert(1)' })).toBeUndefined()
    expect(parsePreviewRequested({ statusId: 's', previewUrl: 'http://a.mintlify.app' })).toBeUndefined()
    expect(parsePreviewRequested({ statusId: '', previewUrl: 'https://a.mintlify.app' })).toBeUndefined()
    expect(parsePreviewRequested({ previewUrl: 'https://a.mintlify.app' })).toBeUndefined()
    expect(parsePreviewRequested(['s'])).toBeUndefined()
    expect(parsePreviewRequested(null)).toBeUndefined()
    expect(parsePreviewStatus({ status: 'queued' })).toEqual({ status: 'queued' })
    expect(parsePreviewStatus({ status: 'failure', summary: 'x' })).toEqual({ status: 'failure', summary: 'x' })
    expect(parsePreviewStatus({ status: 3 })).toBeUndefined()
    expect(parsePreviewStatus('success')).toBeUndefined()
  })
})
