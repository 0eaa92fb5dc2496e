/**
 * What a soak run does, as a fast-check arbitrary: the mode, how the job ends, faults on the POST and
 * the polls, `fail-on`, signals, re-runs and optional inputs left out or given empty. Every choice is
 * a draw that shrinks towards the plainer plan (no signal, no re-run, no extra fault).
 */
import fc from 'fast-check'
import type { Fault, FinalStatus, JobStatus } from '../../simulator/agent-api.js'

export type Mode = 'create' | 'message' | 'wait-only'
export type End = 'pr' | 'no-pr' | 'late-pr' | 'failed' | 'archived' | 'timeout' | 'unknown-status'
/** When the signal comes: after spawn, the POST, a re-run's record lookup, or the first poll. */
export type Moment = 'spawn' | 'post' | 'restore' | 'wait'
export type SignalName = 'SIGINT' | 'SIGTERM'

const POST_FAULTS = [
  '429',
  '503',
  '500',
  '502',
  '504',
  '5xx+effect',
  'reset',
  'reset+effect',
  'hang',
  'truncate',
  'no-id',
  'refused',
  'slow',
  'echo-key'
] as const
type PostClass = (typeof POST_FAULTS)[number] | 'none'
// 404 and hang are never drawn as extras, so a short slice must meet them in turn.
const POLL_FAULTS = ['404', 'hang', '500', '502', 'reset', 'empty', 'truncate', 'html', '429', 'echo-key'] as const
type PollClass = (typeof POLL_FAULTS)[number] | 'none'
/** Fault classes a poll may meet anywhere in a wait: not 404 (final outside the grace) nor a hang (ends it). */
const EXTRA_POLL_FAULTS = ['500', '502', 'reset', 'empty', 'truncate', 'html', '429', 'echo-key'] as const
/** The 'none's keep runs without a poll fault common. */
const POLL_ROTATION: readonly PollClass[] = [...POLL_FAULTS, 'none', 'none', 'none']

/** Every fault class the soak can exercise, as the report names them. */
export const FAULT_CLASSES: readonly string[] = [
  ...POST_FAULTS.map((c) => (c === 'refused' ? c : `post:${c}`)),
  ...POLL_FAULTS.map((c) => `poll:${c}`)
]

const FAIL_ON = [
  'failed, archived, timed-out',
  'none',
  'failed',
  'timed-out',
  'failed, archived, timed-out, no-pr',
  'no-pr',
  'archived\nno-pr'
] as const

type RetryAfter = { seconds: number } | { dateInMs: number }

/** A fault as planned: `cls` names it in the report; a Retry-After date is set when it is served. */
export interface PlannedFault {
  cls: string
  fault: Fault
  retryAfter?: RetryAfter
}

export interface SignalPlan {
  name: SignalName
  moment: Moment
  /** After spawn, or after the POST, the record lookup or the first poll arrived. */
  delayMs: number
}

export interface AttemptPlan {
  post: PlannedFault[]
  poll: PlannedFault[]
  signal?: SignalPlan
}

/** The optional inputs a run may leave at their default, unset or empty. */
type DefaultedInput =
  | 'wait'
  | 'fail-on'
  | 'max-poll-interval'
  | 'on-rerun'
  | 'prompt'
  | 'prompt-file'
  | 'job-id'
  | 'context'
  | 'dry-run'
  | 'labels'
  | 'github-token'
  | 'rerun-key'

export interface RunPlan {
  /** The run's fast-check seed: names its workflow run and seeded job. */
  seed: number
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
  /**
   * Optional inputs at their default left out of `with:` (the runner passes action.yml's default)
   * or given empty, as a workflow forwarding an unset value does: the action must take its default.
   */
  defaulted: Partial<Record<DefaultedInput, 'unset' | 'empty'>>
  /** One per attempt of the same workflow run. */
  attempts: AttemptPlan[]
}

