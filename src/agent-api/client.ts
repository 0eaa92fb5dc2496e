import type { Dispatcher } from 'undici'
import { Cancelled } from '../base/cancel.js'
import type { Clock } from '../base/clock.js'
import type { CallOptions } from './call.js'
import { identifiedRun, parseAutomationRun, type AutomationApi, type AutomationRun } from './automation.js'
import { ApiError, kindOfStatus, networkError, parseRetryAfter } from './errors.js'
import { parseJob, type AgentJob, type IdentifiedJob } from './job.js'
import { parsePreviewRequested, parsePreviewStatus, type PreviewRequested, type PreviewStatus } from './deployment.js'
import { inline } from '../base/text.js'
import { watchSend } from './wire.js'

/** Largest job record we read (bytes); a bigger answer is refused, never buffered whole. */
export const MAX_JOB_BYTES = 1024 * 1024
/** Of an error answer, only the start is read: enough for `{"error": …}`. */
const MAX_ERROR_BYTES = 16 * 1024

/** The Agent API v2 as the step uses it: one method per endpoint; every failure is an `ApiError` or `Cancelled`. */
export interface AgentApi {
  /** `POST /v2/agent/{projectId}/job`. */
  createJob(prompt: string, call: CallOptions): Promise<IdentifiedJob>
  /** `POST /v2/agent/{projectId}/job/{id}/message`. */
  sendMessage(jobId: string, prompt: string, call: CallOptions): Promise<IdentifiedJob>
  /** `GET /v2/agent/{projectId}/job/{id}`. */
  getJob(jobId: string, call: CallOptions): Promise<AgentJob>
}

/** The preview deployments (External API v1), with the same key: one method per endpoint. */
export interface PreviewApi {
  /** `POST /v1/project/preview/{projectId}` `{"branch"}`: creates the branch's preview, or redeploys it. */
  requestPreview(branch: string, call: CallOptions): Promise<PreviewRequested>
  /** `GET /v1/project/update-status/{statusId}`. */
  getPreviewStatus(statusId: string, call: CallOptions): Promise<PreviewStatus>
}

export interface ClientOptions {
  /** API root (may carry a path prefix and a trailing slash). */
  baseUrl: URL
  apiKey: string
  projectId: string
  /** Connection pool: the plain agent, or a proxy agent (see `http.ts`). */
  dispatcher: Dispatcher
  userAgent: string
  /** Times each request. */
  clock: Clock
  /** Receives one line per request: method, path, status and time taken; never a header. */
  debug(message: string): void
}

export class AgentClient implements AgentApi, PreviewApi, AutomationApi {
  constructor(private readonly options: ClientOptions) {}

  createJob(prompt: string, call: CallOptions): Promise<IdentifiedJob> {
    return this.post(['job'], prompt, call)
  }

  sendMessage(jobId: string, prompt: string, call: CallOptions): Promise<IdentifiedJob> {
    return this.post(['job', jobId, 'message'], prompt, call)
  }

  getJob(jobId: string, call: CallOptions): Promise<AgentJob> {
    return this.send('GET', this.agentPath(['job', jobId]), undefined, call, JOB)
  }

  requestPreview(branch: string, call: CallOptions): Promise<PreviewRequested> {
    const path = ['v1', 'project', 'preview', this.options.projectId]
    return this.send('POST', path, { branch }, call, PREVIEW_REQUESTED)
  }

  getPreviewStatus(statusId: string, call: CallOptions): Promise<PreviewStatus> {
    return this.send('GET', ['v1', 'project', 'update-status', statusId], undefined, call, PREVIEW_STATUS)
  }

  /** `POST /v1/workflow/{projectId}/{automationId}/trigger`, no body. */
  async triggerAutomation(automationId: string, call: CallOptions): Promise<AutomationRun> {
    const path = ['v1', 'workflow', this.options.projectId, automationId, 'trigger']
    return identifiedRun(await this.send('POST', path, undefined, call, AUTOMATION_RUN))
  }

  private async post(segments: string[], prompt: string, call: CallOptions): Promise<IdentifiedJob> {
    const job = await this.send('POST', this.agentPath(segments), { prompt }, call, JOB)
    if (job.id === undefined) throw new ApiError('bad-response', 'answered with a job record that has no id')
    return { ...job, id: job.id }
  }

  private agentPath(segments: string[]): string[] {
    return ['v2', 'agent', this.options.projectId, ...segments]
  }

  private async send<T>(
    method: 'GET' | 'POST',
    segments: string[],
    body: Record<string, string> | undefined,
    call: CallOptions,
    answer: Answer<T>
  ): Promise<T> {
    const prefix = this.options.baseUrl.pathname.replace(/\/+$/, '')
    const path = `${prefix}/${segments.map(encodeSegment).join('/')}`
    if (call.signal.aborted) throw new Cancelled(false)
    const { response, fail } = await this.request(method, path, body, call)

    // undici's body emits 'error' when destroyed early; without a listener that would crash the step.
    response.body.on('error', () => undefined)
    const status = response.statusCode
    const retryAfterMs = parseRetryAfter(header(response.headers['retry-after']), this.options.clock.now())
    if (status < 200 || status >= 300) {
      const text = await readText(response.body, MAX_ERROR_BYTES).catch(() => '')
      throw new ApiError(kindOfStatus(status), describeError(status, text, response.headers), status, retryAfterMs)
    }
    return parseAnswer(await readRecord(response, fail), response, answer)
  }

