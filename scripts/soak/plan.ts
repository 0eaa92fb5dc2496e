/**
 * What a soak run does: the mode, how the job ends, faults on the POST and the polls, `fail-on`, signals,
 * re-runs and optional inputs left out or given empty. Each choice is one draw of fast-check's `fc.gen()`,
 * which shrinks towards the plainer plan (no signal, no re-run, no extra fault).
 */
import fc from 'fast-check'
import type { Fault, FinalStatus, JobStatus } from '../../simulator/agent-api.js'

type Mode = 'create' | 'message' | 'wait-only'
type End = 'pr' | 'no-pr' | 'late-pr' | 'failed' | 'archived' | 'timeout' | 'unknown-status'
/** When the signal comes: after spawn, the POST, a re-run's record lookup, or the first poll. */
type Moment = 'spawn' | 'post' | 'restore' | 'wait'
type Draw = fc.GeneratorValue
type Range = [number, number]

const status = (code: number, effect?: true): Fault => ({ kind: 'status', status: code, ...(effect && { effect }) })
const RATE_LIMITED: Fault = { kind: 'status', status: 429, body: '{"error":"Rate limit exceeded"}' }
const NO_ID = '{"status":"active","model":"sim-model-1"}'
const HTML = '<!doctype html><html><body><h1>502 Bad Gateway</h1></body></html>'

/** The POST classes that are one fault (after a retryable one a quarter of the time). */
const ONE_POST_FAULT = {
  '500': () => status(500),
  '502': () => status(502),
  '504': () => status(504),
  '5xx+effect': (g: Draw) => status(g(anyOf<number>, 500, 502, 504), true),
  reset: () => ({ kind: 'reset' }),
  'reset+effect': () => ({ kind: 'reset', effect: true }),
  hang: () => ({ kind: 'hang' }),
  truncate: () => ({ kind: 'truncate' }),
  'no-id': (_g: Draw, _p: Profile, answer: number) => ({ kind: 'body', status: answer, body: NO_ID }),
  slow: (g: Draw, p: Profile) => ({ kind: 'delay', ms: g(between, p.slowMs) }),
  'echo-key': () => ({ kind: 'echoAuth', status: 401 })
} satisfies Record<string, (g: Draw, p: Profile, answer: number) => Fault>
type PostClass = keyof typeof ONE_POST_FAULT | '429' | '503' | 'refused' | 'none'
const POST_CLASSES = ['429', '503', ...Object.keys(ONE_POST_FAULT), 'refused'] as Exclude<PostClass, 'none'>[]

/** Poll faults that may come anywhere in a wait: not 404 (final outside the grace) nor hang (ends it). */
const POLL_FAULT = {
  '500': () => status(500),
  '502': () => status(502),
  reset: () => ({ kind: 'reset' }),
  empty: () => ({ kind: 'body', body: '' }),
  truncate: () => ({ kind: 'truncate' }),
  html: (g: Draw) => ({ kind: 'body', status: g(anyOf<number>, 502, 200), contentType: 'text/html', body: HTML }),
  '429': () => RATE_LIMITED,
  'echo-key': () => ({ kind: 'echoAuth', status: 500 })
} satisfies Record<string, (g: Draw) => Fault>
type ExtraPollClass = keyof typeof POLL_FAULT
type PollClass = ExtraPollClass | '404' | 'hang' | 'none'
const EXTRA_POLL_CLASSES = Object.keys(POLL_FAULT) as ExtraPollClass[]
const POLL_CLASSES: Exclude<PollClass, 'none'>[] = ['404', 'hang', ...EXTRA_POLL_CLASSES]

/** Every fault class the soak can exercise, as a run's `faults` name them. */
export const FAULT_CLASSES: readonly string[] = [
  ...POST_CLASSES.map((c) => (c === 'refused' ? c : `post:${c}`)),
  ...POLL_CLASSES.map((c) => `poll:${c}`)
]