interface Profile {
  timeoutMs: [number, number]
  /** For runs that can only time out (the job never ends, or its status is unknown). */
  shortTimeoutMs: [number, number]
  runMs: [number, number]
  retryAfterMaxS: number
  lagMs: [number, number]
  staleMs: [number, number]
  slowMs: [number, number]
  waitSignalMs: number
}

const FULL: Profile = {
  timeoutMs: [4000, 15000],
  shortTimeoutMs: [3000, 7000],
  runMs: [200, 3000],
  retryAfterMaxS: 3,
  lagMs: [300, 7000],
  staleMs: [500, 4000],
  slowMs: [300, 1500],
  waitSignalMs: 2500
}

/** The same campaign in shorter jobs and timeouts: for the test slice. */
const QUICK: Profile = {
  timeoutMs: [2000, 4000],
  shortTimeoutMs: [2000, 2500],
  runMs: [200, 1000],
  retryAfterMaxS: 1,
  lagMs: [300, 2500],
  staleMs: [300, 1500],
  slowMs: [200, 800],
  waitSignalMs: 1200
}

/** The fault a run is about: a POST class (with a drawn poll class) or a poll class with a clean POST. */
export interface Main {
  post: PostClass
  poll: PollClass | 'drawn'
}

/**
 * The campaign's runs take the fault classes in turn: even runs the next POST class, odd runs the
 * next poll class with a clean POST (a failed POST would end them before any poll). So 28
 * consecutive runs meet every POST class and 26 every poll class; the rest of a run is drawn.
 */
export function mainOf(index: number): Main {
  const turn = index >> 1
  return index % 2 === 1
    ? { post: 'none', poll: POLL_ROTATION[turn % POLL_ROTATION.length] as PollClass }
    : { post: POST_FAULTS[turn % POST_FAULTS.length] as PostClass, poll: 'drawn' }
}

export function terminalOf(end: End): FinalStatus {
  return end === 'failed' || end === 'archived' ? end : 'completed'
}

// A roll is a percentile that shrinks to 0, where every chance below says no.
const roll = fc.integer({ min: 0, max: 99 })
const hit = (draw: number, probability: number): boolean => draw >= 100 - probability * 100
/** A value by weight, shrinking towards the first. */
const weighted = <T>(...weights: [T, number][]): fc.Arbitrary<T> =>
  fc.oneof(...weights.map(([value, weight]) => ({ arbitrary: fc.constant(value), weight })))
const between = ([min, max]: [number, number]): fc.Arbitrary<number> => fc.integer({ min, max })
/** A share in thousandths of a range, so that one draw fits any of the ranges the plan picks from. */
const share = fc.integer({ min: 0, max: 1000 })
const within = ([min, max]: [number, number], draw: number): number => min + Math.round(((max - min) * draw) / 1000)

const faultDraw = fc.record({
  extra: fc.constantFrom(...EXTRA_POLL_FAULTS),
  tooMany: roll,
  dated: roll,
  withRetryAfter: roll,
  retryAfter: share,
  status5xx: fc.constantFrom(500, 502, 504),
  htmlStatus: fc.constantFrom(502, 200),
  slow: share
})
type FaultDraw = typeof faultDraw extends fc.Arbitrary<infer T> ? T : never

const attemptDraw = fc.record({
  signal: roll,
  // 12 values: uniform over any 1 to 4 moments.
  moment: fc.nat(11),
  name: fc.constantFrom<SignalName>('SIGINT', 'SIGTERM'),
  delay: share,
  slowPost: roll,
  before: roll,
  extras: weighted([0, 2], [1, 2], [2, 1]),
  count: fc.integer({ min: 1, max: 3 }),
  later: roll,
  faults: fc.tuple(faultDraw, faultDraw, faultDraw, faultDraw)
})
type AttemptDraw = typeof attemptDraw extends fc.Arbitrary<infer T> ? T : never

