/**
 * The post phase: the create or the message, sent at most once in effect (a retry only when the
 * server certainly did not act on the last), and its answer recorded.
 */
import { requestTimeout, type Clock } from '../base/clock.js'
import { formatDuration } from '../base/duration.js'
import type { Log } from '../base/log.js'
import { formatTime, inline, plural } from '../base/text.js'
import type { AgentApi } from '../agent-api/client.js'
import { ApiError, isSafeToRetryPost } from '../agent-api/errors.js'
import type { IdentifiedJob } from '../agent-api/job.js'
import { nextRetryDelay } from '../agent-api/schedule.js'
import { WORDING } from '../report/outcome.js'
import type { RunStateWriter } from './run-state.js'
import type { CreateOrMessage } from './settings.js'

export interface PostDeps {
  api: AgentApi
  clock: Clock
  log: Log
  signal: AbortSignal
}

/** The job's answer to this step's request, and when it came. */
export interface Posted {
  job: IdentifiedJob
  answeredAt: number
}

export async function post(
  settings: CreateOrMessage,
  deps: PostDeps,
  run: RunStateWriter,
  deadline: number,
  prompt: string
): Promise<Posted> {
  run.posting()
  const job = await postAtMostOnce(settings, deps, deadline, prompt)
  const answeredAt = deps.clock.now()
  run.answered(job, settings.mode === 'create')
  if (settings.mode === 'message') deps.log.info(`Follow-up sent to job ${inline(settings.jobId)}`)
  run.jobRead(job)
  return { job, answeredAt }
}

/** Sends the create or message. A retry is sent only when the server certainly did not act on the last. */
async function postAtMostOnce(
  settings: CreateOrMessage,
  deps: PostDeps,
  deadline: number,
  prompt: string
): Promise<IdentifiedJob> {
  const { clock, log } = deps
  const started = clock.now()
  for (let attempt = 1; ; attempt++) {
    const call = { timeoutMs: requestTimeout(deadline, clock.now()), signal: deps.signal }
    try {
      return settings.mode === 'create'
        ? await deps.api.createJob(prompt, call)
        : await deps.api.sendMessage(settings.jobId, prompt, call)
    } catch (error) {
      if (!(error instanceof ApiError) || !isSafeToRetryPost(error)) throw error
      const rateLimited = error.kind === 'rate-limited'
      const delay = nextRetryDelay({
        attempt,
        remainingMs: deadline - clock.now(),
        retryAfterMs: error.retryAfterMs,
        rateLimited,
        random: clock.random()
      })
      if (delay === undefined) {
        if (!rateLimited || attempt === 1) throw error
        // How long the limit held is what tells a user whether raising timeout can help.
        throw new ApiError(
          error.kind,
          `${error.message}; ${plural(attempt, 'attempt')} over ${formatDuration(clock.now() - started)}`,
          error.status,
          error.retryAfterMs
        )
      }
      const when =
        rateLimited && error.retryAfterMs === undefined
          ? `; attempt ${attempt + 1} at ${formatTime(new Date(clock.now() + delay).toISOString())}, in ${formatDuration(delay)}`
          : `; retrying in ${formatDuration(delay)}`
      log.info(`${WORDING[settings.mode].request} was not accepted (${error.message})${when}`)
      await clock.sleep(delay, deps.signal)
    }
  }
}