const FAIL_DEFAULT = 'failed, archived, timed-out' // action.yml's fail-on
const FAIL_ON = [FAIL_DEFAULT, 'none', 'failed', 'timed-out', `${FAIL_DEFAULT}, no-pr`, 'no-pr', 'archived\nno-pr']
// Weights in percent (or parts); every draw shrinks towards its first value.
const ENDS = { pr: 30, 'no-pr': 15, 'late-pr': 15, failed: 10, archived: 10, timeout: 10, 'unknown-status': 7 }
const SEED_STATUSES: Partial<Record<JobStatus, number>> = { completed: 60, active: 25, failed: 15 }
const POLL_WEIGHTS: [PollClass, number][] = [['none', 3], ...POLL_CLASSES.map((c): [PollClass, number] => [c, 1])]

/** A fault as planned: `cls` names it; a Retry-After date is set when it is served. */
export type PlannedFault = { cls: string; fault: Fault; retryAfter?: { seconds: number } | { dateInMs: number } }
/** A signal sent `delayMs` after its moment came. */
export type SignalPlan = { name: 'SIGINT' | 'SIGTERM'; moment: Moment; delayMs: number }
type AttemptPlan = { post: PlannedFault[]; poll: PlannedFault[]; signal?: SignalPlan }

export interface RunPlan {
  mode: Mode
  wait: boolean
  end: End
  runMs: number
  timeoutMs: number
  maxPollInterval: string
  failOn: string
  prLinkLagMs?: number
  staleAfterMessageMs?: number
  /** The seeded job's status (follow-up and wait-only runs). */
  seedStatus?: JobStatus
  /** base-url is a closed port: every request is refused. */
  refused: boolean
  /** The runner's cache service and run variables are set (always for re-runs). */
  cache: boolean
  onRerun: 'resume' | 'new'
  /** Inputs left out of `with:` (action.yml's default applies) or given empty, as a forwarded unset value is. */
  defaulted: Partial<Record<string, 'unset' | 'empty'>>
  attempts: AttemptPlan[]
}

/** The full soak's figures, and the test slice's shorter jobs and timeouts. */
const PROFILES = {
  timeoutMs: { full: [4000, 15000], quick: [2000, 4000] },
  shortTimeoutMs: { full: [3000, 7000], quick: [2000, 2500] }, // for runs that can only time out
  runMs: { full: [200, 3000], quick: [200, 1000] },
  lagMs: { full: [300, 7000], quick: [300, 2500] },
  staleMs: { full: [500, 4000], quick: [300, 1500] },
  slowMs: { full: [300, 1500], quick: [200, 800] },
  retryAfterMaxS: { full: 3, quick: 1 },
  waitSignalMs: { full: 2500, quick: 1200 }
} satisfies Record<string, Record<'full' | 'quick', Range | number>>
type Profile = { [K in keyof typeof PROFILES]: (typeof PROFILES)[K]['full'] }

// The fault a run is about, the classes in turn: even runs the next POST class (with a drawn poll class), odd runs
// the next poll class or none with a clean POST (a failed POST would end them before any poll). So 28 runs meet
// every POST class and 26 every poll class.
function mainOf(index: number): { post: PostClass; poll: PollClass | 'drawn' } {
  const turn = index >> 1
  const polls: PollClass[] = [...POLL_CLASSES, 'none', 'none', 'none']
  return index % 2 === 1
    ? { post: 'none', poll: polls[turn % polls.length] as PollClass }
    : { post: POST_CLASSES[turn % POST_CLASSES.length] as PostClass, poll: 'drawn' }
}

export const terminalOf = (end: End): FinalStatus => (end === 'failed' || end === 'archived' ? end : 'completed')

/** A key by weight, shrinking towards the first (give entries where keys look like numbers). */
const weighted = <K extends string>(weights: Partial<Record<K, number>> | [K, number][]): fc.Arbitrary<K> => {
  const entries = Array.isArray(weights) ? weights : (Object.entries(weights) as [K, number][])
  const arbitraries = entries.flatMap(([key, weight]) => (weight > 0 ? [{ arbitrary: fc.constant(key), weight }] : []))
  return fc.oneof({ withCrossShrink: true }, ...arbitraries)
}
const chance = (percent: number): fc.Arbitrary<boolean> =>
  weighted({ no: 100 - percent, yes: percent }).map((answer) => answer === 'yes')