/** Every run of a campaign, given its main fault: shrinking keeps the main fault and plainens the rest. */
export function planArb(main: Main, quick: boolean): fc.Arbitrary<RunPlan> {
  const p = quick ? QUICK : FULL
  // Uniform draws, as the plans always had: fast-check's bias towards small values would skew them.
  return fc.noBias(drawsArb(p).map((d) => buildPlan(main, p, d)))
}

function drawsArb(p: Profile) {
  return fc.record({
    poll: weighted<PollClass>(['none', 3], ...POLL_FAULTS.map((c): [PollClass, number] => [c, 1])),
    mode: roll,
    noWait: roll,
    end: weighted<End>(
      ['pr', 30],
      ['no-pr', 15],
      ['late-pr', 15],
      ['failed', 10],
      ['archived', 10],
      ['timeout', 10],
      ['unknown-status', 7]
    ),
    timeout: share,
    runMs: between(p.runMs),
    maxPollInterval: fc.constantFrom('10s', '1s', '2s'),
    failOn: fc.constantFrom<string>(...FAIL_ON),
    lag: between(p.lagMs),
    seedStatus: weighted<JobStatus>(['completed', 60], ['active', 25], ['failed', 15]),
    stale: roll,
    staleMs: between(p.staleMs),
    waitOnlyEnded: roll,
    rerun: roll,
    cache: roll,
    onRerunNew: roll,
    third: roll,
    attempts: fc.tuple(attemptDraw, attemptDraw, attemptDraw),
    defaulted: fc.array(roll, { minLength: 11, maxLength: 11 })
  })
}
type Draws = ReturnType<typeof drawsArb> extends fc.Arbitrary<infer T> ? T : never

function buildPlan(main: Main, p: Profile, d: Draws): RunPlan {
  const odd = main.poll !== 'drawn'
  let postClass = main.post
  const pollClass = main.poll === 'drawn' ? d.poll : main.poll
  // The mode's weights, in percent, by the run's main fault (create first: it shrinks towards it).
  const [create, message] =
    postClass === 'refused' ? [30, 20] : postClass !== 'none' ? [65, 35] : pollClass === '404' ? [60, 40] : [45, 30]
  const mode: Mode = d.mode < create ? 'create' : d.mode < create + message ? 'message' : 'wait-only'
  const refused = postClass === 'refused'
  // Not on a run meant for a poll fault: without a wait there is no poll.
  const wait = mode === 'wait-only' || !hit(d.noWait, 0.15) || (odd && pollClass !== 'none')
  const endless = d.end === 'timeout' || d.end === 'unknown-status'
  const plan: RunPlan = {
    seed: 0,
    mode,
    wait,
    end: d.end,
    runMs: d.end === 'timeout' ? 600_000 : d.runMs,
    timeoutMs: Math.round(within(endless ? p.shortTimeoutMs : p.timeoutMs, d.timeout) / 100) * 100,
    maxPollInterval: d.maxPollInterval,
    failOn: d.failOn,
    refused,
    cache: false,
    onRerun: 'resume',
    defaulted: {},
    attempts: []
  }
  if (d.end === 'late-pr') plan.prLinkLagMs = d.lag
  if (mode === 'message') {
    plan.seedStatus = d.seedStatus
    if (hit(d.stale, 0.4)) plan.staleAfterMessageMs = d.staleMs
  }
  if (mode === 'wait-only') plan.seedStatus = !hit(d.waitOnlyEnded, 0.2) || endless ? 'active' : terminalOf(d.end)

  const rerun = hit(d.rerun, 0.3)
  plan.cache = rerun || hit(d.cache, 0.25)
  plan.onRerun = rerun && hit(d.onRerunNew, 0.15) ? 'new' : 'resume'
  const count = rerun ? (hit(d.third, 0.3) ? 3 : 2) : 1
  const posts = mode !== 'wait-only' && !refused
  const answer = mode === 'message' ? 200 : 201
  for (const [index, a] of d.attempts.slice(0, count).entries()) {
    const first = index === 0
    // A run meant for a poll fault is not signalled before its first poll: it would never meet it.
    const early = !(first && odd && pollClass !== 'none')
    const moments: Moment[] = [
      ...(early ? (['spawn'] as const) : []),
      ...(early && posts ? (['post'] as const) : []),
      ...(!first && plan.onRerun === 'resume' ? (['restore'] as const) : []),
      ...(wait || !first ? (['wait'] as const) : [])
    ]
    const signal = hit(a.signal, first ? (rerun ? 0.45 : 0.3) : 0.15) ? signalOf(a, p, moments) : undefined
    // A signal meant for the POST needs a POST that lasts, or it always lands after the answer.
    if (first && signal?.moment === 'post' && postClass === 'none' && hit(a.slowPost, 0.5)) postClass = 'slow'
    const [f0, f1] = a.faults
    const attempt: AttemptPlan = first
      ? { post: posts ? postFaults(postClass, a, p, answer) : [], poll: pollFaults(pollClass, a, p, mode) }
      : {
          post: posts && hit(a.later, 0.2) ? [tooMany(f0, p)] : [],
          poll: hit(a.later, 0.3) ? [pollFault(f1.extra, f1, p)] : []
        }
    if (signal) attempt.signal = signal
    plan.attempts.push(attempt)
  }
  plan.defaulted = defaultedOf(d.defaulted, plan)
  return plan
}

