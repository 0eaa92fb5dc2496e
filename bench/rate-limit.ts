// A create that meets the hourly limit: the step run in-process (scripts/in-process.ts) on a
// virtual clock against the Agent API simulator, whose rolling-hour budget is spent by a create
// just before, so its 429s (without Retry-After, as the API documents none) last a full hour.
import { runInProcess } from '../scripts/in-process.js'
import { AgentApiSimulator } from '../simulator/agent-api.js'
import { VirtualClock } from '../simulator/virtual-clock.js'
import { nextRetryDelay } from '../src/agent-api/schedule.js'
import { deriveSeed, seededRandom } from './stats.js'

export const WINDOW_MS = 60 * 60_000
/** The step's timeout: long enough to outlast the window. */
export const LIMIT_TIMEOUT = '1h30m'

export interface RateLimitRuns {
  runs: number
  /** Per run: create requests answered 429 while the window was closed. */
  refused: number[]
  /** Per run: from the window opening to the create that was accepted (ms). */
  lateMs: number[]
  /** The schedule before (5 attempts, 1 s doubling, full jitter): requests and the time they span (ms). */
  before: { requests: number[]; spanMs: number[] }
}

export async function measureRateLimit(options: { runs: number; seed: number }): Promise<RateLimitRuns> {
  const result: RateLimitRuns = { runs: options.runs, refused: [], lateMs: [], before: { requests: [], spanMs: [] } }
  for (let run = 0; run < options.runs; run++) {
    const clock = new VirtualClock({ seed: deriveSeed(options.seed, 'rate-limit', run) })
    const sim = await AgentApiSimulator.start({ clock, rateLimit: 1 })
    try {
      const inputs = { 'api-key': 'mint_bench_key', 'project-id': 'proj_bench', 'base-url': sim.url, wait: 'false' }
      const spend = await runInProcess({ ...inputs, prompt: 'The one use of this hour' }, { clock })
      if (spend.code !== 0) throw new Error(`the first create failed:\n${spend.everything()}`)
      const opens = clock.now() + WINDOW_MS
      sim.requests.length = 0
      const step = await runInProcess({ ...inputs, prompt: 'Document it', timeout: LIMIT_TIMEOUT }, { clock })
      const creates = sim.requests.filter((r) => r.operation === 'create')
      const accepted = creates.find((r) => r.answeredStatus === 201)
      if (step.code !== 0 || !accepted) throw new Error(`the limited create never got through:\n${step.everything()}`)
      result.refused.push(creates.filter((r) => r.answeredStatus === 429).length)
      result.lateMs.push(accepted.time - opens)
    } finally {
      await sim.close()
    }
    // The old schedule is the same function without the rate-limit branch.
    const random = seededRandom(deriveSeed(options.seed, 'rate-limit-before', run))
    let span = 0
    let attempt = 1
    for (;;) {
      const delay = nextRetryDelay({ attempt, remainingMs: WINDOW_MS - span, random: random() })
      if (delay === undefined) break
      span += delay
      attempt++
    }
    result.before.requests.push(attempt)
    result.before.spanMs.push(span)
  }
  return result
}