const anyOf = <T>(...values: T[]): fc.Arbitrary<T> => fc.constantFrom(...values)
const between = ([min, max]: Range): fc.Arbitrary<number> => fc.integer({ min, max })

/** Run `index` of a campaign: shrinking keeps its main fault and plainens the rest. */
export function planArb(index: number, quick: boolean): fc.Arbitrary<RunPlan> {
  // Uniform draws, as the plans always had: fast-check's bias towards small values would skew them.
  const p = Object.fromEntries(
    Object.entries(PROFILES).map(([name, both]) => [name, both[quick ? 'quick' : 'full']])
  ) as Profile
  return fc.noBias(fc.gen()).map((g) => drawPlan(g, index, p))
}

function drawPlan(g: Draw, index: number, p: Profile): RunPlan {
  const main = mainOf(index)
  const odd = main.poll !== 'drawn'
  const poll = main.poll === 'drawn' ? g(weighted<PollClass>, POLL_WEIGHTS) : main.poll
  const refused = main.post === 'refused'
  // The mode's weights by the run's main fault (create first: it shrinks towards it).
  const [create, message] = refused ? [30, 20] : main.post !== 'none' ? [65, 35] : poll === '404' ? [60, 40] : [45, 30]
  const mode = g(weighted<Mode>, { create, message, 'wait-only': 100 - create - message })
  // Not on a run meant for a poll fault: without a wait there is no poll.
  const wait = mode === 'wait-only' || (odd && poll !== 'none') || !g(chance, 15)
  const end = g(weighted<End>, ENDS)
  const endless = end === 'timeout' || end === 'unknown-status'
  const [low, high] = endless ? p.shortTimeoutMs : p.timeoutMs
  const plan: RunPlan = {
    mode,
    wait,
    end,
    runMs: end === 'timeout' ? 600_000 : g(between, p.runMs),
    timeoutMs: g(between, [low / 100, high / 100]) * 100,
    maxPollInterval: g(anyOf<string>, '10s', '1s', '2s'),
    failOn: g(anyOf<string>, ...FAIL_ON),
    refused,
    cache: false,
    onRerun: 'resume',
    defaulted: {},
    attempts: []
  }
  if (end === 'late-pr') plan.prLinkLagMs = g(between, p.lagMs)
  if (mode === 'message') {
    plan.seedStatus = g(weighted<JobStatus>, SEED_STATUSES)
    if (g(chance, 40)) plan.staleAfterMessageMs = g(between, p.staleMs)
  }
  if (mode === 'wait-only') plan.seedStatus = endless || !g(chance, 20) ? 'active' : terminalOf(end)
  const rerun = g(chance, 30)
  plan.cache = rerun || g(chance, 25)
  plan.onRerun = rerun && g(chance, 15) ? 'new' : 'resume'
  const resume = plan.onRerun === 'resume'
  const count = rerun ? (g(chance, 30) ? 3 : 2) : 1
  const posts = mode !== 'wait-only' && !refused
  let postClass = main.post
  for (let i = 0; i < count; i++) {
    const first = i === 0
    // A run meant for a poll fault is not signalled before its first poll: it would never meet it.
    const early = !(first && odd && poll !== 'none')
    const allowed = { spawn: early, post: early && posts, restore: !first && resume, wait: wait || !first }
    const moments = (Object.keys(allowed) as Moment[]).filter((moment) => allowed[moment])
    const signal = g(chance, first ? (rerun ? 45 : 30) : 15) ? drawSignal(g, moments, p) : undefined
    // A signal meant for the POST needs a POST that lasts, or it always lands after the answer.
    if (first && signal?.moment === 'post' && postClass === 'none' && g(chance, 50)) postClass = 'slow'
    const attempt: AttemptPlan = first
      ? {
          post: posts ? drawPostFaults(g, postClass, p, mode === 'message' ? 200 : 201) : [],
          poll: drawPollFaults(g, poll, p, mode)
        }
      : {
          post: posts && g(chance, 20) ? [fault(g, 'post', '429', p)] : [],
          poll: g(chance, 30) ? [fault(g, 'poll', g(anyOf<ExtraPollClass>, ...EXTRA_POLL_CLASSES), p)] : []
        }
    if (signal) attempt.signal = signal
    plan.attempts.push(attempt)
  }
  plan.defaulted = drawDefaulted(g, plan)
  return plan
}