/**
 * Which inputs the run leaves at their default, and how. An input whose planned value is its
 * default is left out or given empty half of the time; inputs the soak never sets otherwise (or
 * that its mode leaves empty) are given empty a third of the time.
 */
function defaultedOf(rolls: number[], plan: RunPlan): RunPlan['defaulted'] {
  const atDefault: [DefaultedInput, boolean][] = [
    ['wait', plan.wait],
    ['fail-on', plan.failOn === 'failed, archived, timed-out'],
    ['max-poll-interval', plan.maxPollInterval === '10s'],
    ['on-rerun', plan.onRerun === 'resume']
  ]
  const neverSet: DefaultedInput[] = [
    plan.mode === 'wait-only' ? 'prompt' : 'prompt-file',
    ...(plan.mode === 'create' ? (['job-id'] as const) : []),
    'context',
    'dry-run',
    'labels',
    'github-token',
    'rerun-key'
  ]
  const defaulted: RunPlan['defaulted'] = {}
  atDefault.forEach(([name, isDefault], i) => {
    const draw = rolls[i] ?? 0
    if (isDefault && hit(draw, 0.5)) defaulted[name] = hit(draw, 0.25) ? 'unset' : 'empty'
  })
  neverSet.forEach((name, i) => {
    if (hit(rolls[4 + i] ?? 0, 1 / 3)) defaulted[name] = 'empty'
  })
  return defaulted
}

function signalOf(a: AttemptDraw, p: Profile, moments: Moment[]): SignalPlan {
  const moment = moments[a.moment % moments.length] as Moment
  const most = { spawn: 150, post: 100, restore: 60, wait: p.waitSignalMs }[moment]
  return { name: a.name, moment, delayMs: within([0, most], a.delay) }
}

function retryAfter(f: FaultDraw, p: Profile): RetryAfter {
  return hit(f.dated, 0.25)
    ? { dateInMs: within([0, p.retryAfterMaxS * 1000], f.retryAfter) }
    : { seconds: within([0, p.retryAfterMaxS], f.retryAfter) }
}

function tooMany(f: FaultDraw, p: Profile, prefix = 'post'): PlannedFault {
  return {
    cls: `${prefix}:429`,
    fault: { kind: 'status', status: 429, body: '{"error":"Rate limit exceeded"}' },
    retryAfter: retryAfter(f, p)
  }
}