  /**
   * Sends one request and returns its answer's head, with how to name a failure from here on
   * (the body is still read under the same time limit and signal).
   */
  private async request(
    method: 'GET' | 'POST',
    path: string,
    body: Record<string, string> | undefined,
    call: CallOptions
  ): Promise<Answered> {
    const { baseUrl, apiKey, dispatcher, userAgent, clock } = this.options
    const timer = clock.timeout(Math.max(1, call.timeoutMs))
    const signal = AbortSignal.any([call.signal, timer])
    // Whether a failed or cancelled request may have reached the server depends on this, not on
    // the error's name: a refused proxy tunnel and our own time limit both surface as aborts.
    const wire = watchSend(method, path)
    const fail = (error: unknown): Error =>
      call.signal.aborted
        ? new Cancelled(wire.sent)
        : networkError(error, { sent: wire.sent, timedOut: timer.aborted, timeoutMs: call.timeoutMs })

    const started = clock.now()
    const took = (): string => `${Math.round(clock.now() - started)}ms`
    let response: Dispatcher.ResponseData
    try {
      // dispatcher.request takes the path as given: `new URL()` would resolve an id of `..`.
      response = await dispatcher.request({
        origin: baseUrl.origin,
        path,
        method,
        headers: requestHeaders(apiKey, userAgent, body !== undefined),
        body: body && JSON.stringify(body),
        signal
      })
    } catch (error) {
      const failure = fail(error)
      this.options.debug(`${method} ${path} -> ${failure.message} after ${took()}`)
      throw failure
    } finally {
      wire.stop()
    }
    this.options.debug(`${method} ${path} -> ${response.statusCode} in ${took()}`)
    return { response, fail }
  }
}

/** A request's answer, and how a failure while reading its body is named. */
interface Answered {
  response: Dispatcher.ResponseData
  fail: (error: unknown) => Error
}

function requestHeaders(apiKey: string, userAgent: string, withBody: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${apiKey}`,
    accept: 'application/json',
    'user-agent': userAgent
  }
  if (withBody) headers['content-type'] = 'application/json'
  return headers
}

/** A success answer's body, refused unread when it says it is too large. */
async function readRecord(response: Dispatcher.ResponseData, fail: (error: unknown) => Error): Promise<string> {
  try {
    if (Number(header(response.headers['content-length'])) > MAX_JOB_BYTES) {
      response.body.destroy()
      throw tooLarge()
    }
    return await readText(response.body, MAX_JOB_BYTES, true)
  } catch (error) {
    throw error instanceof ApiError ? error : fail(error)
  }
}

/** A success answer's body as the record the endpoint promises, or a `bad-response` naming what came. */
function parseAnswer<T>(text: string, response: Dispatcher.ResponseData, answer: Answer<T>): T {
  const status = response.statusCode
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw new ApiError(
      'bad-response',
      `answered ${status} with ${describeBody(text, response.headers)} instead of ${answer.what} (JSON)`,
      status
    )
  }
  const parsed = answer.parse(json)
  if (!parsed)
    throw new ApiError('bad-response', `answered ${status} with JSON that is not ${answer.what} record`, status)
  return parsed
}

/** What an endpoint answers: its name in errors, and its parser (undefined: not that). */
interface Answer<T> {
  what: string
  parse(json: unknown): T | undefined
}

const JOB: Answer<AgentJob> = { what: 'a job', parse: parseJob }
const PREVIEW_REQUESTED: Answer<PreviewRequested> = { what: 'a preview deployment', parse: parsePreviewRequested }
const PREVIEW_STATUS: Answer<PreviewStatus> = { what: 'a deployment status', parse: parsePreviewStatus }
const AUTOMATION_RUN: Answer<Partial<AutomationRun>> = { what: 'an automation run', parse: parseAutomationRun }

/**
 * One path segment, percent-encoded so that `/`, `?`, `#` and `%` stay inside it, and a bare
 * `.` or `..` cannot climb the path.
 */
export function encodeSegment(segment: string): string {
  if (segment === '.' || segment === '..') return segment.replaceAll('.', '%2E')
  return encodeURIComponent(segment)
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}

/**
 * Reads a body as UTF-8 up to `limit` bytes. Past the limit: throws when `strict`, else keeps
 * what was read. Either way the rest is never read.
 */
async function readText(body: Dispatcher.ResponseData['body'], limit: number, strict = false): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > limit) {
      body.destroy()
      if (strict) throw tooLarge()
      chunks.push(chunk.subarray(0, chunk.length - (size - limit)))
      break
    }
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

function tooLarge(): ApiError {
  return new ApiError('bad-response', `answered with more than ${MAX_JOB_BYTES} bytes; refusing to read it`)
}

/** The server's `error` text, or a short description of what came instead. */
function describeError(status: number, text: string, headers: Dispatcher.ResponseData['headers']): string {
  try {
    const json: unknown = JSON.parse(text)
    const error = (json as { error?: unknown } | null)?.error
    if (typeof error === 'string' && error) return `answered ${status}: ${inline(error)}`
  } catch {
    // Not JSON: describe it below.
  }
  const location = header(headers.location)
  if (status >= 300 && status < 400 && location) return `answered ${status}, a redirect to ${inline(location, 200)}`
  return `answered ${status} with ${describeBody(text, headers)}`
}

function describeBody(text: string, headers: Dispatcher.ResponseData['headers']): string {
  if (!text.trim()) return 'an empty body'
  const type = header(headers['content-type']) ?? ''
  if (type.includes('html') || /^\s*</.test(text)) return 'an HTML page (a proxy or gateway answering?)'
  return `a body that is not JSON (${text.length} bytes)`
}