/**
 * Which inputs the run leaves at their default, and how. An input whose planned value is its
 * default is left out or given empty half of the time; inputs the soak never sets otherwise (or
 * that its mode leaves empty) are given empty a third of the time.
 */
function drawDefaulted(g: Draw, plan: RunPlan): RunPlan['defaulted'] {
  const defaulted: RunPlan['defaulted'] = {}
  const atDefault = {
    wait: plan.wait,
    'fail-on': plan.failOn === FAIL_DEFAULT,
    'max-poll-interval': plan.maxPollInterval === '10s',
    'on-rerun': plan.onRerun === 'resume'
  }
  for (const [name, isDefault] of Object.entries(atDefault)) {
    const how = isDefault ? g(weighted<'no' | 'empty' | 'unset'>, { no: 2, empty: 1, unset: 1 }) : 'no'
    if (how !== 'no') defaulted[name] = how
  }
  const prompt = plan.mode === 'wait-only' ? 'prompt' : 'prompt-file'
  const neverSet = [prompt, ...(plan.mode === 'create' ? ['job-id'] : []), 'context', 'dry-run', 'labels']
  for (const name of [...neverSet, 'github-token', 'rerun-key']) if (g(chance, 33)) defaulted[name] = 'empty'
  return defaulted
}

function drawSignal(g: Draw, moments: Moment[], p: Profile): SignalPlan {
  const moment = g(anyOf<Moment>, ...moments)
  const most = { spawn: 150, post: 100, restore: 60, wait: p.waitSignalMs }[moment]
  return { name: g(anyOf<SignalPlan['name']>, 'SIGINT', 'SIGTERM'), moment, delayMs: g(between, [0, most]) }
}

/** One fault of a class; a 429 (and half the 503s) carries a Retry-After, in seconds or as a date. */
function fault(g: Draw, side: 'post' | 'poll', cls: ExtraPollClass | '503', p: Profile): PlannedFault {
  const planned: PlannedFault = { cls: `${side}:${cls}`, fault: cls === '503' ? status(503) : POLL_FAULT[cls](g) }
  if (cls === '429' || (cls === '503' && g(chance, 50)))
    planned.retryAfter = g(chance, 25)
      ? { dateInMs: g(between, [0, p.retryAfterMaxS * 1000]) }
      : { seconds: g(between, [0, p.retryAfterMaxS]) }
  return planned
}

/** The POST's faults: the run's class, sometimes after a fault the action retries. */
function drawPostFaults(g: Draw, cls: PostClass, p: Profile, answer: number): PlannedFault[] {
  const retryable = (): PlannedFault[] => [fault(g, 'post', g(chance, 60) ? '429' : '503', p)]
  if (cls === 'none') return g(chance, 15) ? retryable() : []
  if (cls === '429' || cls === '503') return Array.from({ length: g(between, [1, 3]) }, () => fault(g, 'post', cls, p))
  if (cls === 'refused') return []
  const before = g(chance, 25) ? retryable() : []
  return [...before, { cls: `post:${cls}`, fault: ONE_POST_FAULT[cls](g, p, answer) }]
}

/** The polls' faults: the run's class (a 404 first, a hang last) among a few the wait must ride out. */
function drawPollFaults(g: Draw, cls: PollClass, p: Profile, mode: Mode): PlannedFault[] {
  const count = Number(g(weighted<'0' | '1' | '2'>, { 0: 2, 1: 2, 2: 1 }))
  const extras = Array.from({ length: count }, () =>
    fault(g, 'poll', g(anyOf<ExtraPollClass>, ...EXTRA_POLL_CLASSES), p)
  )
  if (cls === 'none') return extras
  // Without a POST of ours, a 404 is final (documented): wait-only runs get a 500 instead.
  if (cls === '404' && mode === 'wait-only') return [fault(g, 'poll', '500', p), ...extras]
  if (cls === '404') return [{ cls: 'poll:404', fault: { kind: 'notFound' } }, ...extras]
  return [...extras, cls === 'hang' ? { cls: 'poll:hang', fault: { kind: 'hang' } } : fault(g, 'poll', cls, p)]
}