function unavailable(f: FaultDraw, p: Profile): PlannedFault {
  const fault: PlannedFault = { cls: 'post:503', fault: { kind: 'status', status: 503 } }
  if (hit(f.withRetryAfter, 0.5)) fault.retryAfter = retryAfter(f, p)
  return fault
}

/** The fault of each POST class that is one fault (after a retryable one a quarter of the time). */
const ONE_POST_FAULT: Partial<Record<PostClass, (f: FaultDraw, p: Profile, answer: number) => Fault>> = {
  '500': () => ({ kind: 'status', status: 500 }),
  '502': () => ({ kind: 'status', status: 502 }),
  '504': () => ({ kind: 'status', status: 504 }),
  '5xx+effect': (f) => ({ kind: 'status', status: f.status5xx, effect: true }),
  reset: () => ({ kind: 'reset' }),
  'reset+effect': () => ({ kind: 'reset', effect: true }),
  hang: () => ({ kind: 'hang' }),
  truncate: () => ({ kind: 'truncate' }),
  'no-id': (_f, _p, answer) => ({ kind: 'body', status: answer, body: '{"status":"active","model":"sim-model-1"}' }),
  slow: (f, p) => ({ kind: 'delay', ms: within(p.slowMs, f.slow) }),
  'echo-key': () => ({ kind: 'echoAuth', status: 401 })
}

/** The POST's faults: the run's class, sometimes after a fault the action retries. */
function postFaults(cls: PostClass, a: AttemptDraw, p: Profile, answer: number): PlannedFault[] {
  const [f0, f1] = a.faults
  const retryable = (f: FaultDraw): PlannedFault => (hit(f.tooMany, 0.6) ? tooMany(f, p) : unavailable(f, p))
  if (cls === 'none') return hit(a.before, 0.15) ? [retryable(f0)] : []
  if (cls === '429' || cls === '503')
    return a.faults.slice(0, a.count).map((f) => (cls === '429' ? tooMany(f, p) : unavailable(f, p)))
  const one = ONE_POST_FAULT[cls]
  if (!one) return []
  return [...(hit(a.before, 0.25) ? [retryable(f0)] : []), { cls: `post:${cls}`, fault: one(f1, p, answer) }]
}

/** The polls' faults: the run's class (a 404 first, a hang last) among a few the wait must ride out. */
function pollFaults(cls: PollClass, a: AttemptDraw, p: Profile, mode: Mode): PlannedFault[] {
  const [, f1, f2, f3] = a.faults
  const extras = [f1, f2].slice(0, a.extras).map((f) => pollFault(f.extra, f, p))
  if (cls === 'none') return extras
  // Without a POST of ours, a 404 is final (documented): wait-only runs get a 500 instead.
  const main = pollFault(cls === '404' && mode === 'wait-only' ? '500' : cls, f3, p)
  return cls === '404' ? [main, ...extras] : [...extras, main]
}

const HTML = '<!doctype html><html><body><h1>502 Bad Gateway</h1></body></html>'
const POLL_FAULT: Record<Exclude<PollClass, 'none' | '429'>, (f: FaultDraw) => Fault> = {
  '500': () => ({ kind: 'status', status: 500 }),
  '502': () => ({ kind: 'status', status: 502 }),
  reset: () => ({ kind: 'reset' }),
  empty: () => ({ kind: 'body', body: '' }),
  truncate: () => ({ kind: 'truncate' }),
  html: (f) => ({ kind: 'body', status: f.htmlStatus, contentType: 'text/html', body: HTML }),
  '404': () => ({ kind: 'notFound' }),
  hang: () => ({ kind: 'hang' }),
  'echo-key': () => ({ kind: 'echoAuth', status: 500 })
}

function pollFault(cls: Exclude<PollClass, 'none'>, f: FaultDraw, p: Profile): PlannedFault {
  return cls === '429' ? tooMany(f, p, 'poll') : { cls: `poll:${cls}`, fault: POLL_FAULT[cls](f) }
}
