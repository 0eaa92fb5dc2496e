export const id = 849;
export const ids = [849];
export const modules = {

/***/ 6985:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   BO: () => (/* binding */ TriggerRateLimited),
/* harmony export */   Kn: () => (/* binding */ triggerOnce),
/* harmony export */   X4: () => (/* binding */ triggerMayHaveActed),
/* harmony export */   Zq: () => (/* binding */ identifiedRun),
/* harmony export */   q6: () => (/* binding */ parseAutomationRun),
/* harmony export */   u3: () => (/* binding */ TRIGGER_ATTEMPTS)
/* harmony export */ });
/* unused harmony export TRIGGER_RATE_WAIT_MS */
/* harmony import */ var _base_clock_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(6412);
/* harmony import */ var _base_duration_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(5937);
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(1461);
/**
 * Mintlify's Automations: `POST /v1/workflow/{projectId}/{automationId}/trigger` queues a run of an
 * automation whose trigger is a custom schedule. The trigger is a write with no documented
 * idempotency (a second run costs credits and opens a second pull request), so it is sent again only
 * after a 429, which certainly did nothing.
 */



/** Requests in all when each is answered 429 (the first and two more). */
const TRIGGER_ATTEMPTS = 3;
/**
 * After a 429 without Retry-After: the documented window, 10 requests per 10 seconds per
 * organization (mintlify.com/docs/api/automations/trigger, "Rate limits").
 */
const TRIGGER_RATE_WAIT_MS = 10_000;
/**
 * The 429 the trigger gave up on. `outlastsTimeout`: it stopped because waiting for the limit would
 * pass `timeout` (a longer one would have sent it again), not because its attempts were spent.
 */
class TriggerRateLimited extends _errors_js__WEBPACK_IMPORTED_MODULE_2__/* .ApiError */ .hD {
    outlastsTimeout;
    constructor(error, message, outlastsTimeout) {
        super(error.kind, message, error.status, error.retryAfterMs);
        this.outlastsTimeout = outlastsTimeout;
    }
}
/** Sends the trigger; after a 429, waits Retry-After (or the 10 s window) and sends it again, at most twice. */
async function triggerOnce(api, automationId, options) {
    const { clock, signal, deadline } = options;
    const started = clock.now();
    for (let attempt = 1;; attempt++) {
        try {
            return await api.triggerAutomation(automationId, { timeoutMs: (0,_base_clock_js__WEBPACK_IMPORTED_MODULE_0__/* .requestTimeout */ .Vq)(deadline, clock.now()), signal });
        }
        catch (error) {
            if (!(error instanceof _errors_js__WEBPACK_IMPORTED_MODULE_2__/* .ApiError */ .hD) || error.kind !== 'rate-limited')
                throw error;
            const waitMs = error.retryAfterMs ?? TRIGGER_RATE_WAIT_MS;
            if (attempt >= TRIGGER_ATTEMPTS || clock.now() + waitMs >= deadline) {
                const tried = attempt > 1 ? `; ${attempt} attempts over ${(0,_base_duration_js__WEBPACK_IMPORTED_MODULE_1__/* .formatDuration */ .a3)(clock.now() - started)}` : '';
                const left = attempt < TRIGGER_ATTEMPTS ? `; waiting ${(0,_base_duration_js__WEBPACK_IMPORTED_MODULE_1__/* .formatDuration */ .a3)(waitMs)} for it would pass timeout` : '';
                throw new TriggerRateLimited(error, `${error.message}${tried}${left}`, attempt < TRIGGER_ATTEMPTS);
            }
            options.onRateLimited(error, waitMs, attempt);
            await clock.sleep(waitMs, signal);
        }
    }
}
/**
 * Whether a trigger that failed this way may have queued a run: any answer but a refusal, or none.
 * Unlike a job's create, a 503 counts: nothing documents that the service did not act on it.
 */
function triggerMayHaveActed(error) {
    return error.kind === 'unavailable' || (0,_errors_js__WEBPACK_IMPORTED_MODULE_2__/* .mayHaveTakenEffect */ .Y2)(error);
}
/** A trigger's answer from parsed JSON: the ids that are non-empty strings; undefined when not an object. */
function parseAutomationRun(json) {
    if (typeof json !== 'object' || json === null || Array.isArray(json))
        return undefined;
    const record = json;
    const run = {};
    for (const key of ['schemaId', 'instanceId', 'jobId']) {
        const value = record[key];
        if (typeof value === 'string' && value !== '')
            run[key] = value;
    }
    return run;
}
/** The run of a parsed answer that names its job, or a `bad-response` naming the ids it lacks. */
function identifiedRun(run) {
    if (run.jobId === undefined) {
        const missing = ['instanceId', 'jobId'].filter((key) => run[key] === undefined);
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_2__/* .ApiError */ .hD('bad-response', `answered without ${missing.join(' or ')}`);
    }
    return { ...run, jobId: run.jobId };
}


/***/ }),

/***/ 1461:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Bw: () => (/* binding */ isTransientForPoll),
/* harmony export */   Y2: () => (/* binding */ mayHaveTakenEffect),
/* harmony export */   f0: () => (/* binding */ isSafeToRetryPost),
/* harmony export */   hD: () => (/* binding */ ApiError),
/* harmony export */   mu: () => (/* binding */ parseRetryAfter),
/* harmony export */   o3: () => (/* binding */ kindOfStatus),
/* harmony export */   x6: () => (/* binding */ networkError)
/* harmony export */ });
/* harmony import */ var _base_causes_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(2841);
/** The kinds of API failure; every response and network error is classified once, here. */

class ApiError extends Error {
    kind;
    status;
    /** Retry-After from the answer, in ms from when it came; on a 429, only one that asks for a wait. */
    retryAfterMs;
    constructor(kind, message, 
    /** HTTP status, when an answer came (for `proxy`, the proxy's). */
    status, retryAfterMs) {
        super(message);
        this.kind = kind;
        this.status = status;
        this.name = 'ApiError';
        // A 429's Retry-After of 0 (or a date already past, clocks skew) is read as none. The contract
        // documents no Retry-After and limits over a window (100 uses per project per hour), so "now"
        // does not mean the limit has cleared: each caller's own wait for the limit applies, where
        // "now" would send a create five times at once and give up.
        this.retryAfterMs = kind === 'rate-limited' && retryAfterMs === 0 ? undefined : retryAfterMs;
    }
}
/**
 * Whether a POST may be sent again: only when the server certainly did not act on it, and
 * trying again can help (a refused proxy login or a bad certificate will not mend in seconds).
 */
function isSafeToRetryPost(error) {
    switch (error.kind) {
        case 'rate-limited':
        case 'unavailable':
        case 'not-sent':
            return true;
        case 'proxy':
            return error.status !== 407;
        case 'unauthorized':
        case 'forbidden':
        case 'not-found':
        case 'invalid':
        case 'server-error':
        case 'tls':
        case 'no-answer':
        case 'bad-response':
        case 'redirect':
            return false;
    }
}
/** Whether a poll (a GET, safe to repeat) should be tried again after this failure. */
function isTransientForPoll(error) {
    switch (error.kind) {
        case 'rate-limited':
        case 'unavailable':
        case 'server-error':
        case 'not-sent':
        case 'no-answer':
        case 'bad-response':
            return true;
        case 'proxy':
            return error.status !== 407;
        case 'unauthorized':
        case 'forbidden':
        case 'not-found':
        case 'invalid':
        case 'tls':
        case 'redirect':
            return false;
    }
}
/** Whether a POST that failed this way may have taken effect on the server. */
function mayHaveTakenEffect(error) {
    switch (error.kind) {
        case 'server-error':
        case 'no-answer':
        case 'bad-response':
            return true;
        case 'unauthorized':
        case 'forbidden':
        case 'not-found':
        case 'invalid':
        case 'rate-limited':
        case 'unavailable':
        case 'not-sent':
        case 'proxy':
        case 'tls':
        case 'redirect':
            return false;
    }
}
function kindOfStatus(status) {
    if (status === 401)
        return 'unauthorized';
    if (status === 403)
        return 'forbidden';
    if (status === 404)
        return 'not-found';
    if (status === 429)
        return 'rate-limited';
    if (status === 503)
        return 'unavailable';
    if (status >= 500)
        return 'server-error';
    if (status >= 300 && status < 400)
        return 'redirect';
    return 'invalid';
}
// undici reports a proxy that refuses CONNECT as an abort naming the proxy's status.
const PROXY_REFUSAL = /^Proxy response \((\d{3})\) !== 200 when HTTP Tunneling/;
/** Classifies an error thrown by the HTTP client (never a response) from what happened on the wire. */
function networkError(error, wire) {
    const seconds = `${Math.round(wire.timeoutMs / 100) / 10}s`;
    const chain = (0,_base_causes_js__WEBPACK_IMPORTED_MODULE_0__/* .causes */ .ps)(error);
    const proxy = chain.map((e) => PROXY_REFUSAL.exec(e.message)).find(Boolean);
    if (proxy) {
        const status = Number(proxy[1]);
        return new ApiError('proxy', `the proxy refused to connect to the API (it answered ${status})`, status);
    }
    const tls = chain.find((e) => (0,_base_causes_js__WEBPACK_IMPORTED_MODULE_0__/* .isTlsCode */ .ne)(e.code));
    // A TLS error after the request's bytes were written (a bad record, an alert mid-answer) leaves
    // the server free to have acted on them: only one before sending is a certain "not sent".
    if (tls && wire.sent)
        return new ApiError('no-answer', `TLS failed after the request was sent: ${detail(chain)}`);
    if (tls)
        return new ApiError('tls', `TLS failed: ${detail(chain)}`);
    if (wire.timedOut) {
        return wire.sent
            ? new ApiError('no-answer', `no answer within ${seconds}`)
            : new ApiError('not-sent', `could not connect within ${seconds}`);
    }
    return wire.sent
        ? new ApiError('no-answer', `connection failed: ${detail(chain)}`)
        : new ApiError('not-sent', `could not connect: ${detail(chain)}`);
}
function detail(chain) {
    return chain
        .map(({ message, code }) => (code && !message.includes(code) ? `${message} (${code})` : message))
        .join(': ');
}
/**
 * Retry-After in ms from `nowMs`: delta-seconds or an HTTP-date. Undefined when absent or
 * malformed; a date in the past is 0.
 */
function parseRetryAfter(value, nowMs) {
    if (value === undefined)
        return undefined;
    const text = value.trim();
    if (/^\d+$/.test(text))
        return Number(text) * 1000;
    if (!/[a-z]/i.test(text))
        return undefined;
    const date = parseHttpDate(text);
    return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** RFC 9110's asctime form, `Sun Nov  6 08:49:37 1994`: the day of the month is two digits or a space and one. */
const ASCTIME = /^[A-Z][a-z]{2} ([A-Z][a-z]{2}) ( \d|\d\d) (\d\d):(\d\d):(\d\d) (\d{4})$/;
/** Epoch ms of an HTTP-date (any of RFC 9110's three forms), or NaN. */
function parseHttpDate(text) {
    const asctime = ASCTIME.exec(text);
    // The asctime form names no zone, yet is GMT: Date.parse would read it in the runner's local time.
    if (!asctime)
        return Date.parse(text);
    const [, month, day, hours, minutes, seconds, year] = asctime;
    const index = MONTHS.indexOf(month ?? '');
    return index < 0 ? NaN : Date.UTC(Number(year), index, Number(day), Number(hours), Number(minutes), Number(seconds));
}


/***/ }),

/***/ 9231:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   E3: () => (/* binding */ jobFingerprint),
/* harmony export */   Hd: () => (/* binding */ isTerminal),
/* harmony export */   JN: () => (/* binding */ parseJob),
/* harmony export */   ih: () => (/* binding */ isKnownStatus)
/* harmony export */ });
/* unused harmony export JOB_STATUSES */
/* harmony import */ var _base_fingerprint_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(7621);

/** The job statuses the API documents. */
const JOB_STATUSES = ['active', 'completed', 'archived', 'failed'];
/** The record as sent, fingerprinted: a later read with the same fingerprint shows nothing new. */
function jobFingerprint(job) {
    return (0,_base_fingerprint_js__WEBPACK_IMPORTED_MODULE_0__/* .fingerprint */ .R)(JSON.stringify(job.raw));
}
function isKnownStatus(status) {
    return JOB_STATUSES.includes(status);
}
function isTerminal(status) {
    return status === 'completed' || status === 'archived' || status === 'failed';
}
/**
 * Reads a job from parsed JSON: keeps the fields of the documented types and drops the rest,
 * so a null or a number where a string belongs is treated as missing. Undefined when the body
 * is not an object.
 */
function parseJob(json) {
    if (!isRecord(json))
        return undefined;
    const source = isRecord(json.source) ? json.source : {};
    const job = { raw: json };
    const fields = {
        id: text(json.id),
        status: text(json.status),
        model: text(json.model),
        prLink: text(json.prLink),
        createdAt: text(json.createdAt),
        archivedAt: text(json.archivedAt)
    };
    for (const [key, value] of Object.entries(fields)) {
        if (value !== undefined)
            job[key] = value;
    }
    const repository = text(source.repository);
    const ref = text(source.ref);
    if (repository !== undefined || ref !== undefined) {
        job.source = {};
        if (repository !== undefined)
            job.source.repository = repository;
        if (ref !== undefined)
            job.source.ref = ref;
    }
    return job;
}
function isRecord(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
function text(value) {
    return typeof value === 'string' && value !== '' ? value : undefined;
}


/***/ }),

/***/ 903:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   dg: () => (/* binding */ nextRetryDelay),
/* harmony export */   qC: () => (/* binding */ nextPollDelay)
/* harmony export */ });
/* unused harmony exports GROWTH, JITTER, RETRY, RATE_LIMIT_RETRY */
/**
 * When to poll next and when to retry: pure functions of their inputs, so the polling loop stays
 * tiny and the schedule can be unit-tested and benchmarked on a virtual clock.
 */
/**
 * Delays grow with the time already waited (22 % of it, so at most a quarter with jitter): a
 * job that has run for t is noticed within about t/4 of finishing, which keeps the detection
 * lag a fixed share of the job's duration while the number of polls grows only with the
 * logarithm of it until the cap.
 */
const GROWTH = 0.22;
/** Symmetric jitter (±10 %), so runs in a matrix do not poll in lockstep. */
const JITTER = 0.1;
/**
 * The delay before the next poll (ms), or undefined when no poll fits before the deadline
 * (the server asked us to come back later than that).
 */
function nextPollDelay(input, schedule) {
    const { initialMs, maxMs, growth = GROWTH, jitter = JITTER } = schedule;
    let base = Math.min(maxMs, Math.max(initialMs, growth * input.elapsedMs));
    // Failing polls back off by doubling from the first delay, within the same cap.
    if (input.failures > 0)
        base = Math.max(base, Math.min(maxMs, initialMs * 2 ** input.failures));
    const jittered = base * (1 + jitter * (2 * input.random - 1));
    const delay = Math.max(Math.min(maxMs, jittered), input.retryAfterMs ?? 0);
    if ((input.retryAfterMs ?? 0) > input.remainingMs)
        return undefined;
    return Math.max(0, Math.min(delay, input.remainingMs));
}
/** Bounds on retrying a request that certainly did not take effect. */
const RETRY = { attempts: 5, baseMs: 1000, maxMs: 30_000 };
/**
 * A 429 without Retry-After: the documented limit is 100 uses per project per hour, so seconds of
 * backoff cannot outlast it. Delays double from tens of seconds to a few minutes, and go on for as
 * long as the step's timeout allows (a 429 was not acted on, so each retry is safe).
 */
const RATE_LIMIT_RETRY = { baseMs: 20_000, maxMs: 5 * 60_000, jitter: 0.25 };
/**
 * Delay before retrying a request (ms), or undefined when it should not be retried: the attempts
 * are spent or the wait would not fit in the time left. With Retry-After: that, within the attempt
 * budget. A 429 without it: the rate-limit backoff, jittered down by up to a quarter so runs
 * limited together spread out, and never over its cap. Else: capped exponential backoff with full jitter.
 */
function nextRetryDelay(input) {
    if (input.rateLimited === true && input.retryAfterMs === undefined) {
        const { baseMs, maxMs, jitter } = RATE_LIMIT_RETRY;
        const delay = Math.min(maxMs, baseMs * 2 ** (input.attempt - 1)) * (1 - jitter * input.random);
        return delay < input.remainingMs ? delay : undefined;
    }
    if (input.attempt >= RETRY.attempts)
        return undefined;
    const delay = input.retryAfterMs ?? input.random * Math.min(RETRY.maxMs, RETRY.baseMs * 2 ** (input.attempt - 1));
    return delay < input.remainingMs ? delay : undefined;
}


/***/ }),

/***/ 4415:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   hX: () => (/* binding */ NOT_FOUND_GRACE_MS),
/* harmony export */   qt: () => (/* binding */ waitForJob)
/* harmony export */ });
/* unused harmony exports PR_SETTLE_MS, PR_SETTLE_POLL_MS, FOLLOW_UP_GRACE_MS */
/* harmony import */ var _base_cancel_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(9539);
/* harmony import */ var _base_clock_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(6412);
/* harmony import */ var _base_duration_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(5937);
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(1461);
/* harmony import */ var _job_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(9231);
/* harmony import */ var _schedule_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(903);






/** A job we just created or messaged may read 404 for this long after our POST was answered. */
const NOT_FOUND_GRACE_MS = 20_000;
/** A job seen `completed` without a PR link is read again over this long before we say there is none. */
const PR_SETTLE_MS = 5_000;
/** The delay between those reads. */
const PR_SETTLE_POLL_MS = 2_500;
/**
 * After a follow-up, a terminal status counts once the job was seen `active` or its record
 * changed; past this long after the message was answered, it counts anyway.
 */
const FOLLOW_UP_GRACE_MS = 30_000;
const HEARTBEAT_MS = 60_000;
/** Polls until the job reaches a terminal status, the deadline passes or the step is cancelled. */
async function waitForJob(options) {
    const { clock, deadline, signal } = options;
    const start = clock.now();
    let lastHeartbeat = start;
    let polls = 0;
    // Consecutive transient failures, for the backoff. A 404 within the grace keeps the normal schedule.
    let failures = 0;
    const next = (retryAfterMs) => scheduledDelay(options, start, failures, retryAfterMs);
    const holdOf = terminalHold(options.previous, deadline);
    let delay = options.pollNow ? 0 : next();
    // A completed job being read again for a late PR link: a wait that ends meanwhile (its time, a
    // read that fails) ends with it, completed with no docs PR, never as timed out.
    let settled;
    const ended = () => settled ? { reason: 'terminal', job: settled, status: 'completed' } : { reason: 'timed-out' };
    for (;;) {
        if (delay === undefined)
            return ended();
        try {
            if (delay > 0)
                await clock.sleep(delay, signal);
            polls++;
            const job = await options.getJob(options.jobId, { timeoutMs: (0,_base_clock_js__WEBPACK_IMPORTED_MODULE_1__/* .requestTimeout */ .Vq)(deadline, clock.now()), signal });
            failures = 0;
            if (options.once) {
                options.onPoll({ job });
                return { reason: 'read', job };
            }
            const now = clock.now();
            const { held, settling } = holdOf(job, now);
            options.onPoll(held ? { job, held } : { job });
            if ((0,_job_js__WEBPACK_IMPORTED_MODULE_4__/* .isTerminal */ .Hd)(job.status) && held === undefined)
                return { reason: 'terminal', job, status: job.status };
            settled = settling && held && job.status === 'completed' ? job : undefined;
            delay = settling && held ? Math.min(PR_SETTLE_POLL_MS, deadline - now) : next();
        }
        catch (error) {
            if (error instanceof _base_cancel_js__WEBPACK_IMPORTED_MODULE_0__/* .Cancelled */ .c)
                return { reason: 'cancelled' };
            if (!(error instanceof _errors_js__WEBPACK_IMPORTED_MODULE_3__/* .ApiError */ .hD))
                throw error;
            const retry = error.kind === 'not-found' ? notFoundRetry(options) : (0,_errors_js__WEBPACK_IMPORTED_MODULE_3__/* .isTransientForPoll */ .Bw)(error);
            if (!retry) {
                if (settled)
                    return ended();
                throw error;
            }
            if (error.kind !== 'not-found')
                failures++;
            delay = next(error.kind === 'not-found' ? undefined : error.retryAfterMs);
            options.onPoll({ error, retryInMs: delay });
        }
        if (clock.now() >= deadline)
            return ended();
        if (clock.now() - lastHeartbeat >= HEARTBEAT_MS) {
            lastHeartbeat = clock.now();
            options.onHeartbeat(`Still waiting after ${(0,_base_duration_js__WEBPACK_IMPORTED_MODULE_2__/* .formatDuration */ .a3)(lastHeartbeat - start)} (${polls} polls)`);
        }
    }
}
/** Whether a 404 may still be the service catching up with our POST. */
function notFoundRetry({ notFoundUntil, clock }) {
    return notFoundUntil !== undefined && clock.now() < notFoundUntil;
}
/** The schedule's next delay, from how long the wait has run, how long it has left and the failures in a row. */
function scheduledDelay({ clock, deadline, schedule }, start, failures, retryAfterMs) {
    return (0,_schedule_js__WEBPACK_IMPORTED_MODULE_5__/* .nextPollDelay */ .qC)({
        elapsedMs: clock.now() - start,
        remainingMs: deadline - clock.now(),
        failures,
        retryAfterMs,
        random: clock.random()
    }, schedule);
}
/**
 * Judges each record read: `held` says why its terminal status must not end the wait yet (a
 * follow-up not taken up so far, or a pull request link still to come); `settling`, that a
 * completed job without a link is being read again.
 */
function terminalHold(previous, deadline) {
    // After a follow-up: whether what we read is the follow-up's doing, not the previous prompt's.
    let current = previous === undefined;
    let settlingSince;
    return (job, now) => {
        if (previous && !current) {
            current =
                job.status === 'active' ||
                    (0,_job_js__WEBPACK_IMPORTED_MODULE_4__/* .jobFingerprint */ .E3)(job) !== previous.fingerprint ||
                    now - previous.answeredAt >= FOLLOW_UP_GRACE_MS;
        }
        let held;
        if ((0,_job_js__WEBPACK_IMPORTED_MODULE_4__/* .isTerminal */ .Hd)(job.status) && !current) {
            held = `still shows the result of the previous prompt; waiting for the follow-up to be taken up`;
        }
        else if (job.status === 'completed' && job.prLink === undefined && deadline - now >= PR_SETTLE_POLL_MS) {
            settlingSince ??= now;
            if (now - settlingSince < PR_SETTLE_MS)
                held = 'completed without a pull request link so far; reading it again';
        }
        return { held, settling: settlingSince !== undefined };
    };
}


/***/ }),

/***/ 9539:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   c: () => (/* binding */ Cancelled)
/* harmony export */ });
/** Thrown when the step is cancelled (SIGINT or SIGTERM from the runner), wherever it stood. */
class Cancelled extends Error {
    requestSent;
    constructor(
    /**
     * True when the bytes of a request had left when the cancel came: a create or a follow-up may
     * then have taken effect. False between requests, and before a request reached the wire.
     */
    requestSent) {
        super('cancelled');
        this.requestSent = requestSent;
        this.name = 'Cancelled';
    }
}


/***/ }),

/***/ 2841:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   S8: () => (/* binding */ tlsError),
/* harmony export */   ml: () => (/* binding */ socketError),
/* harmony export */   ne: () => (/* binding */ isTlsCode),
/* harmony export */   ps: () => (/* binding */ causes)
/* harmony export */ });
/** What an error wraps, read by shape, not by class: Node's own errors may come from another realm than ours. */
// Node's socket and DNS errors, and undici's own for a socket closed or a connection not made.
const CONNECTION_CODES = /^(ECONNRESET|ECONNREFUSED|ECONNABORTED|EPIPE|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|UND_ERR_SOCKET|UND_ERR_CONNECT_TIMEOUT|UND_ERR_CLOSED)$/;
/**
 * The error and what it wraps (undici wraps the socket's error), at most five deep; of an
 * AggregateError without a cause (both addresses of a host refused), the first.
 */
function causes(error) {
    const chain = [];
    let cause = error;
    for (let depth = 0; depth < 5 && isErrorLike(cause); depth++) {
        chain.push({ message: cause.message, code: typeof cause.code === 'string' ? cause.code : undefined });
        cause = cause.cause === undefined && Array.isArray(cause.errors) ? cause.errors[0] : cause.cause;
    }
    if (chain.length === 0)
        chain.push({ message: String(error), code: undefined });
    return chain;
}
/** The socket's or DNS's error that `error` wraps, if any: a connection lost or never made. */
function socketError(error) {
    return causes(error).find((cause) => CONNECTION_CODES.test(cause.code ?? ''));
}
/** The TLS error that `error` wraps, if any: a certificate refused, a handshake that failed. */
function tlsError(error) {
    return causes(error).find((cause) => isTlsCode(cause.code));
}
/** OpenSSL's certificate codes and Node's TLS and SSL ones. */
function isTlsCode(code) {
    return (code !== undefined &&
        (/CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/.test(code) || code.startsWith('ERR_TLS_') || code.startsWith('ERR_SSL_')));
}
function isErrorLike(value) {
    return typeof value === 'object' && value !== null && typeof value.message === 'string';
}


/***/ }),

/***/ 6412:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Vq: () => (/* binding */ requestTimeout),
/* harmony export */   ml: () => (/* binding */ systemClock)
/* harmony export */ });
/* unused harmony exports timeLimit, REQUEST_TIMEOUT_MS, LAST_REQUEST_MS */
/* harmony import */ var node_timers_promises__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(8500);
/* harmony import */ var node_timers_promises__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_timers_promises__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _cancel_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(9539);


const systemClock = {
    now: () => Date.now(),
    sleep: (ms, signal) => (0,node_timers_promises__WEBPACK_IMPORTED_MODULE_0__.setTimeout)(ms, undefined, { signal }).catch((error) => {
        throw signal.aborted ? new _cancel_js__WEBPACK_IMPORTED_MODULE_1__/* .Cancelled */ .c(false) : error;
    }),
    timeout: timeLimit,
    random: () => Math.random()
};
/**
 * A signal that aborts `ms` from now. Not `AbortSignal.timeout`: Node 20 lets a timeout signal that
 * only `AbortSignal.any` refers to be garbage-collected before it fires (nodejs/node#57736), and the
 * request it bounds then has no limit. Here the pending timer holds the controller.
 */
function timeLimit(ms) {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new DOMException('The operation timed out.', 'TimeoutError')), ms).unref();
    return controller.signal;
}
/** Longest any single request may take. */
const REQUEST_TIMEOUT_MS = 30_000;
/** A request made at the deadline still gets this long, so the last poll can answer. */
const LAST_REQUEST_MS = 2_000;
/** The time limit of a request made at `now`: what is left before the deadline, within bounds. */
function requestTimeout(deadline, now) {
    return Math.min(REQUEST_TIMEOUT_MS, Math.max(LAST_REQUEST_MS, deadline - now));
}


/***/ }),

/***/ 5937:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   E9: () => (/* binding */ parseDuration),
/* harmony export */   a3: () => (/* binding */ formatDuration),
/* harmony export */   ec: () => (/* binding */ DURATION_FORM)
/* harmony export */ });
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
/** Accepted form, quoted in every error about a duration input. */
const DURATION_FORM = 'seconds (600) or a duration such as 500ms, 90s, 15m, 1h or 1h30m';
/**
 * Parses `600` (seconds) or unit runs like `1h30m`, `90s`, `500ms`.
 * Returns milliseconds, or undefined when the text is not of that form.
 */
function parseDuration(text) {
    const value = text.trim().toLowerCase();
    if (/^\d+$/.test(value))
        return Number(value) * 1000;
    if (!/^(\d+(ms|h|m|s))+$/.test(value))
        return undefined;
    let total = 0;
    let lastRank = -1;
    for (const [, amount, unit] of value.matchAll(/(\d+)(ms|h|m|s)/g)) {
        // Units must run from large to small, once each: `30m1h` is a typo, not 90 minutes.
        const rank = ['h', 'm', 's', 'ms'].indexOf(unit);
        if (rank <= lastRank)
            return undefined;
        lastRank = rank;
        total += Number(amount) * UNIT_MS[unit];
    }
    return total;
}
/** `1h 2m 3s`-style rendering for logs and the summary (whole seconds, ms below 1 s). */
function formatDuration(ms) {
    if (ms < 1000)
        return `${Math.max(0, Math.round(ms))}ms`;
    let seconds = Math.round(ms / 1000);
    const hours = Math.floor(seconds / 3600);
    seconds -= hours * 3600;
    const minutes = Math.floor(seconds / 60);
    seconds -= minutes * 60;
    const parts = [];
    if (hours)
        parts.push(`${hours}h`);
    if (minutes)
        parts.push(`${minutes}m`);
    if (seconds || parts.length === 0)
        parts.push(`${seconds}s`);
    return parts.join(' ');
}


/***/ }),

/***/ 9225:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   g: () => (/* binding */ errorMessage)
/* harmony export */ });
function isErrorLike(value) {
    return typeof value === 'object' && value !== null && typeof value.message === 'string';
}
/** A message for anything thrown, `Error` or not. */
function errorMessage(error) {
    if (isErrorLike(error))
        return error.message;
    if (typeof error === 'string')
        return error;
    try {
        // JSON.stringify gives undefined for undefined and functions, whatever its type says.
        const json = JSON.stringify(error);
        return typeof json === 'string' ? json : String(error);
    }
    catch {
        return String(error);
    }
}


/***/ }),

/***/ 7621:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   R: () => (/* binding */ fingerprint)
/* harmony export */ });
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(7598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_0__);

/**
 * A short digest that tells whether two texts are the same without keeping either: 64 bits of
 * SHA-256, 16 hex digits. Nothing secret rests on it (a re-run record is authenticated apart).
 */
function fingerprint(text) {
    return (0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.createHash)('sha256').update(text).digest('hex').slice(0, 16);
}


/***/ }),

/***/ 1605:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Q6: () => (/* binding */ visibleText),
/* harmony export */   ZO: () => (/* binding */ removeHidden)
/* harmony export */ });
/* unused harmony exports loadMicromark, removeHiddenWith */
/* harmony import */ var _text_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(766);

let loading;
/**
 * micromark, loaded the first time a text may hide something: most runs read no such text, and
 * never load the parser's 0.28 MB.
 */
function loadMicromark() {
    return (loading ??= __webpack_require__.e(/* import() */ 77).then(__webpack_require__.bind(__webpack_require__, 9077)));
}
// Tag characters (U+E0000–U+E007F) are among them, as are zero-width characters, soft hyphens,
// direction controls and variation selectors: nothing a reader sees, in code or out of it.
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;
// Only what decides hiddenness is parsed: emphasis, links and containers are off. Emphasis and
// nested block quotes make micromark quadratic (102 s for 64 KiB of `*a`, 32 s for 32,768 `> `);
// without them it is linear. The cost: a definition inside a block quote or a list item is read
// as text and kept.
const ONLY_WHAT_HIDES = {
    disable: {
        null: [
            'attention',
            'autolink',
            'blockQuote',
            'characterEscape',
            'characterReference',
            'hardBreakEscape',
            'headingAtx',
            'labelEnd',
            'labelStartImage',
            'labelStartLink',
            'list',
            'setextUnderline',
            'thematicBreak'
        ]
    }
};
// Inside an HTML block: comments (as a browser ends them, or never), processing instructions,
// CDATA, declarations, and a tag's attributes (its name stays, and the text between tags).
const HTML_HIDDEN = /<!--(?:-?>|[\s\S]*?(?:--!?>|$))|<\?[\s\S]*?(?:\?>|$)|<!\[CDATA\[[\s\S]*?(?:\]\]>|$)|<![A-Za-z][^>]*(?:>|$)|<(\/?[A-Za-z][A-Za-z0-9-]*)(?:\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*\s*(\/?)>/g;
/**
 * Text as GitHub shows it rendered, for the agent to read no more than a reviewer does: HTML
 * comments, processing instructions, CDATA and declarations, the attributes of HTML tags (`title`,
 * `alt`, `data-*`), link reference definitions (`[//]: # (…)`; a footnote's, which GitHub shows,
 * stays) and default-ignorable characters removed. Code spans and code blocks keep all but the
 * last. `removed` counts the characters (code points) that went.
 */
async function removeHidden(text) {
    return removeHiddenWith(MAY_HIDE.test(text) ? await loadMicromark() : undefined, text);
}
/**
 * `removeHidden` with the parser at hand: `parser` may be undefined only when no text it is given
 * may hide anything; a text that may, without it, throws rather than pass hidden text on.
 */
function removeHiddenWith(parser, text) {
    let out = '';
    let at = 0;
    if (MAY_HIDE.test(text)) {
        if (!parser)
            throw new Error('removeHiddenWith: a text that may hide something needs the parser');
        for (const [start, end, kept] of hiddenRanges(parser, text)) {
            out += text.slice(at, start) + kept;
            at = end;
        }
    }
    out += text.slice(at);
    const visible = out.replace(IGNORABLE, '');
    return { text: visible, removed: codePoints(text) - codePoints(visible) };
}
// Every hidden construct holds `<` (HTML) or `]:` (a definition): other text, most of what GitHub
// answers (tag names, shas, most commit messages), skips the parser, which costs about 0.2 ms a
// string, and never loads it.
const MAY_HIDE = /<|\]:/;
/** `[start, end, what stays]` of each hidden construct, in order. */
function* hiddenRanges(parser, text) {
    let after = 0;
    for (const [kind, token] of events(parser, text)) {
        if (kind !== 'enter')
            continue;
        const start = token.start.offset;
        const end = token.end.offset;
        if (start < after)
            continue;
        const raw = text.slice(start, end);
        if (token.type === 'definition' && !raw.startsWith('[^'))
            yield [start, end, ''];
        else if (token.type === 'htmlText' || token.type === 'htmlFlow')
            yield [start, end, withoutHiddenHtml(raw)];
        else
            continue;
        after = end;
    }
}
function events({ parse, postprocess, preprocess }, text) {
    return postprocess(parse({ extensions: [ONLY_WHAT_HIDES] })
        .document()
        .write(preprocess()(text, undefined, true)));
}
function withoutHiddenHtml(html) {
    return html.replace(HTML_HIDDEN, (_found, name, close) => name === undefined ? '' : `<${name}${close ?? ''}>`);
}
function codePoints(text) {
    let count = 0;
    for (const _ of text)
        count++;
    return count;
}
/**
 * `value` with `normalizeLineEndings` and `removeHidden` applied to every string in it, arrays
 * and plain objects walked; `removed` is told each count.
 */
async function visibleText(value, removed) {
    const parser = mayHide(value) ? await loadMicromark() : undefined;
    const walk = (item) => {
        if (typeof item === 'string') {
            const visible = removeHiddenWith(parser, (0,_text_js__WEBPACK_IMPORTED_MODULE_0__/* .normalizeLineEndings */ .EW)(item));
            if (visible.removed)
                removed(visible.removed);
            return visible.text;
        }
        if (Array.isArray(item))
            return item.map(walk);
        if (isPlainObject(item))
            return Object.fromEntries(Object.entries(item).map(([key, v]) => [key, walk(v)]));
        return item;
    };
    return walk(value);
}
/** Whether a string in `value` may hide something, arrays and plain objects walked. */
function mayHide(value) {
    if (typeof value === 'string')
        return MAY_HIDE.test(value);
    if (Array.isArray(value))
        return value.some(mayHide);
    return isPlainObject(value) && Object.values(value).some(mayHide);
}
function isPlainObject(value) {
    return value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype;
}


/***/ }),

/***/ 6538:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   D: () => (/* binding */ derivedKey),
/* harmony export */   M: () => (/* binding */ mac)
/* harmony export */ });
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(7598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_0__);
/**
 * Keys derived from the API key, and the HMAC they sign with: what the action keeps where others
 * can write (a cache key, a comment) is sealed, and a copy made without the API key does not verify.
 */

/** A key for one purpose, derived (HKDF) from the API key, so neither it nor a hint of it is stored. */
function derivedKey(apiKey, purpose) {
    return Buffer.from((0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.hkdfSync)('sha256', apiKey, '', purpose, 32));
}
/** HMAC-SHA256 of `text`, hex. */
const mac = (key, text) => (0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.createHmac)('sha256', key).update(text).digest('hex');


/***/ }),

/***/ 766:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   B4: () => (/* binding */ formatCount),
/* harmony export */   E$: () => (/* binding */ redact),
/* harmony export */   EW: () => (/* binding */ normalizeLineEndings),
/* harmony export */   FV: () => (/* binding */ escapeMarkdown),
/* harmony export */   Kf: () => (/* binding */ neutralizeFormatChars),
/* harmony export */   Kw: () => (/* binding */ neutralizeCommands),
/* harmony export */   LS: () => (/* binding */ plural),
/* harmony export */   ZD: () => (/* binding */ escapeHtml),
/* harmony export */   fU: () => (/* binding */ formatTime),
/* harmony export */   mG: () => (/* binding */ inline),
/* harmony export */   xv: () => (/* binding */ truncate)
/* harmony export */ });
/* unused harmony export SECRET_FRAGMENT_CHARS */
/** Untrusted text (prompts, GitHub and server text) passes through here before a person sees it. */
// Bidi embeddings, overrides and isolates, and the directional marks: invisible, and able to make
// `main\u202Egnp.exe` read as `mainexe.png`. Also the invisible characters that join nothing a
// script needs (zero-width space, word joiner, invisible operators, BOM) and tag characters, which
// spell hidden ASCII: `failed\u200B` would read as `failed`. Joiners (U+200C, U+200D) stay: scripts
// and emoji are made of them.
const FORMAT_CHARS = /[\u061c\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u{e0000}-\u{e007f}]/gu;
/** Invisible direction controls and characters shown as a visible code point name (`[U+202E]`) instead. */
function neutralizeFormatChars(text) {
    return text.replace(FORMAT_CHARS, (char) => `[U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}]`);
}
/**
 * One line of at most `max` characters: control characters (newlines included) become spaces,
 * so the text can neither start a workflow command (`::…`) on a line of its own nor forge log
 * lines, and direction controls are made visible.
 */
function inline(text, max = 300, trim = true) {
    // eslint-disable-next-line no-control-regex
    const flat = neutralizeFormatChars(text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' '));
    return truncate(trim ? flat.trim() : flat, max);
}
/**
 * Every line ending as `\n`: `\r\n`, a lone `\r` (a line end to the runner, which rewrites the
 * summary line by line, and to markdown), and the Unicode separators U+2028, U+2029 and U+0085.
 */
function normalizeLineEndings(text) {
    return text.replace(/\r\n?|[\u2028\u2029\u0085]/g, '\n');
}
// The runner reads a legacy command (`##[add-mask]…`) anywhere in a line, and finds `##[` with a
// culture-aware search that skips characters without weight (controls, zero-width and format
// characters, variation selectors): `#\u200B#[` is found too. Combining marks are skipped here as
// well, to be safe.
const LEGACY_COMMAND = /#[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\p{Mn}\p{Me}]*#[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\p{Mn}\p{Me}]*\[/gu;
/** Log text that cannot hold a legacy workflow command: a space before the `[` of every `##[`. */
function neutralizeCommands(text) {
    return text.replace(LEGACY_COMMAND, (found) => `${found.slice(0, -1)} [`);
}
// Made at the first cut: ICU's segmenter costs about 10 ms to make, and most runs cut nothing.
let graphemes;
/**
 * At most `max` UTF-16 units, `…` included, cut between graphemes: never inside a surrogate
 * pair, an emoji sequence or a letter with its accents. With `size`, at most `max` of what it
 * measures (bytes as shown, say), `…` counted as `size('…')`; it must never measure a text as
 * less than its length.
 */
function truncate(text, max, size = (t) => t.length) {
    if (size(text) <= max)
        return text;
    const room = max - size('…');
    // The first code point past the room, then back to the start of the grapheme it is in: walking
    // graphemes one by one takes seconds for a megabyte, finding the one at an index does not.
    let end = 0;
    let used = 0;
    for (const char of text) {
        used += size(char);
        if (used > room)
            break;
        end += char.length;
    }
    // Whether a grapheme goes on at `end` depends on the text before it and the code point there.
    graphemes ??= new Intl.Segmenter('en'); // graphemes, its default granularity
    const kept = graphemes.segment(text.slice(0, end + 2)).containing(end)?.index ?? end;
    return `${text.slice(0, kept)}…`;
}
/** Text as inert HTML: the characters HTML gives a meaning to, and no others, as entities. */
function escapeHtml(text) {
    return text.replace(/[&<>"]/g, (char) => ENTITIES[char]);
}
const ENTITIES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
/**
 * Text as literal markdown: a backslash before each character that would start a link, code,
 * emphasis, HTML or a table cell. GitHub renders `mint\_key` as `mint_key` (CommonMark, "Backslash
 * escapes"), so a secret is found in written markdown in this form too.
 */
function escapeMarkdown(text) {
    return text.replace(/[\\[\]`*_<>|~]/g, '\\$&');
}
/**
 * Replaces every occurrence of each secret with `***`, and the end of a secret's start where text
 * was cut (`…`): a key echoed across a cut leaks no prefix. A start shorter than
 * `SECRET_FRAGMENT_CHARS` is left: it tells nothing, and matching it would blank ordinary words.
 */
function redact(text, secrets) {
    let result = text;
    for (const secret of secrets)
        if (secret)
            result = result.split(secret).join('***');
    if (!result.includes('…'))
        return result;
    // Each part before a cut is checked at its end only: linear in the text, whatever it holds.
    const parts = result.split('…');
    return parts.map((part, index) => (index < parts.length - 1 ? withoutSecretStart(part, secrets) : part)).join('…');
}
function withoutSecretStart(before, secrets) {
    let longest = 0;
    for (const secret of secrets) {
        for (let n = Math.min(secret.length - 1, before.length); n > longest; n--) {
            if (before.endsWith(secret.slice(0, n)))
                longest = n;
        }
    }
    return longest >= SECRET_FRAGMENT_CHARS ? `${before.slice(0, -longest)}***` : before;
}
/** Shortest start of a secret that `redact` drops before a cut. */
const SECRET_FRAGMENT_CHARS = 4;
/**
 * `12,345`: a count with its thousands separated, the same on every runner whatever its locale
 * (ICU's number formatting, `toLocaleString`, would cost the first count about 10 ms).
 */
function formatCount(n) {
    return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
}
/** `2026-11-21 10:00:00 UTC` for an ISO 8601 time; the text itself when it is not one. */
function formatTime(iso) {
    const ms = Date.parse(iso);
    if (Number.isNaN(ms))
        return iso;
    return `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}
/** `1 change`, `14 changes`. */
function plural(n, one, many = `${one}s`) {
    return `${formatCount(n)} ${n === 1 ? one : many}`;
}


/***/ }),

/***/ 33:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  aN: () => (/* binding */ CONTEXT_BUDGET_CHARS),
  hD: () => (/* binding */ quote),
  XX: () => (/* binding */ render)
});

// UNUSED EXPORTS: LISTS_CHARS

// EXTERNAL MODULE: ./src/base/text.ts
var base_text = __webpack_require__(766);
;// CONCATENATED MODULE: ./src/github/context/changes.ts

/**
 * Characters of one file's patch: about 100 diff lines, enough to show what a change adds or
 * renames, and small enough that one large file cannot take the room of ten others.
 */
const PATCH_CHARS = 4_000;
/** Below this, a patch cut to fit says too little: the file is named instead. */
const SMALLEST_PATCH = 300;
/**
 * How useful a file's patch is to someone writing docs, lowest first: public API and schemas,
 * source, existing docs, everything else, then tests, then lockfiles, generated and vendored
 * files, then binaries.
 */
function usefulness(filename) {
    const name = filename.toLowerCase();
    const base = name.slice(name.lastIndexOf('/') + 1);
    if (BINARY.test(base))
        return 6;
    if (LOCKFILES.has(base) || GENERATED.test(name) || VENDORED.test(name))
        return 5;
    if (TESTS.test(name))
        return 4;
    if (API.test(name))
        return 0;
    if (SOURCE.test(base))
        return 1;
    if (DOCS.test(name))
        return 2;
    return 3;
}
const BINARY = /\.(png|jpe?g|gif|ico|webp|bmp|tiff?|psd|pdf|zip|gz|tgz|bz2|xz|7z|jar|war|whl|exe|dll|so|dylib|a|o|wasm|woff2?|ttf|otf|eot|mp[34]|mov|avi|webm|wav|ogg|bin|dat|db|sqlite)$/;
const LOCKFILES = new Set([
    'package-lock.json',
    'npm-shrinkwrap.json',
    'yarn.lock',
    'pnpm-lock.yaml',
    'bun.lockb',
    'bun.lock',
    'cargo.lock',
    'go.sum',
    'poetry.lock',
    'pipfile.lock',
    'uv.lock',
    'gemfile.lock',
    'composer.lock',
    'flake.lock',
    'packages.lock.json'
]);
const GENERATED = /(^|\/)(dist|build|out|generated|__generated__|__snapshots__)\/|\.(min\.(js|css)|map|snap|pb\.go|lock)$|_pb2(_grpc)?\.pyi?$|\.generated\.|\.g\.dart$/;
const VENDORED = /(^|\/)(vendor|node_modules|third[_-]party|external)\//;
const TESTS = /(^|\/)(__tests__|__mocks__|tests?|spec|specs|testdata|test-data|fixtures?|e2e|benchmarks?)\/|[._-](test|spec)\.[a-z0-9]+$|_test\.go$|(^|\/)test_[^/]*\.py$/;
const API = /\.d\.ts$|(^|\/)(openapi|swagger|asyncapi)[^/]*\.(json|ya?ml)$|\.(proto|graphql|gql|avsc|thrift)$|schema[^/]*\.(json|ya?ml)$|(^|\/)action\.ya?ml$/;
const SOURCE = /\.([cm]?[jt]sx?|py|go|rs|java|kt|kts|scala|swift|m|mm|c|cc|cpp|cxx|h|hpp|cs|fs|rb|php|ex|exs|erl|clj|dart|lua|r|jl|zig|nim|sh|bash|ps1|vue|svelte|sql)$/;
const DOCS = /\.(md|mdx|rst|adoc|txt)$|(^|\/)docs?\//;
/**
 * Most useful first; among equals, the larger change first, then by name. Stable. With `first`, a
 * package's directory, the package's own files come before all others.
 */
function rankFiles(files, first) {
    const other = (file) => (first === undefined || file.filename.startsWith(`${first}/`) ? 0 : 1);
    return [...files].sort((a, b) => other(a) - other(b) ||
        usefulness(a.filename) - usefulness(b.filename) ||
        b.additions + b.deletions - (a.additions + a.deletions) ||
        (a.filename < b.filename ? -1 : a.filename > b.filename ? 1 : 0));
}
/**
 * The patches of `files` within `room` characters, most useful first, each at most PATCH_CHARS;
 * then the files that did not fit, by name (or a pointer to where they are listed). '' when not
 * even one line fits.
 */
function renderChanges(files, room, options) {
    const ranked = rankFiles(files, options.first);
    const blocks = [];
    let used = 0;
    let shown = 0;
    for (const file of ranked) {
        // Room stays for the lines that name what is left after this file.
        const reserve = restLines(ranked.slice(shown + 1), options, 0).length;
        const block = fileBlock(file, room - used - reserve - 2);
        if (block === undefined)
            break;
        blocks.push(block);
        used += block.length + 2;
        shown++;
    }
    const rest = restLines(ranked.slice(shown), options, room - used);
    const text = [...blocks, ...(rest ? [rest] : [])].join('\n\n');
    return text.length <= room ? text : '';
}
/** A file's heading and its patch, fenced, cut to `room`; undefined when it does not fit. */
function fileBlock(file, room) {
    const heading = `#### ${describe(file)}`;
    if (file.patch === undefined) {
        const block = `${heading}\n\nPatch left out by GitHub (a binary file, or a diff too large to show).`;
        return block.length <= room ? block : undefined;
    }
    const lines = file.patch.split('\n');
    const fence = '`'.repeat(Math.max(3, longestRun(file.patch) + 1));
    const frame = `${heading}\n\n${fence}diff\n\n${fence}`.length;
    const cap = Math.min(PATCH_CHARS, room - frame);
    if (file.patch.length <= cap)
        return `${heading}\n\n${fence}diff\n${file.patch}\n${fence}`;
    const note = (left) => `\n\n… and ${(0,base_text/* plural */.LS)(left, 'more line')} of this file's patch.`;
    const kept = [];
    let size = 0;
    for (const line of lines) {
        if (size + line.length + 1 + note(lines.length).length > cap)
            break;
        kept.push(line);
        size += line.length + 1;
    }
    if (size < Math.min(SMALLEST_PATCH, file.patch.length))
        return undefined;
    return `${heading}\n\n${fence}diff\n${kept.join('\n')}\n${fence}${note(lines.length - kept.length)}`;
}
/** The files without their patch: named as room allows, the rest counted. */
function restLines(rest, options, room) {
    const left = rest.length + options.unread;
    if (left === 0)
        return '';
    if (options.listedUnder) {
        return `The patches of ${(0,base_text/* plural */.LS)(left, 'more file')} are left out; they are listed under ${options.listedUnder}.`;
    }
    const title = `Files changed without their patch here (${left}):`;
    const more = (n) => `- … and ${(0,base_text/* plural */.LS)(n, 'more file')}`;
    const lines = [title];
    for (const [index, file] of rest.entries()) {
        const line = `- ${describe(file)}`;
        const after = left - index - 1;
        const candidate = [...lines, line, ...(after > 0 ? [more(after)] : [])];
        if (candidate.join('\n').length > room)
            return [...lines, more(left - index)].join('\n');
        lines.push(line);
    }
    return [...lines, ...(options.unread > 0 ? [more(options.unread)] : [])].join('\n');
}
function describe(file) {
    const name = file.previousFilename
        ? `${(0,base_text/* inline */.mG)(file.previousFilename, 200)} → ${(0,base_text/* inline */.mG)(file.filename, 200)}`
        : (0,base_text/* inline */.mG)(file.filename, 300);
    return `${name} (${(0,base_text/* inline */.mG)(file.status, 20)}, +${file.additions} −${file.deletions})`;
}
function longestRun(text) {
    return Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
}

;// CONCATENATED MODULE: ./src/github/context/budget.ts

/**
 * Characters the context may take: about 15,000 tokens. The lists (notes, commits, file names)
 * share the first LISTS_CHARS; the patches take what the lists leave. It is a ceiling, not a
 * share: a small library's release uses what its change needs, and a large monorepo's is cut
 * here, its most useful patches first; so one size serves both. The user's prompt comes first
 * and whole, and the whole prompt never passes the API's 100,000.
 */
const CONTEXT_BUDGET_CHARS = 60_000;
/**
 * The lists' share: a long release's notes and a few hundred commit subjects (about 5,000
 * tokens). They say what changed in the authors' words; the patches say it exactly, so they
 * take the larger rest.
 */
const LISTS_CHARS = 20_000;
function quote(text) {
    return text.split(/\r?\n/).map((line) => (line.trim() ? `> ${line.trimEnd()}` : '>'));
}
const CONTEXT_LAYOUT = { opening: ['---', '', '## Context from GitHub', ''], level: '###', lists: LISTS_CHARS };
/**
 * The context as markdown within `budget` characters: the head whole, then each section given a
 * fair share of the rest (a section that needs less leaves the remainder to the others), cut at
 * line boundaries with a line saying what was left out.
 */
function render(built, budget, layout = CONTEXT_LAYOUT) {
    const head = [...layout.opening, ...built.head].join('\n');
    const whole = budget - head.length;
    // The lists get their share at least, and whatever the patches do not need beyond that.
    const patches = built.changes ? changesSection(built.changes, whole, layout.level) : '';
    let room = whole - Math.min(patches.length && patches.length + 2, Math.max(0, whole - layout.lists));
    const shares = new Map();
    const bySize = [...built.sections].sort((a, b) => Number(a.rest ?? false) - Number(b.rest ?? false) || size(a, layout.level) - size(b, layout.level));
    bySize.forEach((section, index) => {
        const share = Math.min(size(section, layout.level), Math.floor(room / (bySize.length - index)));
        shares.set(section, share);
        room -= share;
    });
    const parts = [head];
    for (const section of built.sections) {
        const fitted = fit(section, (shares.get(section) ?? 0) - budget_frame(section, layout.level));
        if (fitted.length)
            parts.push(`${layout.level} ${section.title}\n\n${fitted.join('\n')}`);
    }
    if (built.changes) {
        const changes = changesSection(built.changes, budget - parts.join('\n\n').length - 2, layout.level);
        if (changes)
            parts.push(changes);
    }
    return parts.join('\n\n');
}
/** The patches under their heading within `room`; '' when there are none or nothing fits. */
function changesSection(changes, room, level) {
    if (changes.files.length + changes.unread === 0)
        return '';
    const title = `${level} The change itself: patches, most useful files first`;
    const text = renderChanges(changes.files, room - title.length - 2, changes);
    return text && `${title}\n\n${text}`;
}
/** Characters of lines joined by newlines. */
function joined(lines) {
    return lines.reduce((sum, line) => sum + line.length, 0) + Math.max(0, lines.length - 1);
}
/** What a section takes around its lines: the blank line before it, its heading, the blank line after. */
function budget_frame(section, level) {
    return `\n\n${level} ${section.title}\n\n`.length;
}
/** What a section takes whole. */
function size(section, level) {
    const lines = section.unread > 0 ? [...section.lines, section.more(section.unread)] : section.lines;
    return budget_frame(section, level) + joined(lines);
}
/**
 * The section's lines within `room` characters, then a line saying how many were left out; none
 * at all when not even that line fits.
 */
function fit(section, room) {
    const { lines, unread } = section;
    if (unread === 0 && joined(lines) <= room)
        return lines;
    const kept = [];
    for (const [index, line] of lines.entries()) {
        // Room is kept for the line that stands for everything after this one.
        if (joined([...kept, line, section.more(lines.length - index - 1 + unread)]) > room) {
            const more = section.more(lines.length - index + unread);
            return joined([...kept, more]) <= room ? [...kept, more] : [];
        }
        kept.push(line);
    }
    return [...kept, section.more(unread)];
}


/***/ }),

/***/ 9194:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  kQ: () => (/* binding */ conversationApi),
  J5: () => (/* binding */ refused)
});

// UNUSED EXPORTS: MAX_COMMENT_PAGES

// EXTERNAL MODULE: ./src/base/error-message.ts
var error_message = __webpack_require__(9225);
// EXTERNAL MODULE: ./src/base/text.ts
var base_text = __webpack_require__(766);
// EXTERNAL MODULE: ./src/github/pages.ts
var github_pages = __webpack_require__(3892);
// EXTERNAL MODULE: ./src/github/rate-limited.ts
var rate_limited = __webpack_require__(7354);
// EXTERNAL MODULE: ./src/github/unreachable.ts
var unreachable = __webpack_require__(7997);
;// CONCATENATED MODULE: ./src/github/conversation/identity.ts
/** The workflow token (`GITHUB_TOKEN`) writes as this account, and cannot read `/user`. */
const WORKFLOW_BOT = 'github-actions[bot]';
const VIEWER = 'query { viewer { login __typename } }';
async function readIdentity(octokit, request) {
    try {
        const { data } = await octokit.rest.users.getAuthenticated({ request: request() });
        return data.login;
    }
    catch (error) {
        if (!integrationAnswer(error))
            throw error;
    }
    try {
        const answer = await octokit.graphql(VIEWER, {
            request: request()
        });
        const { login, __typename: type } = answer.viewer;
        return type === 'Bot' && !login.endsWith('[bot]') ? `${login}[bot]` : login;
    }
    catch (error) {
        if (!integrationAnswer(error))
            throw error;
        return WORKFLOW_BOT;
    }
}
/** GitHub's answer that the token is an integration's: REST's 403, or GraphQL's FORBIDDEN error. */
function integrationAnswer(error) {
    const { status, errors, message } = error;
    const graphql = Array.isArray(errors) ? errors : [];
    if (graphql.some((e) => e.type === 'FORBIDDEN' || /not accessible by integration/i.test(String(e.message))))
        return true;
    return status === 403 && /not accessible by integration/i.test(String(message));
}

;// CONCATENATED MODULE: ./src/github/conversation/api.ts






const WRITE_TIMEOUT_MS = 30_000;
/** Pages of 100 comments read at most: a thread longer than this is not one the action takes part in. */
const MAX_COMMENT_PAGES = 30;
const comment = (data) => ({
    id: data.id,
    body: data.body ?? '',
    author: data.user?.login ?? ''
});
async function listComments({ client, owner, repo, request }, number) {
    const octokit = await client();
    let pages = 0;
    // One time limit for the whole listing. Each page is cut to what is used as it comes; past
    // MAX_COMMENT_PAGES the read fails rather than answer part of the thread (a missing own
    // comment would be written twice).
    const listing = request();
    const first = octokit.rest.issues.listComments({
        owner,
        repo,
        issue_number: number,
        per_page: 100,
        request: listing
    });
    return (0,github_pages/* allPages */.S)(octokit, first, listing, (page) => {
        if (++pages > MAX_COMMENT_PAGES) {
            throw new Error(`pull request #${number} has more than ${MAX_COMMENT_PAGES * 100} comments: not read`);
        }
        return page.map(comment);
    });
}
async function createComment({ client, owner, repo, request }, number, body) {
    const octokit = await client();
    const { data } = await octokit.rest.issues.createComment({
        owner,
        repo,
        issue_number: number,
        body,
        request: request()
    });
    return comment(data);
}
async function updateComment({ client, owner, repo, request }, id, body) {
    const octokit = await client();
    await octokit.rest.issues.updateComment({ owner, repo, comment_id: id, body, request: request() });
}
async function deleteComment({ client, owner, repo, request }, id) {
    const octokit = await client();
    await octokit.rest.issues.deleteComment({ owner, repo, comment_id: id, request: request() });
}
async function react({ client, owner, repo, request }, kind, id, content) {
    const octokit = await client();
    const params = { owner, repo, comment_id: id, content, request: request() };
    if (kind === 'issue')
        await octokit.rest.reactions.createForIssueComment(params);
    else
        await octokit.rest.reactions.createForPullRequestReviewComment(params);
}
async function release({ client, owner, repo, request }, tag) {
    const octokit = await client();
    try {
        const { data } = await octokit.rest.repos.getReleaseByTag({ owner, repo, tag, request: request() });
        return { id: data.id, body: data.body ?? '' };
    }
    catch (error) {
        if (error.status === 404)
            return undefined;
        throw error;
    }
}
async function updateRelease({ client, owner, repo, request }, id, body) {
    const octokit = await client();
    await octokit.rest.repos.updateRelease({ owner, repo, release_id: id, body, request: request() });
}
/** The conversation of `owner/name` through an Octokit loaded on demand; its requests counted in `count`. */
function conversationApi(client, repository, count) {
    const [owner = '', repo = ''] = repository.split('/');
    const request = () => ({
        signal: AbortSignal.timeout(WRITE_TIMEOUT_MS),
        count
    });
    const at = { client, owner, repo, request };
    return {
        identity: async () => readIdentity(await client(), request),
        listComments: (number) => listComments(at, number),
        createComment: (number, body) => createComment(at, number, body),
        updateComment: (id, body) => updateComment(at, id, body),
        deleteComment: (id) => deleteComment(at, id),
        react: (kind, id, content) => react(at, kind, id, content),
        release: (tag) => release(at, tag),
        updateRelease: (id, body) => updateRelease(at, id, body)
    };
}
/** GitHub said no: what was refused and the permission the token needs (a lost connection needs none). */
function refused(what, error, permission, input = "'github-token' input") {
    const lost = (0,unreachable/* unreachable */.H)(error);
    if (lost)
        return `Could not ${what} (${(0,base_text/* inline */.mG)(lost, 200)}): a network failure, not a missing permission; the outputs are unchanged.`;
    const status = error.status;
    const code = typeof status === 'number' ? ` (HTTP ${status})` : '';
    const limited = (0,rate_limited/* rateLimited */.x)(error);
    const fix = limited ? `${limited}, not a missing permission` : `The ${input} needs ${permission}`;
    return `Could not ${what}${code}: ${(0,base_text/* inline */.mG)((0,error_message/* errorMessage */.g)(error), 200)}. ${fix}; the outputs are unchanged.`;
}


/***/ }),

/***/ 7574:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   SS: () => (/* binding */ codeSpan),
/* harmony export */   df: () => (/* binding */ onlyReleaseBlockChanged),
/* harmony export */   iQ: () => (/* binding */ markdownLink),
/* harmony export */   lE: () => (/* binding */ mention),
/* harmony export */   zE: () => (/* binding */ withReleaseBlock)
/* harmony export */ });
/* harmony import */ var _base_text_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(766);
/* harmony import */ var _pr_link_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(4046);
/**
 * Markdown the action writes on GitHub about a job, with untrusted text made inert, and the
 * marker-delimited block it keeps in release notes. Pure.
 */


const RELEASE_START = '<!-- docs-agent-action:release:start -->';
const RELEASE_END = '<!-- docs-agent-action:release:end -->';
/** A link in markdown: the label made inert; a URL that is not http(s) is shown as code. */
function markdownLink(label, url) {
    const href = (0,_pr_link_js__WEBPACK_IMPORTED_MODULE_1__/* .httpUrl */ .q)(url);
    const text = (0,_base_text_js__WEBPACK_IMPORTED_MODULE_0__/* .escapeMarkdown */ .FV)((0,_base_text_js__WEBPACK_IMPORTED_MODULE_0__/* .inline */ .mG)(label, 200));
    return href ? `[${text}](${href.replace(/[()]/g, (char) => (char === '(' ? '%28' : '%29'))})` : codeSpan(url ?? label);
}
/** Untrusted text as a one-line code span (backticks replaced, so it cannot close the span). */
function codeSpan(text, max = 100) {
    return `\`${(0,_base_text_js__WEBPACK_IMPORTED_MODULE_0__/* .inline */ .mG)(text, max).replace(/`/g, "'")}\``;
}
/** `@login` for a GitHub login; anything else as code. */
function mention(login) {
    return /^[A-Za-z0-9-]{1,39}(?:\[bot\])?$/.test(login) ? `@${login}` : codeSpan(login, 60);
}
/**
 * Where the docs block is: from the start marker nearest before the first end marker, through that
 * end marker. A start marker whose end someone removed is theirs now, and so is the text after it:
 * a block spanning from it would take their text away at the next write.
 */
function releaseBlock(notes) {
    const end = notes.indexOf(RELEASE_END);
    const start = end < 0 ? -1 : notes.lastIndexOf(RELEASE_START, end);
    return start >= 0 ? { start, end: end + RELEASE_END.length } : undefined;
}
/** Release notes with the docs block replaced, or appended once when there is none. */
function withReleaseBlock(notes, block) {
    const section = `${RELEASE_START}\n${block}\n${RELEASE_END}`;
    const found = releaseBlock(notes);
    if (found)
        return `${notes.slice(0, found.start)}${section}${notes.slice(found.end)}`;
    return notes.trim() ? `${notes.trimEnd()}\n\n${section}` : section;
}
/**
 * Whether `before` and `after` differ only in the action's block: a `release: edited` that is
 * the action's own link-back, which has nothing to document (and would otherwise run it again).
 */
function onlyReleaseBlockChanged(before, after) {
    const without = (notes) => {
        const found = releaseBlock(notes);
        const rest = found ? notes.slice(0, found.start) + notes.slice(found.end) : notes;
        return rest.replace(/\r\n/g, '\n').trim();
    };
    return before !== after && without(before) === without(after);
}


/***/ }),

/***/ 3697:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   D5: () => (/* binding */ ownComments),
/* harmony export */   I2: () => (/* binding */ commentBody),
/* harmony export */   q0: () => (/* binding */ remarked),
/* harmony export */   rH: () => (/* binding */ decodeMarker),
/* harmony export */   s8: () => (/* binding */ markerKey),
/* harmony export */   uq: () => (/* binding */ MAX_RECORDS)
/* harmony export */ });
/* unused harmony exports encodeMarker, MAX_COMMENT_CHARS */
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(7598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _base_mac_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(6538);
/* harmony import */ var _base_text_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(766);
/**
 * The records the action keeps in its own comments: a hidden marker (the job, the re-run records,
 * the last command handled) by which its comment is found again. The default token writes as
 * `github-actions[bot]`, which every workflow of the repository shares, so the marker is sealed
 * with a key derived from the API key and bound to its pull request: one that does not verify is
 * not the action's. Pure: encoding, decoding, finding.
 */



const MARKER = /<!-- docs-agent-action:link-back ([A-Za-z0-9_-]*)\.([0-9a-f]{64}) -->/;
/** How many runs' re-run records a marker keeps: a re-run of an older run still finds its own. */
const MAX_RECORDS = 10;
const markerKey = (apiKey) => (0,_base_mac_js__WEBPACK_IMPORTED_MODULE_1__/* .derivedKey */ .D)(apiKey, 'docs-agent-action link-back marker v1');
const tag = (seal, payload) => (0,_base_mac_js__WEBPACK_IMPORTED_MODULE_1__/* .mac */ .M)(seal.key, JSON.stringify([seal.repository.toLowerCase(), seal.number, payload]));
/** The marker as hidden HTML: base64url, so no text in it can close the comment, then its seal. */
function encodeMarker(marker, seal) {
    const payload = Buffer.from(JSON.stringify(marker)).toString('base64url');
    return `<!-- docs-agent-action:link-back ${payload}.${tag(seal, payload)} -->`;
}
/** The marker of a comment body; undefined when it has none, or one that does not verify or parse. */
function decodeMarker(body, seal) {
    const match = MARKER.exec(body);
    if (!match)
        return undefined;
    const [, payload = '', sealed = ''] = match;
    if (!(0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.timingSafeEqual)(Buffer.from(tag(seal, payload)), Buffer.from(sealed)))
        return undefined;
    try {
        const json = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
        if (typeof json !== 'object' || json === null || Array.isArray(json))
            return undefined;
        const { job, records, command, outsider } = json;
        return {
            job: typeof job === 'string' && job ? job : undefined,
            records: runRecords(records),
            command: handled(command),
            ...(outsider === true ? { outsider } : {})
        };
    }
    catch {
        return undefined;
    }
}
function runRecords(value) {
    if (!Array.isArray(value))
        return undefined;
    return value.flatMap((entry) => {
        if (typeof entry !== 'object' || entry === null)
            return [];
        const { key, command } = entry;
        return typeof key === 'string' ? [{ key, command: handled(command) }] : [];
    });
}
function handled(value) {
    if (typeof value !== 'object' || value === null)
        return undefined;
    const { id, kind, job } = value;
    if (typeof id !== 'number' || (kind !== 'follow-up' && kind !== 'create'))
        return undefined;
    return { id, kind, job: typeof job === 'string' ? job : undefined };
}
/**
 * The action's comments among `comments`, oldest first: those by `identity` whose marker verifies.
 * A marker in anyone else's comment, or one not sealed with this key for this pull request, is ignored.
 */
function ownComments(comments, identity, seal) {
    const me = identity.toLowerCase();
    return comments
        .filter((comment) => comment.author.toLowerCase() === me && decodeMarker(comment.body, seal) !== undefined)
        .sort((a, b) => a.id - b.id);
}
/**
 * GitHub's limit on a comment's body: a longer one is refused whole ("Body is too long (maximum is
 * 65536 characters)", 422), and a refused link-back is not written again in the step.
 */
const MAX_COMMENT_CHARS = 65_536;
/** The lines of a comment body, cut to GitHub's limit, then its marker, which is never cut. */
function commentBody(lines, marker, seal) {
    const sealed = encodeMarker(marker, seal);
    return `${(0,_base_text_js__WEBPACK_IMPORTED_MODULE_2__/* .truncate */ .xv)(lines.join('\n'), MAX_COMMENT_CHARS - sealed.length - 2)}\n\n${sealed}`;
}
/** `body` with its marker replaced: what the comment says stays. */
function remarked(body, marker, seal) {
    return body.replace(MARKER, () => encodeMarker(marker, seal));
}


/***/ }),

/***/ 283:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  Wg: () => (/* binding */ DOCS_TOKEN),
  vf: () => (/* binding */ docsClient),
  Bp: () => (/* binding */ sourceClient)
});

// EXTERNAL MODULE: ./src/base/text.ts
var base_text = __webpack_require__(766);
// EXTERNAL MODULE: ./src/github/pages.ts
var github_pages = __webpack_require__(3892);
;// CONCATENATED MODULE: ./src/github/check-run.ts


/**
 * GitHub's limit on a check run's `output.summary`: its docs say 65,535 characters, its API counts
 * UTF-8 bytes ("summary exceeds a maximum bytesize of 65535", github/docs issue 35252), and refuses
 * the whole write, which would leave the run in progress.
 */
const MAX_CHECK_SUMMARY_BYTES = 65_535;
const utf8Bytes = (text) => Buffer.byteLength(text, 'utf8');
/** Longest a check request may take: the check is written after a cancel too, within the runner's grace. */
const CHECK_TIMEOUT_MS = 10_000;
/**
 * Pages of 100 check runs of one name on one commit read at most: each attempt of each workflow run
 * on the commit makes one, so a commit with more is not searched further.
 */
const MAX_CHECK_PAGES = 3;
/** A fresh signal per request, so each gets the whole CHECK_TIMEOUT_MS. */
const request = () => ({ signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
/** A check run's state and output as GitHub takes them, the summary cut to GitHub's limit. */
const fields = (state, output) => ({
    ...state,
    output: { title: output.title, summary: (0,base_text/* truncate */.xv)(output.summary, MAX_CHECK_SUMMARY_BYTES, utf8Bytes) }
});
async function createCheckRun({ client, owner, repo }, { name, headSha, externalId, detailsUrl }, state, output) {
    const octokit = await client();
    const { data } = await octokit.rest.checks.create({
        owner,
        repo,
        name,
        head_sha: headSha,
        // Octokit leaves out what is undefined.
        external_id: externalId,
        details_url: detailsUrl,
        ...fields(state, output),
        request: request()
    });
    return { id: data.id, url: data.html_url ?? undefined };
}
async function updateCheckRun({ client, owner, repo }, id, state, output, detailsUrl) {
    const octokit = await client();
    await octokit.rest.checks.update({
        owner,
        repo,
        check_run_id: id,
        details_url: detailsUrl,
        ...fields(state, output),
        request: request()
    });
}
async function listCheckRuns({ client, owner, repo }, sha, name) {
    const octokit = await client();
    const listing = request();
    const first = octokit.rest.checks.listForRef({
        owner,
        repo,
        ref: sha,
        check_name: name,
        filter: 'all',
        per_page: 100,
        request: listing
    });
    const runs = await (0,github_pages/* allPages */.S)(octokit, first, listing, (page) => page.check_runs, MAX_CHECK_PAGES);
    return runs
        .map((run) => ({
        id: run.id,
        url: run.html_url ?? undefined,
        externalId: run.external_id ?? undefined,
        completed: run.status === 'completed'
    }))
        .sort((a, b) => b.id - a.id);
}
async function pullHead({ client, owner, repo }, number) {
    const octokit = await client();
    const { data } = await octokit.rest.pulls.get({ owner, repo, pull_number: number, request: request() });
    return data.head.sha;
}
async function tagCommit({ client, owner, repo }, tag) {
    const octokit = await client();
    const { data } = await octokit.rest.git.getRef({ owner, repo, ref: `tags/${tag}`, request: request() });
    if (data.object.type !== 'tag')
        return data.object.sha;
    const annotated = await octokit.rest.git.getTag({ owner, repo, tag_sha: data.object.sha, request: request() });
    return annotated.data.object.sha;
}
/** The check runs of `owner/name` through an Octokit loaded on demand. */
function checkRunApi(client, repository) {
    const [owner = '', repo = ''] = repository.split('/');
    const at = { client, owner, repo };
    return {
        create: (run, state, output) => createCheckRun(at, run, state, output),
        update: (id, state, output, detailsUrl) => updateCheckRun(at, id, state, output, detailsUrl),
        list: (sha, name) => listCheckRuns(at, sha, name),
        pullHead: (number) => pullHead(at, number),
        tagCommit: (tag) => tagCommit(at, tag)
    };
}

;// CONCATENATED MODULE: ./src/github/docs-checks.ts

/**
 * Pages of 100 read at most per list: a commit with more checks than that is not one the agent
 * made. Past it the read fails rather than judge part: a check left unread could be failing.
 */
const MAX_CHECK_LIST_PAGES = 5;
/** The checks of pull request `pr` through an Octokit loaded on demand; `signal` bounds each request. */
function docsChecksApi(client, pr, signal, count) {
    const { owner, repo } = pr;
    const request = () => ({ signal: signal(), count });
    return {
        head: async () => {
            const octokit = await client();
            const { data } = await octokit.rest.pulls.get({ owner, repo, pull_number: pr.number, request: request() });
            return data.head.sha;
        },
        ...headLists(client, pr, request),
        annotations: async (id, max) => {
            const octokit = await client();
            const options = request();
            const first = octokit.rest.checks.listAnnotations({
                owner,
                repo,
                check_run_id: id,
                per_page: 100,
                request: options
            });
            const keep = (data) => data.map((a) => ({ path: a.path, line: a.start_line, message: a.message ?? '' }));
            return (await (0,github_pages/* allPages */.S)(octokit, first, options, keep, Math.ceil(max / 100))).slice(0, max);
        }
    };
}
/** The head's lists, every page read with the step's signal: at most MAX_CHECK_LIST_PAGES each. */
function headLists(client, { owner, repo }, request) {
    // `first` asks for the first page of `sha`'s list.
    const listed = async (what, sha, first, keep) => {
        const octokit = await client();
        const options = request();
        const params = { owner, repo, ref: sha, per_page: 100, request: options };
        return (0,github_pages/* allPages */.S)(octokit, first(octokit, params), options, bounded(`${what} on ${sha}`, keep));
    };
    return {
        checkRuns: (sha) => listed('check runs', sha, (o, p) => o.rest.checks.listForRef(p), (d) => d.check_runs.map(checkRun)),
        checkSuites: (sha) => listed('check suites', sha, (o, p) => o.rest.checks.listSuitesForRef(p), (d) => d.check_suites.map(checkSuite)),
        statuses: (sha) => listed('statuses', sha, (o, p) => o.rest.repos.getCombinedStatusForRef(p), (d) => d.statuses.map(commitStatus))
    };
}
/** `keep` for at most MAX_CHECK_LIST_PAGES pages; one more throws. */
function bounded(what, keep) {
    let pages = 0;
    return (page) => {
        if (++pages > MAX_CHECK_LIST_PAGES)
            throw new Error(`more than ${MAX_CHECK_LIST_PAGES * 100} ${what}: not judged`);
        return keep(page);
    };
}
function checkRun(run) {
    return {
        id: run.id,
        name: run.name,
        status: run.status,
        conclusion: run.conclusion,
        url: run.html_url ?? run.details_url ?? undefined,
        title: run.output.title ?? '',
        summary: run.output.summary ?? '',
        annotations: run.output.annotations_count
    };
}
function checkSuite(suite) {
    // GitHub's schema lets `app` and `status` be null (an app's `name` it requires): an unknown app, a
    // suite not known to be completed.
    const app = suite.app?.name ?? 'an unnamed app';
    return { app, status: suite.status ?? 'queued' };
}
function commitStatus(status) {
    return {
        context: status.context,
        state: status.state,
        description: status.description ?? '',
        url: status.target_url ?? undefined
    };
}

// EXTERNAL MODULE: ./src/github/conversation/api.ts + 1 modules
var api = __webpack_require__(9194);
;// CONCATENATED MODULE: ./src/github/group/pulls.ts
/** `GET /repos/{owner}/{repo}/pulls?state=open`, newest first, one page of 100. */
async function openPulls(client, repository, request) {
    const [owner = '', repo = ''] = repository.split('/');
    const octokit = await client();
    const { data } = await octokit.rest.pulls.list({
        owner,
        repo,
        state: 'open',
        sort: 'created',
        direction: 'desc',
        per_page: 100,
        request
    });
    return data.map((pull) => ({ number: pull.number, url: pull.html_url, head: pull.head.ref }));
}
/** `GET /repos/{owner}/{repo}/pulls/{number}`: whether it is still open (a merged one is `closed` and `merged`). */
async function pullState(client, repository, number, request) {
    const [owner = '', repo = ''] = repository.split('/');
    const octokit = await client();
    const { data } = await octokit.rest.pulls.get({ owner, repo, pull_number: number, request });
    return data.merged ? 'merged' : data.state === 'open' ? 'open' : 'closed';
}

// EXTERNAL MODULE: ./src/github/event.ts
var github_event = __webpack_require__(5015);
;// CONCATENATED MODULE: ./src/github/owner/api.ts


/** Pages of 100 events read at most: a pull request with more is not one the action opened this week. */
const MAX_EVENT_PAGES = 10;
// Variables named apart from Octokit's own options (`method`, `query`, `url`, `headers`…).
const MERGE_FACTS = `query($owner: String!, $repo: String!, $number: Int!) {
  repository(owner: $owner, name: $repo) {
    pullRequest(number: $number) {
      id mergeStateStatus reviewDecision
      autoMergeRequest { enabledAt }
    }
  }
}`;
const ENABLE_AUTO_MERGE = `mutation($pullRequestId: ID!, $mergeMethod: PullRequestMergeMethod!, $expectedHeadOid: GitObjectID!) {
  enablePullRequestAutoMerge(input: { pullRequestId: $pullRequestId, mergeMethod: $mergeMethod, expectedHeadOid: $expectedHeadOid }) {
    pullRequest { autoMergeRequest { enabledAt } }
  }
}`;
const DISABLE_AUTO_MERGE = `mutation($pullRequestId: ID!) {
  disablePullRequestAutoMerge(input: { pullRequestId: $pullRequestId }) {
    pullRequest { autoMergeRequest { enabledAt } }
  }
}`;
/** A team of the repository's owner, as `org/slug`. */
const team = (owner, slug) => `${owner}/${slug}`;
async function pullFacts({ client, owner, repo, number, request }) {
    const octokit = await client();
    const { data } = await octokit.rest.pulls.get({ owner, repo, pull_number: number, request: request() });
    return {
        state: data.merged ? 'merged' : data.state === 'open' ? 'open' : 'closed',
        author: data.user.login,
        head: data.head.sha,
        reviewers: [
            ...(data.requested_reviewers ?? []).map((user) => user.login),
            ...(data.requested_teams ?? []).map((t) => team(owner, t.slug))
        ],
        assignees: (data.assignees ?? []).map((user) => user.login)
    };
}
async function asked({ client, owner, repo, number, request }) {
    const octokit = await client();
    let pages = 0;
    // Each page with the listing's signal (allPages): Octokit's paginate would send them without it.
    const listing = request();
    const first = octokit.rest.issues.listEvents({
        owner,
        repo,
        issue_number: number,
        per_page: 100,
        request: listing
    });
    const events = await (0,github_pages/* allPages */.S)(octokit, first, listing, (page) => {
        // Past the bound the read fails rather than answer part: someone could be asked twice.
        if (++pages > MAX_EVENT_PAGES)
            throw new Error(`pull request #${number} has more than ${MAX_EVENT_PAGES * 100} events: not read`);
        return page.map((event) => ({ ...event }));
    });
    const field = (value, key) => (0,github_event/* isRecord */.u4)(value) && typeof value[key] === 'string' ? [value[key]] : [];
    return {
        reviewers: events
            .filter((e) => e.event === 'review_requested')
            .flatMap((e) => [
            ...field(e.requested_reviewer, 'login'),
            ...field(e.requested_team, 'slug').map((slug) => team(owner, slug))
        ]),
        assignees: events.filter((e) => e.event === 'assigned').flatMap((e) => field(e.assignee, 'login'))
    };
}
async function requestReviewers({ client, owner, repo, number, request }, logins, teams) {
    const octokit = await client();
    await octokit.rest.pulls.requestReviewers({
        owner,
        repo,
        pull_number: number,
        reviewers: logins,
        team_reviewers: teams,
        request: request()
    });
}
async function api_assign({ client, owner, repo, number, request }, logins) {
    const octokit = await client();
    const { data } = await octokit.rest.issues.addAssignees({
        owner,
        repo,
        issue_number: number,
        assignees: logins,
        request: request()
    });
    return (data.assignees ?? []).map((user) => user.login);
}
async function mergeFacts({ client, owner, repo, number, request }) {
    const octokit = await client();
    const answer = await octokit.graphql(MERGE_FACTS, {
        owner,
        repo,
        number,
        // mergeStateStatus was a preview field; GitHub Enterprise Server may still want the header.
        mediaType: { previews: ['merge-info-preview'] },
        request: request()
    });
    const pull = answer.repository.pullRequest;
    return {
        id: pull.id,
        mergeState: pull.mergeStateStatus,
        reviewDecision: pull.reviewDecision,
        autoMerge: pull.autoMergeRequest !== null
    };
}
async function enableAutoMerge({ client, request }, id, method, head) {
    const octokit = await client();
    await octokit.graphql(ENABLE_AUTO_MERGE, {
        pullRequestId: id,
        mergeMethod: method.toUpperCase(),
        expectedHeadOid: head,
        request: request()
    });
}
async function disableAutoMerge({ client, request }, id) {
    const octokit = await client();
    await octokit.graphql(DISABLE_AUTO_MERGE, { pullRequestId: id, request: request() });
}
async function merge({ client, owner, repo, number, request }, method, head) {
    const octokit = await client();
    await octokit.rest.pulls.merge({
        owner,
        repo,
        pull_number: number,
        merge_method: method,
        sha: head,
        request: request()
    });
}
/** The owner side of pull request `pr`; `signal` bounds each request. */
function ownerApi(client, pr, signal) {
    const { owner, repo, number } = pr;
    const at = { client, owner, repo, number, request: () => ({ signal: signal() }) };
    return {
        pull: () => pullFacts(at),
        asked: () => asked(at),
        requestReviewers: (logins, teams) => requestReviewers(at, logins, teams),
        assign: (logins) => api_assign(at, logins),
        mergeFacts: () => mergeFacts(at),
        enableAutoMerge: (id, method, head) => enableAutoMerge(at, id, method, head),
        disableAutoMerge: (id) => disableAutoMerge(at, id),
        merge: (method, head) => merge(at, method, head)
    };
}

// EXTERNAL MODULE: ./src/github/permissions.ts
var permissions = __webpack_require__(5435);
;// CONCATENATED MODULE: ./src/github/pull-branch.ts
/** `GET /repos/{owner}/{repo}/pulls/{number}`: the branch the pull request's changes are on. */
async function pullBranch(client, { owner, repo, number }, signal) {
    const octokit = await client();
    const { data } = await octokit.rest.pulls.get({ owner, repo, pull_number: number, request: { signal } });
    return data.head.ref;
}

// EXTERNAL MODULE: ./src/github/requests.ts
var requests = __webpack_require__(4261);
;// CONCATENATED MODULE: ./src/github/commit.ts
function toCommit(commit) {
    const login = commit.author?.login;
    return {
        sha: commit.sha,
        message: commit.commit.message,
        parents: commit.parents.length,
        author: login ? { login, bot: commit.author?.type === 'Bot' || login.endsWith('[bot]') } : undefined
    };
}

;// CONCATENATED MODULE: ./src/github/context/package-reads.ts

function packageReads(client, owner, repo, request) {
    return {
        tree: async (ref) => {
            const octokit = await client();
            const { data } = await octokit.rest.git.getTree({ owner, repo, tree_sha: ref, recursive: '1', request });
            const paths = data.tree.flatMap((entry) => (entry.type === 'blob' && entry.path ? [entry.path] : []));
            return { paths, truncated: data.truncated };
        },
        fileText: async (path, ref) => {
            const octokit = await client();
            const { data } = await octokit.rest.repos.getContent({ owner, repo, path, ref, request });
            if (Array.isArray(data) || data.type !== 'file' || !('content' in data))
                throw new Error(`${path} is not a file`);
            return Buffer.from(data.content, 'base64').toString('utf8');
        },
        pathCommits: async (ref, path, page, perPage) => {
            const octokit = await client();
            const { data } = await octokit.rest.repos.listCommits({
                owner,
                repo,
                sha: ref,
                path,
                page,
                per_page: perPage,
                request
            });
            return data.map(toCommit);
        }
    };
}

;// CONCATENATED MODULE: ./src/github/changed-file.ts
function changedFile(file) {
    return {
        filename: file.filename,
        status: file.status,
        additions: file.additions,
        deletions: file.deletions,
        previousFilename: file.previous_filename,
        patch: file.patch
    };
}

;// CONCATENATED MODULE: ./src/github/reader.ts





/** Successful runs read to find the base of a scheduled run: the newest few are enough. */
const RUNS_READ = 5;
async function releaseByTag({ client, owner, repo, request }, tag) {
    const octokit = await client();
    try {
        const { data } = await octokit.rest.repos.getReleaseByTag({ owner, repo, tag, request });
        return { tag: data.tag_name, name: data.name ?? '', body: data.body ?? '', url: data.html_url };
    }
    catch (error) {
        if (error.status === 404)
            return undefined;
        throw error;
    }
}
async function tagRefs({ client, owner, repo, request }, prefix) {
    const octokit = await client();
    const ref = prefix ? `tags/${prefix}` : 'tags';
    // GitHub answers matching-refs whole today; pages are followed should it ever send a Link.
    return (0,github_pages/* allPages */.S)(octokit, octokit.rest.git.listMatchingRefs({ owner, repo, ref, request }), request, (refs) => refs.map((tag) => ({
        name: tag.ref.replace(/^refs\/tags\//, ''),
        type: tag.object.type,
        sha: tag.object.sha
    })));
}
async function tagMessage({ client, owner, repo, request }, sha) {
    const octokit = await client();
    const { data } = await octokit.rest.git.getTag({ owner, repo, tag_sha: sha, request });
    return data.message;
}
async function compare({ client, owner, repo, request }, base, head) {
    const octokit = await client();
    const { data } = await octokit.rest.repos.compareCommitsWithBasehead({
        owner,
        repo,
        basehead: `${base}...${head}`,
        request
    });
    return {
        status: data.status,
        commits: data.commits.map(toCommit),
        total: data.total_commits,
        files: (data.files ?? []).map(changedFile),
        ...(data.files ? {} : { filesMissing: true }),
        url: data.html_url
    };
}
async function pullFiles({ client, owner, repo, request }, number, page) {
    const octokit = await client();
    const { data } = await octokit.rest.pulls.listFiles({
        owner,
        repo,
        pull_number: number,
        per_page: 100,
        page,
        request
    });
    return data.map(changedFile);
}
async function successfulRuns({ client, owner, repo, request }, workflow, branch, event) {
    const octokit = await client();
    const { data } = await octokit.rest.actions.listWorkflowRuns({
        owner,
        repo,
        workflow_id: workflow,
        branch,
        event,
        status: 'success',
        per_page: RUNS_READ,
        request
    });
    return data.workflow_runs.map((run) => ({
        headSha: run.head_sha,
        url: run.html_url,
        createdAt: run.created_at
    }));
}
/** Reads of `owner/name` through an Octokit loaded on demand, each aborted by `signal`. */
function githubReader(client, repository, signal) {
    const [owner = '', repo = ''] = repository.split('/');
    const count = new requests/* RequestCount */.X();
    const request = { signal, count };
    const at = { client, owner, repo, request };
    return {
        requests: () => count.sent,
        ...packageReads(client, owner, repo, request),
        releaseByTag: (tag) => releaseByTag(at, tag),
        tagRefs: (prefix) => tagRefs(at, prefix),
        tagMessage: (sha) => tagMessage(at, sha),
        compare: (base, head) => compare(at, base, head),
        pullFiles: (number, page = 1) => pullFiles(at, number, page),
        successfulRuns: (workflow, branch, event) => successfulRuns(at, workflow, branch, event)
    };
}

// EXTERNAL MODULE: ./src/base/clock.ts
var clock = __webpack_require__(6412);
;// CONCATENATED MODULE: ./src/github/limiter.ts
/**
 * The throttling plugin's scheduler, Bottleneck (2.19.5, its last release, pinned by the lock file),
 * yields to the event loop with `setTimeout(resolve, 0)` at each step of scheduling a request,
 * some twenty times a request; Node runs such a timer after at least 1 ms, so each GitHub request
 * waited 20 to 40 ms doing nothing. Its local store yields with `setImmediate` here instead: still a
 * yield (I/O and timers due run first), without the wait. A wait it asks for (t > 0) stays a timer.
 * Patching again changes nothing.
 */
function yieldWithoutTimers(limiter) {
    const store = Object.getPrototypeOf(new limiter()._store);
    store.yieldLoop = function (t = 0) {
        return new this.Promise((resolve) => (t > 0 ? setTimeout(resolve, t) : setImmediate(resolve)));
    };
}

// EXTERNAL MODULE: ./src/base/causes.ts
var causes = __webpack_require__(2841);
;// CONCATENATED MODULE: ./src/github/retry.ts

/** Retries of one request for a rate limit; the plugins' waits past this are not worth the step's time. */
const RATE_LIMIT_RETRIES = 2;
const RATE_LIMIT_WAIT_S = 60;
/**
 * The waits before a read's second, third and fourth try, after a 5xx or a failed connection: 7 s
 * in all, inside the shortest budget a read has (10 s, the context's and the permission's), so a
 * read that fails on every try ends on its own last failure, not on its budget.
 */
const READ_WAITS_MS = [1000, 2000, 4000];
/** Methods that change nothing on GitHub, so sending them again is safe. */
const READS = new Set(['GET', 'HEAD']);
/** The signal of a request that has none: it never fires. */
const NEVER = new AbortController().signal;
/**
 * The options of `@octokit/plugin-throttling`. A rate-limit answer (403/429 with GitHub's
 * rate-limit headers or message) says GitHub did nothing, so any request, a write too, is tried
 * again after the wait while it fits.
 */
function throttleOptions(pace, limiter) {
    const fits = (retryAfter, options, retryCount) => retryCount < RATE_LIMIT_RETRIES && retryAfter <= RATE_LIMIT_WAIT_S && !options.request?.signal?.aborted;
    return {
        throttle: {
            retryAfterBaseValue: pace.msPerSecond,
            // GitHub asks for a second between writes: paced like the waits (the plugin's own groups are per process, in real seconds).
            write: new limiter.Group({ maxConcurrent: 1, minTime: pace.msPerSecond }),
            notifications: new limiter.Group({ maxConcurrent: 1, minTime: 3 * pace.msPerSecond }),
            onRateLimit: (retryAfter, options, _octokit, retryCount) => fits(retryAfter, options, retryCount),
            onSecondaryRateLimit: (retryAfter, options, _octokit, retryCount) => fits(retryAfter, options, retryCount)
        }
    };
}
/** A request's failure, by its options, while no try follows it: the throttling plugin waits. */
const failedTries = new WeakMap();
/**
 * An Octokit plugin, given to Octokit before the throttling plugin so that it sees each of that
 * plugin's tries: it keeps the failure of a request's latest try (a rate limit the plugin waits
 * out), for `retryReads` to end on when the signal fires in the wait. A try under way has none:
 * a write's try on its way may take effect, so a signal that cuts it is no refusal.
 */
function recordTries(octokit) {
    octokit.hook.wrap('request', async (request, options) => {
        failedTries.delete(options);
        try {
            return await request(options);
        }
        catch (error) {
            failedTries.set(options, error);
            throw error;
        }
    });
}
/**
 * A read (a GraphQL query included) answered 5xx, or whose connection failed, is tried again after
 * each of READ_WAITS_MS on the step's clock; a write (a GraphQL mutation included) never is (it may have taken effect). A request ends when its signal
 * fires, even in the throttling plugin's waits (those run on timers no signal reaches), and then
 * on its last failure when a try failed before, or when the throttling plugin waits after a rate
 * limit (recordTries): that is why it did not succeed, not the time.
 */
function retryReads(octokit, clock) {
    // Registered after the plugins, so outermost: the throttling plugin's waits and tries are one try here.
    octokit.hook.wrap('request', async (request, options) => {
        const signal = options.request?.signal ?? undefined;
        const waits = isRead(options) ? READ_WAITS_MS : [];
        let last;
        for (let tried = 0;; tried++) {
            try {
                return await untilAborted(request(options), signal);
            }
            catch (error) {
                if (signal?.aborted)
                    throw failedTries.get(options) ?? last ?? error;
                const wait = waits[tried];
                if (wait === undefined || !passing(error))
                    throw error;
                last = error;
                // The budget ends in the wait: the failure stands.
                await clock.sleep(wait, signal ?? NEVER).catch(() => {
                    throw error;
                });
            }
        }
    });
}
/** A GET or HEAD, or a GraphQL query (a POST that changes nothing, unlike a mutation). */
function isRead(options) {
    if (READS.has(options.method.toUpperCase()))
        return true;
    const { query } = options;
    return /(^|\/)graphql$/.test(options.url) && typeof query === 'string' && !/^\s*mutation\b/.test(query);
}
/**
 * A 5xx answer, or a connection lost or never made (which Octokit reports as a 500 without an
 * answer); not a TLS failure nor a request never sent, which the next try would meet again.
 */
function passing(error) {
    const { status, response } = error;
    if (typeof status !== 'number' || status < 500)
        return false;
    return response !== undefined || (0,causes/* socketError */.ml)(error) !== undefined;
}
function untilAborted(pending, signal) {
    if (!signal)
        return Promise.resolve(pending);
    return new Promise((resolve, reject) => {
        const onAbort = () => reject(signal.reason);
        if (signal.aborted)
            onAbort();
        else
            signal.addEventListener('abort', onAbort, { once: true });
        Promise.resolve(pending)
            .then(resolve, reject)
            .finally(() => signal.removeEventListener('abort', onAbort));
    });
}

;// CONCATENATED MODULE: ./src/github/redact-writes.ts

/** Methods that write nothing, so carry no text of ours. */
const redact_writes_READS = new Set(['GET', 'HEAD']);
/** Options that are not the request's parameters: its credentials and its transport stay as they are. */
const NOT_PARAMETERS = new Set(['method', 'url', 'baseUrl', 'headers', 'request', 'mediaType']);
/**
 * Redacts `secrets` from every write `octokit` sends: as written, as HTML escapes them, and as
 * markdown escapes them (a link's label, markdown.ts), which GitHub renders as written.
 */
function redactWrites(octokit, secrets) {
    const all = [...new Set([...secrets, ...secrets.map(base_text/* escapeHtml */.ZD), ...secrets.map(base_text/* escapeMarkdown */.FV)])].filter(Boolean);
    octokit.hook.before('request', (options) => {
        if (redact_writes_READS.has(options.method.toUpperCase()))
            return;
        const parameters = options;
        for (const [name, value] of Object.entries(parameters)) {
            if (!NOT_PARAMETERS.has(name))
                parameters[name] = scrubbed(value, all);
        }
    });
}
/** `value` with every string in it redacted, at any depth (a check run's `output`, GraphQL `variables`). */
function scrubbed(value, secrets) {
    if (typeof value === 'string')
        return (0,base_text/* redact */.E$)(value, secrets);
    if (Array.isArray(value))
        return value.map((item) => scrubbed(item, secrets));
    if (value === null || typeof value !== 'object')
        return value;
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, scrubbed(item, secrets)]));
}

;// CONCATENATED MODULE: ./src/github/client.ts













const LABEL_TIMEOUT_MS = 30_000;
/**
 * The GitHub REST API through `@actions/github`'s Octokit, with one token (docs-client.ts). The module (and
 * Octokit with it) is loaded on first use, so runs that read and label nothing never pay for it.
 * `apiUrl` is `GITHUB_API_URL`, so GitHub Enterprise Server works. Reads are retried on 5xx and
 * lost connections, on the step's clock, and on rate limits; writes only on rate limits (retry.ts).
 * Every write has the secrets taken out of its text (redact-writes.ts).
 */
class GitHubClient {
    token;
    apiUrl;
    octokit;
    clock;
    pace;
    secrets;
    /** The error of a write without a token, naming its input. */
    empty;
    constructor(token, apiUrl, 
    /**
     * The step's clock, for the waits between a read's tries; the throttling plugin's waits' pace
     * (tests shorten both); the input the token came from, for the errors of an empty one; the
     * secrets no write carries.
     */
    options = {}) {
        this.token = token;
        this.apiUrl = apiUrl;
        this.clock = options.clock ?? clock/* systemClock */.ml;
        this.pace = options.pace ?? { msPerSecond: 1000 };
        this.empty = `the '${options.input ?? 'github-token'}' input is empty`;
        this.secrets = [token, ...(options.secrets ?? [])];
    }
    client() {
        this.octokit ??= Promise.all(/* import() */[__webpack_require__.e(375), __webpack_require__.e(857)]).then(__webpack_require__.bind(__webpack_require__, 8857)).then(({ getOctokit, throttling, limiter, parseJson }) => {
            yieldWithoutTimers(limiter);
            const options = { ...throttleOptions(this.pace, limiter), ...(this.apiUrl ? { baseUrl: this.apiUrl } : {}) };
            // recordTries first: inside the throttling plugin, it sees each of its tries.
            const octokit = getOctokit(this.token, options, recordTries, throttling);
            (0,requests/* countRequests */.K)(octokit);
            // Inside the retries: a body that stalls ends on the read's signal, as its answer would.
            parseJson(octokit);
            redactWrites(octokit, this.secrets);
            retryReads(octokit, this.clock);
            return octokit;
        });
        return this.octokit;
    }
    /** Reads of `owner/name`, each aborted by `signal`. */
    reader(repository, signal) {
        return githubReader(() => this.client(), repository, signal);
    }
    /** The head branch of a pull request (the docs PR, for its preview). */
    pullBranch(pr, signal) {
        return pullBranch(() => this.client(), pr, signal);
    }
    /** The open pull requests of `owner/name`, newest first (the first 100); its requests counted in `count`. */
    openPulls(repository, signal, count) {
        return openPulls(() => this.client(), repository, { signal, count });
    }
    /** Whether pull request `number` of `owner/name` is open, closed or merged; its requests counted in `count`. */
    pullState(repository, number, signal, count) {
        return pullState(() => this.client(), repository, number, { signal, count });
    }
    /** Reviewers, assignees and merge of the docs pull request; `signal` bounds each request. */
    owner(pr, signal) {
        if (!this.token)
            throw new Error(this.empty);
        return ownerApi(() => this.client(), pr, signal);
    }
    /** The checks on the docs pull request's head; `signal` bounds each request, `count` counts them. */
    docsChecks(pr, signal, count) {
        if (!this.token)
            throw new Error("the 'github-token' input is empty");
        return docsChecksApi(() => this.client(), pr, signal, count);
    }
    /** Comments, reactions and release notes of `owner/name`; their requests counted in `count`. */
    conversation(repository, count) {
        return (0,api/* conversationApi */.kQ)(() => this.client(), repository, count);
    }
    /** Check runs of `owner/name`, and the commits they go on. */
    checkRuns(repository) {
        return checkRunApi(() => this.client(), repository);
    }
    /**
     * `GET /repos/{owner}/{repo}/collaborators/{username}/permission`: `none` for a login GitHub does
     * not know (404); throws on any other failure, and on an answer naming no role we know.
     */
    async permission(repository, login, signal) {
        if (!this.token)
            throw new Error(this.empty);
        const [owner = '', repo = ''] = repository.split('/');
        const octokit = await this.client();
        try {
            const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({
                owner,
                repo,
                username: login,
                request: { signal }
            });
            const permission = (0,permissions/* toRepoPermission */.$)(data.role_name, data.permission);
            if (permission === undefined) {
                throw new Error(`GitHub answered role '${data.role_name}', permission '${data.permission}'`);
            }
            return permission;
        }
        catch (error) {
            if (error.status === 404)
                return 'none';
            throw error;
        }
    }
    /** `POST /repos/{owner}/{repo}/issues/{number}/labels`; throws when GitHub refuses. */
    async addLabels(pr, labels) {
        if (!this.token)
            throw new Error(this.empty);
        const octokit = await this.client();
        await octokit.rest.issues.addLabels({
            owner: pr.owner,
            repo: pr.repo,
            issue_number: pr.number,
            labels,
            request: { signal: AbortSignal.timeout(LABEL_TIMEOUT_MS) }
        });
    }
}

;// CONCATENATED MODULE: ./src/github/docs-client.ts

/** How messages name the docs repository's token. */
const DOCS_TOKEN = "'docs-token' input (github-token when not given)";
/** The client of the workflow's repository, with `github-token`. */
function sourceClient(tokens, where) {
    return new GitHubClient(tokens.githubToken, where.apiUrl, {
        clock: where.clock,
        pace: where.pace,
        secrets: where.secrets
    });
}
/**
 * The client of the docs repository, with `docs-token`: `source` itself when both tokens are the
 * same, so that one token's identity is read once.
 */
function docsClient(tokens, where, source) {
    if (tokens.docsToken === tokens.githubToken)
        return source;
    return new GitHubClient(tokens.docsToken, where.apiUrl, {
        clock: where.clock,
        pace: where.pace,
        secrets: where.secrets,
        input: 'docs-token'
    });
}


/***/ }),

/***/ 5015:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   rD: () => (/* binding */ readPayload),
/* harmony export */   u4: () => (/* binding */ isRecord),
/* harmony export */   vE: () => (/* binding */ readTrigger)
/* harmony export */ });
/* harmony import */ var _conversation_markdown_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(7574);
/** What triggered the workflow, read from the runner's environment and the event payload file. */

/**
 * The trigger of this run. A payload that cannot be read gives what the variables alone tell
 * (a tag ref still is one): context is a help, never a reason to fail.
 */
function readTrigger(env, readFile) {
    const event = env.GITHUB_EVENT_NAME ?? '';
    const repo = env.GITHUB_REPOSITORY ?? '';
    const payload = readPayload(env.GITHUB_EVENT_PATH, readFile);
    // The first that fits: a deletion before the ref it deleted, a payload's release or pull request
    // before the ref, a tag ref before a branch.
    return (deletionTrigger(env, event, payload) ??
        releaseTrigger(event, repo, payload) ??
        pullRequestTrigger(event, repo, payload) ??
        tagRefTrigger(env, repo) ??
        pushTrigger(env, event, repo, payload) ??
        scheduledTrigger(env, event, repo) ??
        otherTrigger(event, payload));
}
/**
 * A push that deleted its branch or tag: the payload's `deleted`, or `after` all zeros. GitHub's
 * docs give such a run's commit ("When you delete a branch, the SHA in the workflow run (and its
 * associated refs) reverts to the default branch", docs.github.com/actions/reference/events-that-trigger-workflows#push),
 * so the run is modelled as happening, and the deleted ref is the payload's, not `GITHUB_REF`.
 */
function deletionTrigger(env, event, payload) {
    if (event !== 'push' || (payload.deleted !== true && !/^0{40}(0{24})?$/.test(text(payload.after))))
        return undefined;
    return { kind: 'other', event, deletedRef: text(payload.ref) || (env.GITHUB_REF ?? '') };
}
/**
 * A `release` event with a tag name; an edit that only rewrote the action's own link-back is marked,
 * and so is a release deleted or unpublished. `on: release` without `types` runs on every activity
 * type, and GitHub skips only a draft's created, edited and deleted
 * (docs.github.com/actions/reference/events-that-trigger-workflows#release).
 */
function releaseTrigger(event, repo, payload) {
    if (event !== 'release' || !isRecord(payload.release))
        return undefined;
    const release = payload.release;
    const tag = text(release.tag_name);
    if (!tag)
        return undefined;
    const body = text(release.body);
    const own = payload.action === 'edited' && ownLinkBack(payload.changes, body);
    const withdrawn = payload.action === 'deleted' || payload.action === 'unpublished' ? payload.action : undefined;
    return {
        kind: 'tag',
        repo,
        tag,
        release: {
            tag,
            name: text(release.name),
            body,
            url: text(release.html_url) || undefined,
            ...(own ? { ownLinkBack: true } : {}),
            ...(withdrawn ? { withdrawn } : {})
        }
    };
}
/** A pull request event, or a review or a comment on one (an issue_comment's `issue` is its PR). */
function pullRequestTrigger(event, repo, payload) {
    const onPull = PULL_EVENTS.includes(event) ||
        (event === 'issue_comment' && isRecord(payload.issue) && isRecord(payload.issue.pull_request));
    const pr = event === 'issue_comment' ? payload.issue : payload.pull_request;
    if (!onPull || !isRecord(pr) || typeof pr.number !== 'number')
        return undefined;
    return {
        kind: 'pull-request',
        repo,
        number: pr.number,
        title: text(pr.title),
        url: text(pr.html_url) || undefined,
        body: text(pr.body),
        base: isRecord(pr.base) ? text(pr.base.ref) : '',
        head: isRecord(pr.head) ? text(pr.head.ref) : '',
        headSha: (isRecord(pr.head) && text(pr.head.sha)) || undefined,
        changedFiles: typeof pr.changed_files === 'number' ? pr.changed_files : undefined,
        labels: Array.isArray(pr.labels) ? pr.labels.filter(isRecord).map((label) => text(label.name)) : [],
        ...(payload.action === 'closed' && pr.merged === false ? { closedUnmerged: true } : {})
    };
}
/** Any event run on a tag ref. */
function tagRefTrigger(env, repo) {
    const tag = tagName(env);
    return tag ? { kind: 'tag', repo, tag, release: undefined } : undefined;
}
/** A push to a branch. */
function pushTrigger(env, event, repo, payload) {
    if (event !== 'push' || !env.GITHUB_REF?.startsWith('refs/heads/'))
        return undefined;
    return {
        kind: 'push',
        repo,
        branch: env.GITHUB_REF_NAME || env.GITHUB_REF.slice('refs/heads/'.length),
        commits: Array.isArray(payload.commits) ? payload.commits.filter(isRecord).map(pushedCommit) : [],
        compareUrl: text(payload.compare) || undefined,
        headMessage: isRecord(payload.head_commit) ? text(payload.head_commit.message) : undefined,
        range: pushedRange(text(payload.before), text(payload.after))
    };
}
/** `before` and `after` of a push; undefined when either is missing or all zeros (a created branch). */
function pushedRange(before, after) {
    const commit = (sha) => /^[0-9a-f]{40,64}$/i.test(sha) && !/^0+$/.test(sha);
    return commit(before) && commit(after) ? { before, after } : undefined;
}
/** `schedule`, or `workflow_dispatch` on a branch, with the commit and the workflow file it runs. */
function scheduledTrigger(env, event, repo) {
    const workflow = /\/\.github\/workflows\/([^/@]+)@/.exec(env.GITHUB_WORKFLOW_REF ?? '')?.[1];
    if ((event === 'schedule' || event === 'workflow_dispatch') &&
        env.GITHUB_REF?.startsWith('refs/heads/') &&
        env.GITHUB_SHA &&
        workflow) {
        return {
            kind: 'scheduled',
            repo,
            event,
            branch: env.GITHUB_REF_NAME || env.GITHUB_REF.slice('refs/heads/'.length),
            sha: env.GITHUB_SHA,
            workflow
        };
    }
    return undefined;
}
/**
 * Any other event. On `workflow_run`, `GITHUB_SHA` and `GITHUB_REF` are the default branch's last
 * commit and ref (docs.github.com/actions/reference/events-that-trigger-workflows#workflow_run): the
 * commit the triggering run was for is the payload's `workflow_run.head_sha`.
 */
function otherTrigger(event, payload) {
    const run = event === 'workflow_run' && isRecord(payload.workflow_run) ? payload.workflow_run : {};
    const headSha = text(run.head_sha);
    return /^[0-9a-f]{40}([0-9a-f]{24})?$/i.test(headSha) ? { kind: 'other', event, headSha } : { kind: 'other', event };
}
const PULL_EVENTS = ['pull_request', 'pull_request_target', 'pull_request_review', 'pull_request_review_comment'];
function tagName(env) {
    if (env.GITHUB_REF_TYPE === 'tag' && env.GITHUB_REF_NAME)
        return env.GITHUB_REF_NAME;
    if (env.GITHUB_REF?.startsWith('refs/tags/'))
        return env.GITHUB_REF.slice('refs/tags/'.length);
    return undefined;
}
function pushedCommit(commit) {
    const author = isRecord(commit.author) ? text(commit.author.username) || text(commit.author.name) : '';
    return { id: text(commit.id), message: text(commit.message), author: author || undefined };
}
/** The event payload; {} when there is none or it cannot be read. */
function readPayload(path, readFile) {
    if (!path)
        return {};
    try {
        const json = JSON.parse(readFile(path));
        return isRecord(json) ? json : {};
    }
    catch {
        return {};
    }
}
function isRecord(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
function text(value) {
    return typeof value === 'string' ? value : '';
}
/** The edit changed the notes alone (`changes` names nothing else), and only in the action's block. */
function ownLinkBack(changes, body) {
    if (!isRecord(changes) || Object.keys(changes).join() !== 'body' || !isRecord(changes.body))
        return false;
    return (0,_conversation_markdown_js__WEBPACK_IMPORTED_MODULE_0__/* .onlyReleaseBlockChanged */ .df)(text(changes.body.from), body);
}


/***/ }),

/***/ 3856:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   C: () => (/* binding */ findGroupPull),
/* harmony export */   a: () => (/* binding */ MAX_SCANNED)
/* harmony export */ });
/* harmony import */ var _base_text_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(766);
/* harmony import */ var _unreachable_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(7997);
/* harmony import */ var _record_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(6930);
/**
 * Finding a group's docs pull request from any event and any ref: the open pull requests of the
 * docs repository, newest first, and in each the comments of the action's own identity, until one
 * holds the group's record sealed with this API key for that very pull request. A record in anyone
 * else's comment (a pasted copy) is ignored, as is one that does not verify. The newest open pull
 * request with the record wins; an older one was marked superseded when the newer one took over.
 */



/** Open pull requests whose comments are read, newest first: a group's own is among the newest. */
const MAX_SCANNED = 30;
/** The group's newest open docs pull request; `skip` (a run's own new one) is not read. */
async function findGroupPull(apiKey, key, reads, skip) {
    const ignored = [];
    try {
        const me = (await reads.identity()).toLowerCase();
        const listed = await reads.openPulls();
        const pulls = listed.slice(0, MAX_SCANNED).filter((pull) => pull.number !== skip);
        for (const pull of pulls) {
            const where = `${key.docsRepository}#${pull.number}`;
            for (const comment of (await reads.comments(pull.number)).sort((a, b) => b.id - a.id)) {
                const opened = (0,_record_js__WEBPACK_IMPORTED_MODULE_2__/* .openGroupRecord */ .JY)(apiKey, key, pull.number, comment.body);
                if (opened.kind === 'none')
                    continue;
                if (comment.author.toLowerCase() !== me) {
                    if (opened.kind === 'found')
                        ignored.push(`a copy of the record by ${(0,_base_text_js__WEBPACK_IMPORTED_MODULE_0__/* .inline */ .mG)(comment.author, 60)} on ${where}`);
                    continue;
                }
                if (opened.kind === 'rejected') {
                    // Other groups' records are expected; one sealed with another key is worth a word.
                    if (opened.reason.includes('api-key'))
                        ignored.push(`a record on ${where} (${opened.reason})`);
                    continue;
                }
                if (opened.record.supersededBy !== undefined)
                    continue;
                return {
                    kind: 'found',
                    pull,
                    record: opened.record,
                    commentId: comment.id,
                    ignored,
                    requests: reads.requests()
                };
            }
        }
        const unread = Math.max(0, listed.length - MAX_SCANNED);
        return { kind: 'none', scanned: pulls.length, unread, ignored, requests: reads.requests() };
    }
    catch (error) {
        const lost = (0,_unreachable_js__WEBPACK_IMPORTED_MODULE_1__/* .unreachable */ .H)(error);
        const status = error.status;
        const message = error instanceof Error ? error.message : String(error);
        return {
            kind: 'unreadable',
            message: lost ?? `${typeof status === 'number' ? `HTTP ${status}: ` : ''}${(0,_base_text_js__WEBPACK_IMPORTED_MODULE_0__/* .inline */ .mG)(message, 200)}`,
            network: lost !== undefined,
            requests: reads.requests()
        };
    }
}


/***/ }),

/***/ 6930:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   JY: () => (/* binding */ openGroupRecord),
/* harmony export */   PI: () => (/* binding */ mergeRecords),
/* harmony export */   Pf: () => (/* binding */ holdsGroupRecord),
/* harmony export */   Wr: () => (/* binding */ sealGroupRecord),
/* harmony export */   g5: () => (/* binding */ withSource)
/* harmony export */ });
/* unused harmony export MAX_SOURCES */
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(7598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_0__);
/**
 * The group's record: which docs pull request and job a group of runs shares, what fed it, and the
 * last commit it documented. It lives in a hidden marker of the action's comment on that docs pull
 * request, sealed with an HMAC keyed from the API key and bound to the group, the workflow's
 * repository, the project and the docs pull request: a copy pasted elsewhere, an edit, or a record
 * made with another API key does not verify.
 */

/** The record keeps this many sources; older ones are counted. */
const MAX_SOURCES = 50;
const MARKER = /<!-- docs-agent-action:group ([A-Za-z0-9_-]+)\.([0-9a-f]{32}) -->/;
const SOURCE_KINDS = ['pull-request', 'release', 'push', 'schedule', 'manual', 'other'];
/** The MAC key: derived from the API key, so neither the key nor anything that reveals it is stored. */
function macKey(apiKey) {
    return Buffer.from((0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.hkdfSync)('sha256', apiKey, '', 'docs-agent-action group record v1', 32));
}
const mac = (apiKey, text) => (0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.createHmac)('sha256', macKey(apiKey)).update(text).digest('hex').slice(0, 32);
/** The record as a hidden marker, sealed for `key` and bound to its pull request. */
function sealGroupRecord(apiKey, key, record) {
    const payload = Buffer.from(JSON.stringify({ v: 1, ...key, ...record })).toString('base64url');
    return `<!-- docs-agent-action:group ${payload}.${mac(apiKey, payload)} -->`;
}
/** Whether `body` holds a group's record: the group's comment, which only the group's runs write. */
function holdsGroupRecord(body) {
    return MARKER.test(body);
}
/**
 * The record in `body`, if it is `key`'s and sealed with this API key for pull request `pr`; without
 * `key.group`, of whichever group it names.
 */
function openGroupRecord(apiKey, key, pr, body) {
    const match = MARKER.exec(body);
    if (!match)
        return { kind: 'none' };
    const [, payload = '', tag = ''] = match;
    if (!(0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.timingSafeEqual)(Buffer.from(mac(apiKey, payload)), Buffer.from(tag)))
        return { kind: 'rejected', reason: 'its seal does not verify with this api-key' };
    const json = parseObject(Buffer.from(payload, 'base64url').toString('utf8'));
    if (!json || json.v !== 1)
        return { kind: 'rejected', reason: 'it is not a record this version reads' };
    for (const field of ['group', 'repository', 'projectId', 'docsRepository']) {
        if (field === 'group' && key.group === undefined && typeof json.group === 'string')
            continue;
        if (json[field] !== key[field])
            return { kind: 'rejected', reason: `it is for another ${FIELD_NAMES[field]}` };
    }
    if (json.pr !== pr)
        return { kind: 'rejected', reason: 'it was written for another pull request' };
    if (typeof json.job !== 'string' || json.job === '')
        return { kind: 'rejected', reason: 'it names no job' };
    return {
        kind: 'found',
        group: String(json.group),
        record: {
            pr,
            job: json.job,
            sources: Array.isArray(json.sources) ? json.sources.flatMap(source) : [],
            earlier: typeof json.earlier === 'number' ? json.earlier : 0,
            last: typeof json.last === 'string' ? json.last : undefined,
            supersededBy: typeof json.supersededBy === 'number' ? json.supersededBy : undefined,
            untrusted: json.untrusted === true ? true : undefined
        }
    };
}
const FIELD_NAMES = {
    group: 'group',
    repository: 'workflow repository',
    projectId: 'project',
    docsRepository: 'docs repository'
};
/** `record` with `added` at the end, the oldest dropped (and counted) beyond `MAX_SOURCES`. */
function withSource(record, added) {
    const sources = [...record.sources, added];
    const dropped = Math.max(0, sources.length - MAX_SOURCES);
    return { ...record, sources: sources.slice(dropped), earlier: record.earlier + dropped };
}
/**
 * The record as it is `now`, written meanwhile by another run of the group, with what this run
 * `read` before kept: a source only `read` holds (unless the cap dropped it since), its outsider mark.
 */
function mergeRecords(read, now) {
    const same = (a, b) => a.label === b.label && a.run === b.run;
    // The oldest of `read`'s sources the cap dropped from `now` are counted in its `earlier` already.
    const kept = read.sources.slice(Math.max(0, now.earlier - read.earlier));
    const sources = [...kept, ...now.sources.filter((n) => !kept.some((s) => same(s, n)))];
    const dropped = Math.max(0, sources.length - MAX_SOURCES);
    return {
        ...now,
        sources: sources.slice(dropped),
        earlier: now.earlier + dropped,
        untrusted: read.untrusted || now.untrusted ? true : undefined
    };
}
function source(value) {
    if (typeof value !== 'object' || value === null)
        return [];
    const { kind, label, url, run, via } = value;
    if (!SOURCE_KINDS.includes(kind) || typeof label !== 'string')
        return [];
    return [
        {
            kind: kind,
            label,
            url: typeof url === 'string' ? url : undefined,
            run: typeof run === 'string' ? run : undefined,
            via: via === 'follow-up' ? 'follow-up' : 'created'
        }
    ];
}
function parseObject(text) {
    try {
        const json = JSON.parse(text);
        return typeof json === 'object' && json !== null && !Array.isArray(json)
            ? json
            : undefined;
    }
    catch {
        return undefined;
    }
}


/***/ }),

/***/ 7448:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   W: () => (/* binding */ labelTarget)
/* harmony export */ });
/* harmony import */ var _base_text_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(766);
/* harmony import */ var _pr_link_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(4046);
/**
 * Which pull request `labels` may go to. The link comes from the Agent API, and the labels go out
 * with the workflow's token through `GITHUB_API_URL`: only a pull request in the job's own
 * repository (`source.repository`), on the GitHub the token is for (`GITHUB_SERVER_URL`), is
 * labelled, so a wrong or hostile link never spends the token elsewhere.
 */


const DEFAULT_SERVER = 'https://github.com';
/** The pull request to label, or why not; undefined when there is no link at all. */
function labelTarget(prLink, sourceRepository, serverUrl) {
    if (!prLink)
        return undefined;
    const pr = (0,_pr_link_js__WEBPACK_IMPORTED_MODULE_1__/* .parsePullRequestUrl */ .X)(prLink, serverUrl);
    if (!pr)
        return { kind: 'refused', reason: 'it is not a pull request on this GitHub server' };
    const server = hostOf(serverUrl || DEFAULT_SERVER);
    const prHost = new URL(prLink).host;
    if (prHost !== server) {
        return {
            kind: 'refused',
            reason: `it is on ${(0,_base_text_js__WEBPACK_IMPORTED_MODULE_0__/* .inline */ .mG)(prHost, 100)}, and the github-token is for ${(0,_base_text_js__WEBPACK_IMPORTED_MODULE_0__/* .inline */ .mG)(server ?? 'an unreadable GITHUB_SERVER_URL', 100)}`
        };
    }
    const source = repositoryOf(sourceRepository);
    if (!source) {
        return {
            kind: 'refused',
            reason: sourceRepository
                ? `the job's repository (${(0,_base_text_js__WEBPACK_IMPORTED_MODULE_0__/* .inline */ .mG)(sourceRepository, 200)}) is not a GitHub repository URL`
                : 'the job names no repository to check it against'
        };
    }
    const same = source.host === prHost &&
        source.owner.toLowerCase() === pr.owner.toLowerCase() &&
        source.repo.toLowerCase() === pr.repo.toLowerCase();
    if (!same) {
        return { kind: 'refused', reason: `it is not in the job's repository (${(0,_base_text_js__WEBPACK_IMPORTED_MODULE_0__/* .inline */ .mG)(sourceRepository ?? '', 200)})` };
    }
    return { kind: 'label', pr };
}
// The URL parser lower-cases http(s) hosts.
function hostOf(url) {
    const href = (0,_pr_link_js__WEBPACK_IMPORTED_MODULE_1__/* .httpUrl */ .q)(url);
    return href === undefined ? undefined : new URL(href).host;
}
/** `https://{host}/{owner}/{repo}` (a `.git` suffix or a trailing slash allowed), as the API gives it. */
function repositoryOf(url) {
    const href = (0,_pr_link_js__WEBPACK_IMPORTED_MODULE_1__/* .httpUrl */ .q)(url);
    if (!href)
        return undefined;
    const { host, pathname } = new URL(href);
    const match = /^\/([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+?)(?:\.git)?\/?$/.exec(pathname);
    if (!match)
        return undefined;
    const [, owner = '', repo = ''] = match;
    return { host, owner, repo };
}


/***/ }),

/***/ 3892:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   S: () => (/* binding */ allPages)
/* harmony export */ });
/**
 * The first page, then each page its Link header names as next, with `request`, up to `maxPages`;
 * `keep` takes what is used of each page as it comes, and may end the listing by throwing. The one
 * way the action reads pages: a lint rule bans `octokit.paginate` in src/.
 */
async function allPages(octokit, first, request, keep, maxPages = Infinity) {
    const all = [];
    for (let page = await first, read = 1;; read++) {
        all.push(...keep(page.data));
        const next = /<([^<>]+)>;\s*rel="next"/.exec(page.headers.link ?? '')?.[1];
        if (!next || read >= maxPages)
            return all;
        page = await octokit.request({ method: 'GET', url: next, request });
    }
}


/***/ }),

/***/ 5435:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   $: () => (/* binding */ toRepoPermission),
/* harmony export */   J: () => (/* binding */ mayWrite),
/* harmony export */   ud: () => (/* binding */ botAllowed),
/* harmony export */   w2: () => (/* binding */ isBot),
/* harmony export */   xB: () => (/* binding */ Permissions)
/* harmony export */ });
/* harmony import */ var _base_error_message_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(9225);
/* harmony import */ var _unreachable_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(7997);


const ROLES = ['admin', 'maintain', 'write', 'triage', 'read', 'none'];
/**
 * The permission of a collaborators-permission answer. `role_name` tells `maintain` and `triage`
 * apart; a custom role's name is none of ours, so its base `permission` decides. Undefined when
 * neither is a role we know.
 */
function toRepoPermission(roleName, permission) {
    return ROLES.find((role) => role === roleName) ?? ROLES.find((role) => role === permission);
}
/** Whether the permission lets its holder push to the repository. */
function mayWrite(permission) {
    return permission === 'write' || permission === 'maintain' || permission === 'admin';
}
/** A GitHub App's account: its login ends in `[bot]`. */
function isBot(login) {
    return login.toLowerCase().endsWith('[bot]');
}
/**
 * Whether `allowedBots` (names with or without `[bot]`, any case, or `*`) admits the bot `login`.
 * A login that is not a bot's is never admitted here.
 */
function botAllowed(login, allowedBots) {
    if (!isBot(login))
        return false;
    const name = withoutBotSuffix(login);
    return allowedBots.some((entry) => entry === '*' || withoutBotSuffix(entry) === name);
}
function withoutBotSuffix(login) {
    const lower = login.trim().toLowerCase();
    return lower.endsWith('[bot]') ? lower.slice(0, -'[bot]'.length) : lower;
}
/** Permission reads within one run: one request per login (logins are case-insensitive on GitHub). */
class Permissions {
    read;
    results = new Map();
    constructor(read) {
        this.read = read;
    }
    of(login) {
        const key = login.toLowerCase();
        let result = this.results.get(key);
        if (!result) {
            result = this.read(login).then((permission) => ({ known: true, permission }), (error) => {
                const lost = (0,_unreachable_js__WEBPACK_IMPORTED_MODULE_0__/* .unreachable */ .H)(error);
                return lost ? { known: false, error: lost, network: true } : { known: false, error: (0,_base_error_message_js__WEBPACK_IMPORTED_MODULE_1__/* .errorMessage */ .g)(error) };
            });
            this.results.set(key, result);
        }
        return result;
    }
}


/***/ }),

/***/ 4046:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   X: () => (/* binding */ parsePullRequestUrl),
/* harmony export */   q: () => (/* binding */ httpUrl)
/* harmony export */ });
/** The link, normalised, when it is an absolute http(s) URL; undefined otherwise. */
function httpUrl(link) {
    if (!link)
        return undefined;
    try {
        const url = new URL(link);
        return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
    }
    catch {
        return undefined;
    }
}
const NAME = /^[A-Za-z0-9_.-]+$/;
/**
 * The pull request behind a link of the form `https://{host}/{owner}/{repo}/pull/{number}`
 * (trailing path such as `/files` allowed), on github.com or on the host of
 * `GITHUB_SERVER_URL` (GitHub Enterprise). Undefined for anything else.
 */
function parsePullRequestUrl(link, serverUrl) {
    const href = httpUrl(link);
    if (!href)
        return undefined;
    const url = new URL(href);
    const hosts = new Set(['github.com']);
    if (serverUrl) {
        try {
            hosts.add(new URL(serverUrl).host.toLowerCase());
        }
        catch {
            // A malformed GITHUB_SERVER_URL only means we recognise github.com alone.
        }
    }
    if (!hosts.has(url.host.toLowerCase()))
        return undefined;
    const [owner, repo, pull, number] = url.pathname.split('/').slice(1);
    if (!owner || !repo || pull !== 'pull' || !number || !/^[1-9]\d{0,9}$/.test(number))
        return undefined;
    if (!NAME.test(owner) || !NAME.test(repo) || repo === '.' || repo === '..')
        return undefined;
    return { owner, repo, number: Number(number) };
}


/***/ }),

/***/ 7354:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   q: () => (/* binding */ TOKEN_LIMIT),
/* harmony export */   x: () => (/* binding */ rateLimited)
/* harmony export */ });
/**
 * A GitHub request that one of GitHub's rate limits refused is worded as that limit: GitHub did
 * nothing, and no permission would have helped. GitHub answers 403 or 429, with
 * `x-ratelimit-remaining: 0` and the reset in `x-ratelimit-reset` when the primary limit is spent,
 * or a message naming the secondary limit (docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api,
 * "Exceeding the rate limit"). The workflow's GITHUB_TOKEN has 1,000 requests an hour per
 * repository, shared by its workflows.
 */
/** How the warnings name the workflow token's limit, for what would help. */
const TOKEN_LIMIT = "the workflow's GITHUB_TOKEN has 1,000 requests an hour per repository";
/**
 * `GitHub's API rate limit for the token is spent until 11:05 UTC`, or `GitHub's secondary rate
 * limit`, when `error` is such a refusal; undefined for any other failure.
 */
function rateLimited(error) {
    const { status, message, response } = (error ?? {});
    if (status !== 403 && status !== 429)
        return undefined;
    const headers = response?.headers ?? {};
    if (String(headers['x-ratelimit-remaining']) === '0') {
        const reset = new Date(Number(headers['x-ratelimit-reset']) * 1000);
        const until = reset.getTime() > 0 ? ` until ${reset.toISOString().slice(11, 16)} UTC` : '';
        return `GitHub's API rate limit for the token is spent${until}`;
    }
    return /\bsecondary rate limit\b/i.test(String(message)) ? "GitHub's secondary rate limit" : undefined;
}


/***/ }),

/***/ 4261:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   K: () => (/* binding */ countRequests),
/* harmony export */   X: () => (/* binding */ RequestCount)
/* harmony export */ });
class RequestCount {
    /** Requests sent so far. */
    sent = 0;
}
/** Counts each try of a request whose `request.count` is a RequestCount; registered inside the retries. */
function countRequests(octokit) {
    octokit.hook.wrap('request', (request, options) => {
        const count = options.request?.count;
        if (count instanceof RequestCount)
            count.sent++;
        return request(options);
    });
}


/***/ }),

/***/ 9073:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   SW: () => (/* binding */ readTrustFacts),
/* harmony export */   VF: () => (/* binding */ decideStart),
/* harmony export */   X7: () => (/* binding */ permissionUnread),
/* harmony export */   rZ: () => (/* binding */ decideAuthorText)
/* harmony export */ });
/* harmony import */ var _base_text_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(766);
/* harmony import */ var _event_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(5015);
/* harmony import */ var _permissions_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(5435);
/**
 * Who may start a job, and whose pull request text the agent may read. On an event that someone
 * without write access can trigger, the text and the trigger are theirs to choose: the actor must
 * be able to write to the repository, and a pull request's own text reaches the agent only when
 * someone who can write stands behind it.
 */



/**
 * Events that anyone who can open an issue, a pull request or a discussion can trigger. A reader
 * can open a pull request between two branches of the repository itself, and that run has the
 * secrets: `pull_request` is one of them, wherever its head is.
 */
const OUTSIDER_EVENTS = new Set([
    'pull_request',
    'pull_request_target',
    'issue_comment',
    'issues',
    'pull_request_review',
    'pull_request_review_comment',
    'discussion',
    'discussion_comment',
    'workflow_run'
]);
function readTrustFacts(env, readFile) {
    const event = env.GITHUB_EVENT_NAME ?? '';
    const repository = env.GITHUB_REPOSITORY ?? '';
    const payload = (0,_event_js__WEBPACK_IMPORTED_MODULE_1__/* .readPayload */ .rD)(env.GITHUB_EVENT_PATH, readFile);
    // An issue_comment on a pull request carries it as `issue` (its author as `issue.user`).
    const issue = (0,_event_js__WEBPACK_IMPORTED_MODULE_1__/* .isRecord */ .u4)(payload.issue) && (0,_event_js__WEBPACK_IMPORTED_MODULE_1__/* .isRecord */ .u4)(payload.issue.pull_request) ? payload.issue : undefined;
    const pr = (0,_event_js__WEBPACK_IMPORTED_MODULE_1__/* .isRecord */ .u4)(payload.pull_request) ? payload.pull_request : event === 'issue_comment' ? issue : undefined;
    const actors = [env.GITHUB_ACTOR ?? '', env.GITHUB_TRIGGERING_ACTOR ?? '']
        .map((login) => login.trim())
        .filter((login, index, all) => login && all.findIndex((other) => sameLogin(other, login)) === index);
    return {
        event,
        repository,
        outsider: OUTSIDER_EVENTS.has(event),
        actors,
        pullRequest: pr && typeof pr.number === 'number' ? pullRequestFacts(pr, pr.number) : undefined
    };
}
function pullRequestFacts(pr, number) {
    const count = (value) => (typeof value === 'number' ? value : undefined);
    return {
        number,
        author: login(pr.user),
        mergedBy: pr.merged === true ? login(pr.merged_by) || undefined : undefined,
        commits: count(pr.commits),
        additions: count(pr.additions),
        deletions: count(pr.deletions)
    };
}
function login(user) {
    return (0,_event_js__WEBPACK_IMPORTED_MODULE_1__/* .isRecord */ .u4)(user) && typeof user.login === 'string' ? user.login : '';
}
/** Logins and repository names are case-insensitive on GitHub. */
function sameLogin(a, b) {
    return a.toLowerCase() === b.toLowerCase();
}
const WIDEN = 'allowed-non-write-users (or, for a bot, allowed-bots)';
/**
 * Whether this run may start a job: always on an event only writers can trigger (no request);
 * else every actor must be listed, or have write, maintain or admin permission. A permission that
 * cannot be read refuses.
 */
async function decideStart(facts, policy, permissions) {
    if (!facts.outsider)
        return { allowed: true };
    const events = `${facts.event} events`;
    const refuse = (why, warning) => ({
        allowed: false,
        reason: `No job is started: ${events} can be triggered by people without write access to ${facts.repository}, and ${why}. To let them, list them in ${WIDEN}.`,
        warning
    });
    if (facts.actors.length === 0)
        return refuse('the runner did not say who triggered it (GITHUB_ACTOR is empty)');
    for (const actor of facts.actors) {
        const who = (0,_base_text_js__WEBPACK_IMPORTED_MODULE_0__/* .inline */ .mG)(actor, 100);
        if ((0,_permissions_js__WEBPACK_IMPORTED_MODULE_2__/* .isBot */ .w2)(actor)) {
            if ((0,_permissions_js__WEBPACK_IMPORTED_MODULE_2__/* .botAllowed */ .ud)(actor, policy.allowedBots))
                continue;
            return refuse(`${who} is a bot not listed in allowed-bots`);
        }
        if (listed(actor, policy.allowedNonWriteUsers))
            continue;
        const result = await permissions.of(actor);
        if (!result.known) {
            return refuse(`the permission of ${who} could not be read`, permissionUnread(who, facts.repository, result, 'no job is started'));
        }
        if (!(0,_permissions_js__WEBPACK_IMPORTED_MODULE_2__/* .mayWrite */ .J)(result.permission)) {
            return refuse(`${who} has ${result.permission} permission; starting a job takes write, maintain or admin`);
        }
    }
    return { allowed: true };
}
/** The warning for a permission that could not be read: a network failure, or what the token needs. */
function permissionUnread(who, repository, result, so) {
    return result.network
        ? `Could not read the permission of ${who} on ${repository} (${(0,_base_text_js__WEBPACK_IMPORTED_MODULE_0__/* .inline */ .mG)(result.error, 200)}, after retries), so ${so}. A network failure, not a missing permission: run the workflow again.`
        : `Could not read the permission of ${who} on ${repository} (${(0,_base_text_js__WEBPACK_IMPORTED_MODULE_0__/* .inline */ .mG)(result.error, 200)}), so ${so}. The workflow's token (github-token) needs \`metadata: read\` on this repository (GITHUB_TOKEN always has it).`;
}
function listed(login, names) {
    return names.some((name) => name === '*' || sameLogin(name, login));
}
/**
 * The pull request author's text is included when the author can write, when someone who can
 * merged it, or when `untrusted-context: include` says so. A permission that cannot be read counts
 * as no write access.
 */
async function decideAuthorText(pr, untrustedContext, policy, permissions) {
    if (untrustedContext === 'include')
        return { include: true, why: 'untrusted-context: include' };
    if (!pr?.author)
        return { include: false, why: 'the event does not say who opened it' };
    const author = (0,_base_text_js__WEBPACK_IMPORTED_MODULE_0__/* .inline */ .mG)(pr.author, 100);
    if ((0,_permissions_js__WEBPACK_IMPORTED_MODULE_2__/* .isBot */ .w2)(pr.author)) {
        return (0,_permissions_js__WEBPACK_IMPORTED_MODULE_2__/* .botAllowed */ .ud)(pr.author, policy.allowedBots)
            ? { include: true, why: `its author ${author} is listed in allowed-bots` }
            : { include: false, why: `its author ${author} is a bot not listed in allowed-bots` };
    }
    const own = await permissions.of(pr.author);
    if (own.known && (0,_permissions_js__WEBPACK_IMPORTED_MODULE_2__/* .mayWrite */ .J)(own.permission)) {
        return { include: true, why: `its author ${author} has ${own.permission} permission` };
    }
    let merged = '';
    if (pr.mergedBy) {
        const merger = await permissions.of(pr.mergedBy);
        const by = (0,_base_text_js__WEBPACK_IMPORTED_MODULE_0__/* .inline */ .mG)(pr.mergedBy, 100);
        if (merger.known && (0,_permissions_js__WEBPACK_IMPORTED_MODULE_2__/* .mayWrite */ .J)(merger.permission)) {
            return { include: true, why: `${by}, who has ${merger.permission} permission, merged it` };
        }
        merged = ` and ${by}, who merged it, ${described(merger)}`;
    }
    return { include: false, why: `its author ${author} ${described(own)}${merged}` };
}
function described(result) {
    return result.known
        ? `has ${result.permission} permission`
        : `has a permission that could not be read (${(0,_base_text_js__WEBPACK_IMPORTED_MODULE_0__/* .inline */ .mG)(result.error, 200)})`;
}


/***/ }),

/***/ 7997:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   H: () => (/* binding */ unreachable)
/* harmony export */ });
/* harmony import */ var _base_causes_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(2841);
/* harmony import */ var _base_text_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(766);
/**
 * A GitHub request that failed by connection (refused, DNS, reset, TLS) is worded as the network,
 * naming where it went: the token's permissions are not in question.
 */


/**
 * `could not reach GitHub at <host>: <cause>` when `error` is a connection that failed (Octokit
 * reports one as a 500 without an answer); undefined for an answer from GitHub.
 */
function unreachable(error) {
    const failed = (0,_base_causes_js__WEBPACK_IMPORTED_MODULE_1__/* .socketError */ .ml)(error) ?? (0,_base_causes_js__WEBPACK_IMPORTED_MODULE_1__/* .tlsError */ .S8)(error);
    if (!failed)
        return undefined;
    const cause = failed.message.includes(failed.code) ? failed.message : `${failed.message} (${failed.code})`;
    const host = hostOf(error);
    return `could not reach GitHub${host ? ` at ${host}` : ''}: ${(0,_base_text_js__WEBPACK_IMPORTED_MODULE_0__/* .inline */ .mG)(cause, 200)}`;
}
/** The host the request went to: Octokit's error carries its request. */
function hostOf(error) {
    const url = error?.request?.url;
    if (typeof url !== 'string')
        return undefined;
    try {
        return new URL(url).host;
    }
    catch {
        return undefined;
    }
}


/***/ }),

/***/ 1299:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   MY: () => (/* binding */ automationRow),
/* harmony export */   Qr: () => (/* binding */ dryRunVerdict),
/* harmony export */   Sk: () => (/* binding */ automationLead),
/* harmony export */   a5: () => (/* binding */ queuedLead),
/* harmony export */   kj: () => (/* binding */ explainTrigger),
/* harmony export */   vv: () => (/* binding */ automationSteps),
/* harmony export */   x8: () => (/* binding */ queuedVerdict),
/* harmony export */   xX: () => (/* binding */ queuedSteps),
/* harmony export */   zM: () => (/* binding */ startedVerdict)
/* harmony export */ });
/* harmony import */ var _agent_api_errors_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(1461);
/* harmony import */ var _agent_api_automation_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(6985);
/* harmony import */ var _base_text_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(766);
/**
 * What the report says of an automation's trigger: the failures of the trigger request, and the
 * endings that differ from a job's (queued and not followable, not waited for, a dry run, an
 * answer lost). The dashboard's Automation Runs page is where a run is followed otherwise.
 */



const RUNS_PAGE = 'the Automation Runs page of the Mintlify dashboard';
/** The failure of the trigger request, when it differs from a job's create; undefined when it does not. */
function explainTrigger(error, projectId, automationId) {
    const request = `Triggering automation ${(0,_base_text_js__WEBPACK_IMPORTED_MODULE_2__/* .inline */ .mG)(automationId)}`;
    if ((0,_agent_api_automation_js__WEBPACK_IMPORTED_MODULE_1__/* .triggerMayHaveActed */ .X4)(error)) {
        return `${request} failed after the request was sent (${error.message}): the automation run may have been queued. It was not sent again: a trigger is not idempotent, and a second run costs credits and opens a second pull request. Check ${RUNS_PAGE} before running this step again.`;
    }
    if (error.status === 400) {
        // Mintlify's OpenAPI document (mintlify/docs openapi.json, the trigger's 400): "The automation ID is
        // malformed, the automation is not active, or the automation is not configured with a custom schedule."
        return `${request} failed (${error.message}): Mintlify triggers only an active automation whose trigger is a custom schedule. On the dashboard's Automations page, check that it is active and that its trigger is a custom schedule, and that 'automation' holds the ID from its settings panel; or start a job with a prompt instead.`;
    }
    if (error.kind === 'not-found') {
        return `${request} failed: project '${(0,_base_text_js__WEBPACK_IMPORTED_MODULE_2__/* .inline */ .mG)(projectId)}' has no automation '${(0,_base_text_js__WEBPACK_IMPORTED_MODULE_2__/* .inline */ .mG)(automationId)}' (${error.message}). Check the 'automation' input (the ID in the automation's settings panel on the dashboard's Automations page) and 'project-id'.`;
    }
    if (error.kind === 'rate-limited') {
        // The limit as published: mintlify.com/docs/api/automations/trigger, "Rate limits". A longer
        // timeout helps only when the wait for the limit did not fit in it: the attempts are three whatever it is.
        const raise = error instanceof _agent_api_automation_js__WEBPACK_IMPORTED_MODULE_1__/* .TriggerRateLimited */ .BO && error.outlastsTimeout
            ? ", or raise 'timeout' so the step waits longer for the limit"
            : '';
        return `${request} failed: rate limited (${error.message}); no run was queued. Mintlify allows 10 automation triggers per 10 seconds per organization, shared with the update trigger: spread the runs out (a concurrency: group runs them one at a time)${raise}.`;
    }
    return undefined;
}
/** The summary's lead for the endings of a trigger that differ from a job's; undefined for the others. */
function automationLead(state, automation) {
    if (state.mayHaveActed) {
        return `<strong>No run id:</strong> the trigger of automation ${code(automation.id)} may have queued a run, but its answer was lost.`;
    }
    if (state.outcome === 'dry-run') {
        return `<strong>Nothing was sent</strong> (${code('dry-run: true')}): the step would trigger automation ${code(automation.id)}.`;
    }
    if (state.outcome === 'started') {
        const { id, run, job } = names(state);
        return `<strong>Automation run queued:</strong> ${run ? `run ${code(run)}` : 'a run'} of automation ${code(id)}, job ${code(job)}; this step did not wait for it.`;
    }
    return undefined;
}
/** The lead of a run whose job cannot be read: where to follow it instead. */
function queuedLead(state) {
    const { id, run, job } = names(state);
    return `<strong>Automation run queued:</strong> ${run ? `run ${code(run)}` : 'a run'} of automation ${code(id)}. Its job ${code(job)} cannot be followed through the Agent API (it reads as not found): ${(0,_base_text_js__WEBPACK_IMPORTED_MODULE_2__/* .escapeHtml */ .ZD)(RUNS_PAGE)} shows its progress and its pull request.`;
}
/** The summary's Automation row. */
function automationRow(automation) {
    return automation.run ? `${code(automation.id)}, run ${code(automation.run)}` : code(automation.id);
}
/** The last log line of a run whose job cannot be read: the one notice that says where to follow it. */
function queuedVerdict(state) {
    const { id, run, job } = names(state);
    return `Automation ${(0,_base_text_js__WEBPACK_IMPORTED_MODULE_2__/* .inline */ .mG)(id)}: ${run ? `run ${(0,_base_text_js__WEBPACK_IMPORTED_MODULE_2__/* .inline */ .mG)(run)}` : 'a run'} was queued, and its job ${(0,_base_text_js__WEBPACK_IMPORTED_MODULE_2__/* .inline */ .mG)(job)} cannot be followed through the Agent API (it reads as not found). Follow the run on ${RUNS_PAGE}.`;
}
/** The last log line of a trigger not waited for (`wait: false`). */
function startedVerdict(state) {
    const { id, run, job } = names(state);
    return `Automation ${(0,_base_text_js__WEBPACK_IMPORTED_MODULE_2__/* .inline */ .mG)(id)}: ${run ? `run ${(0,_base_text_js__WEBPACK_IMPORTED_MODULE_2__/* .inline */ .mG)(run)}` : 'a run'} queued (job ${(0,_base_text_js__WEBPACK_IMPORTED_MODULE_2__/* .inline */ .mG)(job)}); not waiting (wait: false).`;
}
/** The last log line of a dry run. */
function dryRunVerdict(automation) {
    return `Dry run: nothing was sent; the step would trigger automation ${(0,_base_text_js__WEBPACK_IMPORTED_MODULE_2__/* .inline */ .mG)(automation.id)} (dry-run: true).`;
}
/** What to do now, for the endings of a trigger that differ from a job's; undefined for the others. */
function automationSteps(state, automation) {
    if (state.mayHaveActed) {
        const around = (0,_base_text_js__WEBPACK_IMPORTED_MODULE_2__/* .formatTime */ .fU)(new Date(state.postedAt ?? state.startedAt).toISOString());
        return [
            `Look on ${RUNS_PAGE} for a run of automation `,
            { code: automation.id },
            ` queued around ${around}. If there is one, do not trigger it again: a second run costs credits and opens a second pull request.`
        ];
    }
    if (state.outcome === 'started') {
        return [
            'In a later step, wait for its job with ',
            { code: `job-id: ${names(state).job}` },
            ' and no prompt; if the Agent API cannot read that job, follow ',
            ...runParts(state),
            ` on ${RUNS_PAGE}.`
        ];
    }
    return undefined;
}
/** What to do about a run whose job cannot be read. */
function queuedSteps(state) {
    return [
        'Follow ',
        ...runParts(state),
        ` on ${RUNS_PAGE}: it lists the run's pull request once the agent opens one. Re-running this workflow job does not trigger the automation again.`
    ];
}
/** The automation, its run (undefined when the trigger's answer did not name it) and its job, once the trigger answered. */
function names(state) {
    const { id = '', run } = state.automation ?? {};
    return { id, run, job: state.jobId ?? '' };
}
/** The run to follow: by its id, or `the run` when the trigger's answer did not name it. */
function runParts(state) {
    const { run } = names(state);
    return run ? ['run ', { code: run }] : ['the run'];
}
function code(value) {
    return `<code>${(0,_base_text_js__WEBPACK_IMPORTED_MODULE_2__/* .escapeHtml */ .ZD)((0,_base_text_js__WEBPACK_IMPORTED_MODULE_2__/* .inline */ .mG)(value, 80))}</code>`;
}


/***/ }),

/***/ 5587:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Z: () => (/* binding */ nextSteps)
/* harmony export */ });
/* harmony import */ var _base_text_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(766);
/* harmony import */ var _verdict_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(687);
/* harmony import */ var _automation_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(1299);



/** What to do now, for the summary: one paragraph for each ending that is not a plain success. */
function nextSteps(state, settings) {
    const jobId = state.jobId ?? '';
    const wait = ['wait for it with ', { code: `job-id: ${jobId}` }, ' and no prompt'];
    const followUp = ['send a follow-up (', { code: `job-id: ${jobId}` }, ' with a prompt)'];
    const automation = state.automation && (0,_automation_js__WEBPACK_IMPORTED_MODULE_2__/* .automationSteps */ .vv)(state, state.automation);
    if (automation)
        return automation;
    if (state.mayHaveActed && settings)
        return mayHaveActedSteps(state, settings, wait);
    switch (state.outcome ?? 'error') {
        case 'failed':
            return [
                'The Mintlify dashboard shows why. To try again, ',
                ...followUp,
                ' or start a new workflow run (re-running this one resumes the same job).'
            ];
        case 'archived':
            // Terminal, as `completed` and `failed` are (the Agent API's polling guidance: stop at any of the three).
            return [
                'An archived job is over: the agent does no more work on it. To continue, ',
                ...followUp,
                ' or start a new workflow run (re-running this one resumes the same job).'
            ];
        case 'timed-out':
            return [
                'It may still finish: ',
                ...wait,
                ', or raise ',
                { code: 'timeout' },
                " (and the workflow job's ",
                { code: 'timeout-minutes' },
                '). Re-running this workflow job resumes it.'
            ];
        case 'cancelled':
            return (0,_verdict_js__WEBPACK_IMPORTED_MODULE_1__/* .mayStillRun */ .tk)(state)
                ? ['It may still finish: ', ...wait, ', or re-run this workflow job to resume it.']
                : undefined;
        case 'error':
            if (state.notFound && settings)
                return notFoundSteps(state, settings);
            return (0,_verdict_js__WEBPACK_IMPORTED_MODULE_1__/* .mayStillRun */ .tk)(state) ? ['It may still be running: ', ...wait, '.'] : undefined;
        case 'started':
            return ['In a later step, ', ...wait, '.'];
        case 'completed':
            return completedSteps(state, followUp);
        case 'queued':
            return (0,_automation_js__WEBPACK_IMPORTED_MODULE_2__/* .queuedSteps */ .xX)(state);
        case 'skipped':
            return [
                'Explicit requests are never skipped: to document this change anyway, run the workflow by hand (',
                { code: 'workflow_dispatch' },
                ') or comment ',
                { code: '/docs <request>' },
                ' on the pull request, where the workflow takes commands.'
            ];
        case 'dry-run':
        case 'not-permitted':
            return undefined;
    }
}
/** The create or follow-up left but no usable answer came: look in the dashboard before repeating it. */
function mayHaveActedSteps(state, settings, wait) {
    const jobId = state.jobId ?? '';
    const around = (0,_base_text_js__WEBPACK_IMPORTED_MODULE_0__/* .formatTime */ .fU)(new Date(state.postedAt ?? state.startedAt).toISOString());
    return settings.mode === 'create'
        ? [
            `Look in the Mintlify dashboard for a job created around ${around}. If there is one, wait for it with `,
            { code: 'job-id' },
            ' and no prompt, rather than running this step again: that would create a second job.'
        ]
        : [
            'Look at job ',
            { code: jobId },
            ' in the Mintlify dashboard. If it took up the follow-up, ',
            ...wait,
            ', rather than sending it again.'
        ];
}
/** A completed job without a usable pull request: where to find it, or how to ask for changes. */
function completedSteps(state, followUp) {
    const pr = (0,_verdict_js__WEBPACK_IMPORTED_MODULE_1__/* .pullRequest */ .VV)(state);
    if (pr.kind === 'unusable')
        return [
            'Find the pull request of this job in the Mintlify dashboard; the ',
            { code: 'pr-link' },
            ' output is empty.'
        ];
    if (pr.kind === 'none')
        return ['For changes, ', ...followUp, ' that says more precisely what to change.'];
    return undefined;
}
/** A job that reads 404: what to check. Waiting on the same id again cannot help, so it is never advised. */
function notFoundSteps(state, settings) {
    const jobId = state.jobId ?? '';
    if (settings.mode === 'create')
        return [
            'The job this step created still read as not found 20 s after the create was answered. Look for it in the Mintlify dashboard (project ',
            { code: settings.projectId },
            ') before running this step again.'
        ];
    return [
        'Project ',
        { code: settings.projectId },
        ' has no job ',
        { code: jobId },
        '. Check ',
        { code: 'job-id' },
        ' for a typo; that ',
        { code: 'project-id' },
        " is the project the job was created in; and, when an earlier step created it, that this step is given that step's ",
        { code: 'job-id' },
        ' output. Waiting on this id again will not find it.'
    ];
}


/***/ }),

/***/ 7343:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   T: () => (/* binding */ FAIL_OUTCOMES),
/* harmony export */   u: () => (/* binding */ initialState)
/* harmony export */ });
/** Outcomes `fail-on` may list. */
const FAIL_OUTCOMES = ['failed', 'archived', 'timed-out', 'no-pr', 'docs-checks'];
function initialState(now, jobId) {
    return {
        startedAt: now,
        jobId,
        job: undefined,
        polls: 0,
        waitStartedAt: undefined,
        endedAt: undefined,
        outcome: undefined,
        phase: 'before-post',
        failure: undefined,
        mayHaveActed: false,
        postedAt: undefined,
        unknownStatusWarned: false,
        prompt: undefined,
        context: undefined,
        resumedFrom: undefined,
        notFound: false,
        preview: undefined
    };
}


/***/ }),

/***/ 4704:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  R_: () => (/* binding */ heading),
  Br: () => (/* binding */ renderSummary)
});

// UNUSED EXPORTS: CELL_CHARS, SUMMARY_BYTES, SUMMARY_PROMPT_CHARS

// EXTERNAL MODULE: ./src/base/duration.ts
var duration = __webpack_require__(5937);
// EXTERNAL MODULE: ./src/report/verdict.ts
var verdict = __webpack_require__(687);
// EXTERNAL MODULE: ./src/report/next-steps.ts
var next_steps = __webpack_require__(5587);
// EXTERNAL MODULE: ./src/base/text.ts
var base_text = __webpack_require__(766);
;// CONCATENATED MODULE: ./src/report/owner-rows.ts
/** The summary's rows for the docs pull request's owner: who was asked to review it, who is assigned, how it merges. */

/** `[name, html]` rows; every value escaped. */
function ownerRows(owner) {
    const text = (value) => (0,base_text/* escapeHtml */.ZD)((0,base_text/* inline */.mG)(value, 300));
    const people = (who) => text(who.map((w) => (w.includes('/') ? w : `@${w}`)).join(', '));
    const rows = [['Reviewers', owner.reviewers.length ? people(owner.reviewers) : 'none']];
    if (owner.assignees.length)
        rows.push(['Assignees', people(owner.assignees)]);
    const merge = owner.merge;
    if (merge) {
        const how = `(${merge.method})`;
        rows.push([
            'Merge',
            merge.result === 'auto-merge'
                ? text(`auto-merge on ${how}: it merges once its required checks and reviews pass`)
                : merge.result === 'merged'
                    ? text(`merged ${how}`)
                    : text(`left open: ${merge.why ?? 'see the log'}`)
        ]);
    }
    return rows;
}

;// CONCATENATED MODULE: ./src/report/summary-block.ts
/**
 * A collapsed block of the summary (the prompt, the context, the files judged): preformatted text in
 * `<details>`, cut to what fits, with the cut said in its title.
 */

/**
 * A collapsed block of untrusted text (open in a dry run, where it is the point): the start of
 * `body` that fits in `maxChars` characters and, as written, `maxBytes` bytes, and the number of
 * characters shown when that is not all. The cut is made on the text the agent got, so what is
 * shown is exactly its start.
 */
function block(title, body, maxChars, maxBytes, open) {
    const html = (shown, note) => {
        const summary = `${(0,base_text/* escapeHtml */.ZD)(title)} (${(0,base_text/* escapeHtml */.ZD)((0,base_text/* plural */.LS)(body.length, 'character'))}${note})`;
        return `<details${open ? ' open' : ''}><summary>${summary}</summary><pre>\n${preformatted(shown)}</pre></details>`;
    };
    const whole = html(body, '');
    if (body.length <= maxChars && byteLength(whole) <= maxBytes)
        return whole;
    // The frame with the longest note it can get; the body has the rest.
    const frame = byteLength(html('', `, first ${(0,base_text/* formatCount */.B4)(body.length)} shown`));
    const shown = (0,base_text/* truncate */.xv)((0,base_text/* truncate */.xv)(body, maxChars), Math.max(0, maxBytes - frame), shownBytes);
    return html(shown, `, first ${(0,base_text/* formatCount */.B4)(shown.length - 1)} shown`);
}
/**
 * Bytes that text takes in a block at most: escaped, direction controls named, every line end
 * counted as the `&#10;` it may become.
 */
function shownBytes(text) {
    const lines = (0,base_text/* normalizeLineEndings */.EW)(text).split('\n');
    return byteLength((0,base_text/* escapeHtml */.ZD)((0,base_text/* neutralizeFormatChars */.Kf)(lines.join('')))) + 5 * (lines.length - 1);
}
function byteLength(text) {
    return Buffer.byteLength(text, 'utf8');
}
/**
 * Text for a `<pre>` inside the HTML block, one line per line so the raw file reads well. Every
 * line end is made `\n` first: the runner rewrites the summary line by line, ending a line at a
 * lone `\r` too. Only a blank line would end the block: where one would appear, the newline is
 * written as `&#10;` (which also keeps a leading newline, which the parser drops right after
 * `<pre>`).
 */
function preformatted(body) {
    let out = '';
    let lineHasText = false;
    for (const [index, line] of (0,base_text/* escapeHtml */.ZD)((0,base_text/* neutralizeFormatChars */.Kf)((0,base_text/* normalizeLineEndings */.EW)(body)))
        .split('\n')
        .entries()) {
        const blank = line.trim() === '';
        if (index > 0) {
            if (blank || !lineHasText) {
                out += '&#10;';
                lineHasText = true;
            }
            else {
                out += '\n';
                lineHasText = false;
            }
        }
        if (!blank) {
            out += line;
            lineHasText = true;
        }
    }
    return out;
}

// EXTERNAL MODULE: ./src/github/pr-link.ts
var pr_link = __webpack_require__(4046);
;// CONCATENATED MODULE: ./src/report/docs-checks.ts
/**
 * The summary's "Docs PR checks" section: each check on the docs pull request's head by name,
 * conclusion and link, and a failure's first problems; after a round of fixes, the head it began
 * with too. Every value is the docs repository's CI's text: one line each, escaped.
 */



const CELL_CHARS = 80;
const PROBLEM_CHARS = 200;
const docs_checks_text = (value, max = CELL_CHARS) => (0,base_text/* escapeHtml */.ZD)((0,base_text/* inline */.mG)(value, max));
/**
 * At most about `maxBytes` bytes as written: the rows that do not fit are counted, not shown (the
 * runner drops a step's whole summary past 1 MiB, and the phase reads up to 1,000 checks a head).
 */
function docsChecksSection(checks, maxBytes = Infinity) {
    if (!checks)
        return undefined;
    const rounds = checks.rounds ? `, after the agent's round of fixes (${docs_checks_text((checks.asked ?? []).join(', '))})` : '';
    const result = checks.result === 'waiting' ? 'unknown' : checks.result;
    const lines = [`<h3>Docs PR checks</h3>`, `<p>docs-checks: <code>${(0,base_text/* escapeHtml */.ZD)(result)}</code>${rounds}</p>`];
    // What is left, with room kept for the frames and the lines that count the rows left out.
    const budget = { room: maxBytes - byteLength(lines.join('\n')) - 1000 };
    lines.push(...table(checks.checks, budget));
    if (checks.before?.length)
        lines.push("<p>Before the agent's round of fixes:</p>", ...table(checks.before, budget));
    return lines.join('\n');
}
function table(checks, budget) {
    if (!checks.length)
        return [];
    const rows = [];
    for (const row of checks) {
        const href = row.url ? (0,pr_link/* httpUrl */.q)(row.url) : undefined;
        const link = href ? `<a href="${(0,base_text/* escapeHtml */.ZD)(href)}">details</a>` : '';
        const problems = row.problems.map((p) => docs_checks_text(p, PROBLEM_CHARS)).join('<br>');
        const html = `<tr><td>${docs_checks_text(row.name)}</td><td><code>${docs_checks_text(row.conclusion, 40)}</code></td><td>${link}</td><td>${problems}</td></tr>`;
        if (byteLength(html) + 1 > budget.room)
            break;
        budget.room -= byteLength(html) + 1;
        rows.push(html);
    }
    const left = checks.length - rows.length;
    return [
        '<table>',
        '<tr><th>Check</th><th>Conclusion</th><th>Link</th><th>First problems</th></tr>',
        ...rows,
        ...(left ? [`<tr><td colspan="4">… and ${(0,base_text/* plural */.LS)(left, 'more check')}: see the log</td></tr>`] : []),
        '</table>'
    ];
}

;// CONCATENATED MODULE: ./src/report/skip.ts
/** The skip rules' decision in the summary: its row, and in a dry run the files it was made on. */

/** Paths a dry run's summary lists per list of changed files; the rest are counted. */
const LISTED = 300;
/** The `Skip rules` row: HTML, every value escaped. */
function skipRow(skip, dryRun) {
    const decided = skip.skipped ? (dryRun ? 'would skip this run' : 'skipped this run') : 'not skipped';
    return (0,base_text/* escapeHtml */.ZD)(`${decided}: ${(0,base_text/* inline */.mG)(skip.reason, 300)}`);
}
/** The changed files a path rule judged, as plain text for a block; undefined when none were. */
function judgedFiles(skip) {
    const lists = skip?.files;
    if (!lists?.length)
        return undefined;
    const count = lists.reduce((sum, list) => sum + list.paths.length, 0);
    const text = lists
        .map((list) => {
        const head = `${list.of}: ${(0,base_text/* plural */.LS)(list.paths.length, 'path')}${list.incomplete ? `, may be incomplete (${list.incomplete})` : ''}`;
        const shown = list.paths.slice(0, LISTED).map((path) => `  ${(0,base_text/* inline */.mG)(path, 300)}`);
        const rest = list.paths.length - shown.length;
        return [head, ...shown, ...(rest > 0 ? [`  … and ${(0,base_text/* formatCount */.B4)(rest)} more`] : [])].join('\n');
    })
        .join('\n');
    return { title: `${(0,base_text/* plural */.LS)(count, 'changed file')} the skip rules judged`, text };
}

// EXTERNAL MODULE: ./src/report/wording.ts
var wording = __webpack_require__(5594);
// EXTERNAL MODULE: ./src/report/automation.ts
var report_automation = __webpack_require__(1299);
;// CONCATENATED MODULE: ./src/report/summary.ts
/**
 * The job summary: one raw-HTML block with no blank line, so markdown never applies inside it and
 * text from the prompt, GitHub or the server renders as plain text. The result leads; details
 * follow, one table row per line; the prompt and the context come last, collapsed.
 */











/** How much of the user's prompt the summary shows. */
const SUMMARY_PROMPT_CHARS = 4000;
/** Longest value in a table cell: in a page 1000 px wide, the table never scrolls sideways. */
const summary_CELL_CHARS = 80;
/**
 * Largest summary, in UTF-8 bytes as written: the runner drops a step's summary whole (with an
 * error) past 1 MiB (`CreateStepSummaryCommand.AttachmentSizeLimit` in actions/runner).
 */
const SUMMARY_BYTES = 1024 * 1024;
function renderSummary({ state, settings, serverUrl }) {
    const parts = [`<h2>${(0,base_text/* escapeHtml */.ZD)(heading(state, settings))}</h2>`, `<p>${lead(state, serverUrl)}</p>`];
    // A cancel while waiting is told by the lead and the next step; anything else says what happened.
    if (state.failure && !(state.outcome === 'cancelled' && state.phase === 'reading')) {
        parts.push(`<p><strong>What happened:</strong> ${summary_text(state.failure, 2000)}</p>`);
    }
    const next = (0,next_steps/* nextSteps */.Z)(state, settings);
    if (next) {
        const html = next.map((part) => (typeof part === 'string' ? summary_text(part, 2000, false) : code(part.code))).join('');
        parts.push(`<p><strong>What now:</strong> ${html}</p>`);
    }
    // Inputs that could not be read: no request was made, so there is nothing more to show.
    if (!settings)
        return `${parts.join('\n')}\n\n`;
    parts.push('<table>', ...rows(state, settings).map(([name, value]) => `<tr><th align="left">${name}</th><td>${value}</td></tr>`), '</table>');
    // Half of what is left at most: the blocks below keep room too.
    const checks = docsChecksSection(state.docsChecks, (SUMMARY_BYTES - byteLength(`${parts.join('\n')}\n\n`)) / 2);
    if (checks)
        parts.push(checks);
    const context = state.context?.text || undefined;
    // The blocks take what the rest leaves of the byte budget, the prompt first (it is capped).
    let room = SUMMARY_BYTES - byteLength(`${parts.join('\n')}\n\n`);
    const add = (html) => {
        parts.push(html);
        room -= byteLength(html) + 1;
    };
    if (state.prompt !== undefined) {
        const own = context && state.prompt.endsWith(context) ? state.prompt.slice(0, -context.length).trimEnd() : state.prompt;
        const title = settings.dryRun ? 'Prompt that would be sent' : 'Prompt';
        add(block(title, own, SUMMARY_PROMPT_CHARS, room - 1, settings.dryRun));
    }
    const judged = settings.dryRun ? judgedFiles(state.skip) : undefined;
    if (judged)
        add(block(judged.title, judged.text, judged.text.length, room - 1, true));
    if (context) {
        const title = `Context added from GitHub: ${(0,base_text/* inline */.mG)(state.context?.description ?? '', 200)}`;
        add(block(title, context, context.length, room - 1, settings.dryRun));
    }
    return `${parts.join('\n')}\n\n`;
}
const TITLES = {
    failed: '❌ Docs agent job failed',
    archived: '🗄️ Docs agent job archived',
    started: '🚀 Docs agent job started',
    'timed-out': '⏱️ Timed out waiting for the docs agent',
    cancelled: '🛑 Docs agent step cancelled',
    error: '❌ Docs agent step failed',
    'dry-run': '🧪 Dry run: nothing was sent',
    'not-permitted': '🔒 No job: whoever triggered the run may not start one',
    queued: '🚀 Automation run queued',
    skipped: '⏭️ Skipped: no docs job for this change'
};
function heading(state, settings) {
    const outcome = state.outcome ?? 'error';
    if (!settings)
        return '❌ Docs agent step failed: bad input';
    if (outcome === 'started' && settings.mode === 'message')
        return '🚀 Follow-up sent to the docs agent';
    if (outcome === 'started' && settings.mode === 'automation')
        return TITLES.queued;
    if (outcome !== 'completed')
        return TITLES[outcome];
    switch ((0,verdict/* pullRequest */.VV)(state).kind) {
        case 'link':
            return '✅ Docs pull request ready';
        case 'unusable':
            return '⚠️ Docs agent finished: its pull request link is unusable';
        case 'none':
            return '☑️ Docs agent finished: no changes';
    }
}
/** One line under the heading: the pull request, or a plain statement of why there is none. */
function lead(state, serverUrl) {
    const id = state.jobId ? ` ${code(state.jobId)}` : '';
    const pr = (0,verdict/* pullRequest */.VV)(state);
    if (pr.kind === 'link') {
        const ref = (0,pr_link/* parsePullRequestUrl */.X)(pr.url, serverUrl);
        return `<strong>Pull request:</strong> ${summary_link(pr.url, ref ? `${ref.owner}/${ref.repo}#${ref.number}` : undefined)}`;
    }
    if (pr.kind === 'unusable') {
        return `<strong>No usable pull request link:</strong> job${id} sent one that is not http(s) (${code(pr.scheme)}).`;
    }
    const automation = state.automation && (0,report_automation/* automationLead */.Sk)(state, state.automation);
    if (automation)
        return automation;
    if (state.mayHaveActed) {
        return state.jobId
            ? `<strong>No pull request yet:</strong> the follow-up to job${id} may have been delivered, but its answer was lost.`
            : '<strong>No job id:</strong> the create request may have started a job, but its answer was lost.';
    }
    const status = code(state.job?.status ?? 'unknown');
    switch (state.outcome ?? 'error') {
        case 'completed':
            return `<strong>No pull request:</strong> job${id} completed without changing any file.`;
        case 'failed':
        case 'archived':
            return `<strong>No pull request:</strong> job${id} ended ${status}.`;
        case 'timed-out':
            return `<strong>No pull request yet:</strong> job${id} was still ${status} when the step timed out.`;
        case 'started':
            return `<strong>No pull request yet:</strong> job${id} is running; this step did not wait for it.`;
        case 'dry-run':
            return `<strong>Nothing was sent</strong> to the Agent API (${code('dry-run: true')}): below is the prompt the step would send.`;
        case 'not-permitted':
            return '<strong>Nothing was sent</strong> to the Agent API: this event can be triggered by people without write access.';
        case 'queued':
            return (0,report_automation/* queuedLead */.a5)(state);
        case 'skipped':
            return `<strong>Nothing was sent</strong> to the Agent API, and nothing written on GitHub: ${summary_text(state.skip?.reason ?? '', 300)}.`;
        case 'cancelled':
        case 'error':
            if (!state.jobId)
                return '<strong>No pull request:</strong> no job was started.';
            if (state.notFound)
                return `<strong>No pull request:</strong> job${id} was not found.`;
            return (0,verdict/* mayStillRun */.tk)(state)
                ? `<strong>No pull request yet:</strong> job${id} may still be running.`
                : `<strong>No pull request:</strong> job${id} ended ${status}.`;
    }
}
function rows(state, settings) {
    const { job } = state;
    const noJob = state.mayHaveActed ? 'unknown (the answer was lost)' : settings.dryRun ? 'none (dry run)' : 'none';
    const result = [['Job', state.jobId ? code(state.jobId) : noJob]];
    if (state.automation)
        result.push(['Automation', (0,report_automation/* automationRow */.MY)(state.automation)]);
    if (job?.status) {
        // The wait's own time, as the log says it (the preview and the owner phase come after it).
        const waited = (state.waitEndedAt ?? state.endedAt ?? 0) - (state.waitStartedAt ?? Infinity);
        const polls = state.polls
            ? `, ${waited >= 1000 ? `after ${(0,duration/* formatDuration */.a3)(waited)} and ` : ''}${(0,base_text/* plural */.LS)(state.polls, 'poll')}`
            : '';
        result.push(['Status', `${code(job.status)}${polls}`]);
    }
    const repository = job?.source?.repository;
    if (repository)
        result.push(['Docs repository', summary_link(repository, shortRepository(repository))]);
    // The docs pull request's head branch, when read, is the branch the Preview row speaks of.
    const branch = state.preview?.branch ?? state.group?.pull?.head ?? job?.source?.ref;
    if (branch)
        result.push(['Branch', code(branch)]);
    if (state.preview) {
        const { url, problem } = state.preview;
        result.push(['Preview', url ? summary_link(url) : summary_text(problem ?? 'none', 300)]);
    }
    if (job?.model)
        result.push(['Model', code(job.model)]);
    if (job?.createdAt)
        result.push(['Created', summary_text((0,base_text/* formatTime */.fU)(job.createdAt))]);
    if (job?.archivedAt)
        result.push(['Archived', summary_text((0,base_text/* formatTime */.fU)(job.archivedAt))]);
    const request = wording/* WORDING */.p[settings.mode].summary;
    result.push([
        'Request',
        state.resumedFrom === undefined ? request : `${request}, resumed from attempt ${state.resumedFrom} of this run`
    ]);
    if (state.group)
        result.push(['Group', groupRow(state.group)]);
    if (state.owner)
        result.push(...ownerRows(state.owner));
    if (state.check)
        result.push(['Check', checkRow(state.check)]);
    if (settings.command) {
        const { kind, author, text: asked, hidden } = settings.command;
        const what = kind === 'follow-up' ? 'follow-up to the linked job' : 'new job';
        const removed = hidden ? `; ${(0,base_text/* plural */.LS)(hidden, 'hidden character')} removed` : '';
        result.push(['Command', `${summary_text(asked)} from ${code(`@${author}`)} (${what}${removed})`]);
    }
    if (state.skip)
        result.push(['Skip rules', skipRow(state.skip, settings.dryRun)]);
    if (state.context) {
        const { description, hidden } = state.context;
        const removed = hidden ? `; ${(0,base_text/* plural */.LS)(hidden, 'hidden character')} removed from the context` : '';
        result.push(['Context', `${summary_text(description)}${removed}`]);
    }
    return result;
}
function groupRow(group) {
    const pull = group.pull ? ` ${summary_link(group.pull.url, group.pull.label)}` : '';
    const name = code(group.name);
    switch (group.via) {
        case 'follow-up':
            return `${name}: added to its open docs pull request${pull}`;
        case 'would-follow-up':
            return `${name}: would add to its open docs pull request${pull} (dry run)`;
        case 'created':
            return `${name}: started a new job for it`;
        case 'would-create':
            return `${name}: would start a new job for it (dry run)`;
    }
}
/** The check run: its page, and the conclusion the step gives it; none when GitHub did not make it. */
function checkRow({ name, id, url, conclusion }) {
    const named = url ? summary_link(url, name) : code(name);
    if (id === undefined)
        return `${named}: no check run (see the log)`;
    return `${named}: ${conclusion ? code(conclusion) : 'in progress'}`;
}
/** `acme/docs` for a GitHub repository URL; else undefined (the URL is shown). */
function shortRepository(url) {
    return /^https:\/\/[^/]+\/([^/]+\/[^/]+?)(?:\.git)?\/?$/.exec(url)?.[1];
}
function summary_text(value, max = summary_CELL_CHARS, trim = true) {
    return (0,base_text/* escapeHtml */.ZD)((0,base_text/* inline */.mG)(value, max, trim));
}
function code(value) {
    return `<code>${summary_text(value)}</code>`;
}
/** A link only for http(s) URLs; anything else is shown as text. */
function summary_link(url, label) {
    const href = (0,pr_link/* httpUrl */.q)(url);
    if (!href)
        return summary_text(url);
    return `<a href="${(0,base_text/* escapeHtml */.ZD)(href)}">${summary_text(label ?? href)}</a>`;
}


/***/ }),

/***/ 687:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   VV: () => (/* binding */ pullRequest),
/* harmony export */   WJ: () => (/* binding */ verdict),
/* harmony export */   tk: () => (/* binding */ mayStillRun)
/* harmony export */ });
/* harmony import */ var _base_duration_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(5937);
/* harmony import */ var _github_pr_link_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(4046);
/* harmony import */ var _base_text_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(766);
/* harmony import */ var _automation_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(1299);
/** The verdict: what each ending means for the step, as its last log line. */




/** Logs nothing: says whether the step fails and what its last line says. */
function verdict(state, settings) {
    const id = (0,_base_text_js__WEBPACK_IMPORTED_MODULE_1__/* .inline */ .mG)(state.jobId ?? 'unknown');
    const failOn = settings?.failOn ?? new Set();
    const outcome = state.outcome ?? 'error';
    switch (outcome) {
        case 'error':
            return { failed: true, level: 'error', message: state.failure ?? 'The step failed.' };
        case 'cancelled':
            return { failed: true, level: 'error', message: state.failure ?? 'Cancelled.' };
        case 'dry-run':
            return {
                failed: false,
                level: 'notice',
                message: state.automation
                    ? (0,_automation_js__WEBPACK_IMPORTED_MODULE_2__/* .dryRunVerdict */ .Qr)(state.automation)
                    : 'Dry run: the prompt was built and nothing was sent (dry-run: true).'
            };
        case 'not-permitted':
            return { failed: false, level: 'notice', message: state.failure ?? 'No job is started.' };
        case 'skipped':
            return {
                failed: false,
                level: 'notice',
                message: `Skipped, no job started: ${(0,_base_text_js__WEBPACK_IMPORTED_MODULE_1__/* .inline */ .mG)(state.skip?.reason ?? '', 1000)}.`
            };
        case 'started':
            return {
                failed: false,
                level: 'info',
                message: state.automation
                    ? (0,_automation_js__WEBPACK_IMPORTED_MODULE_2__/* .startedVerdict */ .zM)(state)
                    : `Job ${id} ${settings?.mode === 'message' ? 'has the follow-up' : 'started'}; not waiting (wait: false).`
            };
        case 'queued':
            return { failed: false, level: 'notice', message: (0,_automation_js__WEBPACK_IMPORTED_MODULE_2__/* .queuedVerdict */ .x8)(state) };
        case 'timed-out':
            return timedOutVerdict(state, settings, id, failOn);
        case 'failed':
        case 'archived':
            return failOn.has(outcome)
                ? {
                    failed: true,
                    level: 'error',
                    message: `Docs agent job ${id} ended ${outcome} (fail-on includes '${outcome}').`
                }
                : {
                    failed: false,
                    level: 'warning',
                    message: `Docs agent job ${id} ended ${outcome}; fail-on does not include it.`
                };
        case 'completed':
            return completedVerdict(state, id, failOn);
    }
}
/** A wait that ran out of time: a failure only when `fail-on` says so; either way the job may still finish. */
function timedOutVerdict(state, settings, id, failOn) {
    const still = (0,_base_text_js__WEBPACK_IMPORTED_MODULE_1__/* .inline */ .mG)(state.job?.status ?? 'unknown', 40);
    const timeout = (0,_base_duration_js__WEBPACK_IMPORTED_MODULE_0__/* .formatDuration */ .a3)(settings?.timeoutMs ?? 0);
    return failOn.has('timed-out')
        ? {
            failed: true,
            level: 'error',
            message: `Timed out after ${timeout} waiting for job ${id} (still ${still}). Resume with job-id: ${id}.`
        }
        : {
            failed: false,
            level: 'warning',
            message: `Timed out after ${timeout} waiting for job ${id}; fail-on does not include timed-out.`
        };
}
/** A completed job: its pull request, or why there is none (a failure only when `fail-on` has `no-pr`). */
function completedVerdict(state, id, failOn) {
    const pr = pullRequest(state);
    if (pr.kind === 'link')
        return { failed: false, level: 'notice', message: `Docs pull request: ${(0,_base_text_js__WEBPACK_IMPORTED_MODULE_1__/* .inline */ .mG)(pr.url, 500)}` };
    const none = pr.kind === 'unusable'
        ? `completed with a pull request link that is not http(s) (${pr.scheme}), so it is not used`
        : 'completed without a pull request (the agent changed no files)';
    return failOn.has('no-pr')
        ? { failed: true, level: 'error', message: `Docs agent job ${id} ${none} (fail-on includes 'no-pr').` }
        : {
            failed: false,
            level: pr.kind === 'unusable' ? 'warning' : 'info',
            message: `Docs agent job ${id} ${none}.`
        };
}
function pullRequest(state) {
    const raw = state.job?.prLink;
    if (raw === undefined)
        return { kind: 'none' };
    const url = (0,_github_pr_link_js__WEBPACK_IMPORTED_MODULE_3__/* .httpUrl */ .q)(raw);
    if (url)
        return { kind: 'link', url };
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(raw.trim())?.[1];
    return { kind: 'unusable', scheme: scheme ? `${scheme.toLowerCase()}:` : 'not a URL' };
}
/** Whether the job may still be running, so waiting for it with `job-id` can help. */
function mayStillRun(state) {
    const status = state.job?.status;
    return (state.jobId !== undefined &&
        !state.notFound &&
        status !== 'completed' &&
        status !== 'failed' &&
        status !== 'archived');
}


/***/ }),

/***/ 5594:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   p: () => (/* binding */ WORDING)
/* harmony export */ });
/** How each mode's request is named: one table instead of a branch per sentence. */
const WORDING = {
    create: {
        request: 'The create request',
        posting: 'a new job is created',
        mayHaveActed: 'the job may have been created',
        nothingSent: 'no job was created',
        failing: () => 'Creating the job',
        summary: 'new job',
        dashboard: 'the agent jobs in the dashboard'
    },
    message: {
        request: 'The follow-up request',
        posting: 'the follow-up is sent',
        mayHaveActed: 'the follow-up may have been delivered',
        nothingSent: 'no follow-up was sent',
        failing: (jobId) => `Sending the follow-up to job ${jobId}`,
        summary: 'follow-up message',
        dashboard: 'the agent jobs in the dashboard'
    },
    'wait-only': {
        request: 'The read',
        posting: 'the job is read',
        mayHaveActed: '',
        nothingSent: '',
        failing: (jobId) => `Reading job ${jobId}`,
        summary: 'wait only',
        dashboard: 'the agent jobs in the dashboard'
    },
    automation: {
        request: 'The trigger request',
        posting: 'the automation is triggered',
        mayHaveActed: 'the automation run may have been queued',
        nothingSent: 'no automation run was queued',
        failing: () => 'Triggering the automation',
        summary: 'automation trigger',
        dashboard: 'the Automation Runs page of the Mintlify dashboard'
    }
};


/***/ }),

/***/ 769:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   E1: () => (/* binding */ parseList),
/* harmony export */   GU: () => (/* binding */ parseReleaseTags),
/* harmony export */   HU: () => (/* binding */ parseChoice),
/* harmony export */   L1: () => (/* binding */ parsePhrase),
/* harmony export */   Q2: () => (/* binding */ parseBaseUrl),
/* harmony export */   S3: () => (/* binding */ LOGIN),
/* harmony export */   TL: () => (/* binding */ quoted),
/* harmony export */   Ts: () => (/* binding */ durationInput),
/* harmony export */   XV: () => (/* binding */ parseFailOn),
/* harmony export */   Xy: () => (/* binding */ parseLabels),
/* harmony export */   dN: () => (/* binding */ parseCheckName),
/* harmony export */   dz: () => (/* binding */ InputError),
/* harmony export */   pr: () => (/* binding */ parseLinkBack),
/* harmony export */   wI: () => (/* binding */ parseLogins),
/* harmony export */   yG: () => (/* binding */ parseBoolean)
/* harmony export */ });
/* unused harmony exports MAX_DURATION_MS, LINK_BACK_TARGETS, QUOTED_CHARS, MAX_CHECK_NAME_CHARS, isLoopback */
/* harmony import */ var _base_text_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(766);
/* harmony import */ var _base_duration_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(5937);
/* harmony import */ var _report_state_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(7343);
/**
 * Parsers of single inputs: each takes the input's text and gives its value, or throws an
 * InputError that names the input and the accepted form.
 */



/** GitHub ends a job after 6 h; longer would also overflow a timer (2^31 ms), which fires at once. */
const MAX_DURATION_MS = 6 * 3_600_000;
const LINK_BACK_TARGETS = ['pull-request', 'release', 'docs-pr'];
/** Bad input: names the input and the accepted form. */
class InputError extends Error {
    input;
    constructor(input, message) {
        super(`Input '${input}': ${message}`);
        this.input = input;
        this.name = 'InputError';
    }
}
/**
 * Longest part of an input's value an error quotes. The reason and the accepted form come after it,
 * and must stay in view: the summary shows the first 2,000 characters of what happened, and the
 * runner keeps the first 4,096 of an annotation, for its log line too (actions/runner,
 * ExecutionContext.cs, `_maxIssueMessageLength`). A long value is a value pasted wrong (the prompt's
 * text in prompt-file): its start is enough to recognise it.
 */
const QUOTED_CHARS = 200;
/** An input's value as an error quotes it: in double quotes, on one line, at most QUOTED_CHARS characters. */
function quoted(value) {
    return `"${(0,_base_text_js__WEBPACK_IMPORTED_MODULE_0__/* .inline */ .mG)(value, QUOTED_CHARS)}"`;
}
function durationInput(get, name, minMs) {
    const ms = (0,_base_duration_js__WEBPACK_IMPORTED_MODULE_1__/* .parseDuration */ .E9)(get(name));
    if (ms === undefined)
        throw new InputError(name, `${quoted(get(name))} is not a duration: expected ${_base_duration_js__WEBPACK_IMPORTED_MODULE_1__/* .DURATION_FORM */ .ec}.`);
    if (ms < minMs) {
        const min = (0,_base_duration_js__WEBPACK_IMPORTED_MODULE_1__/* .formatDuration */ .a3)(minMs);
        throw new InputError(name, `${quoted(get(name))} is shorter than ${min}, the minimum: expected at least ${min}.`);
    }
    if (ms > MAX_DURATION_MS) {
        throw new InputError(name, `${quoted(get(name))} is longer than 6h, GitHub's limit for a job: expected at most 6h.`);
    }
    return ms;
}
/** YAML 1.2 core-schema booleans, as `core.getBooleanInput` takes them; anything else throws. */
function parseBoolean(value, name) {
    if (['true', 'True', 'TRUE'].includes(value))
        return true;
    if (['false', 'False', 'FALSE'].includes(value))
        return false;
    throw new InputError(name, `${quoted(value)} is not a boolean: expected true or false.`);
}
function parseChoice(value, name, choices) {
    const found = choices.find((choice) => choice === value.toLowerCase());
    if (found === undefined)
        throw new InputError(name, `${quoted(value)} is not one of ${choices.join(', ')}.`);
    return found;
}
/** Comma-, space- or newline-separated outcomes, or `none`. */
function parseFailOn(value) {
    const words = value
        .split(/[\s,]+/)
        .filter(Boolean)
        .map((word) => word.toLowerCase());
    const accepted = `any of ${_report_state_js__WEBPACK_IMPORTED_MODULE_2__/* .FAIL_OUTCOMES */ .T.join(', ')} (comma, space or newline separated), or none`;
    if (words.length === 1 && words[0] === 'none')
        return new Set();
    if (words.length === 0)
        throw new InputError('fail-on', `empty: expected ${accepted}.`);
    const result = new Set();
    for (const word of words) {
        const outcome = _report_state_js__WEBPACK_IMPORTED_MODULE_2__/* .FAIL_OUTCOMES */ .T.find((known) => known === word);
        if (outcome === undefined)
            throw new InputError('fail-on', `unknown outcome ${quoted(word)}: expected ${accepted}.`);
        result.add(outcome);
    }
    return result;
}
/** Any of the targets, or `none`; empty is the default, `pull-request`. */
function parseLinkBack(value) {
    const words = parseList(value.replace(/\s+/g, ',')).map((word) => word.toLowerCase());
    if (words.length === 0)
        return new Set(['pull-request']);
    const accepted = `any of ${LINK_BACK_TARGETS.join(', ')} (comma, space or newline separated), or none`;
    if (words.includes('none')) {
        if (words.length > 1)
            throw new InputError('link-back', `none cannot be combined with others: expected ${accepted}.`);
        return new Set();
    }
    const result = new Set();
    for (const word of words) {
        const target = LINK_BACK_TARGETS.find((known) => known === word);
        if (target === undefined)
            throw new InputError('link-back', `unknown target ${quoted(word)}: expected ${accepted}.`);
        result.add(target);
    }
    return result;
}
/** The longest check run name taken: GitHub shows it in one line among a commit's checks. */
const MAX_CHECK_NAME_CHARS = 100;
/** A check run's name on one line; empty (the default) is none. */
function parseCheckName(value) {
    if (value === '')
        return undefined;
    if (/[\r\n]/.test(value) || value.length > MAX_CHECK_NAME_CHARS) {
        throw new InputError('check', `expected a check run's name on one line, at most ${MAX_CHECK_NAME_CHARS} characters (such as Docs agent), or empty for none.`);
    }
    return value;
}
/** One word of at most 50 characters; empty is the default, `/docs`. */
function parsePhrase(value) {
    if (value === '')
        return '/docs';
    if (/\s/.test(value) || value.length > 50) {
        throw new InputError('trigger-phrase', `${quoted(value)} is not one word: expected a phrase such as /docs (at most 50 characters, no spaces).`);
    }
    return value;
}
const RELEASE_TAGS_FORM = 'a list of tags (one per line, or separated by commas or spaces), or changesets/action\'s publishedPackages output as is: a JSON array of {"name", "version"} objects';
/**
 * `release-tags`: a list of tags, or changesets' `publishedPackages` (`[{"name","version"}]`),
 * each the tag `name@version`, or `v` + version where that does not exist (a single package).
 */
function parseReleaseTags(value) {
    if (!value.startsWith('['))
        return [...new Set(value.split(/[\s,]+/).filter(Boolean))].map((tag) => ({ tag }));
    let parsed;
    try {
        parsed = JSON.parse(value);
    }
    catch {
        parsed = undefined;
    }
    const packages = Array.isArray(parsed) ? parsed : undefined;
    const valid = packages?.every((item) => typeof item === 'object' &&
        item !== null &&
        typeof item.name === 'string' &&
        typeof item.version === 'string' &&
        /\S/.test(item.name) &&
        /\S/.test(item.version));
    if (!packages || !valid) {
        throw new InputError('release-tags', `starts with "[" but is not a JSON array of {"name", "version"} objects; expected ${RELEASE_TAGS_FORM}.`);
    }
    return packages.map(({ name, version }) => ({
        tag: `${name.trim()}@${version.trim()}`,
        fallback: `v${version.trim()}`
    }));
}
/** Comma- or newline-separated, trimmed, without empties or repeats. */
function parseList(value) {
    return [
        ...new Set(value
            .split(/[,\n]/)
            .map((item) => item.trim())
            .filter(Boolean))
    ];
}
/** A GitHub login, a bot's with `[bot]`, written with or without `@`: the login. */
const LOGIN = /^@?([A-Za-z0-9][A-Za-z0-9-]{0,38}(?:\[bot\])?)$/;
/**
 * Logins (`allowed-non-write-users`, `allowed-bots`), or `*`: an entry that cannot be a login (two
 * names with a space between, say) would otherwise match nobody, and the step would refuse the very
 * people the workflow lists, without a word.
 */
function parseLogins(value, input) {
    const items = parseList(value);
    const bad = items.filter((item) => item !== '*' && !LOGIN.test(item));
    if (bad.length)
        throw new InputError(input, `${bad.map((item) => JSON.stringify((0,_base_text_js__WEBPACK_IMPORTED_MODULE_0__/* .inline */ .mG)(item, QUOTED_CHARS))).join(', ')} ${bad.length > 1 ? 'are not logins' : 'is not a login'}: expected logins (mona, dependabot[bot]) separated by commas or new lines, or *.`);
    // Each login without its @; `*` as it is.
    return items.map((item) => LOGIN.exec(item)?.[1] ?? item);
}
const BASE_URL_FORM = 'an https:// URL such as https://api.mintlify.com (http:// only for localhost or 127.0.0.1)';
function parseBaseUrl(value) {
    let url;
    try {
        url = new URL(value);
    }
    catch {
        throw new InputError('base-url', `${quoted(value)} is not a URL: expected ${BASE_URL_FORM}.`);
    }
    if (url.username || url.password || url.search || url.hash) {
        throw new InputError('base-url', `must not carry credentials, a query or a fragment: expected ${BASE_URL_FORM}.`);
    }
    if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
        throw new InputError('base-url', `plain http:// would send the API key unencrypted to ${url.hostname}: expected ${BASE_URL_FORM}.`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
        throw new InputError('base-url', `unsupported scheme ${url.protocol}: expected ${BASE_URL_FORM}.`);
    }
    return url;
}
/** Loopback names only: anchored, so `127.0.0.1.evil.com` is not loopback. */
function isLoopback(hostname) {
    return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}
/**
 * GitHub refuses a label name over 50 characters with a 422, and with it the whole request
 * (github/docs#32156): found only once the job has run.
 */
const MAX_LABEL_CHARS = 50;
function parseLabels(value) {
    const labels = parseList(value);
    // Characters as GitHub counts them: a surrogate pair is one.
    const chars = (name) => name.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, '_').length;
    const long = labels.find((name) => chars(name) > MAX_LABEL_CHARS);
    if (long !== undefined)
        throw new InputError('labels', `"${(0,_base_text_js__WEBPACK_IMPORTED_MODULE_0__/* .inline */ .mG)(long, 60)}" has ${(0,_base_text_js__WEBPACK_IMPORTED_MODULE_0__/* .formatCount */ .B4)(chars(long))} characters: expected label names of at most ${MAX_LABEL_CHARS}, GitHub's limit.`);
    return labels;
}


/***/ }),

/***/ 4371:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   W: () => (/* binding */ inheritedOutsider),
/* harmony export */   k: () => (/* binding */ promptOutsider)
/* harmony export */ });
/* harmony import */ var _base_text_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(766);
/* harmony import */ var _github_permissions_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(5435);
/**
 * Whether a job carries text written by someone without write access: such text can steer the
 * agent, so `merge: auto` never merges its docs pull request at once. It is a property of the job,
 * decided when the prompt is built: a new job's prompt carried a pull request's own text by such
 * an author (`untrusted-context: include`, or a maintainer merged an outsider's pull request); a
 * follow-up's job (`job-id`, a `/docs` command, a grouped run) inherits it from the record the
 * job's earlier runs left, whatever this run's event. The run's state keeps it, and with it the
 * re-run record, the group's record and the link-back's marker, on every exit path.
 */


/** Why a new job's prompt carries an outsider's text (the pull request's own text was included); undefined when it does not. */
async function promptOutsider(pr, number, author, permissions) {
    if (!author.include)
        return undefined;
    const login = pr?.author ?? '';
    // A bot's text counts as an outsider's: allowed-bots says it may run, not that its words are a writer's.
    const own = login && !(0,_github_permissions_js__WEBPACK_IMPORTED_MODULE_1__/* .isBot */ .w2)(login) ? await permissions.of(login) : undefined;
    if (own?.known && (0,_github_permissions_js__WEBPACK_IMPORTED_MODULE_1__/* .mayWrite */ .J)(own.permission))
        return undefined;
    return `pull request #${number}'s own text was included: ${author.why}`;
}
/**
 * Why a follow-up's job may carry an outsider's text: its record says so (a `/docs` command's
 * link-back marker), its pull request's author has no write access (its text may have reached the
 * job when it was created), or nothing records how the job was made (a `job-id` follow-up on an
 * event with no pull request): the strictest reading. Undefined when a writer stands behind it.
 */
async function inheritedOutsider(settings, job) {
    if (settings.mode !== 'message')
        return undefined;
    if (settings.command?.outsider)
        return 'the link-back comment records that its job was given such text';
    const pr = job.pullRequest;
    if (!pr) {
        return settings.command
            ? undefined
            : `its job ${(0,_base_text_js__WEBPACK_IMPORTED_MODULE_0__/* .inline */ .mG)(settings.jobId)} was made by an earlier run, and nothing here records whether that run gave it such text`;
    }
    const own = pr.author && !(0,_github_permissions_js__WEBPACK_IMPORTED_MODULE_1__/* .isBot */ .w2)(pr.author) ? await job.permissions.of(pr.author) : undefined;
    if (own?.known && (0,_github_permissions_js__WEBPACK_IMPORTED_MODULE_1__/* .mayWrite */ .J)(own.permission))
        return undefined;
    return `its job may have been given pull request #${pr.number}'s own text when it was created, and its author ${(0,_base_text_js__WEBPACK_IMPORTED_MODULE_0__/* .inline */ .mG)(pr.author || 'unknown', 100)} has no write access`;
}


/***/ }),

/***/ 7013:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Ps: () => (/* binding */ teamName),
/* harmony export */   pZ: () => (/* binding */ parseOwner)
/* harmony export */ });
/* unused harmony export MAX_ASSIGNEES */
/* harmony import */ var _inputs_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(769);

/** GitHub adds at most this many assignees to an issue or pull request. */
const MAX_ASSIGNEES = 10;
// A team as organization/slug.
const TEAM = /^@?([A-Za-z0-9][A-Za-z0-9-]{0,38})\/([A-Za-z0-9][A-Za-z0-9_.-]{0,99})$/;
const PEOPLE = 'logins (mona), teams (org/team-slug) and the word author, comma or newline separated';
const ASSIGNABLE = 'logins (mona) and the word author, comma or newline separated';
const CHOICES = { merge: ['none', 'auto'], 'merge-method': ['squash', 'merge', 'rebase'] };
/** The owner inputs; `wait` is the step's: only a step that waits learns the docs pull request. */
function parseOwner(get, step, fail) {
    const choice = (name) => {
        const value = get(name).toLowerCase();
        const found = CHOICES[name].find((known) => known === value);
        if (found === undefined)
            fail(name, `"${get(name).slice(0, 60)}" is not one of ${CHOICES[name].join(', ')}.`);
        return found;
    };
    const owner = {
        reviewers: people(get('reviewers'), 'reviewers', PEOPLE, fail),
        assignees: people(get('assignees'), 'assignees', ASSIGNABLE, fail),
        merge: choice('merge'),
        mergeMethod: choice('merge-method'),
        docsRepository: get('docs-repository') || undefined
    };
    const team = owner.assignees.find((person) => person.kind === 'team');
    if (team)
        fail('assignees', `"${teamName(team)}" is a team: GitHub assigns people only; expected ${ASSIGNABLE}.`);
    if (owner.assignees.length > MAX_ASSIGNEES)
        fail('assignees', `${owner.assignees.length} people: GitHub assigns at most ${MAX_ASSIGNEES}.`);
    const asked = owner.reviewers.length > 0 ? 'reviewers' : owner.assignees.length > 0 ? 'assignees' : undefined;
    const input = owner.merge === 'auto' ? 'merge' : asked;
    if (input && !step.wait)
        fail(input, 'needs wait: true (a step that returns before the job ends has no docs pull request to act on).');
    return owner;
}
/** `org/team-slug`. */
function teamName(team) {
    return `${team.org}/${team.slug}`;
}
/** Comma- or newline-separated, without repeats (logins and teams are case-insensitive on GitHub). */
function people(value, input, form, fail) {
    const result = [];
    const bad = [];
    for (const item of value.split(/[,\n]/).map((part) => part.trim())) {
        if (!item)
            continue;
        const person = parsePerson(item);
        if (!person) {
            bad.push(`"${item.slice(0, 120)}"`);
            continue;
        }
        const key = JSON.stringify(person).toLowerCase();
        if (!result.some((known) => JSON.stringify(known).toLowerCase() === key))
            result.push(person);
    }
    // Every bad entry at once: a user fixes them in one edit, not one run each.
    if (bad.length === 1)
        fail(input, `${bad[0] ?? ''} is not a login, a team or author: expected ${form}.`);
    if (bad.length > 1)
        fail(input, `${bad.join(', ')} are not logins, teams or author: expected ${form}.`);
    return result;
}
function parsePerson(item) {
    // `@author` is the account named author; the bare word is whoever caused the run.
    if (item.toLowerCase() === 'author')
        return { kind: 'author' };
    const login = _inputs_js__WEBPACK_IMPORTED_MODULE_0__/* .LOGIN */ .S3.exec(item)?.[1];
    if (login)
        return { kind: 'user', login };
    const team = TEAM.exec(item);
    return team ? { kind: 'team', org: team[1] ?? '', slug: team[2] ?? '' } : undefined;
}


/***/ }),

/***/ 3529:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   b: () => (/* binding */ post)
/* harmony export */ });
/* harmony import */ var _base_clock_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(6412);
/* harmony import */ var _base_duration_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(5937);
/* harmony import */ var _base_text_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(766);
/* harmony import */ var _agent_api_errors_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(1461);
/* harmony import */ var _agent_api_schedule_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(903);
/* harmony import */ var _report_wording_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(5594);
/**
 * The post phase: the create or the message, sent at most once in effect (a retry only when the
 * server certainly did not act on the last), and its answer recorded.
 */






async function post(settings, deps, run, deadline, prompt) {
    run.posting();
    const job = await postAtMostOnce(settings, deps, deadline, prompt);
    const answeredAt = deps.clock.now();
    run.answered(job, settings.mode === 'create');
    if (settings.mode === 'message')
        deps.log.info(`Follow-up sent to job ${(0,_base_text_js__WEBPACK_IMPORTED_MODULE_2__/* .inline */ .mG)(settings.jobId)}`);
    run.jobRead(job);
    return { job, answeredAt };
}
/** Sends the create or message. A retry is sent only when the server certainly did not act on the last. */
async function postAtMostOnce(settings, deps, deadline, prompt) {
    const { clock, log } = deps;
    const started = clock.now();
    for (let attempt = 1;; attempt++) {
        const call = { timeoutMs: (0,_base_clock_js__WEBPACK_IMPORTED_MODULE_0__/* .requestTimeout */ .Vq)(deadline, clock.now()), signal: deps.signal };
        try {
            return settings.mode === 'create'
                ? await deps.api.createJob(prompt, call)
                : await deps.api.sendMessage(settings.jobId, prompt, call);
        }
        catch (error) {
            if (!(error instanceof _agent_api_errors_js__WEBPACK_IMPORTED_MODULE_3__/* .ApiError */ .hD) || !(0,_agent_api_errors_js__WEBPACK_IMPORTED_MODULE_3__/* .isSafeToRetryPost */ .f0)(error))
                throw error;
            const rateLimited = error.kind === 'rate-limited';
            const delay = (0,_agent_api_schedule_js__WEBPACK_IMPORTED_MODULE_4__/* .nextRetryDelay */ .dg)({
                attempt,
                remainingMs: deadline - clock.now(),
                retryAfterMs: error.retryAfterMs,
                rateLimited,
                random: clock.random()
            });
            if (delay === undefined) {
                if (!rateLimited || attempt === 1)
                    throw error;
                // How long the limit held is what tells a user whether raising timeout can help.
                throw new _agent_api_errors_js__WEBPACK_IMPORTED_MODULE_3__/* .ApiError */ .hD(error.kind, `${error.message}; ${(0,_base_text_js__WEBPACK_IMPORTED_MODULE_2__/* .plural */ .LS)(attempt, 'attempt')} over ${(0,_base_duration_js__WEBPACK_IMPORTED_MODULE_1__/* .formatDuration */ .a3)(clock.now() - started)}`, error.status, error.retryAfterMs);
            }
            const when = rateLimited && error.retryAfterMs === undefined
                ? `; attempt ${attempt + 1} at ${(0,_base_text_js__WEBPACK_IMPORTED_MODULE_2__/* .formatTime */ .fU)(new Date(clock.now() + delay).toISOString())}, in ${(0,_base_duration_js__WEBPACK_IMPORTED_MODULE_1__/* .formatDuration */ .a3)(delay)}`
                : `; retrying in ${(0,_base_duration_js__WEBPACK_IMPORTED_MODULE_1__/* .formatDuration */ .a3)(delay)}`;
            log.info(`${_report_wording_js__WEBPACK_IMPORTED_MODULE_5__/* .WORDING */ .p[settings.mode].request} was not accepted (${error.message})${when}`);
            await clock.sleep(delay, deps.signal);
        }
    }
}


/***/ }),

/***/ 6849:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  run: () => (/* binding */ run)
});

// EXTERNAL MODULE: ./node_modules/@actions/core/lib/core.js + 7 modules
var core = __webpack_require__(3838);
// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(3024);
// EXTERNAL MODULE: ./src/base/clock.ts
var clock = __webpack_require__(6412);
// EXTERNAL MODULE: ./src/base/cancel.ts
var cancel = __webpack_require__(9539);
// EXTERNAL MODULE: ./src/base/text.ts
var base_text = __webpack_require__(766);
;// CONCATENATED MODULE: ./src/base/log.ts

/**
 * A log that replaces the secrets in every message, whatever produced the message, and where the
 * runner would read a legacy command (`##[…]`, anywhere in a line) puts a space in it.
 */
function redactingLog(log, secrets) {
    const wrap = (write) => (message) => write((0,base_text/* neutralizeCommands */.Kw)((0,base_text/* redact */.E$)(message, secrets)));
    return {
        info: wrap((m) => log.info(m)),
        debug: wrap((m) => log.debug(m)),
        notice: wrap((m) => log.notice(m)),
        warning: wrap((m) => log.warning(m)),
        error: wrap((m) => log.error(m))
    };
}
/** A log that writes every line at debug: for work whose lines are worth no more than that. */
function debugOnly(log) {
    const debug = (message) => log.debug(message);
    return { info: debug, debug, notice: debug, warning: debug, error: debug };
}

// EXTERNAL MODULE: ./src/agent-api/errors.ts
var errors = __webpack_require__(1461);
// EXTERNAL MODULE: ./src/agent-api/job.ts
var agent_api_job = __webpack_require__(9231);
// EXTERNAL MODULE: ./src/agent-api/wait.ts
var wait = __webpack_require__(4415);
// EXTERNAL MODULE: ./src/github/trust.ts
var trust = __webpack_require__(9073);
// EXTERNAL MODULE: ./src/base/duration.ts
var duration = __webpack_require__(5937);
// EXTERNAL MODULE: ./src/agent-api/automation.ts
var automation = __webpack_require__(6985);
// EXTERNAL MODULE: ./src/step/inputs.ts
var inputs = __webpack_require__(769);
;// CONCATENATED MODULE: ./src/step/skip/patterns.ts
/**
 * `paths` and `paths-ignore`: GitHub's filter patterns, as the "Filter pattern cheat sheet" of
 * GitHub's workflow syntax defines them, compiled to a RegExp here. No glob library matches them:
 * picomatch's `**` crosses `/` only as a whole segment, so `src/**.ts` would miss `src/lib/a.ts`.
 * - `*` matches zero or more characters but `/`; `**` zero or more of any character, `/`
 *   included, wherever it stands; `**` then `/` also matches nothing (`**` + `/README.md` matches
 *   `README.md`, as the cheat sheet's examples do).
 * - `?` and `+`: zero or one, one or more, of the character or `[...]` before them.
 * - `[...]`: one character listed or in a range; letters and digits only, ranges within a-z, A-Z
 *   or 0-9 (the cheat sheet's words).
 * - `\` takes the next character as itself; every other character, `(` and `{` included, is itself.
 * - `!` first negates (in `paths` only); the last pattern that matches a path decides.
 */

/** The accepted form, as every refusal ends. */
const FORM = (input) => `expected one of GitHub's filter patterns a line, as on.push.${input} takes them: * (not /), ** (anything), ? and + after a character or [...], [a-z0-9] (letters, digits, ranges)${input === 'paths' ? ', ! first to take files back' : ''}.`;
/** The patterns of `value`, one a line (blank lines left out), compiled; throws an InputError naming `input`. */
function parsePatterns(value, input) {
    const lines = value
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter(Boolean);
    const patterns = lines.map((text) => compile(text, input));
    if (patterns.length > 0 && patterns.every((pattern) => pattern.negated)) {
        throw new inputs/* InputError */.dz(input, 'every pattern starts with !, so none can match: a ! pattern takes back files an earlier pattern matched. Add a pattern without ! before it, such as **.');
    }
    return patterns;
}
/** Whether `path` matches the list: its last pattern that matches it is not a `!` one. */
function matchesList(patterns, path) {
    let matched = false;
    for (const pattern of patterns)
        if (pattern.test(path))
            matched = !pattern.negated;
    return matched;
}
function compile(text, input) {
    const refuse = (why) => {
        throw new inputs/* InputError */.dz(input, `${(0,inputs/* quoted */.TL)(text)} ${why}; ${FORM(input)}`);
    };
    if (/^-\s|^(['"]).*\1$/.test(text))
        refuse('is written as a YAML list item or quoted: the input is text');
    if (/,\s/.test(text))
        refuse('looks like a comma-separated list');
    if (/\{[^}]*,[^}]*\}/.test(text))
        refuse('has {a,b} alternatives, which GitHub does not expand: write each a line');
    const negated = text.startsWith('!');
    if (negated && input === 'paths-ignore') {
        refuse('starts with !, which only paths takes (GitHub says the same): use paths with ! patterns instead');
    }
    const glob = negated ? text.slice(1) : text;
    if (!glob)
        refuse('is empty after !');
    const source = filterRegExp(glob);
    if (typeof source !== 'string')
        return refuse(source.error);
    const regexp = new RegExp(source);
    return { text, negated, test: (path) => regexp.test(path) };
}
/** `[` to its `]`: the class body, or why it is refused. */
const CLASS = /^\[([^\]]*)\]/;
const RANGES = [/^[a-z]-[a-z]$/, /^[A-Z]-[A-Z]$/, /^[0-9]-[0-9]$/];
/**
 * One pattern (no `!`) as an anchored RegExp source, or why it is not a filter pattern. Each atom
 * is a literal character or a class; `?` and `+` repeat the atom before them.
 */
function filterRegExp(glob) {
    let source = '';
    let atom;
    let at = 0;
    while (at < glob.length) {
        const rest = glob.slice(at);
        const char = rest[0] ?? '';
        if (char === '?' || char === '+') {
            if (atom === undefined)
                return { error: `has a ${char} with no character or [...] before it to repeat` };
            source += `${atom}${char}`;
            atom = undefined;
            at += 1;
            continue;
        }
        source += atom ?? '';
        atom = undefined;
        // Any character, line breaks too (which `.` leaves out): a file name may hold them, and `*` takes them.
        if (rest.startsWith('**/'))
            [source, at] = [`${source}(?:[\\s\\S]*/)?`, at + 3];
        else if (rest.startsWith('**'))
            [source, at] = [`${source}[\\s\\S]*`, at + 2];
        else if (char === '*')
            [source, at] = [`${source}[^/]*`, at + 1];
        else if (char === '[') {
            const set = characterClass(rest);
            if (typeof set !== 'string')
                return set;
            atom = set;
            at += rest.indexOf(']') + 1;
        }
        else if (char === '\\') {
            if (rest.length < 2)
                return { error: 'ends with \\, which escapes nothing' };
            atom = literal(rest[1] ?? '');
            at += 2;
        }
        else {
            atom = literal(char);
            at += 1;
        }
    }
    return `^${source}${atom ?? ''}$`;
}
/** A `[...]` at the start of `rest`, as a RegExp class: letters, digits and ranges of them. */
function characterClass(rest) {
    const body = CLASS.exec(rest)?.[1];
    if (body === undefined)
        return { error: 'has a [ with no ] to close it' };
    if (body === '')
        return { error: 'has an empty []' };
    const parts = body.match(/.-.|./gs) ?? [];
    for (const part of parts) {
        if (part.length === 3) {
            if (!RANGES.some((range) => range.test(part)) || part.charCodeAt(0) > part.charCodeAt(2))
                return { error: `has the range ${part}, where ranges are a-z, A-Z or 0-9, low to high` };
        }
        else if (!/^[A-Za-z0-9]$/.test(part)) {
            return { error: `has ${part} in [...], which lists letters, digits and ranges only` };
        }
    }
    return `[${body}]`;
}
/** One character, matched as itself. */
function literal(char) {
    return char.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
}

;// CONCATENATED MODULE: ./src/step/skip/phase.ts


/** The markers that work like `[skip ci]`, compared without case. */
const SKIP_MARKERS = ['[skip docs]', '[docs skip]', '[no docs]', '[skip-docs]'];
/** Paths a dry run's log lists per list of changed files. */
const LOGGED = 50;
/**
 * One step of the phase: `event` before the group and the context (labels, markers), `files` once
 * the context is read (a path rule). The flow's end when the run is skipped; undefined when it goes on.
 */
function skipPhase(step, settings, deps, run) {
    // A dry run's earlier skip stands: the files are not judged again.
    if (run.state.skip?.skipped)
        return undefined;
    const decision = step === 'event' ? byEvent(settings, deps) : byFiles(settings, deps, run.state.context);
    if (!decision)
        return undefined;
    const ends = decision.skipped && !settings.dryRun;
    run.skipDecided(decision, ends);
    if (settings.dryRun) {
        showDecision(decision, deps.log);
        return undefined;
    }
    if (!ends)
        deps.log.info(`Skip rules: not skipped: ${decision.reason}.`);
    return ends ? { kind: 'skipped' } : undefined;
}
/** Why the run is an explicit request, never skipped; undefined when it is not one. */
function explicitRequest(settings, eventName) {
    if (settings.command)
        return `a ${(0,base_text/* inline */.mG)(settings.triggerPhrase, 50)} command`;
    if (settings.mode === 'message')
        return 'a follow-up to job-id';
    if (eventName === 'workflow_dispatch')
        return 'a workflow_dispatch run';
    return undefined;
}
/** An empty `release-tags` list, a skip label on the pull request, or a marker in its title or a branch push's head commit. */
function byEvent(settings, deps) {
    if (explicitRequest(settings, deps.eventName))
        return undefined;
    if (settings.skip.nothingReleased)
        return { skipped: true, reason: 'release-tags is an empty list: nothing was released' };
    const trigger = deps.trigger();
    if (trigger.kind === 'pull-request') {
        const wanted = new Set(settings.skip.labels.map((label) => label.toLowerCase()));
        const label = trigger.labels.find((name) => wanted.has(name.toLowerCase()));
        const pr = `pull request #${trigger.number}`;
        if (label !== undefined)
            return { skipped: true, reason: `skip-labels: ${pr} has the label ${(0,base_text/* inline */.mG)(label, 100)}` };
        const marker = markerIn(trigger.title);
        if (marker)
            return { skipped: true, reason: `${marker} in the title of ${pr}` };
    }
    if (trigger.kind === 'push') {
        const marker = markerIn(trigger.headMessage);
        const to = `the push to ${(0,base_text/* inline */.mG)(trigger.branch, 100)}`;
        if (marker)
            return { skipped: true, reason: `${marker} in the message of the head commit of ${to}` };
    }
    return undefined;
}
function markerIn(text) {
    const lower = text?.toLowerCase();
    return SKIP_MARKERS.find((marker) => lower?.includes(marker));
}
/** The path rule, on every list of changed files the context read: skipped only when each list would be. */
function byFiles(settings, deps, context) {
    const rule = settings.skip.paths;
    if (!rule)
        return undefined;
    const explicit = explicitRequest(settings, deps.eventName);
    if (explicit)
        return { skipped: false, reason: `${explicit} is an explicit request, never skipped` };
    const lists = context?.changed ?? [];
    if (lists.length === 0) {
        return { skipped: false, reason: `${rule.input} has no changed files to judge: the context read none` };
    }
    if (!settings.githubToken) {
        return {
            skipped: false,
            reason: `${rule.input} has no changed files to judge: github-token is empty`,
            files: lists
        };
    }
    const verdicts = lists.map((list) => judge(rule, list));
    const kept = verdicts.find((verdict) => !verdict.skipped);
    if (kept)
        return { skipped: false, reason: kept.reason, files: lists };
    const reasons = verdicts.map((verdict) => verdict.reason).join('; ');
    const reason = verdicts.length > 1 ? `every package of the release set would be skipped: ${reasons}` : reasons;
    return { skipped: true, reason, files: lists };
}
/** One list of changed files against the rule. */
function judge(rule, list) {
    const { input, patterns } = rule;
    if (list.incomplete) {
        return { skipped: false, reason: `the changed files of ${list.of} may be incomplete (${list.incomplete})` };
    }
    const files = list.paths;
    if (files.length === 0)
        return { skipped: true, reason: `${input}: ${list.of} changes no file` };
    const matched = files.filter((path) => matchesList(patterns, path));
    if (input === 'paths-ignore') {
        const hit = new Set(matched);
        const left = files.filter((path) => !hit.has(path));
        return left.length === 0
            ? { skipped: true, reason: `${input} matches every changed file of ${list.of}: ${named(files)}` }
            : { skipped: false, reason: `${input} leaves ${of(left, files)} of ${list.of}: ${named(left)}` };
    }
    return matched.length === 0
        ? { skipped: true, reason: `${input} matches none of the changed files of ${list.of}: ${named(files)}` }
        : { skipped: false, reason: `${input} matches ${of(matched, files)} of ${list.of}: ${named(matched)}` };
}
/** `2 of the 5 changed files`. */
function of(some, all) {
    return `${(0,base_text/* formatCount */.B4)(some.length)} of the ${(0,base_text/* plural */.LS)(all.length, 'changed file')}`;
}
/** The first three paths, then how many more. */
function named(paths) {
    const shown = paths.slice(0, 3).map((path) => (0,base_text/* inline */.mG)(path, 200));
    return paths.length > 3 ? `${shown.join(', ')} and ${(0,base_text/* formatCount */.B4)(paths.length - 3)} more` : shown.join(', ');
}
/** A dry run's log: the decision, then the files it was made on. */
function showDecision(decision, log) {
    const verb = decision.skipped ? 'would skip this run' : 'would not skip this run';
    log.info(`Dry run: the skip rules ${verb}: ${decision.reason}.`);
    for (const list of decision.files ?? []) {
        const state = list.incomplete ? `may be incomplete: ${list.incomplete}` : 'complete';
        log.info(`Dry run: the changed files of ${list.of} (${(0,base_text/* plural */.LS)(list.paths.length, 'path')}; ${state}):`);
        for (const path of list.paths.slice(0, LOGGED))
            log.info(`│ ${(0,base_text/* inline */.mG)(path, 300)}`);
        if (list.paths.length > LOGGED)
            log.info(`│ … and ${(0,base_text/* formatCount */.B4)(list.paths.length - LOGGED)} more`);
    }
}

// EXTERNAL MODULE: ./src/step/wait.ts
var step_wait = __webpack_require__(6729);
;// CONCATENATED MODULE: ./src/step/automation/phase.ts
/**
 * The automation mode (`automation`): the trigger takes the post phase's place. It is sent at most
 * once in effect (only a 429 is sent again), never again on a re-run (the record resumes the same
 * run and job), and the run's job is waited for as any job. A job the Agent API does not read (404
 * past the usual grace) ends the step as `queued`: the dashboard's Automation Runs page follows it.
 */







/** Resumes an earlier attempt's run, or triggers the automation (a dry run only says it would), then follows its job. */
async function phase_automation(settings, deps, run, rerun, deadline) {
    const { automationId } = settings;
    const earlier = await rerun.findEarlierAttempt(settings);
    if (earlier.kind === 'answer-lost') {
        run.automation(automationId, undefined);
        run.answerLost(earlier.record, undefined);
        return { kind: 'answer-lost', record: earlier.record };
    }
    if (earlier.kind === 'job') {
        const { record, jobId } = earlier;
        run.resumed(record);
        run.automation(automationId, record.automationRun);
        const queued = record.automationRun === undefined ? 'the run' : `run ${(0,base_text/* inline */.mG)(record.automationRun)}`;
        deps.log.info(`Resuming ${queued} of automation ${(0,base_text/* inline */.mG)(automationId)} from attempt ${record.attempt}`);
        run.reading();
        deps.follow?.following(settings);
        const notFoundUntil = record.answeredAt + wait/* NOT_FOUND_GRACE_MS */.hX;
        return follow(settings, deps, run, deadline, { jobId, pollNow: true, notFoundUntil });
    }
    // A skip label or a marker spares the automation's credits as it spares a job's (never a resumed run).
    const skipped = skipPhase('event', settings, deps, run);
    if (skipped)
        return skipped;
    run.automation(automationId, undefined);
    if (settings.dryRun) {
        deps.log.info(`Dry run: nothing is sent. The step would trigger automation ${(0,base_text/* inline */.mG)(automationId)} of project ${(0,base_text/* inline */.mG)(settings.projectId)}.`);
        return { kind: 'dry-run' };
    }
    deps.log.info(`Triggering automation ${(0,base_text/* inline */.mG)(automationId)} of project ${(0,base_text/* inline */.mG)(settings.projectId)}`);
    run.posting();
    const triggered = await (0,automation/* triggerOnce */.Kn)(deps.automations, automationId, {
        clock: deps.clock,
        signal: deps.signal,
        deadline,
        onRateLimited: (error, waitMs, attempt) => deps.log.info(`The trigger request was not accepted (${error.message}); attempt ${attempt + 1} of ${automation/* TRIGGER_ATTEMPTS */.u3} in ${(0,duration/* formatDuration */.a3)(waitMs)}`)
    });
    const answeredAt = deps.clock.now();
    const { instanceId, jobId } = triggered;
    run.triggered(automationId, instanceId, jobId);
    const record = { jobId, automationRun: instanceId, answeredAt, mayHaveActed: false, answer: undefined };
    rerun.startSavingRecord(settings, record, '');
    deps.follow?.answered(settings);
    const notFoundUntil = answeredAt + wait/* NOT_FOUND_GRACE_MS */.hX;
    return follow(settings, deps, run, deadline, { jobId, pollNow: false, notFoundUntil, posted: true });
}
/** The wait for the run's job; a job the Agent API does not read cannot be followed, which is no failure. */
async function follow(settings, deps, run, deadline, how) {
    try {
        return await (0,step_wait/* wait */.u)(settings, deps, run, deadline, how);
    }
    catch (error) {
        if (error instanceof errors/* ApiError */.hD && error.kind === 'not-found')
            return { kind: 'not-followable' };
        throw error;
    }
}

;// CONCATENATED MODULE: ./src/step/dry-run.ts

/** A dry run says which of the two a grouped run would do. */
function dryRunGroup(plan, run, log) {
    const name = plan.key.group;
    if (plan.kind === 'follow-up') {
        const pull = { label: `${plan.key.docsRepository}#${plan.pull.number}`, url: plan.pull.url };
        run.grouped({ name, via: 'would-follow-up', pull });
        log.info(`Dry run: would add to ${pull.label} with a follow-up to job ${(0,base_text/* inline */.mG)(plan.record.job)}.`);
    }
    else {
        run.grouped({ name, via: 'would-create' });
        log.info(`Dry run: would start a new job for group ${(0,base_text/* inline */.mG)(name, 100)}.`);
    }
}
function showPrompt(prompt, log) {
    log.info(`Dry run: nothing is sent. The prompt (${(0,base_text/* plural */.LS)(prompt.length, 'character')}):`);
    // Each line behind a margin: text from GitHub or the prompt can never start a workflow command.
    for (const line of prompt.split(/\r?\n/))
        log.info(`│ ${(0,base_text/* inline */.mG)(line, 2000)}`);
}

// EXTERNAL MODULE: ./src/github/docs-client.ts + 13 modules
var docs_client = __webpack_require__(283);
// EXTERNAL MODULE: ./src/github/group/find.ts
var find = __webpack_require__(3856);
// EXTERNAL MODULE: ./src/step/post.ts
var post = __webpack_require__(3529);
// EXTERNAL MODULE: ./src/github/context/budget.ts + 1 modules
var context_budget = __webpack_require__(33);
// EXTERNAL MODULE: ./src/step/outsider.ts
var step_outsider = __webpack_require__(4371);
;// CONCATENATED MODULE: ./src/step/automation/settings.ts
/**
 * The `automation` input: the ID of a Mintlify automation to trigger instead of a job to create. Its
 * prompt and context repositories are stored in Mintlify and the trigger takes no body, so the
 * inputs that make or name a request are errors with it, before any request.
 */
/** Until the trigger reads the changed files, a path rule has nothing to judge. */
const NO_FILES = "the trigger reads no changed files, so a path rule has nothing to judge: filter on the workflow's own on.<event>.paths, or use skip-labels and [skip docs] markers, which apply";
/** Inputs that cannot go with `automation`, and why. */
const NOT_WITH_AUTOMATION = [
    ['prompt', "the automation's prompt is stored in Mintlify, and its trigger takes no body"],
    ['prompt-file', "the automation's prompt is stored in Mintlify, and its trigger takes no body"],
    ['job-id', 'a trigger queues a run of its own; to wait for or follow up on a job, leave automation out'],
    ['group', "an automation groups its runs' pull requests by its own settings in Mintlify"],
    ['release-tags', 'the trigger takes no context: the run picks up what changed since its last completed run'],
    ['paths', NO_FILES],
    ['paths-ignore', NO_FILES]
];
const AUTOMATION_FORM = "the automation's ID from its settings panel on the dashboard's Automations page (one word, at most 200 characters)";
/** The automation to trigger, or undefined when the input is empty; `fail` throws the input error. */
function parseAutomation(get, fail) {
    const automation = get('automation');
    if (!automation)
        return undefined;
    if (/\s/.test(automation) || automation.length > 200) {
        fail('automation', `"${automation.slice(0, 200)}" is not an automation ID: expected ${AUTOMATION_FORM}.`);
    }
    for (const [input, why] of NOT_WITH_AUTOMATION) {
        if (get(input))
            fail(input, `not with 'automation': ${why}.`);
    }
    return automation;
}

;// CONCATENATED MODULE: ./src/step/defaults.ts
/**
 * action.yml's defaults, for inputs given but empty: the runner applies a default only when the
 * key is absent from `with:`, and a workflow that forwards `${{ inputs.x }}` or an unset variable
 * passes ''. action.yml stays the source: __tests__/step/defaults.test.ts holds this copy to it.
 */
const INPUT_DEFAULTS = {
    wait: 'true',
    timeout: '30m',
    'poll-interval': '2s',
    'max-poll-interval': '10s',
    'fail-on': 'failed, archived, timed-out',
    'base-url': 'https://api.mintlify.com',
    context: 'auto',
    'release-tags': '',
    'dry-run': 'false',
    preview: 'false',
    'on-rerun': 'resume',
    'allowed-non-write-users': '',
    'allowed-bots': '',
    'untrusted-context': 'withhold',
    'link-back': 'pull-request',
    'trigger-phrase': '/docs',
    group: '',
    'docs-repository': '',
    // Empty: github-token (settings.ts), so today's workflows keep working.
    'docs-token': '',
    reviewers: '',
    assignees: '',
    merge: 'none',
    'merge-method': 'squash',
    'skip-labels': 'skip-docs, no-docs',
    paths: '',
    'paths-ignore': '',
    check: '',
    'docs-checks': 'none'
};
/**
 * Defaults that are expressions only the runner can evaluate, and what an empty value means instead
 * (said in their action.yml descriptions too).
 */
const EXPRESSION_DEFAULTS = {
    // No token: no GitHub API calls (context from the event payload only, no labels), with a notice.
    'github-token': '${{ github.token }}',
    // No matrix values: the re-run record is told apart by run, job, step, project and request only.
    'rerun-key': '${{ toJSON(matrix) }}'
};

;// CONCATENATED MODULE: ./src/step/docs-checks/settings.ts
/** `docs-checks`: what the step does with the checks on the docs pull request once the job ends with one. */

const DOCS_CHECKS = ['none', 'wait', 'fix'];
/**
 * The value, or an input error naming the input and its values, before any request. A dry run
 * takes it as it is (and, sending nothing, has no docs pull request to check), as it takes
 * `labels`, `preview` and `check`: `dry-run: true` is how a workflow is tried as it stands.
 */
function parseDocsChecks(value, step) {
    // parseChoice's error names the input and its three values.
    const found = (0,inputs/* parseChoice */.HU)(value, 'docs-checks', DOCS_CHECKS);
    if (found === 'none')
        return found;
    const why = !step.wait
        ? 'needs wait: true (a step that returns before the job ends has no docs pull request to check)'
        : step.automation
            ? "does not go with automation (an automation's job can be followed, but it is not this step's to message)"
            : undefined;
    if (why)
        throw new inputs/* InputError */.dz('docs-checks', `${found} ${why}.`);
    return found;
}

;// CONCATENATED MODULE: ./src/step/group/settings.ts
/**
 * The `group` and `docs-repository` inputs: runs that name the same group share one open docs
 * pull request. Checked before any request; a `/docs` command keeps its own target (no group).
 */

const NAME = /^[A-Za-z0-9._/-]{1,100}$/;
const REPOSITORY = /^[A-Za-z0-9-]{1,39}\/[A-Za-z0-9._-]{1,100}$/;
/**
 * The group, or undefined without one. `wait` and `jobId` are the step's: a group needs a step
 * that waits (only the wait learns the docs pull request) and cannot be combined with `job-id`.
 */
function parseGroup(get, step, fail) {
    const name = get('group');
    const docsRepository = get('docs-repository');
    if (docsRepository && !REPOSITORY.test(docsRepository))
        fail('docs-repository', `${(0,inputs/* quoted */.TL)(docsRepository)} is not a repository: expected owner/name.`);
    if (!name)
        return undefined;
    if (!NAME.test(name))
        fail('group', `"${name.slice(0, 120)}" is not a group name: expected 1 to 100 letters, digits, '-', '_', '.' or '/'.`);
    if (step.jobId)
        fail('group', "cannot be combined with 'job-id': a group finds its job by itself.");
    if (!docsRepository || !step.wait)
        fail('group', "needs 'docs-repository' (owner/name of the docs repository) and 'wait: true' (only a step that waits learns the docs pull request).");
    return { name, docsRepository };
}

// EXTERNAL MODULE: ./src/step/owner/settings.ts
var settings = __webpack_require__(7013);
;// CONCATENATED MODULE: ./src/step/skip/settings.ts
/** The skip rules' inputs: `skip-labels`, `paths` or `paths-ignore`, and an empty `release-tags` list. */


function parseSkipRules(get) {
    const labels = (0,inputs/* parseList */.E1)(get('skip-labels'));
    const none = labels.some((label) => label.toLowerCase() === 'none');
    if (none && labels.length > 1) {
        throw new inputs/* InputError */.dz('skip-labels', 'none cannot be combined with labels: expected label names (comma or newline separated), or none.');
    }
    const paths = parsePatterns(get('paths'), 'paths');
    const ignored = parsePatterns(get('paths-ignore'), 'paths-ignore');
    if (paths.length > 0 && ignored.length > 0) {
        throw new inputs/* InputError */.dz('paths-ignore', "cannot be combined with 'paths' (GitHub refuses both on one event too): to leave files out of 'paths', add them to it with !.");
    }
    const rule = paths.length > 0
        ? { input: 'paths', patterns: paths }
        : ignored.length > 0
            ? { input: 'paths-ignore', patterns: ignored }
            : undefined;
    // The changed files are the ones the context reads: with context: none there are none to judge.
    if (rule && get('context').toLowerCase() === 'none') {
        throw new inputs/* InputError */.dz(rule.input, 'needs context: auto: the rule is judged on the changed files the context reads.');
    }
    return { labels: none ? [] : labels, paths: rule, nothingReleased: /^\[\s*\]$/.test(get('release-tags')) };
}

;// CONCATENATED MODULE: ./src/step/settings.ts








/** The prompt limit we document and enforce before sending (characters), context included. */
const MAX_PROMPT_CHARS = 100_000;
/** Polls no more often than twice a second; a step has at least a second. */
const MIN_POLL_INTERVAL_MS = 500;
const MIN_TIMEOUT_MS = 1000;
function parseSettings(source, options = { commands: false }) {
    // Empty (or blank) is the default, as if the input were absent.
    const get = (name) => source.get(name) || (INPUT_DEFAULTS[name] ?? '');
    const apiKey = get('api-key');
    if (!apiKey)
        throw new inputs/* InputError */.dz('api-key', 'required: the Agent API admin key (mint_…), from a secret.');
    const projectId = get('project-id');
    if (!projectId)
        throw new inputs/* InputError */.dz('project-id', 'required: the project ID from the API keys page of the dashboard.');
    // A key here (the two inputs swapped) would be sent in every URL and written in messages on GitHub,
    // which nothing masks: refused before any request, without its value.
    if (/^mint_/i.test(projectId))
        throw new inputs/* InputError */.dz('project-id', 'holds an API key (it starts with mint_): give the project ID from the API keys page of the dashboard, and the key in api-key.');
    const fail = (input, message) => {
        throw new inputs/* InputError */.dz(input, message);
    };
    const automationId = parseAutomation(get, fail);
    const jobId = parseJobId(get('job-id'));
    const prompt = readPrompt(source);
    const request = automationId
        ? { mode: 'automation', automationId }
        : options.commands && !jobId && prompt === undefined
            ? { mode: 'command' }
            : undefined;
    const common = parseCommon(get, apiKey, projectId, automationId !== undefined);
    common.group = parseGroup(get, { wait: common.wait, jobId }, fail);
    // Only a step that waits learns the docs pull request whose branch would be previewed.
    if (common.preview && !common.wait) {
        throw new inputs/* InputError */.dz('preview', 'true needs wait: true (a step that returns before the job ends has no docs pull request to preview).');
    }
    return { ...common, ...(request ?? readRequest(jobId, prompt)) };
}
/**
 * The inputs every mode shares (`group` is set once they are read), read in this order: the first
 * wrong one is the error. `automation`: the step triggers an automation.
 */
function parseCommon(get, apiKey, projectId, automation) {
    const pollIntervalMs = (0,inputs/* durationInput */.Ts)(get, 'poll-interval', MIN_POLL_INTERVAL_MS);
    return requireWhatTheyNeed({
        apiKey,
        projectId,
        wait: (0,inputs/* parseBoolean */.yG)(get('wait'), 'wait'),
        timeoutMs: (0,inputs/* durationInput */.Ts)(get, 'timeout', MIN_TIMEOUT_MS),
        pollIntervalMs,
        // A longer poll-interval raises the cap with it: `poll-interval: 30s` alone means every 30 s.
        maxPollIntervalMs: Math.max(pollIntervalMs, (0,inputs/* durationInput */.Ts)(get, 'max-poll-interval', MIN_POLL_INTERVAL_MS)),
        failOn: (0,inputs/* parseFailOn */.XV)(get('fail-on')),
        baseUrl: (0,inputs/* parseBaseUrl */.Q2)(get('base-url')),
        githubToken: get('github-token'),
        docsToken: get('docs-token') || get('github-token'),
        labels: (0,inputs/* parseLabels */.Xy)(get('labels')),
        context: (0,inputs/* parseChoice */.HU)(get('context'), 'context', ['auto', 'none']),
        releaseTags: (0,inputs/* parseReleaseTags */.GU)(get('release-tags')),
        dryRun: (0,inputs/* parseBoolean */.yG)(get('dry-run'), 'dry-run'),
        preview: (0,inputs/* parseBoolean */.yG)(get('preview'), 'preview'),
        onRerun: (0,inputs/* parseChoice */.HU)(get('on-rerun'), 'on-rerun', ['resume', 'new']),
        rerunKey: get('rerun-key'),
        allowedNonWriteUsers: (0,inputs/* parseLogins */.wI)(get('allowed-non-write-users'), 'allowed-non-write-users'),
        allowedBots: (0,inputs/* parseLogins */.wI)(get('allowed-bots'), 'allowed-bots'),
        untrustedContext: (0,inputs/* parseChoice */.HU)(get('untrusted-context'), 'untrusted-context', ['withhold', 'include']),
        linkBack: (0,inputs/* parseLinkBack */.pr)(get('link-back')),
        triggerPhrase: (0,inputs/* parsePhrase */.L1)(get('trigger-phrase')),
        group: undefined,
        owner: (0,settings/* parseOwner */.pZ)(get, { wait: (0,inputs/* parseBoolean */.yG)(get('wait'), 'wait') }, (input, message) => {
            throw new inputs/* InputError */.dz(input, message);
        }),
        skip: parseSkipRules(get),
        check: (0,inputs/* parseCheckName */.dN)(get('check')),
        docsChecks: parseDocsChecks(get('docs-checks'), { wait: (0,inputs/* parseBoolean */.yG)(get('wait'), 'wait'), automation })
    });
}
/**
 * Inputs that would do nothing, without a word, unless another says so: what acts on the docs pull
 * request needs the step to wait for the job that opens it, and `fail-on: docs-checks` needs the
 * checks to be read.
 */
function requireWhatTheyNeed(common) {
    const needsWait = 'needs wait: true: only a step that waits for the job learns its docs pull request';
    if (!common.wait && common.labels.length)
        throw new inputs/* InputError */.dz('labels', `${needsWait}.`);
    if (!common.wait && common.linkBack.has('docs-pr'))
        throw new inputs/* InputError */.dz('link-back', `docs-pr ${needsWait}.`);
    if (common.failOn.has('docs-checks') && common.docsChecks === 'none')
        throw new inputs/* InputError */.dz('fail-on', 'docs-checks needs docs-checks: wait or fix, which read the checks it judges.');
    return common;
}
/** A job ID is one word: a space or a line break is a value pasted wrong, and would only fail at the first read. */
function parseJobId(jobId) {
    if (/\s/.test(jobId) || jobId.length > 200) {
        throw new inputs/* InputError */.dz('job-id', `"${jobId.slice(0, 200)}" is not a job ID: expected the job-id output of the step that created the job (one word, at most 200 characters).`);
    }
    return jobId;
}
/** The mode follows from which of `job-id` and the prompt are set. */
function readRequest(jobId, prompt) {
    if (jobId)
        return prompt === undefined ? { mode: 'wait-only', jobId } : { mode: 'message', jobId, prompt };
    if (prompt === undefined) {
        throw new inputs/* InputError */.dz('prompt', "set 'prompt' or 'prompt-file' to start a job, or 'job-id' to follow up on or wait for one.");
    }
    return { mode: 'create', prompt };
}
/** The prompt from `prompt` or `prompt-file`; undefined when neither is set. */
function readPrompt(source) {
    const inline = source.get('prompt');
    const file = source.get('prompt-file');
    if (inline && file)
        throw new inputs/* InputError */.dz('prompt-file', "set either 'prompt' or 'prompt-file', not both.");
    if (!inline && !file)
        return undefined;
    const input = file ? 'prompt-file' : 'prompt';
    let prompt = inline;
    if (file) {
        try {
            prompt = source.readFile(file);
        }
        catch (error) {
            if (error instanceof inputs/* InputError */.dz)
                throw error;
            const code = error.code ?? 'unreadable';
            throw new inputs/* InputError */.dz('prompt-file', `cannot read ${(0,inputs/* quoted */.TL)(file)} (${code}): expected the path of a readable UTF-8 file, relative to the workspace.`);
        }
    }
    if (!prompt.trim())
        throw new inputs/* InputError */.dz(input, 'the prompt is empty: the agent needs an instruction.');
    if (prompt.length > MAX_PROMPT_CHARS) {
        throw new inputs/* InputError */.dz(input, `the prompt has ${(0,base_text/* formatCount */.B4)(prompt.length)} characters; the limit is ${(0,base_text/* formatCount */.B4)(MAX_PROMPT_CHARS)}.`);
    }
    return prompt;
}

;// CONCATENATED MODULE: ./src/step/prompt.ts
/**
 * The prompt phase: a new job's prompt is the user's, then what triggered the workflow
 * (`context: auto`), read within a budget and a time limit; a follow-up's is the user's alone.
 */




/**
 * The prompt the step sends: built for a new job, the user's own for a follow-up. `since`: a
 * grouped push or scheduled run's context is the range since the group's last documented commit.
 */
async function preparePrompt(settings, deps, since) {
    if (settings.mode === 'create')
        return buildPrompt(settings, deps, since);
    const trigger = deps.trigger();
    const pullRequest = trigger.kind === 'pull-request'
        ? { number: trigger.number, author: deps.trust().pullRequest?.author ?? '' }
        : undefined;
    const outsider = await (0,step_outsider/* inheritedOutsider */.W)(settings, { pullRequest, permissions: deps.permissions });
    return { prompt: settings.prompt, context: undefined, outsider };
}
/** A new job's prompt: the user's, then what triggered the workflow (`context: auto`). */
async function buildPrompt(settings, deps, since) {
    const { log } = deps;
    if (settings.context === 'none')
        return { prompt: settings.prompt, context: undefined };
    const trigger = deps.trigger();
    const budget = Math.min(context_budget/* CONTEXT_BUDGET_CHARS */.aN, MAX_PROMPT_CHARS - settings.prompt.length - 2);
    const repo = trigger.kind === 'other' ? deps.repository : trigger.repo;
    const releaseSet = settings.releaseTags.length > 0 && repo;
    if (trigger.kind === 'other' && !releaseSet) {
        if (trigger.event)
            log.info(`Context: nothing to add for a ${(0,base_text/* inline */.mG)(trigger.event, 60)} event.`);
        else
            log.debug('Context: no workflow event here (not on a runner).');
        return { prompt: settings.prompt, context: undefined };
    }
    if (budget < 1000) {
        log.info(`Context: left out, the prompt already has ${(0,base_text/* plural */.LS)(settings.prompt.length, 'character')} of the ${(0,base_text/* plural */.LS)(MAX_PROMPT_CHARS, 'character')} allowed.`);
        return { prompt: settings.prompt, context: undefined };
    }
    // Loaded only by a run that reads context: one with no event to read reaches its first request without it.
    const { readContext } = await __webpack_require__.e(/* import() */ 64).then(__webpack_require__.bind(__webpack_require__, 5064));
    return readContext(settings, { trigger, repo, releaseSet, budget, since }, deps);
}

;// CONCATENATED MODULE: ./src/step/group/plan.ts
/**
 * The grouping phase of a run with `group`: decided up front, before the prompt, whether the run
 * adds to the group's open docs pull request (a follow-up to the group's job) or starts one (a
 * create). A follow-up the API refuses (nothing was done) is one warning and one create; one that
 * may have taken effect is never followed by a create.
 */






/** The group's key for this run. */
function groupKey(settings, deps) {
    const { group } = settings;
    if (!group)
        return undefined;
    return {
        group: group.name,
        repository: deps.repository ?? '',
        projectId: settings.projectId,
        docsRepository: group.docsRepository
    };
}
/** Finds the group's open docs pull request; anything that cannot be read is one warning and a new job. */
async function planGroup(settings, key, deps) {
    const { log } = deps;
    const name = `Group ${(0,base_text/* inline */.mG)(key.group, 100)}`;
    const docs = settings.docsToken ? deps.groupDocs?.(key.docsRepository) : undefined;
    if (!docs) {
        log.warning(`${name}: no token (docs-token, github-token) to read ${key.docsRepository}, so the state of the group's docs pull request is unknown: a new job is started.`);
        return { kind: 'create', key, docs: undefined };
    }
    const found = await (0,find/* findGroupPull */.C)(settings.apiKey, key, docs);
    if (found.kind === 'unreadable') {
        log.warning(`${name}: could not read the open pull requests of ${key.docsRepository} (${found.message}), so a new job is started rather than a follow-up into a docs pull request whose state is unknown. ${found.network ? 'A network failure, not a missing permission.' : `The ${docs_client/* DOCS_TOKEN */.Wg} needs pull-requests: read on ${key.docsRepository}.`}`);
        return { kind: 'create', key, docs };
    }
    if (found.ignored.length)
        log.warning(`${name}: ignored ${found.ignored.join('; ')}: only the action's own sealed record is followed.`);
    if (found.kind === 'none') {
        log.info(`${name}: no open pull request of ${key.docsRepository} carries the group's record (${(0,base_text/* plural */.LS)(found.scanned, 'open pull request')} read, ${(0,base_text/* plural */.LS)(found.requests, 'GitHub request')}): a new job.`);
        if (found.unread > 0)
            log.warning(`${name}: ${key.docsRepository} has at least ${(0,base_text/* plural */.LS)(found.unread, 'open pull request')} older than the ${find/* MAX_SCANNED */.a} newest whose comments were not read; the group's docs pull request may be among those not read, and a new one is being opened. Merge or close the group's older docs pull requests, or the docs repository's stale ones.`);
        return { kind: 'create', key, docs };
    }
    log.info(`${name}: adding to its open docs pull request ${key.docsRepository}#${found.pull.number} with a follow-up to job ${(0,base_text/* inline */.mG)(found.record.job)} (${(0,base_text/* plural */.LS)(found.requests, 'GitHub request')}).`);
    return { kind: 'follow-up', key, docs, pull: found.pull, record: found.record, commentId: found.commentId };
}
/** The range of a push or scheduled run: since the group's last documented commit. */
function groupRange(plan, deps) {
    const last = plan?.kind === 'follow-up' ? plan.record.last : undefined;
    const trigger = deps.trigger();
    if (!last || (trigger.kind !== 'push' && trigger.kind !== 'scheduled'))
        return undefined;
    const sha = trigger.kind === 'scheduled' ? trigger.sha : deps.sha;
    if (!sha || !plan)
        return undefined;
    return { repo: trigger.repo, branch: trigger.branch, group: plan.key.group, last, sha };
}
/**
 * The prompt a new job gets (`built`), and the one sent for `plan`: a grouped push or scheduled
 * run's context is its range since the group's last documented commit, and a follow-up's prompt
 * first names the pull request it adds to.
 */
async function groupPrompts(settings, plan, deps) {
    const prepared = await preparePrompt(settings, deps, groupRange(plan, deps));
    // The group's job carries an outsider's text once any run gave it some (its record says so).
    const inherited = plan?.kind === 'follow-up' && plan.record.untrusted;
    const outsider = inherited
        ? `an earlier run of group ${(0,base_text/* inline */.mG)(plan.key.group, 100)} gave its job such text`
        : undefined;
    const built = { ...prepared, outsider: prepared.outsider ?? outsider };
    return { built, followUp: plan?.kind === 'follow-up' ? `${addsTo(plan)}\n\n${built.prompt}` : built.prompt };
}
/** The one line a follow-up starts with: the agent adds to the open pull request. */
function addsTo(plan) {
    return `This request adds to the open docs pull request ${plan.key.docsRepository}#${plan.pull.number} (${plan.pull.url}) of group ${(0,base_text/* inline */.mG)(plan.key.group, 100)}: update that pull request on its branch, do not open another. What follows is what a new job would get.`;
}
/**
 * A re-run that resumes a grouped run's job: the group as the attempt left it, and the follow-up
 * `plan` adds, when the attempt sent one to that job (only a follow-up's record keeps its answer).
 */
function resumedGroup(plan, record, run) {
    if (!plan)
        return undefined;
    const followed = plan.kind === 'follow-up' && record.answer !== undefined && plan.record.job === record.jobId;
    run.grouped(followed ? followUpState(plan) : { name: plan.key.group, via: 'created' });
    return followed ? plan : undefined;
}
/** What the run's state keeps of a follow-up into the group's open docs pull request. */
function followUpState(plan) {
    const pull = { label: `${plan.key.docsRepository}#${plan.pull.number}`, url: plan.pull.url, head: plan.pull.head };
    return { name: plan.key.group, via: 'follow-up', pull };
}
/** The statuses of a follow-up the API refused, having done nothing. */
const REFUSED = [400, 404, 409];
/**
 * Sends the follow-up into the group's job, or the create. A refused follow-up (400, 404, 409) is
 * one warning, then one create with the prompt a new job gets; the plan becomes a create that
 * replaces the old pull request. Anything else the follow-up meets is thrown: it may have acted.
 */
async function postGrouped(settings, plan, prompts, deps, run, deadline) {
    if (plan.kind === 'create') {
        run.grouped({ name: plan.key.group, via: 'created' });
        return { posted: await (0,post/* post */.b)(settings, deps, run, deadline, prompts.create), plan, settings };
    }
    const message = { ...settings, mode: 'message', jobId: plan.record.job, prompt: prompts.followUp };
    run.targeted(plan.record.job);
    run.grouped(followUpState(plan));
    try {
        return { posted: await (0,post/* post */.b)(message, deps, run, deadline, prompts.followUp), plan, settings: message };
    }
    catch (error) {
        if (!(error instanceof errors/* ApiError */.hD && error.status !== undefined && REFUSED.includes(error.status)))
            throw error;
        deps.log.warning(`Group ${(0,base_text/* inline */.mG)(plan.key.group, 100)}: job ${(0,base_text/* inline */.mG)(plan.record.job)} refused the follow-up (${(0,base_text/* inline */.mG)(error.message, 200)}); nothing was sent to it, so one new job is started with the full prompt, and ${plan.key.docsRepository}#${plan.pull.number} will say it was superseded.`);
        run.targeted(undefined);
        run.grouped({ name: plan.key.group, via: 'created' });
        const replacing = { kind: 'create', key: plan.key, docs: plan.docs, replaces: plan };
        run.prompted({ prompt: prompts.create, context: run.state.context });
        return { posted: await (0,post/* post */.b)(settings, deps, run, deadline, prompts.create), plan: replacing, settings };
    }
}

// EXTERNAL MODULE: ./src/base/fingerprint.ts
var fingerprint = __webpack_require__(7621);
// EXTERNAL MODULE: ./src/report/wording.ts
var wording = __webpack_require__(5594);
// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(7598);
// EXTERNAL MODULE: ./src/base/mac.ts
var mac = __webpack_require__(6538);
;// CONCATENATED MODULE: ./src/rerun/record.ts
/**
 * Re-runs: "Re-run jobs" runs this step again in the same workflow run. A small record saved right
 * after the create or message answer lets a later attempt find the job instead of creating
 * another (a second job, a second pull request, one more of the project's 100 uses an hour).
 *
 * The record lives in the cache key itself, never in an archive: whoever can write the cache scope
 * could plant an archive, and a key is read without extracting anything. The key is bound to the
 * step (run, job, step, matrix leg, project, request) and authenticated with an HMAC keyed from the
 * API key, so a planted or copied record does not verify.
 */


function runIdentity(env) {
    const attempt = Number(env.GITHUB_RUN_ATTEMPT ?? '1');
    if (!env.GITHUB_RUN_ID || !Number.isInteger(attempt) || attempt < 1)
        return undefined;
    return { runId: env.GITHUB_RUN_ID, attempt, job: env.GITHUB_JOB ?? '', action: env.GITHUB_ACTION ?? '' };
}
/** The longest key @actions/cache accepts. */
const MAX_KEY_LENGTH = 512;
const NAMESPACE = 'docs-agent-rerun-';
// Lower-case hex and digits only, `-` between fields: nothing a key may not hold (a comma), nothing
// a service could fold (case). An automation's run comes after the job, only when there is one. The
// third field is flags: 1, the request may have acted; 2, the job carries an outsider's text.
const FIELDS = /^(\d{1,9})-(\d{1,15})-([0-7])-([0-9a-f]{16})-((?:[0-9a-f]{16})?)-((?:[0-9a-f]{2})*)(?:-((?:[0-9a-f]{2})+))?-([0-9a-f]{32})$/;
/** The MAC key: derived from the API key, so neither the key nor anything that reveals it is stored. */
const macKey = (apiKey) => (0,mac/* derivedKey */.D)(apiKey, 'docs-agent-action re-run record v1');
/**
 * The prefix every attempt of this step saves under: the same run, job, matrix leg (`rerun-key`),
 * step and project, and the same request (mode, job id, the prompt as the user gave it). Keyed, so
 * that the cache's key list says nothing about the prompt.
 */
function recordPrefix(identity, step) {
    const request = step.mode === 'create'
        ? [step.mode, '', step.prompt]
        : step.mode === 'message'
            ? [step.mode, step.jobId, step.prompt]
            : step.mode === 'automation'
                ? [step.mode, step.automationId, '']
                : [step.mode, step.jobId, ''];
    const binding = ['step', identity.runId, identity.job, identity.action, step.rerunKey, step.projectId, ...request];
    return `${NAMESPACE}${(0,mac/* mac */.M)(macKey(step.apiKey), JSON.stringify(binding)).slice(0, 40)}-`;
}
/** The prefix a record's key was saved under: the same for every attempt of one run's step and request. */
const prefixOf = (key) => key.slice(0, NAMESPACE.length + 41);
/** The record as a key under this step's prefix, authenticated; undefined when it does not fit. */
function sealRecord(identity, step, record) {
    const fields = [
        record.attempt,
        record.answeredAt,
        // Flags: 1 the answer was lost, 2 an outsider's text, 4 the docs checks' follow-up was sent (older records hold 0 or 1).
        (record.mayHaveActed ? 1 : 0) + (record.outsider ? 2 : 0) + (record.docsFix ? 4 : 0),
        record.prompt,
        record.answer ?? '',
        Buffer.from(record.jobId ?? '', 'utf8').toString('hex'),
        ...(record.automationRun ? [Buffer.from(record.automationRun, 'utf8').toString('hex')] : [])
    ];
    const body = `${recordPrefix(identity, step)}${fields.join('-')}`;
    const key = `${body}-${(0,mac/* mac */.M)(macKey(step.apiKey), body).slice(0, 32)}`;
    return key.length <= MAX_KEY_LENGTH ? key : undefined;
}
/** The record a key found under this step's prefix holds, if this step wrote it in an earlier attempt. */
function openRecord(identity, step, key) {
    const prefix = recordPrefix(identity, step);
    const fields = key.startsWith(prefix) ? FIELDS.exec(key.slice(prefix.length)) : null;
    if (!fields)
        return { kind: 'rejected', reason: 'not a record of this step' };
    const [, attempt = '', answeredAt = '', flags = '0', prompt = '', answer, job = '', run, tag = ''] = fields;
    const expected = Buffer.from((0,mac/* mac */.M)(macKey(step.apiKey), key.slice(0, -tag.length - 1)).slice(0, 32));
    if (!(0,external_node_crypto_.timingSafeEqual)(expected, Buffer.from(tag)))
        return { kind: 'rejected', reason: 'its signature is wrong' };
    return {
        kind: 'found',
        record: {
            jobId: Buffer.from(job, 'hex').toString('utf8') || undefined,
            attempt: Number(attempt),
            answeredAt: Number(answeredAt),
            mayHaveActed: (Number(flags) & 1) === 1,
            ...((Number(flags) & 2) === 2 ? { outsider: true } : {}),
            ...((Number(flags) & 4) === 4 ? { docsFix: true } : {}),
            prompt,
            answer: answer || undefined,
            ...(run ? { automationRun: Buffer.from(run, 'hex').toString('utf8') } : {})
        }
    };
}
/** The newest record of an earlier attempt of this step. Never throws. */
async function restoreRecord(store, identity, step) {
    const found = await store.lookup(recordPrefix(identity, step));
    return found.kind === 'found' ? openRecord(identity, step, found.key) : found;
}
/** Saves this attempt's record. Never throws. */
async function saveRecord(store, identity, step, record) {
    const key = sealRecord(identity, step, record);
    return key === undefined
        ? { kind: 'failed', message: 'the job id is too long to keep in a cache key' }
        : store.save(key);
}

;// CONCATENATED MODULE: ./src/step/rerun.ts
/**
 * The step across re-runs of its workflow run: attempt 2 on finds the job an earlier attempt
 * created or messaged (the record saved then), and each attempt saves what it sent while it waits.
 */





class Rerun {
    deps;
    /** The records being saved while the step goes on. */
    #saving;
    /** The earlier attempt's record this one follows. */
    #earlier;
    constructor(deps) {
        this.deps = deps;
    }
    /**
     * On a re-run (attempt 2 on), the job an earlier attempt of this step created or messaged, read
     * from its record; none when there is no record to trust.
     */
    async findEarlierAttempt(settings) {
        const { run, records, log } = this.deps;
        if (settings.dryRun || !run || run.attempt < 2)
            return { kind: 'none' };
        const posting = wording/* WORDING */.p[settings.mode].posting;
        if (settings.onRerun === 'new') {
            log.info(`Attempt ${run.attempt} of this run: on-rerun is new, so ${posting} without looking for an earlier attempt's job.`);
            return { kind: 'none' };
        }
        if (!records.available) {
            log.debug('No Actions cache service here: a re-run cannot find the job of an earlier attempt.');
            return { kind: 'none' };
        }
        const restored = await restoreRecord(records, run, settings);
        if (restored.kind !== 'found' && this.deps.signal.aborted)
            throw new cancel/* Cancelled */.c(false);
        if (restored.kind === 'failed') {
            log.warning(`Could not read what earlier attempts of this step did (${(0,base_text/* inline */.mG)(restored.message)}), so ${posting}; if an earlier attempt already did, there will be two.`);
            return { kind: 'none' };
        }
        if (restored.kind === 'rejected') {
            // Planted by whoever can write this cache scope, or saved with another api-key: never followed.
            log.warning(`Ignored a re-run record under this step's cache key (${restored.reason}: not saved by an earlier attempt of this step with this api-key), so ${posting}.`);
            return { kind: 'none' };
        }
        if (restored.kind === 'missing') {
            log.info(`Attempt ${run.attempt}: no earlier attempt of this step left a job, so ${posting}.`);
            return { kind: 'none' };
        }
        const { record } = restored;
        if (record.mayHaveActed) {
            // The prompt is shown when it is the user's own; rebuilding the context is not worth it here.
            const prompt = 'prompt' in settings && (0,fingerprint/* fingerprint */.R)(settings.prompt) === record.prompt ? settings.prompt : undefined;
            return { kind: 'answer-lost', record, prompt };
        }
        this.#earlier = record;
        return { kind: 'job', record, jobId: record.jobId ?? '' };
    }
    /**
     * Whether an earlier attempt sent the docs checks' follow-up: the record it resumed from, or for
     * a step that only waits (no resume phase), its own record looked up now. Unreadable: false.
     */
    async docsFixSent(settings) {
        if (this.#earlier)
            return this.#earlier.docsFix === true;
        const { run, records } = this.deps;
        if (settings.mode !== 'wait-only' || !run || run.attempt < 2 || !records.available)
            return false;
        const restored = await restoreRecord(records, run, settings);
        return restored.kind === 'found' && restored.record.docsFix === true;
    }
    /**
     * The record keeps only the prompt's fingerprint: the prompt is built again (the same event, so
     * mostly the same context) and shown when it is the one that attempt sent.
     */
    async recallPrompt(record, build) {
        const built = await build();
        if ((0,fingerprint/* fingerprint */.R)(built.prompt) === record.prompt)
            return built;
        this.deps.log.info(`The prompt attempt ${record.attempt} sent differs from the one built now (the workflow's context changed since): it is not shown.`);
        return undefined;
    }
    /** The earlier attempt's job is gone (404 before any read): the step posts as on a first attempt. */
    warnGone(settings, record, jobId) {
        const posting = wording/* WORDING */.p[settings.mode].posting;
        this.deps.log.warning(`Job ${(0,base_text/* inline */.mG)(jobId)} from attempt ${record.attempt} no longer exists (404), so ${posting}.`);
    }
    /** Starts saving the re-run record while the step goes on (never rejects). */
    startSavingRecord(settings, what, prompt) {
        const { run, records, log } = this.deps;
        if (!run)
            return;
        if (!records.available) {
            log.debug('No Actions cache service here: no re-run record is saved.');
            return;
        }
        const record = { ...what, attempt: run.attempt, prompt: (0,fingerprint/* fingerprint */.R)(prompt) };
        const job = what.jobId ? `job ${(0,base_text/* inline */.mG)(what.jobId)}` : 'the job that may have been created';
        const before = this.#saving;
        this.#saving = saveRecord(records, run, settings, record).then(async (saved) => {
            await before;
            const lost = `a re-run of this workflow job will not find ${job} and ${wording/* WORDING */.p[settings.mode].posting} again`;
            if (saved.kind === 'saved')
                log.debug(`Saved the re-run record of ${job}.`);
            // pull_request_target and issue_comment runs get a read-only cache: expected, not worth a warning.
            else if (saved.kind === 'read-only')
                log.debug(`The Actions cache is read-only here (${(0,base_text/* inline */.mG)(saved.message)}): ${lost}.`);
            else
                log.warning(`Could not save the re-run record (${(0,base_text/* inline */.mG)(saved.message)}): ${lost}.`);
        });
    }
    /** What is left of the record's save (bounded by the store). */
    async saved() {
        await this.#saving;
    }
}

// EXTERNAL MODULE: ./src/report/state.ts
var state = __webpack_require__(7343);
;// CONCATENATED MODULE: ./src/step/run-state.ts




/** The state of a step whose inputs could not be read: it ends as it starts, in an error. */
function badInputState(now, jobId, failure) {
    return { ...(0,state/* initialState */.u)(now, jobId), outcome: 'error', failure, endedAt: now };
}
class RunStateWriter {
    deps;
    #state;
    constructor(deps, jobId) {
        this.deps = deps;
        this.#state = (0,state/* initialState */.u)(deps.clock.now(), jobId);
        if (jobId)
            this.announce(jobId);
    }
    /** What is known so far, for the phases to read. */
    get state() {
        return this.#state;
    }
    /** The prompt to send (or to show, in a dry run), and the context in it. */
    prompted({ prompt, context, outsider }) {
        this.#state.prompt = prompt;
        this.#state.context = context;
        // Once the job carries an outsider's text, it always does (a resumed attempt's record may say so first).
        this.#state.outsider ??= outsider;
    }
    /** The create or message is about to leave. */
    posting() {
        this.#state.phase = 'posting';
        this.#state.postedAt = this.deps.clock.now();
    }
    /** The create or message was answered with `job`. */
    answered(job, created) {
        this.#state.phase = 'reading';
        if (created) {
            this.#state.jobId = job.id;
            this.announce(job.id);
        }
    }
    /** Told when a grouped run targets the group's job: the job exists from then on (tracking/tracking.ts). */
    onTargeted = () => undefined;
    /** A grouped run's follow-up goes to the group's job (undefined: it was refused, a create follows). */
    targeted(jobId) {
        this.#state.jobId = jobId;
        if (jobId)
            this.announce(jobId);
    }
    /** A grouped run: where its request goes. */
    grouped(group) {
        this.#state.group = group;
        if (group.via === 'follow-up')
            this.onTargeted();
    }
    /** What the skip rules decided; a run they end sends nothing, so it has no prompt to show. */
    skipDecided(skip, ends) {
        this.#state.skip = skip;
        if (ends)
            Object.assign(this.#state, { prompt: undefined, context: undefined });
    }
    /** An earlier attempt of this step created or messaged the job. */
    resumed(record) {
        this.#state.resumedFrom = record.attempt;
        if (record.jobId !== this.#state.jobId && record.jobId)
            this.announce(record.jobId);
        this.#state.jobId = record.jobId;
        if (record.outsider)
            this.#state.outsider ??= `attempt ${record.attempt} of this run recorded that its job was given such text`;
    }
    /** The automation to trigger (or, in a dry run, that would be), and its run once known. */
    automation(id, run) {
        this.#state.automation = { id, run };
        if (run === undefined)
            return;
        this.deps.setOutput('automation-run-id', run);
        this.deps.log.info(`Automation run: ${(0,base_text/* inline */.mG)(run)}`);
    }
    /** The trigger queued a run (undefined when the answer does not name it), processed by `jobId`. */
    triggered(automationId, run, jobId) {
        this.#state.phase = 'reading';
        this.automation(automationId, run);
        this.#state.jobId = jobId;
        this.announce(jobId);
    }
    /** The earlier attempt's request may have acted, but its answer was lost. */
    answerLost(record, prompt) {
        this.resumed(record);
        if (prompt !== undefined)
            this.#state.prompt = prompt;
        this.#state.postedAt = record.answeredAt;
    }
    /** Following the earlier attempt's job. */
    reading() {
        this.#state.phase = 'reading';
    }
    /** The earlier attempt's job is gone: the step posts as on a first attempt. */
    resumeAbandoned(jobId) {
        Object.assign(this.#state, {
            jobId,
            resumedFrom: undefined,
            prompt: undefined,
            context: undefined,
            phase: 'before-post'
        });
    }
    waitStarted() {
        this.#state.waitStartedAt = this.deps.clock.now();
        this.#state.waitEndedAt = undefined;
    }
    polled() {
        this.#state.polls++;
    }
    /** Records a job read and logs what changed. */
    jobRead(job) {
        const state = this.#state;
        const { log, clock } = this.deps;
        const previous = state.job?.status;
        state.job = job;
        if (job.status === previous)
            return;
        const status = (0,base_text/* inline */.mG)(job.status ?? 'missing', 60);
        if (job.status !== undefined && !(0,agent_api_job/* isKnownStatus */.ih)(job.status) && !state.unknownStatusWarned) {
            state.unknownStatusWarned = true;
            log.warning(`Job ${(0,base_text/* inline */.mG)(state.jobId ?? '')} reports an unknown status "${status}"; polling on until it ends or the timeout.`);
        }
        if ((0,agent_api_job/* isTerminal */.Hd)(job.status))
            state.waitEndedAt = clock.now();
        const waited = state.waitStartedAt === undefined || state.waitEndedAt === undefined
            ? ''
            : ` after ${(0,duration/* formatDuration */.a3)(state.waitEndedAt - state.waitStartedAt)}`;
        log.info(`Job ${(0,base_text/* inline */.mG)(state.jobId ?? '')} is ${status}${waited}`);
    }
    /** The docs PR's preview: its URL once built, or why there is none; the PR's head branch when read. */
    previewed(url, problem, branch) {
        this.#state.preview = { url, problem, branch };
    }
    /** What the owner phase did on the docs PR: reviewers, assignees, merge. */
    owned(owner) {
        this.#state.owner = owner;
    }
    /** The docs pull request's checks, as the docs checks phase finds them. */
    docsChecked(checks) {
        this.#state.docsChecks = checks;
    }
    /** The check run: once made, its id is an output at once, as the job's is. */
    checked(check) {
        if (check.id !== undefined && check.id !== this.#state.check?.id)
            this.deps.setOutput('check-run-id', String(check.id));
        this.#state.check = check;
    }
    ended(ending) {
        const state = this.#state;
        state.outcome = ending.outcome;
        if (ending.failure !== undefined)
            state.failure = ending.failure;
        if (ending.mayHaveActed !== undefined)
            state.mayHaveActed = ending.mayHaveActed;
        if (ending.notFound !== undefined)
            state.notFound = ending.notFound;
        state.endedAt = this.deps.clock.now();
    }
    announce(jobId) {
        // Set at once, so that even a step killed from here on leaves the id behind.
        this.deps.setOutput('job-id', jobId);
        this.deps.log.info(`Job id: ${(0,base_text/* inline */.mG)(jobId)}`);
    }
}

;// CONCATENATED MODULE: ./src/step/action.ts
/**
 * The step's flow, top to bottom as phases: gate, resume, skip, group, prompt, skip (the path rules,
 * on the files the context read), post, wait; then the closing phases (closing.ts): preview, the
 * ending, docs checks, owner and report. Each phase returns what happened; run-state.ts records it,
 * ending.ts decides how the step ended (a cancel included), and the report goes out on every exit path.
 */















/** Runs the step; true in `failed` when it must fail (the reason was already logged as an error). */
async function runStep(mode, deps) {
    const { settings } = mode;
    const run = new RunStateWriter(deps, 'jobId' in settings ? settings.jobId : undefined);
    const follow = deps.tracking?.(mode, run);
    deps = { ...deps, follow };
    const deadline = run.state.startedAt + settings.timeoutMs;
    const rerun = new Rerun({ ...deps, records: mode.records });
    const flowed = await flow(settings, deps, run, rerun, deadline);
    // Loaded only now: a run reaches its first request without the closing phases (docs/benchmarks.md).
    const { close } = await __webpack_require__.e(/* import() */ 657).then(__webpack_require__.bind(__webpack_require__, 5657));
    return close(flowed, { settings, deps, run, rerun, deadline });
}
/** Everything up to the step's ending, phase by phase; a throw ends it as `thrown`. */
async function flow(settings, deps, run, rerun, deadline) {
    // The request as decided so far, replaced by what the group and post phases return: a throw is
    // reported for the request decided by then.
    let decided = { settings, plan: undefined };
    try {
        if (settings.mode === 'wait-only')
            return { end: await waitOnly(settings, deps, run, deadline), decided };
        const refused = await gate(settings, deps);
        if (refused)
            return { end: refused, decided };
        if (settings.mode === 'automation')
            return { end: await phase_automation(settings, deps, run, rerun, deadline), decided };
        const resumed = await resume(settings, deps, run, rerun, deadline);
        if (resumed)
            return { end: resumed, decided };
        // The skip phase: a label or a marker before anything is read, a path rule on what the context read.
        const skipped = skipPhase('event', settings, deps, run);
        if (skipped)
            return { end: skipped, decided };
        decided = { settings, plan: await group(settings, deps) };
        const prompts = await writePrompts(settings, decided.plan, deps, run);
        const judged = skipPhase('files', settings, deps, run);
        if (judged)
            return { end: judged, decided };
        if (settings.dryRun) {
            if (decided.plan)
                dryRunGroup(decided.plan, run, deps.log);
            showPrompt(prompts.followUp, deps.log);
            return { end: { kind: 'dry-run' }, decided };
        }
        const sent = await send(settings, decided.plan, prompts, deps, run, deadline);
        decided = sent.decided;
        const { job, answeredAt } = sent.posted;
        const answer = decided.settings.mode === 'message' ? (0,agent_api_job/* jobFingerprint */.E3)(job) : undefined;
        rerun.startSavingRecord(settings, { jobId: job.id, answeredAt, mayHaveActed: false, answer, outsider: !!run.state.outsider }, run.state.prompt ?? '');
        // At once, so that a record saved in the comment goes out with the started state (link-back.ts).
        deps.follow?.answered(decided.settings);
        const end = await (0,step_wait/* wait */.u)(decided.settings, deps, run, deadline, {
            jobId: job.id,
            pollNow: false,
            notFoundUntil: answeredAt + wait/* NOT_FOUND_GRACE_MS */.hX,
            previous: answer === undefined ? undefined : { fingerprint: answer, answeredAt },
            posted: true
        });
        return { end, decided };
    }
    catch (error) {
        return { end: { kind: 'thrown', error }, decided };
    }
}
/** A wait-only run: no gate and no prompt; the given job is read at once. */
async function waitOnly(settings, deps, run, deadline) {
    // A path rule set on it says why it does not apply, as for every other explicit request.
    if (settings.skip.paths) {
        const reason = 'a wait-only step is an explicit request, never skipped';
        run.skipDecided({ skipped: false, reason }, false);
        deps.log.info(`Skip rules: not skipped: ${reason}.`);
    }
    if (settings.dryRun)
        return { kind: 'dry-run' };
    deps.follow?.following(settings);
    return (0,step_wait/* wait */.u)(settings, deps, run, deadline, { jobId: settings.jobId, pollNow: true, notFoundUntil: undefined });
}
/** The gate: whether whoever triggered the run may start a job; the refusal when not. */
async function gate(settings, deps) {
    if (settings.allowedNonWriteUsers.includes('*')) {
        deps.log.warning('allowed-non-write-users is *: anyone who can open a pull request or an issue can start a job with the API key on events such as pull_request_target.');
    }
    const decision = await (0,trust/* decideStart */.VF)(deps.trust(), settings, deps.permissions);
    // A cancel makes the read fail: that is the cancel, not a refusal.
    if (deps.signal.aborted)
        throw new cancel/* Cancelled */.c(false);
    if (decision.allowed)
        return undefined;
    if (decision.warning)
        deps.log.warning(decision.warning);
    return { kind: 'not-permitted', reason: decision.reason };
}
/**
 * The resume phase, on a re-run: follows the job an earlier attempt of this step created or
 * messaged instead of posting again. Undefined when there is none to follow: the step then posts
 * as on a first attempt.
 */
async function resume(settings, deps, run, rerun, deadline) {
    const earlier = await rerun.findEarlierAttempt(settings);
    if (earlier.kind === 'none')
        return undefined;
    // From here a job is known: a cancel now is reported with its id, by the wait below.
    if (earlier.kind === 'answer-lost') {
        run.answerLost(earlier.record, earlier.prompt);
        return { kind: 'answer-lost', record: earlier.record };
    }
    const { record, jobId } = earlier;
    run.resumed(record);
    deps.follow?.following(settings);
    deps.log.info(`Resuming job ${(0,base_text/* inline */.mG)(jobId)} from attempt ${record.attempt}`);
    run.reading();
    // A grouped run's attempt is found again, quietly, for the prompt and the outputs it had.
    const followed = resumedGroup(await group(settings, { ...deps, log: debugOnly(deps.log) }), record, run);
    const recalled = await rerun.recallPrompt(record, async () => {
        const { built, followUp } = await groupPrompts(settings, followed, deps);
        return { ...built, prompt: followUp };
    });
    if (recalled)
        run.prompted(recalled);
    try {
        return await (0,step_wait/* wait */.u)(settings, deps, run, deadline, {
            jobId,
            pollNow: true,
            notFoundUntil: record.answeredAt + wait/* NOT_FOUND_GRACE_MS */.hX,
            previous: record.answer === undefined ? undefined : { fingerprint: record.answer, answeredAt: record.answeredAt }
        });
    }
    catch (error) {
        // Never read in this attempt and not found: the job is gone. Anything else is the outcome.
        if (!(error instanceof errors/* ApiError */.hD && error.kind === 'not-found' && run.state.job === undefined))
            throw error;
        rerun.warnGone(settings, record, jobId);
        run.resumeAbandoned(settings.mode === 'message' ? settings.jobId : undefined);
        return undefined;
    }
}
/**
 * The group phase: a run's own prompt with `group` finds its group's open docs pull request. A
 * /docs command keeps its own target: it never joins a group.
 */
async function group(settings, deps) {
    const key = settings.mode === 'create' && !settings.command ? groupKey(settings, deps) : undefined;
    return settings.mode === 'create' && key ? planGroup(settings, key, deps) : undefined;
}
/** The prompt phase: the prompt a new job gets, and a grouped follow-up's, which names the pull request it adds to. */
async function writePrompts(settings, plan, deps, run) {
    const { built, followUp } = await groupPrompts(settings, plan, deps);
    run.prompted({ ...built, prompt: followUp });
    return { followUp, create: built.prompt };
}
/**
 * The post phase: the create or the follow-up, and the request as it went out (a grouped run's
 * follow-up the API refused becomes a create).
 */
async function send(settings, plan, prompts, deps, run, deadline) {
    if (settings.mode === 'create' && plan) {
        const grouped = await postGrouped(settings, plan, prompts, deps, run, deadline);
        return { posted: grouped.posted, decided: { settings: grouped.settings, plan: grouped.plan } };
    }
    return { posted: await (0,post/* post */.b)(settings, deps, run, deadline, prompts.create), decided: { settings, plan } };
}

;// CONCATENATED MODULE: ./src/agent-api/deployment.ts
/** A preview deployment as the Agent API answers about it: the deployment asked for, and its status. */
function parsePreviewRequested(json) {
    if (!isRecord(json))
        return undefined;
    const { statusId, previewUrl } = json;
    if (typeof statusId !== 'string' || statusId === '' || typeof previewUrl !== 'string')
        return undefined;
    return isHttpsUrl(previewUrl) ? { statusId, previewUrl } : undefined;
}
function parsePreviewStatus(json) {
    if (!isRecord(json) || typeof json.status !== 'string')
        return undefined;
    return typeof json.summary === 'string' ? { status: json.status, summary: json.summary } : { status: json.status };
}
function isHttpsUrl(text) {
    try {
        return new URL(text).protocol === 'https:';
    }
    catch {
        return false;
    }
}
function isRecord(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// EXTERNAL MODULE: external "node:diagnostics_channel"
var external_node_diagnostics_channel_ = __webpack_require__(3053);
;// CONCATENATED MODULE: ./src/agent-api/wire.ts

// undici publishes here just before it writes a request's head to the socket: from then on the
// server may receive it. (Node's own fetch publishes on the same channel, hence the match below.)
const SEND_HEADERS = 'undici:client:sendHeaders';
/** Tells whether a request's bytes left: watches for `method path` until `stop()`. */
function watchSend(method, path) {
    let sent = false;
    const onSend = (message) => {
        const { request } = message;
        if (request.method === method && request.path === path)
            sent = true;
    };
    (0,external_node_diagnostics_channel_.subscribe)(SEND_HEADERS, onSend);
    return {
        get sent() {
            return sent;
        },
        stop: () => (0,external_node_diagnostics_channel_.unsubscribe)(SEND_HEADERS, onSend)
    };
}

;// CONCATENATED MODULE: ./src/agent-api/client.ts







/** Largest job record we read (bytes); a bigger answer is refused, never buffered whole. */
const MAX_JOB_BYTES = 1024 * 1024;
/** Of an error answer, only the start is read: enough for `{"error": …}`. */
const MAX_ERROR_BYTES = 16 * 1024;
class AgentClient {
    options;
    constructor(options) {
        this.options = options;
    }
    createJob(prompt, call) {
        return this.post(['job'], prompt, call);
    }
    sendMessage(jobId, prompt, call) {
        return this.post(['job', jobId, 'message'], prompt, call);
    }
    getJob(jobId, call) {
        return this.send('GET', this.agentPath(['job', jobId]), undefined, call, JOB);
    }
    requestPreview(branch, call) {
        const path = ['v1', 'project', 'preview', this.options.projectId];
        return this.send('POST', path, { branch }, call, PREVIEW_REQUESTED);
    }
    getPreviewStatus(statusId, call) {
        return this.send('GET', ['v1', 'project', 'update-status', statusId], undefined, call, PREVIEW_STATUS);
    }
    /** `POST /v1/workflow/{projectId}/{automationId}/trigger`, no body. */
    async triggerAutomation(automationId, call) {
        const path = ['v1', 'workflow', this.options.projectId, automationId, 'trigger'];
        return (0,automation/* identifiedRun */.Zq)(await this.send('POST', path, undefined, call, AUTOMATION_RUN));
    }
    async post(segments, prompt, call) {
        const job = await this.send('POST', this.agentPath(segments), { prompt }, call, JOB);
        if (job.id === undefined)
            throw new errors/* ApiError */.hD('bad-response', 'answered with a job record that has no id');
        return { ...job, id: job.id };
    }
    agentPath(segments) {
        return ['v2', 'agent', this.options.projectId, ...segments];
    }
    async send(method, segments, body, call, answer) {
        const prefix = this.options.baseUrl.pathname.replace(/\/+$/, '');
        const path = `${prefix}/${segments.map(encodeSegment).join('/')}`;
        if (call.signal.aborted)
            throw new cancel/* Cancelled */.c(false);
        const { response, fail } = await this.request(method, path, body, call);
        // undici's body emits 'error' when destroyed early; without a listener that would crash the step.
        response.body.on('error', () => undefined);
        const status = response.statusCode;
        const retryAfterMs = (0,errors/* parseRetryAfter */.mu)(header(response.headers['retry-after']), this.options.clock.now());
        if (status < 200 || status >= 300) {
            const text = await readText(response.body, MAX_ERROR_BYTES).catch(() => '');
            throw new errors/* ApiError */.hD((0,errors/* kindOfStatus */.o3)(status), describeError(status, text, response.headers), status, retryAfterMs);
        }
        return parseAnswer(await readRecord(response, fail), response, answer);
    }
    /**
     * Sends one request and returns its answer's head, with how to name a failure from here on
     * (the body is still read under the same time limit and signal).
     */
    async request(method, path, body, call) {
        const { baseUrl, apiKey, dispatcher, userAgent, clock } = this.options;
        const timer = clock.timeout(Math.max(1, call.timeoutMs));
        const signal = AbortSignal.any([call.signal, timer]);
        // Whether a failed or cancelled request may have reached the server depends on this, not on
        // the error's name: a refused proxy tunnel and our own time limit both surface as aborts.
        const wire = watchSend(method, path);
        const fail = (error) => call.signal.aborted
            ? new cancel/* Cancelled */.c(wire.sent)
            : (0,errors/* networkError */.x6)(error, { sent: wire.sent, timedOut: timer.aborted, timeoutMs: call.timeoutMs });
        const started = clock.now();
        const took = () => `${Math.round(clock.now() - started)}ms`;
        let response;
        try {
            // dispatcher.request takes the path as given: `new URL()` would resolve an id of `..`.
            response = await dispatcher.request({
                origin: baseUrl.origin,
                path,
                method,
                headers: requestHeaders(apiKey, userAgent, body !== undefined),
                body: body && JSON.stringify(body),
                signal
            });
        }
        catch (error) {
            const failure = fail(error);
            this.options.debug(`${method} ${path} -> ${failure.message} after ${took()}`);
            throw failure;
        }
        finally {
            wire.stop();
        }
        this.options.debug(`${method} ${path} -> ${response.statusCode} in ${took()}`);
        return { response, fail };
    }
}
function requestHeaders(apiKey, userAgent, withBody) {
    const headers = {
        authorization: `Bearer ${apiKey}`,
        accept: 'application/json',
        'user-agent': userAgent
    };
    if (withBody)
        headers['content-type'] = 'application/json';
    return headers;
}
/** A success answer's body, refused unread when it says it is too large. */
async function readRecord(response, fail) {
    try {
        if (Number(header(response.headers['content-length'])) > MAX_JOB_BYTES) {
            response.body.destroy();
            throw tooLarge();
        }
        return await readText(response.body, MAX_JOB_BYTES, true);
    }
    catch (error) {
        throw error instanceof errors/* ApiError */.hD ? error : fail(error);
    }
}
/** A success answer's body as the record the endpoint promises, or a `bad-response` naming what came. */
function parseAnswer(text, response, answer) {
    const status = response.statusCode;
    let json;
    try {
        json = JSON.parse(text);
    }
    catch {
        throw new errors/* ApiError */.hD('bad-response', `answered ${status} with ${describeBody(text, response.headers)} instead of ${answer.what} (JSON)`, status);
    }
    const parsed = answer.parse(json);
    if (!parsed)
        throw new errors/* ApiError */.hD('bad-response', `answered ${status} with JSON that is not ${answer.what} record`, status);
    return parsed;
}
const JOB = { what: 'a job', parse: agent_api_job/* parseJob */.JN };
const PREVIEW_REQUESTED = { what: 'a preview deployment', parse: parsePreviewRequested };
const PREVIEW_STATUS = { what: 'a deployment status', parse: parsePreviewStatus };
const AUTOMATION_RUN = { what: 'an automation run', parse: automation/* parseAutomationRun */.q6 };
/**
 * One path segment, percent-encoded so that `/`, `?`, `#` and `%` stay inside it, and a bare
 * `.` or `..` cannot climb the path.
 */
function encodeSegment(segment) {
    if (segment === '.' || segment === '..')
        return segment.replaceAll('.', '%2E');
    return encodeURIComponent(segment);
}
function header(value) {
    return Array.isArray(value) ? value[0] : value;
}
/**
 * Reads a body as UTF-8 up to `limit` bytes. Past the limit: throws when `strict`, else keeps
 * what was read. Either way the rest is never read.
 */
async function readText(body, limit, strict = false) {
    const chunks = [];
    let size = 0;
    for await (const chunk of body) {
        size += chunk.length;
        if (size > limit) {
            body.destroy();
            if (strict)
                throw tooLarge();
            chunks.push(chunk.subarray(0, chunk.length - (size - limit)));
            break;
        }
        chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString('utf8');
}
function tooLarge() {
    return new errors/* ApiError */.hD('bad-response', `answered with more than ${MAX_JOB_BYTES} bytes; refusing to read it`);
}
/** The server's `error` text, or a short description of what came instead. */
function describeError(status, text, headers) {
    try {
        const json = JSON.parse(text);
        const error = json?.error;
        if (typeof error === 'string' && error)
            return `answered ${status}: ${(0,base_text/* inline */.mG)(error)}`;
    }
    catch {
        // Not JSON: describe it below.
    }
    const location = header(headers.location);
    if (status >= 300 && status < 400 && location)
        return `answered ${status}, a redirect to ${(0,base_text/* inline */.mG)(location, 200)}`;
    return `answered ${status} with ${describeBody(text, headers)}`;
}
function describeBody(text, headers) {
    if (!text.trim())
        return 'an empty body';
    const type = header(headers['content-type']) ?? '';
    if (type.includes('html') || /^\s*</.test(text))
        return 'an HTML page (a proxy or gateway answering?)';
    return `a body that is not JSON (${text.length} bytes)`;
}

// EXTERNAL MODULE: ./src/base/error-message.ts
var error_message = __webpack_require__(9225);
;// CONCATENATED MODULE: ./src/github/conversation/command.ts
/** The events that carry a comment on a pull request. */
const COMMENT_EVENTS = ['issue_comment', 'pull_request_review_comment', 'pull_request_review'];
/**
 * Events whose runs get a read-only Actions cache (since June 2026): the re-run record cannot be
 * saved there, so the link-back comment holds it.
 */
const READ_ONLY_CACHE_EVENTS = ['pull_request_target', 'issue_comment'];
function isCommentEvent(name) {
    return COMMENT_EVENTS.some((event) => event === name);
}
/**
 * The comment of an `issue_comment` on a pull request, or of a review or review comment; undefined
 * for any other event (an issue's comment included) or a payload that does not hold one.
 */
function readCommentEvent(env, readFile) {
    const event = env.GITHUB_EVENT_NAME;
    if (!isCommentEvent(event) || !env.GITHUB_EVENT_PATH)
        return undefined;
    let payload;
    try {
        payload = JSON.parse(readFile(env.GITHUB_EVENT_PATH));
    }
    catch {
        return undefined;
    }
    if (!command_isRecord(payload))
        return undefined;
    const comment = event === 'pull_request_review' ? payload.review : payload.comment;
    const pull = event === 'issue_comment' ? payload.issue : payload.pull_request;
    // An issue's comments come as `issue_comment` too: only a pull request's have `issue.pull_request`.
    if (!command_isRecord(comment) || !command_isRecord(pull) || (event === 'issue_comment' && !command_isRecord(pull.pull_request)))
        return undefined;
    const { id } = comment;
    const number = pull.number;
    const user = command_isRecord(comment.user) ? comment.user : {};
    const login = typeof user.login === 'string' ? user.login : '';
    if (typeof id !== 'number' || typeof number !== 'number' || !login)
        return undefined;
    return {
        event,
        action: typeof payload.action === 'string' ? payload.action : '',
        repo: env.GITHUB_REPOSITORY ?? '',
        pullNumber: number,
        id,
        body: typeof comment.body === 'string' ? comment.body : '',
        author: { login, bot: user.type === 'Bot' || login.endsWith('[bot]') }
    };
}
/**
 * The request in a comment whose first line starts with `phrase` (then a space, or the line's
 * end): the rest of that line and the lines after it, trimmed. Undefined without the phrase, and
 * when the first line that is not blank is indented four columns or more (a tab reaches the fourth):
 * GitHub shows that line as code (CommonMark 0.31, 4.4 Indented code blocks), not as a request.
 */
function commandText(body, phrase) {
    const first = body.replace(/^(?:[ \t]*(?:\r\n?|\n))+/, '');
    const indent = /^[ \t]*/.exec(first)?.[0] ?? '';
    if (indent.length >= 4 || indent.includes('\t'))
        return undefined;
    const text = first.replace(/^\s+/, '');
    if (!text.startsWith(phrase))
        return undefined;
    const rest = text.slice(phrase.length);
    if (rest !== '' && !/^\s/.test(rest))
        return undefined;
    return rest.trim();
}
function command_isRecord(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// EXTERNAL MODULE: ./src/github/event.ts
var github_event = __webpack_require__(5015);
;// CONCATENATED MODULE: ./src/github/owner/author.ts
/**
 * Whoever caused the run, for `reviewers: author` and `assignees: author`: the pull request's
 * author on a pull request event, the release's author on `release`, else the workflow run's actor
 * (a tag push, `workflow_dispatch`, `schedule`, and any run with `release-tags`). A `/docs`
 * command's commenter is the step's to know: it comes before all of these.
 */

const PULL_EVENTS = ['pull_request', 'pull_request_target', 'pull_request_review', 'pull_request_review_comment'];
/** `releaseSet`: the run documents the tags of `release-tags`, whoever pushed them. */
function runAuthor(env, readFile, releaseSet) {
    const event = env.GITHUB_EVENT_NAME ?? '';
    const actor = { login: env.GITHUB_ACTOR || undefined, role: "the workflow run's actor" };
    if (releaseSet)
        return actor;
    if (PULL_EVENTS.includes(event)) {
        const payload = (0,github_event/* readPayload */.rD)(env.GITHUB_EVENT_PATH, readFile);
        const pr = (0,github_event/* isRecord */.u4)(payload.pull_request) ? payload.pull_request : {};
        return { login: login(pr.user), role: "the pull request's author" };
    }
    if (event === 'release') {
        const payload = (0,github_event/* readPayload */.rD)(env.GITHUB_EVENT_PATH, readFile);
        const release = (0,github_event/* isRecord */.u4)(payload.release) ? payload.release : {};
        return { login: login(release.author), role: "the release's author" };
    }
    return actor;
}
function login(user) {
    return (0,github_event/* isRecord */.u4)(user) && typeof user.login === 'string' && user.login ? user.login : undefined;
}

// EXTERNAL MODULE: ./src/github/permissions.ts
var permissions = __webpack_require__(5435);
// EXTERNAL MODULE: ./src/github/requests.ts
var requests = __webpack_require__(4261);
// EXTERNAL MODULE: ./node_modules/@actions/http-client/lib/proxy.js
var proxy = __webpack_require__(9783);
// EXTERNAL MODULE: ./node_modules/undici/index.js
var undici = __webpack_require__(6752);
;// CONCATENATED MODULE: ./src/agent-api/http.ts


const CONNECT_TIMEOUT_MS = 10_000;
const PROXY_FORM = 'expected http://host:port or http://user:password@host:port, with % in a password written %25';
/** A proxy variable that cannot be used: names the variable and the accepted form, never its value. */
class ProxyError extends Error {
    variable;
    constructor(variable, message) {
        super(`Proxy variable ${variable}: ${message}: ${PROXY_FORM}.`);
        this.variable = variable;
        this.name = 'ProxyError';
    }
}
/**
 * The connection pool for the API: through the proxy that `HTTPS_PROXY` / `HTTP_PROXY` name
 * unless `NO_PROXY` (or a loopback host) exempts the API, the way the runner's own tools decide.
 * A proxy variable that cannot be parsed throws a `ProxyError`: going direct instead would bypass
 * a proxy the network may require (or log around).
 */
function createDispatcher(baseUrl) {
    const env = process.env;
    const direct = () => new undici.Agent({ connect: { timeout: CONNECT_TIMEOUT_MS } });
    if ((0,proxy/* checkBypass */.H)(baseUrl))
        return direct();
    const names = baseUrl.protocol === 'https:' ? ['https_proxy', 'HTTPS_PROXY'] : ['http_proxy', 'HTTP_PROXY'];
    const variable = names.find((name) => env[name]);
    if (variable === undefined)
        return direct();
    const proxyUrl = parseProxy(variable, env[variable] ?? '');
    const auth = proxyUrl.username
        ? `Basic ${Buffer.from(`${decode(variable, proxyUrl.username)}:${decode(variable, proxyUrl.password)}`).toString('base64')}`
        : undefined;
    proxyUrl.username = '';
    proxyUrl.password = '';
    return new undici.ProxyAgent({
        uri: proxyUrl.href,
        ...(auth ? { token: auth } : {}),
        connect: { timeout: CONNECT_TIMEOUT_MS }
    });
}
function parseProxy(variable, value) {
    let url;
    try {
        url = new URL(value);
    }
    catch {
        throw new ProxyError(variable, 'not a URL');
    }
    // `proxy:3128` parses, with `proxy:` for a scheme.
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
        throw new ProxyError(variable, 'no http:// or https://');
    return url;
}
function decode(variable, part) {
    try {
        return decodeURIComponent(part);
    }
    catch {
        throw new ProxyError(variable, 'its user name or password is not percent-encoded');
    }
}

// EXTERNAL MODULE: external "node:os"
var external_node_os_ = __webpack_require__(8161);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
;// CONCATENATED MODULE: ./src/rerun/cache.ts
/**
 * Re-run records in the Actions cache service, through `@actions/cache` (both its v1 protocol,
 * `ACTIONS_CACHE_URL`, and v2, `ACTIONS_RESULTS_URL`). The record is the key (see record.ts): a
 * restore only looks the key up, and never downloads or extracts an archive; a save stores a
 * constant file. The library costs about 45 MB, so it is loaded on first use: never before the
 * first create on a first attempt.
 */





/** Longest a lookup or a save may take before the step goes on without it. */
const RECORD_TIME_LIMIT_MS = 5_000;
/** What every entry holds: the record is in its key. */
const ENTRY_CONTENT = 'docs-agent-action: the re-run record is the cache key.\n';
/**
 * The path every entry is saved from, as the library is given it. The service finds a key only
 * with the same version, a hash of these path strings (and of the compression tool): one that
 * names the runner's own directories, as RUNNER_TEMP (`<runner>/_work/_temp`) does, differs on the
 * next self-hosted runner of a pool, where a re-run may land, and the record would not be found
 * (docs.github.com/actions/reference/workflows-and-actions/dependency-caching#cache-key-matching,
 * github.com/actions/toolkit/issues/1433). `~` reads the same on every runner; the library's glob
 * expands it to the home directory when it saves.
 */
const ENTRY_PATH = '~/.docs-agent-action-rerun';
// What the service answers a save when the run's cache token is read-only.
const WRITE_DENIED = /cache write denied:/i;
/** The job's `cache-mode` as the runner exports it (actions/runner#4538): '' when the workflow sets none. */
const cacheModeOf = (env) => (env.ACTIONS_CACHE_MODE ?? '').trim().toLowerCase();
/**
 * Whether a record one attempt saves in the cache can be read by the next: not under a `cache-mode`
 * that refuses saves (`read`, the default of pull_request_target and issue_comment), skips restores
 * (`write-only`) or both (`none`)
 * (github.blog/changelog/2026-09-10-control-github-actions-cache-access-with-cache-mode).
 */
function cacheKeepsRecords(env) {
    return !['read', 'write-only', 'none'].includes(cacheModeOf(env));
}
function cacheRecordStore(env, options = {}) {
    const { timeLimitMs = RECORD_TIME_LIMIT_MS, load = () => __webpack_require__.e(/* import() */ 691).then(__webpack_require__.bind(__webpack_require__, 1691)) } = options;
    // As the library decides, without loading it: v2 needs ACTIONS_RESULTS_URL, v1 ACTIONS_CACHE_URL.
    const available = Boolean(env.ACTIONS_CACHE_URL || (env.ACTIONS_CACHE_SERVICE_V2 && env.ACTIONS_RESULTS_URL));
    // The runner says when a run may not write or read (the library then skips the call, as on a miss).
    const mode = cacheModeOf(env);
    const quietly = quietRunner(timeLimitMs);
    return {
        available,
        async lookup(prefix) {
            // The library would find nothing, though an earlier attempt's record may be there.
            if (mode === 'write-only' || mode === 'none') {
                return { kind: 'failed', message: `the cache mode of this run is ${mode}, which does not read the cache` };
            }
            const result = await quietly(async () => (await load()).restoreCache([ENTRY_PATH], prefix, [], { lookupOnly: true }));
            if (result.kind === 'failed')
                return result;
            return result.value === undefined ? { kind: 'missing' } : { kind: 'found', key: result.value };
        },
        async save(key) {
            if (mode === 'read' || mode === 'none') {
                return { kind: 'read-only', message: `the cache mode of this run is ${mode}` };
            }
            try {
                entryFile();
            }
            catch (error) {
                return { kind: 'failed', message: `could not write the entry's file (${(0,error_message/* errorMessage */.g)(error)})` };
            }
            const result = await quietly(async () => (await load()).saveCache([ENTRY_PATH], key));
            if (result.kind === 'failed') {
                return WRITE_DENIED.test(result.message) ? { kind: 'read-only', message: result.message } : result;
            }
            // -1: not saved, whatever was printed (a key that exists is only an info line).
            return result.value === -1 ? { kind: 'failed', message: 'the cache service did not take it' } : { kind: 'saved' };
        }
    };
}
/**
 * The file under ENTRY_PATH, with ENTRY_CONTENT: written only when it is not there yet, through a
 * rename, so that another job's save on the same machine never archives it half-written.
 */
function entryFile() {
    const dir = (0,external_node_path_.join)((0,external_node_os_.homedir)(), ENTRY_PATH.slice(2));
    const file = (0,external_node_path_.join)(dir, 'record.txt');
    try {
        if ((0,external_node_fs_.readFileSync)(file, 'utf8') === ENTRY_CONTENT)
            return;
    }
    catch {
        // Not there yet.
    }
    (0,external_node_fs_.mkdirSync)(dir, { recursive: true });
    const partial = `${file}.${process.pid}`;
    (0,external_node_fs_.writeFileSync)(partial, ENTRY_CONTENT);
    (0,external_node_fs_.renameSync)(partial, file);
}
// What @actions/cache prints through @actions/core when it gives up (it then returns as if nothing
// was found or saved): `::warning::Failed to restore: …` (`::error::` on a 5xx in v2), or a plain
// `Failed to save: Unable to reserve cache …` line when the key exists; on the v2 protocol
// (GitHub.com's), a failed upload warns `uploadCacheArchiveSDK: …` first (lib/internal/uploadUtils.js).
const LIBRARY_FAILURE = /^(?:::(?:warning|error)::)?((?:Failed to (?:restore|save)|Cache reservation failed|uploadCacheArchiveSDK: )[^\n]*)/;
// Its progress lines (`Sent … of` is v2's upload), and the tar commands it runs, are of no use in the step's log.
const LIBRARY_CHATTER = /^(?:Cache (?:Size|restored|saved|hit|not found)|(?:Received|Sent) \d+ of|Lookup only|\[command\])/;
/**
 * Runs library calls within the time limit, turning the library's own warnings and errors into a
 * failure the caller reports once, its own way, and its progress lines into debug lines. The
 * filter stays on until every call has settled, even one given up on; other output (the step's
 * own log goes on meanwhile) passes through untouched.
 */
function quietRunner(timeLimitMs) {
    let pending = 0;
    let original;
    let failure;
    const install = () => {
        if (pending++ > 0)
            return;
        const write = process.stdout.write.bind(process.stdout);
        // eslint-disable-next-line @typescript-eslint/unbound-method -- put back as it was, never called unbound
        original = process.stdout.write;
        process.stdout.write = (chunk, ...rest) => {
            const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
            const failed = LIBRARY_FAILURE.exec(text);
            if (failed) {
                failure?.(decodeCommand(failed[1] ?? ''));
                return true;
            }
            if (LIBRARY_CHATTER.test(text))
                return write(`::debug::${text}`);
            return write(chunk, ...rest);
        };
    };
    const uninstall = () => {
        if (--pending === 0 && original)
            process.stdout.write = original;
    };
    return async (call) => {
        let message;
        failure = (text) => (message ??= text);
        install();
        let timer;
        const settled = call().finally(uninstall);
        const limit = new Promise((resolve) => {
            timer = setTimeout(() => resolve('timeout'), timeLimitMs).unref();
        });
        try {
            const value = await Promise.race([settled, limit]);
            if (value === 'timeout') {
                settled.catch(() => undefined);
                return { kind: 'failed', message: `the cache service did not answer within ${(0,duration/* formatDuration */.a3)(timeLimitMs)}` };
            }
            return message === undefined ? { kind: 'done', value } : { kind: 'failed', message };
        }
        catch (error) {
            return { kind: 'failed', message: error instanceof Error ? error.message : String(error) };
        }
        finally {
            clearTimeout(timer);
        }
    };
}
/** A workflow command's data back as text (`%25` `%0D` `%0A`). */
function decodeCommand(data) {
    return data.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%').trim();
}

;// CONCATENATED MODULE: ./src/step/prompt-file.ts





/** A prompt within the character limit is at most this many bytes of UTF-8. */
const MAX_PROMPT_FILE_BYTES = 4 * MAX_PROMPT_CHARS;
const prompt_file_FORM = 'expected the path of a regular UTF-8 file inside the workspace (GITHUB_WORKSPACE), not under .git/';
/**
 * Reads `prompt-file`: only a regular file inside `workspace` once symlinks are resolved, never
 * under a `.git` directory (the checkout's token is in `.git/config`), and never more bytes than a
 * prompt can have. The checks are made on the opened file, so what is checked is what is read.
 */
function readPromptFile(path, workspace) {
    const fail = (why) => {
        throw new inputs/* InputError */.dz('prompt-file', `${(0,inputs/* quoted */.TL)(path)} ${why}: ${prompt_file_FORM}.`);
    };
    let real;
    let root;
    try {
        root = (0,external_node_fs_.realpathSync)(workspace);
        real = (0,external_node_fs_.realpathSync)((0,external_node_path_.resolve)(root, path));
    }
    catch (error) {
        return fail(`cannot be read (${errorCode(error)})`);
    }
    const inside = (0,external_node_path_.relative)(root, real);
    // `..notes.md` is inside: only a first part that is `..` itself leaves the workspace.
    if (inside.split(external_node_path_.sep)[0] === '..' || (0,external_node_path_.isAbsolute)(inside))
        return fail('is outside the workspace');
    if (inside.split(external_node_path_.sep).some((part) => part.toLowerCase() === '.git'))
        return fail('is under .git/');
    let fd;
    try {
        // Non-blocking, so that a FIFO is refused below instead of waiting for a writer.
        fd = (0,external_node_fs_.openSync)(real, external_node_fs_.constants.O_RDONLY | external_node_fs_.constants.O_NONBLOCK | external_node_fs_.constants.O_NOFOLLOW);
    }
    catch (error) {
        return fail(`cannot be read (${errorCode(error)})`);
    }
    try {
        const stat = (0,external_node_fs_.fstatSync)(fd);
        if (!stat.isFile())
            return fail('is not a regular file');
        if (stat.size > MAX_PROMPT_FILE_BYTES) {
            return fail(`has ${(0,base_text/* formatCount */.B4)(stat.size)} bytes, more than a prompt of ${(0,base_text/* formatCount */.B4)(MAX_PROMPT_CHARS)} characters can have`);
        }
        const buffer = Buffer.alloc(stat.size);
        let read = 0;
        while (read < buffer.length) {
            const n = (0,external_node_fs_.readSync)(fd, buffer, read, buffer.length - read, read);
            if (n === 0)
                break;
            read += n;
        }
        return buffer.subarray(0, read).toString('utf8');
    }
    finally {
        (0,external_node_fs_.closeSync)(fd);
    }
}
function errorCode(error) {
    return error.code ?? 'unreadable';
}

// EXTERNAL MODULE: ./src/github/conversation/markdown.ts
var markdown = __webpack_require__(7574);
;// CONCATENATED MODULE: ./src/step/asked.ts
/**
 * One line of what the agent was asked, for the link-back and the check run: the command and whose
 * it is, or what triggered a new job (a tag or release, a pull request, the pushed range, the
 * changes since the last run), in markdown with every value made inert.
 */


/** How many release tags are named before the rest are counted. */
const TAGS_NAMED = 3;
function askedFor(trigger, settings) {
    const { command } = settings;
    if (command) {
        const what = command.kind === 'follow-up' ? 'follow-up' : 'request';
        return `${(0,markdown/* mention */.lE)(command.author)}'s ${what} ${(0,markdown/* codeSpan */.SS)(command.text, 80)}`;
    }
    if (settings.mode === 'message')
        return 'a follow-up to the job';
    if (settings.mode === 'wait-only')
        return undefined;
    const tags = settings.releaseTags.map(({ tag }) => (0,markdown/* codeSpan */.SS)(tag, 60));
    if (tags.length) {
        const rest = tags.length > TAGS_NAMED ? ` and ${(0,base_text/* formatCount */.B4)(tags.length - TAGS_NAMED)} more` : '';
        return `the release of ${tags.slice(0, TAGS_NAMED).join(', ')}${rest}`;
    }
    switch (trigger.kind) {
        case 'tag':
            return `${trigger.release ? 'release' : 'tag'} ${(0,markdown/* codeSpan */.SS)(trigger.tag, 60)}`;
        case 'pull-request': {
            const label = `${trigger.repo}#${trigger.number}`;
            return `pull request ${trigger.url ? (0,markdown/* markdownLink */.iQ)(label, trigger.url) : (0,markdown/* codeSpan */.SS)(label)}`;
        }
        case 'push': {
            const commits = (0,base_text/* plural */.LS)(trigger.commits.length, 'commit');
            const range = trigger.compareUrl ? (0,markdown/* markdownLink */.iQ)(commits, trigger.compareUrl) : commits;
            return `the push to ${(0,markdown/* codeSpan */.SS)(trigger.branch, 60)} (${range})`;
        }
        case 'scheduled':
            return `the changes on ${(0,markdown/* codeSpan */.SS)(trigger.branch, 60)} since the last successful run of ${(0,markdown/* codeSpan */.SS)(trigger.workflow, 60)}, up to ${(0,markdown/* codeSpan */.SS)(trigger.sha.slice(0, 7))}`;
        case 'other':
            return trigger.event ? `a ${(0,markdown/* codeSpan */.SS)(trigger.event, 40)} run` : undefined;
    }
}

;// CONCATENATED MODULE: ./src/github/without-token.ts

/**
 * What the context of this run reads from GitHub's API, so what the agent does not get without a
 * token; undefined when the event's payload holds all of it (a branch push's commits) or there is
 * no context to read.
 */
function readFromGitHub(trigger, releaseTags) {
    if (releaseTags > 0) {
        return `the release notes and the changes of ${releaseTags === 1 ? 'the released tag' : `the ${(0,base_text/* formatCount */.B4)(releaseTags)} released tags`}`;
    }
    switch (trigger.kind) {
        case 'tag':
            // A release event's payload carries the notes; a tag push carries nothing but the tag's name.
            return trigger.release
                ? `the changes since the release before ${(0,base_text/* inline */.mG)(trigger.tag, 100)}`
                : `the release notes of ${(0,base_text/* inline */.mG)(trigger.tag, 100)} and the changes since the previous release`;
        case 'pull-request':
            return `the files pull request #${trigger.number} changes, with their patches`;
        case 'scheduled':
            return "the changes since the workflow's last successful run";
        case 'push':
        case 'other':
            return undefined;
    }
}

;// CONCATENATED MODULE: ./src/step/no-token.ts

/** An empty token is a warning when it costs the agent its context, a notice otherwise. */
function sayNoToken(settings, trigger, log) {
    const newJob = settings.mode === 'create' || settings.mode === 'command';
    const lost = newJob && settings.context === 'auto' ? readFromGitHub(trigger, settings.releaseTags.length) : undefined;
    // docs-token, when given, still reaches the docs repository.
    const calls = settings.docsToken
        ? 'No GitHub API calls are made on this repository (docs-token still reaches the docs repository).'
        : 'No GitHub API calls are made and no labels are added.';
    if (lost) {
        log.warning(`Input 'github-token' is empty, so the agent will not get ${lost}: only what the event itself holds. ${calls} ` +
            "Leave the input out for the workflow's token.");
    }
    else {
        log.notice(`Input 'github-token' is empty: ${lowerFirst(calls)} Leave the input out for the workflow's token.`);
    }
}
function lowerFirst(text) {
    return text.charAt(0).toLowerCase() + text.slice(1);
}

// EXTERNAL MODULE: ./src/github/rate-limited.ts
var rate_limited = __webpack_require__(7354);
// EXTERNAL MODULE: ./src/github/unreachable.ts
var unreachable = __webpack_require__(7997);
;// CONCATENATED MODULE: ./src/step/tracking/check-problem.ts
/**
 * The warning for a check run request that failed, naming its real cause: the network or GitHub
 * itself (a 5xx, no answer in time) is not a missing permission; a token that cannot make check
 * runs at all (a personal access token: GitHub lets only GitHub Apps, the workflow's token
 * included, write them) is not fixed by `checks: write`.
 */




const UNCHANGED = 'the outputs are unchanged.';
/** `Could not <doing> …`: why, and what would fix it when a permission would. */
function checkProblem(doing, error, permission, personal) {
    const lost = (0,unreachable/* unreachable */.H)(error);
    if (lost)
        return `Could not ${doing} (${(0,base_text/* inline */.mG)(lost, 200)}): a network failure, not a missing permission; ${UNCHANGED}`;
    const { status, response } = error;
    const said = (0,base_text/* inline */.mG)((0,error_message/* errorMessage */.g)(error), 300);
    if (typeof status !== 'number' || (status >= 500 && response === undefined))
        return `Could not ${doing}: GitHub did not answer in time (${said}), not a missing permission; ${UNCHANGED}`;
    if (status >= 500)
        return `Could not ${doing} (HTTP ${status}): GitHub failed (${said}), not a missing permission; ${UNCHANGED}`;
    const limited = (0,rate_limited/* rateLimited */.x)(error);
    if (limited)
        return `Could not ${doing} (HTTP ${status}): ${said}. ${limited}, not a missing permission; ${UNCHANGED}`;
    if (status === 403 && (personal || /GitHub App|personal access token/i.test(said)))
        return `Could not ${doing} (HTTP 403): ${said}. Check runs need the workflow's token (github.token) or a GitHub App's token: a personal access token cannot make them; ${UNCHANGED}`;
    if (status === 404 || status === 422)
        return `Could not ${doing} (HTTP ${status}): ${said}; ${UNCHANGED}`;
    return `Could not ${doing} (HTTP ${status}): ${said}. The 'github-token' input needs ${permission}; ${UNCHANGED}`;
}
/** A token that is a person's (`ghp_`, `github_pat_`, an OAuth app's `gho_`, `ghu_`), by GitHub's token prefixes. */
function personalToken(token) {
    return /^(ghp_|github_pat_|gho_|ghu_)/.test(token);
}
/** GitHub answered 4xx: it did nothing. */
function refusal(error) {
    return Math.floor(Number(error.status) / 100) === 4;
}
/** A 5xx answer or a connection lost (not a time-out): a request that sets a fixed state may be sent once more. */
function check_problem_transient(error) {
    const { status, response } = error;
    return (0,unreachable/* unreachable */.H)(error) !== undefined || (typeof status === 'number' && status >= 500 && response !== undefined);
}

;// CONCATENATED MODULE: ./src/step/tracking/check-deps.ts

/**
 * The commit a check goes on: a pull request's head (read from GitHub for a comment, whose event
 * does not hold it), a tag's commit, a `workflow_run`'s triggering commit, else `GITHUB_SHA`.
 */
async function checkCommit(trigger, sha, api) {
    if (trigger.kind === 'pull-request')
        return trigger.headSha ?? (await api.pullHead(trigger.number));
    // A release's GITHUB_SHA is its tagged commit, but an annotated tag's push may name the tag object.
    if (trigger.kind === 'tag')
        return api.tagCommit(trigger.tag).catch(() => sha);
    // A workflow_run's GITHUB_SHA is the default branch's last commit, not the one its run was for.
    if (trigger.kind === 'other' && trigger.headSha)
        return trigger.headSha;
    return sha;
}
/**
 * Where the check run goes (`check`); undefined when there is none to keep, or no token to write it
 * with (one warning).
 */
function checkDeps(settings, wired) {
    const { env, log, run } = wired;
    const repository = env.GITHUB_REPOSITORY;
    if (!settings.check)
        return undefined;
    if (settings.dryRun) {
        // A dry run sends nothing, the check run included: said, so a missing check is not a mystery.
        log.notice(`Input 'check' is set, but this is a dry run: no check run is made.`);
        return undefined;
    }
    if (!settings.githubToken || !repository) {
        const missing = repository ? "'github-token' is empty" : 'GITHUB_REPOSITORY is not set';
        log.warning(`Input 'check' is set, but ${missing}: no check run is made.`);
        return undefined;
    }
    const api = wired.github.checkRuns(repository);
    const runPrefix = run && `docs-agent-action:${run.runId}`;
    const waitOnly = settings.mode === 'wait-only';
    return {
        ...wired.where,
        log,
        clock: wired.clock,
        api,
        name: settings.check,
        commit: () => checkCommit(wired.trigger, env.GITHUB_SHA || undefined, api),
        externalId: run && `${runPrefix}:${run.attempt}${waitOnly ? ':wait' : ''}`,
        runPrefix,
        attempt: run?.attempt ?? 1,
        mayExist: waitOnly || (run?.attempt ?? 1) > 1,
        personal: personalToken(settings.githubToken)
    };
}

// EXTERNAL MODULE: ./src/report/verdict.ts
var verdict = __webpack_require__(687);
// EXTERNAL MODULE: ./src/github/pr-link.ts
var pr_link = __webpack_require__(4046);
// EXTERNAL MODULE: ./src/report/summary.ts + 4 modules
var summary = __webpack_require__(4704);
// EXTERNAL MODULE: ./src/report/next-steps.ts
var next_steps = __webpack_require__(5587);
;// CONCATENATED MODULE: ./src/step/tracking/link-back-text.ts
/**
 * What the action writes about a job where people look, rendered from the run's state: the pull
 * request's comment, the release notes' block, the docs pull request's comment and the check run's
 * summary. While the step runs (no outcome yet, or `wait: false`) they say the agent is working;
 * at the end, how it ended. Text from GitHub, the server or a prompt is made inert.
 */





/** Whether the step is still with the job: no outcome yet, or one that does not wait for it. */
function working(state) {
    return state.outcome === undefined || state.outcome === 'started';
}
/**
 * The lines every report of the job has: what the agent is doing or how the step ended, the job,
 * the run, the docs pull request and its preview, what was asked and when, and, at the end, what
 * went wrong and what to do now.
 */
function jobLines({ state, settings, asked }, where) {
    const live = working(state);
    const lines = [`**Docs agent:** ${live ? workingOn(settings) : headline(state, where.serverUrl)}`];
    const { automation } = state;
    const facts = [
        automation
            ? `automation ${(0,markdown/* codeSpan */.SS)(automation.id)}${automation.run ? `, run ${(0,markdown/* codeSpan */.SS)(automation.run)}` : ''}`
            : undefined,
        state.jobId ? `job ${(0,markdown/* codeSpan */.SS)(state.jobId)}` : undefined
    ];
    if (state.job?.status)
        facts.push(`status ${(0,markdown/* codeSpan */.SS)(state.job.status, 40)}`);
    if (where.runUrl)
        facts.push((0,markdown/* markdownLink */.iQ)('workflow run', where.runUrl));
    const known = facts.filter((fact) => fact !== undefined);
    if (known.length)
        lines.push('', known.join(' · '));
    const docs = (0,verdict/* pullRequest */.VV)(state);
    if (live && docs.kind === 'link')
        lines.push('', `Docs pull request: ${docsLink(docs.url, where.serverUrl, '')}`);
    if (state.preview?.url)
        lines.push('', `Preview: ${(0,markdown/* markdownLink */.iQ)(state.preview.url, state.preview.url)}`);
    lines.push(...docsChecksLines(state));
    if (state.owner?.reviewers.length)
        lines.push('', `Review requested from ${state.owner.reviewers.map(markdown/* mention */.lE).join(', ')}.`);
    if (!state.jobId)
        return lines;
    const started = startedAt(state, settings);
    const about = [asked && `Asked: ${asked}`, started && `started ${started}`].filter(Boolean);
    if (about.length)
        lines.push('', `${about.join(' · ')}.`);
    const ended = !live && (state.outcome === 'error' || state.outcome === 'cancelled');
    if (ended && state.failure)
        lines.push('', `What happened: ${(0,markdown/* codeSpan */.SS)(state.failure, 600)}`);
    const next = live ? undefined : (0,next_steps/* nextSteps */.Z)(state, settings);
    if (next) {
        const text = next.map((part) => (typeof part === 'string' ? part : (0,markdown/* codeSpan */.SS)(part.code))).join('');
        lines.push('', `What now: ${text}`);
    }
    if (!settings.wait)
        lines.push('', `This step does not wait for the job: a later step that waits for it (${(0,markdown/* codeSpan */.SS)(`job-id: ${state.jobId}`)} and no prompt) on the same event updates this.`);
    return lines;
}
/** The pull request's comment: the job's lines, the group it added to, the last command, and how to ask for changes. */
function renderLinkBack(report, where) {
    const { state, settings } = report;
    const [head = '', ...rest] = jobLines(report, where);
    const lines = [head];
    const { group } = state;
    if (group?.via === 'follow-up' && group.pull)
        lines.push('', `This change was added to the open docs pull request ${(0,markdown/* markdownLink */.iQ)(group.pull.label, group.pull.url)} of group ${(0,markdown/* codeSpan */.SS)(group.name)}.`);
    lines.push(...rest);
    if (settings.command) {
        const what = settings.command.kind === 'follow-up' ? 'a follow-up' : 'a new job';
        lines.push('', `Last request: ${what}, from ${(0,markdown/* mention */.lE)(settings.command.author)}.`);
    }
    // A job the Agent API cannot read is not offered for follow-ups.
    if (state.jobId && state.outcome !== 'queued')
        lines.push('', `To ask for changes, comment ${(0,markdown/* codeSpan */.SS)(`${settings.triggerPhrase} <what to change>`)} here.`);
    return lines;
}
/** The release notes' block: the docs pull request once there is one; until then, the job's state. */
function releaseBlock({ state }, where) {
    const docs = (0,verdict/* pullRequest */.VV)(state);
    if (docs.kind === 'link')
        return `**Docs:** ${docsLink(docs.url, where.serverUrl, '')}`;
    const what = working(state) ? 'the docs agent is working on it.' : headline(state, where.serverUrl);
    const facts = [`job ${(0,markdown/* codeSpan */.SS)(state.jobId ?? '')}`];
    if (where.runUrl)
        facts.push((0,markdown/* markdownLink */.iQ)('workflow run', where.runUrl));
    return `**Docs:** ${what} ${facts.join(' · ')}`;
}
/** The docs pull request's comment: where it came from, the job as it goes, and how to ask for changes. */
function docsPrLines({ state, settings }, source, where) {
    const from = source.thread ?? source.release ?? 'a workflow';
    const facts = [`job ${(0,markdown/* codeSpan */.SS)(state.jobId ?? '')}`];
    if (state.job?.status)
        facts.push(`status ${(0,markdown/* codeSpan */.SS)(state.job.status, 40)}`);
    if (where.runUrl)
        facts.push((0,markdown/* markdownLink */.iQ)('workflow run', where.runUrl));
    return [
        `**Docs agent:** this pull request was opened for ${from}.`,
        '',
        facts.join(' · '),
        '',
        source.thread
            ? `To ask for changes, comment ${(0,markdown/* codeSpan */.SS)(`${settings.triggerPhrase} <what to change>`)} on ${source.thread}.`
            : `To ask for changes, send a follow-up to job ${(0,markdown/* codeSpan */.SS)(state.jobId ?? '')}.`
    ];
}
/** Checks named in the list of those the agent was asked to fix; the rest are counted (the phase reads up to 1,000). */
const ASKED_NAMED = 20;
/** The docs checks phase as it goes: waiting for the checks, and the checks the agent was asked to fix. */
function docsChecksLines({ docsChecks }) {
    if (!docsChecks)
        return [];
    const lines = [];
    const asked = docsChecks.asked ?? [];
    if (asked.length) {
        const named = asked.slice(0, ASKED_NAMED).map((name) => (0,markdown/* codeSpan */.SS)(name, 100));
        const more = asked.length > ASKED_NAMED ? ` and ${(0,base_text/* formatCount */.B4)(asked.length - ASKED_NAMED)} more` : '';
        lines.push('', `Asked the agent to fix: ${named.join(', ')}${more}.`);
    }
    lines.push('', docsChecks.result === 'waiting'
        ? "Waiting for the docs PR's checks."
        : `Docs PR checks: ${(0,markdown/* codeSpan */.SS)(docsChecks.result, 20)}.`);
    return lines;
}
function workingOn(settings) {
    return settings.command ? `working on ${(0,markdown/* mention */.lE)(settings.command.author)}'s request.` : 'working on the docs.';
}
/** How the step ended, in a few words: the docs pull request, or why there is none. */
function headline(state, serverUrl) {
    const pr = (0,verdict/* pullRequest */.VV)(state);
    if (pr.kind === 'link')
        return docsLink(pr.url, serverUrl);
    const status = (0,markdown/* codeSpan */.SS)(state.job?.status ?? 'unknown', 40);
    switch (state.outcome) {
        case 'completed':
            return pr.kind === 'unusable'
                ? 'the job sent a pull request link that is not http(s).'
                : 'no docs changes were needed.';
        case 'failed':
        case 'archived':
            return `no docs pull request: the job ended ${status}.`;
        case 'skipped':
            return `skipped, no job started: ${(0,markdown/* codeSpan */.SS)(state.skip?.reason ?? '', 300)}.`;
        case 'not-permitted':
            return `skipped, no job started: ${(0,markdown/* codeSpan */.SS)(state.failure ?? '', 300)}.`;
        case 'queued':
            return "no docs pull request yet: the automation's run is queued; the Automation Runs page of the Mintlify dashboard follows it.";
        case 'timed-out':
        case 'cancelled':
            return state.jobId ? `no docs pull request yet: the job is ${status}.` : 'no job was started.';
        default:
            return state.jobId
                ? `no docs pull request yet: the step ended before the job did (${status}).`
                : 'no job was started: see the workflow run.';
    }
}
/** `docs pull request [acme/docs#12](…)`: its short name when it is a pull request on this server. */
function docsLink(url, serverUrl, prefix = 'docs pull request ') {
    const ref = (0,pr_link/* parsePullRequestUrl */.X)(url, serverUrl);
    return `${prefix}${(0,markdown/* markdownLink */.iQ)(ref ? `${ref.owner}/${ref.repo}#${ref.number}` : url, url)}`;
}
/** When the work began: a follow-up's when it was sent, else the job's creation (as the server says it). */
function startedAt(state, settings) {
    const at = settings.mode === 'message' ? state.postedAt : Date.parse(state.job?.createdAt ?? '');
    return Number.isFinite(at) ? (0,base_text/* formatTime */.fU)(new Date(at).toISOString()) : undefined;
}

;// CONCATENATED MODULE: ./src/step/tracking/check.ts






/** How long the end of the step waits for a check still being made, so that the summary can show it. */
const MADE_WAIT_MS = 5_000;
/** The step's conclusion for the check: a `fail-on` that tolerates the ending makes it neutral, not success. */
function conclusionOf(state, failed) {
    if (state.outcome === 'cancelled')
        return 'cancelled';
    if (failed)
        return state.outcome === 'timed-out' ? 'timed_out' : 'failure';
    // With `docs-checks`, success only once the docs pull request's checks passed.
    if (state.docsChecks && state.docsChecks.result !== 'success')
        return 'neutral';
    return state.outcome === 'completed' && (0,verdict/* pullRequest */.VV)(state).kind === 'link' ? 'success' : 'neutral';
}
class CheckPhase {
    deps;
    run;
    report;
    #opened;
    #completed;
    /** Where a create that failed may still have made the check: it is looked for there before it is completed. */
    #unsure;
    constructor(deps, run, report) {
        this.deps = deps;
        this.run = run;
        this.report = report;
    }
    /** The job exists: the check is made in progress, beside the step. */
    start() {
        this.#opened ??= this.open(this.report());
    }
    /**
     * The step ended (`failed` as the verdict says): the conclusion goes into the state for the
     * outputs and the summary, once a check still being made is (for a moment at most), and the check
     * is completed beside the report.
     */
    async conclude(failed) {
        const { outcome } = this.run.state;
        if (outcome === 'skipped' || outcome === 'not-permitted')
            return this.skipped();
        const opened = this.#opened;
        if (!opened)
            return;
        await this.whileMade(opened);
        const conclusion = conclusionOf(this.run.state, failed);
        this.run.checked({ ...this.run.state.check, name: this.deps.name, conclusion });
        this.#completed = this.complete(opened, conclusion, this.output(this.report(), conclusion));
    }
    /**
     * A skipped run, or one nobody permitted, has no job: its check is made completed as `skipped`
     * (with why), in one write, so that a required check never waits for a job that does not start.
     */
    async skipped() {
        const conclusion = 'skipped';
        this.run.checked({ ...this.run.state.check, name: this.deps.name, conclusion });
        const report = this.report();
        const opened = this.open(report, { status: 'completed', conclusion }, this.output(report, conclusion));
        this.#completed = opened.then((check) => {
            if (check)
                this.deps.log.info(`Check run ${this.name} completed: ${conclusion}.`);
            else if (this.#unsure)
                this.deps.log.warning(`Could not create the check run ${this.name}: GitHub did not answer; it may be there.`);
        });
        await this.whileMade(opened);
    }
    /** Waits a moment at most for a check still being made, so that the summary can link to it. */
    async whileMade(opened) {
        const limit = this.deps.clock.timeout(MADE_WAIT_MS);
        const waited = new Promise((resolve) => limit.addEventListener('abort', () => resolve('waited')));
        if ((await Promise.race([opened, waited])) === 'waited')
            this.deps.log.debug(`The check run ${this.name} is still being made: the summary shows it without its page.`);
    }
    /** What is left of the completion. */
    async completed() {
        await this.#completed;
    }
    /** The check in progress (or as `state` says); undefined when GitHub refused (one warning) or did not answer. */
    async open(report, state = { status: 'in_progress' }, output = this.output(report, undefined)) {
        const { deps } = this;
        const sha = await deps.commit().catch((error) => {
            deps.log.warning(checkProblem(`read the commit for the check run ${this.name}`, error, 'pull-requests: read', false));
            return null;
        });
        if (sha === null)
            return undefined;
        if (!sha) {
            deps.log.warning(`No check run ${this.name}: the commit this run is for is not known (GITHUB_SHA is empty).`);
            return undefined;
        }
        if (deps.mayExist)
            await this.supersede(sha);
        try {
            const run = { name: deps.name, headSha: sha, externalId: deps.externalId, detailsUrl: deps.runUrl };
            const made = await deps.api.create(run, state, output);
            this.made(made);
            return made;
        }
        catch (error) {
            // Lost on the way, or a 5xx: the create may have been done, so it is looked for at the end.
            if (!refusal(error) && deps.externalId)
                this.#unsure = sha;
            else
                deps.log.warning(this.problem('create', error));
            return undefined;
        }
    }
    /** An earlier attempt's check of this workflow run left in progress (a killed attempt): completed as cancelled. */
    async supersede(sha) {
        const { deps } = this;
        const prefix = deps.runPrefix;
        if (!prefix)
            return;
        const ours = (id) => id === prefix || !!id?.startsWith(`${prefix}:`);
        const why = `superseded by attempt ${deps.attempt}`;
        try {
            const left = (await deps.api.list(sha, deps.name)).filter((run) => !run.completed && run.externalId !== deps.externalId && ours(run.externalId));
            for (const run of left) {
                const summary = `**Docs agent:** ${why} of the workflow run${deps.runUrl ? ` (${deps.runUrl})` : ''}.`;
                await deps.api.update(run.id, CANCELLED, { title: `Cancelled: ${why}`, summary }, deps.runUrl);
                deps.log.info(`Check run ${this.name} of an earlier attempt completed: cancelled, ${why}.`);
            }
        }
        catch (error) {
            deps.log.warning(this.problem('complete an earlier attempt of', error));
        }
    }
    async complete(opened, conclusion, output) {
        const { deps } = this;
        let check = await opened;
        try {
            if (!check && this.#unsure)
                check = await this.lost(this.#unsure);
            if (!check)
                return;
            const docs = (0,verdict/* pullRequest */.VV)(this.run.state);
            const details = conclusion === 'success' && docs.kind === 'link' ? docs.url : deps.runUrl;
            const { id } = check;
            const update = () => deps.api.update(id, { status: 'completed', conclusion }, output, details);
            // It sets a fixed state, so sending it again after a 5xx or a lost connection changes nothing more.
            await update().catch((error) => {
                if (!check_problem_transient(error))
                    throw error;
                return update();
            });
            deps.log.info(`Check run ${this.name} completed: ${conclusion}.`);
        }
        catch (error) {
            deps.log.warning(this.problem(check ? 'complete' : 'find', error));
        }
    }
    /** The check whose create's answer was lost, found by its `external_id`; undefined (one warning) when not there or completed. */
    async lost(sha) {
        const { deps } = this;
        const found = (await deps.api.list(sha, deps.name)).find((run) => run.externalId === deps.externalId);
        if (!found) {
            deps.log.warning(`Could not create the check run ${this.name}: GitHub did not answer, and it is not there.`);
            return undefined;
        }
        this.made(found);
        if (!found.completed)
            return found;
        deps.log.warning(`The check run ${this.name} is completed already: GitHub does not change a completed run.`);
        return undefined;
    }
    /** What the check shows: its title, and the job's lines (every link that matters: GitHub may ignore `details_url`). */
    output(report, conclusion) {
        const { state, settings } = report;
        const docs = (0,verdict/* pullRequest */.VV)(state);
        const ref = conclusion === 'success' && docs.kind === 'link' ? (0,pr_link/* parsePullRequestUrl */.X)(docs.url, this.deps.serverUrl) : undefined;
        const title = conclusion === undefined
            ? `Docs agent working on job ${(0,base_text/* inline */.mG)(state.jobId ?? '', 100)}`
            : ref
                ? `Docs pull request ${ref.owner}/${ref.repo}#${ref.number}`
                : (0,summary/* heading */.R_)(state, settings);
        return { title, summary: jobLines(report, this.deps).join('\n') };
    }
    made(check) {
        this.run.checked({ ...this.run.state.check, name: this.deps.name, id: check.id, url: check.url });
    }
    get name() {
        return `'${(0,base_text/* inline */.mG)(this.deps.name, 100)}'`;
    }
    problem(what, error) {
        return checkProblem(`${what} the check run ${this.name}`, error, 'checks: write', this.deps.personal);
    }
}
const CANCELLED = { status: 'completed', conclusion: 'cancelled' };

// EXTERNAL MODULE: ./src/github/conversation/api.ts + 1 modules
var conversation_api = __webpack_require__(9194);
// EXTERNAL MODULE: ./src/github/conversation/marker.ts
var conversation_marker = __webpack_require__(3697);
;// CONCATENATED MODULE: ./src/github/conversation/thread.ts

/**
 * The one comment the action keeps on an issue or pull request: found by its marker among the
 * comments of the token's own identity, created once, then updated in place.
 */
class LinkBackThread {
    api;
    repository;
    number;
    identity;
    key;
    found;
    commentId;
    constructor(api, repository, number, 
    /** The login the token writes as (read once for the step). */
    identity, 
    /** The marker's key (`markerKey`): a comment whose marker does not verify is not the action's. */
    key) {
        this.api = api;
        this.repository = repository;
        this.number = number;
        this.identity = identity;
        this.key = key;
    }
    /** What this thread's markers are sealed with. */
    get seal() {
        return { key: this.key, repository: this.repository, number: this.number };
    }
    /** The action's comment, read once until the next update reads it again. Throws when GitHub refuses. */
    comment() {
        this.found ??= this.read().then((list) => {
            const own = list[0];
            this.commentId = own?.id;
            return own;
        });
        return this.found;
    }
    /** What the marker holds now. */
    async marker() {
        const own = await this.comment();
        return own && (0,conversation_marker/* decodeMarker */.rH)(own.body, this.seal);
    }
    last = Promise.resolve();
    /** The renders of the next write, and that write: updates asked for while one is under way go out as one. */
    next;
    /**
     * Rewrites the comment from what its marker holds, after any update still under way: the re-run
     * record's save, the progress and the final link-back may overlap, and none may lose what another
     * wrote. `render` gets the comment's body too; when it returns undefined, it changes nothing.
     * Updates asked for while another is under way wait for it, then are rendered in order and
     * written once; a body the comment already has is not written again. Each write renders from
     * the comment as GitHub has it then, read again: another run may have written it since (the
     * merged pull request's run still waiting for its job while a `/docs` command's run saves its
     * re-run record; the examples put the two in different concurrency groups), and rendering from
     * what this run read earlier would drop that record, so a re-run of that run would send again.
     */
    update(render) {
        if (!this.next) {
            const renders = [];
            const written = this.last.then(async () => {
                this.next = undefined;
                this.found = undefined;
                const current = (await this.comment())?.body;
                let body = current;
                for (const each of renders)
                    body = each(body === undefined ? undefined : (0,conversation_marker/* decodeMarker */.rH)(body, this.seal), body) ?? body;
                if (body !== undefined && body !== current)
                    await this.write(body);
            });
            this.next = { renders, written };
            this.last = written.catch(() => undefined);
        }
        this.next.renders.push(render);
        return this.next.written;
    }
    /**
     * Writes `body` into the comment, creating it when there is none. After a create, a comment of
     * the action's that is older (a concurrent run's) wins: the new one is deleted and the old updated.
     */
    async write(body) {
        await this.comment();
        if (this.commentId !== undefined) {
            await this.api.updateComment(this.commentId, body);
            this.found = Promise.resolve({ id: this.commentId, body, author: '' });
            return;
        }
        const created = await this.api.createComment(this.number, body);
        this.commentId = created.id;
        this.found = Promise.resolve({ id: created.id, body, author: '' });
        // Only the duplicate this run made is removed: a concurrent run removes its own.
        const oldest = (await this.read())[0];
        if (oldest && oldest.id < created.id) {
            this.commentId = oldest.id;
            this.found = Promise.resolve({ id: oldest.id, body, author: '' });
            await this.api.deleteComment(created.id);
            await this.api.updateComment(oldest.id, body);
        }
    }
    async read() {
        const me = await this.identity();
        return (0,conversation_marker/* ownComments */.D5)(await this.api.listComments(this.number), me, this.seal);
    }
}

// EXTERNAL MODULE: ./src/github/group/record.ts
var record = __webpack_require__(6930);
// EXTERNAL MODULE: ./src/github/labels.ts
var labels = __webpack_require__(7448);
;// CONCATENATED MODULE: ./src/step/comment/records.ts
/**
 * The records kept in the link-back comment: the re-run record on triggers whose Actions cache is
 * read-only, and the command the step handled.
 */




/**
 * The re-run records in the link-back comment, for triggers whose Actions cache is read-only: a
 * re-run reads the job from its own run's record and resumes instead of creating or messaging
 * again. The marker holds the last runs' keys, each the record itself, sealed (rerun/record.ts), as
 * in the cache, so a re-run of an older run finds its own too.
 */
function commentRecords(thread, runUrl, command) {
    let superseded = false;
    return {
        available: true,
        superseded: () => superseded,
        lookup: async (prefix) => {
            try {
                const records = (await thread.marker())?.records ?? [];
                const at = records.findLastIndex((entry) => entry.key.startsWith(prefix));
                superseded = at >= 0 && at < records.length - 1;
                const key = records[at]?.key;
                return key === undefined ? { kind: 'missing' } : { kind: 'found', key };
            }
            catch (error) {
                return { kind: 'failed', message: (0,error_message/* errorMessage */.g)(error) };
            }
        },
        save: async (key) => {
            try {
                const lines = ['**Docs agent:** working on the job; this comment is updated when the step ends.'];
                if (runUrl)
                    lines.push('', (0,markdown/* markdownLink */.iQ)('workflow run', runUrl));
                await thread.update((previous, body) => {
                    const kept = previous?.records ?? [];
                    const at = kept.findIndex((entry) => prefixOf(entry.key) === prefixOf(key));
                    // An attempt replaces its run's record in place; a new run's comes last, the oldest goes.
                    const records = at >= 0 ? kept.with(at, { key, command }) : [...kept, { key, command }].slice(-conversation_marker/* MAX_RECORDS */.uq);
                    // What the comment says is the progress's (written with the record: progress.ts) or a later run's.
                    if (body !== undefined)
                        return (0,conversation_marker/* remarked */.q0)(body, { job: previous?.job, ...previous, records }, thread.seal);
                    return (0,conversation_marker/* commentBody */.I2)(lines, { job: previous?.job, records, command }, thread.seal);
                });
                return { kind: 'saved' };
            }
            catch (error) {
                return { kind: 'failed', message: (0,error_message/* errorMessage */.g)(error) };
            }
        }
    };
}
/** What the marker remembers of the command that drove the step. */
function handledCommand(settings) {
    const { command } = settings;
    if (!command)
        return undefined;
    return { id: command.id, kind: command.kind, job: settings.mode === 'message' ? settings.jobId : undefined };
}

;// CONCATENATED MODULE: ./src/step/tracking/link-back.ts











/** GitHub refuses release notes longer than this: 422 "body is too long (maximum is 125000 characters)". */
const MAX_RELEASE_BODY_CHARS = 125_000;
/** The link-back's writes of one step. */
class LinkBack {
    report;
    targets;
    deps;
    /** Targets GitHub refused once: written no more. */
    #refused = new Set();
    /** The release's writes, one after another (each reads the notes it edits). */
    #release = Promise.resolve();
    /** The docs pull request, judged once per link: its comment thread, or undefined when it is not commented on. */
    #docs;
    constructor(
    /** What is said, taken at each write: the state as it is then (a copy). */
    report, targets, deps) {
        this.report = report;
        this.targets = targets;
        this.deps = deps;
    }
    /**
     * Writes each target from the state as it is now (a body a target already has is not written
     * again): `final` at the step's end, which is logged; else the progress. Never throws. The pull
     * request's comment is asked for at once, so that a record saved in it at the same moment goes
     * out in the same write (thread.ts).
     */
    async write(final) {
        const report = this.report();
        const { state, settings } = report;
        // A dry run sends nothing; a run nobody permitted, or a skipped one, leaves no trace.
        if (settings.dryRun || state.outcome === 'not-permitted' || state.outcome === 'skipped')
            return;
        if (!final) {
            const docs = state.job?.prLink ? `, docs pull request ${(0,base_text/* inline */.mG)(state.job.prLink, 200)}` : '';
            this.deps.log.debug(`Progress: job ${(0,base_text/* inline */.mG)(state.jobId ?? '')} ${(0,base_text/* inline */.mG)(state.job?.status ?? 'unknown', 40)}${docs}`);
        }
        await Promise.all([
            this.onPullRequest(report, final),
            this.inRelease(report, final),
            this.onDocsPullRequest(report, final)
        ]);
    }
    async onPullRequest(report, final) {
        const { thread, superseded } = this.targets;
        if (!thread || this.#refused.has('pull-request'))
            return;
        if (superseded?.()) {
            if (final)
                this.deps.log.info('A later request is linked back on the pull request: its comment is left as it is.');
            return;
        }
        try {
            await thread.update((previous) => {
                // A write queued before GitHub refused one is not sent.
                if (this.#refused.has('pull-request'))
                    return undefined;
                // The re-run records, when this trigger keeps them there, stay for re-runs of these runs.
                const job = report.state.jobId ?? previous?.job;
                // Kept with its job: a later /docs command's follow-up inherits it (step/outsider.ts).
                const outsider = report.state.outsider || (previous?.outsider && previous.job === job);
                const marker = {
                    job,
                    records: previous?.records,
                    command: handledCommand(report.settings) ?? previous?.command,
                    ...(outsider ? { outsider: true } : {})
                };
                return (0,conversation_marker/* commentBody */.I2)(renderLinkBack(report, this.deps), marker, thread.seal);
            });
            if (final)
                this.deps.log.info(`Linked back on ${thread.repository}#${thread.number}.`);
        }
        catch (error) {
            const what = `comment on ${thread.repository}#${thread.number}`;
            this.refusedOnce('pull-request', (0,conversation_api/* refused */.J5)(what, error, 'pull-requests: write (or issues: write)'));
        }
    }
    inRelease(report, final) {
        const { release } = this.targets;
        // Only a job has a state to show; a run that started none leaves the notes as they are.
        if (!release || !report.state.jobId)
            return Promise.resolve();
        this.#release = this.#release.then(() => this.writeRelease(release, report, final));
        return this.#release;
    }
    async writeRelease({ repository, tag }, report, final) {
        if (this.#refused.has('release'))
            return;
        const { log } = this.deps;
        const name = (0,base_text/* inline */.mG)(tag, 100);
        try {
            const api = this.deps.api(repository);
            const notes = await api.release(tag);
            if (!notes) {
                if (final)
                    log.info(`No release for ${name}: release notes not linked.`);
                return;
            }
            const body = (0,markdown/* withReleaseBlock */.zE)(notes.body, releaseBlock(report, this.deps));
            if (body.length > MAX_RELEASE_BODY_CHARS) {
                this.refusedOnce('release', `Not linking the job back in the notes of release ${name}: with the docs block they would be ${(0,base_text/* formatCount */.B4)(body.length)} characters, over GitHub's limit of ${(0,base_text/* formatCount */.B4)(MAX_RELEASE_BODY_CHARS)}; the outputs are unchanged.`);
                return;
            }
            if (body !== notes.body)
                await api.updateRelease(notes.id, body);
            if (final)
                log.info(`Linked back in the notes of release ${name}.`);
        }
        catch (error) {
            this.refusedOnce('release', (0,conversation_api/* refused */.J5)(`edit the notes of release ${name}`, error, 'contents: write'));
        }
    }
    async onDocsPullRequest(report, final) {
        const { state } = report;
        const link = (0,verdict/* pullRequest */.VV)(state);
        // A grouped run's docs pull request has the group's comment: one comment from the action, not two.
        if (!this.targets.docsPr || link.kind !== 'link' || state.group || this.#refused.has('docs-pr'))
            return;
        const thread = this.docsThread(link.url, report);
        if (!thread)
            return;
        const where = `${thread.repository}#${thread.number}`;
        const { release } = this.targets;
        const source = {
            thread: this.targets.thread && `${this.targets.thread.repository}#${this.targets.thread.number}`,
            // A tag may hold `@user`, `owner/repo#1` or HTML: written as code, it stays text.
            release: release && `release ${(0,markdown/* codeSpan */.SS)(release.tag, 100)} of ${release.repository}`
        };
        try {
            await thread.update((_marker, body) => 
            // A group's comment (its record included) is the group's runs' alone: a `/docs` follow-up to
            // the group's job leaves it as it is, or the next run of the group would not find its record.
            this.#refused.has('docs-pr') || (body !== undefined && (0,record/* holdsGroupRecord */.Pf)(body))
                ? undefined
                : (0,conversation_marker/* commentBody */.I2)(docsPrLines(report, source, this.deps), { job: state.jobId, ...(state.outsider ? { outsider: true } : {}) }, thread.seal));
            if (final)
                this.deps.log.info(`Linked back on the docs pull request ${where}.`);
        }
        catch (error) {
            const needs = `pull-requests: write on ${thread.repository}`;
            this.refusedOnce('docs-pr', (0,conversation_api/* refused */.J5)(`comment on ${where}`, error, needs, docs_client/* DOCS_TOKEN */.Wg));
        }
    }
    /** The docs pull request's thread: only one in the job's repository is commented on, as `labels` does. */
    docsThread(url, { state, settings }) {
        if (this.#docs?.url === url)
            return this.#docs.thread;
        const target = (0,labels/* labelTarget */.W)(url, state.job?.source?.repository, this.deps.serverUrl);
        let thread;
        if (target?.kind === 'label') {
            const { owner, repo, number } = target.pr;
            const repository = `${owner}/${repo}`;
            const { docs } = this.deps;
            const identity = () => docs.identity();
            thread = new LinkBackThread(docs.api(repository), repository, number, identity, (0,conversation_marker/* markerKey */.s8)(settings.apiKey));
        }
        else {
            this.deps.log.warning(`Not commenting on the docs pull request ${(0,base_text/* inline */.mG)(url, 200)}: ${target?.reason ?? ''}.`);
        }
        this.#docs = { url, thread };
        return thread;
    }
    /** The first refusal of a target is one warning; the target is written no more. */
    refusedOnce(target, warning) {
        if (this.#refused.has(target))
            return;
        this.#refused.add(target);
        this.deps.log.warning(warning);
    }
}

;// CONCATENATED MODULE: ./src/step/tracking/progress.ts
class Progress {
    links;
    jobId;
    /** Writes under way. */
    #writes = [];
    /** The job the started state was written for. */
    #started;
    constructor(links, jobId) {
        this.links = links;
        this.jobId = jobId;
    }
    /**
     * The job exists (this step's request was answered, or a grouped run targets the group's job):
     * the agent is at work. Once per job: a grouped follow-up's answer adds nothing to its targeting.
     */
    started() {
        if (this.jobId() === this.#started)
            return;
        this.#started = this.jobId();
        this.#writes.push(this.links.write(false));
    }
    /** The wait read a new status or docs pull request. */
    changed() {
        this.#writes.push(this.links.write(false));
    }
    /** The step's end: once the progress is written, the outcome. */
    async ended() {
        await Promise.all(this.#writes);
        await this.links.write(true);
    }
}

;// CONCATENATED MODULE: ./src/step/tracking/tracking.ts
/**
 * What follows the job on GitHub while the step runs, as the flow tells it: the link-back's progress
 * (progress.ts) and the check run (check.ts). The flow says when the job exists, the wait loop
 * when its status or docs pull request changes, and the report when the step ended.
 */




class Tracking {
    run;
    /** The request as decided so far: a grouped run's becomes a follow-up. */
    #settings;
    #progress;
    #check;
    constructor(mode, run, deps) {
        this.run = run;
        this.#settings = mode.settings;
        // A copy of the state as it is when a write is asked for: writes go out beside the step, later.
        const report = () => ({ state: { ...run.state }, settings: this.#settings, asked: deps.asked });
        this.#progress = new Progress(new LinkBack(report, mode.targets, deps.conversation), () => run.state.jobId);
        this.#check = deps.check && new CheckPhase(deps.check, run, report);
        // A grouped run's job exists once it targets the group's: shown before its follow-up is answered.
        run.onTargeted = () => this.started();
    }
    /** This step's create or message was answered: the started state is written, the check made. */
    answered(settings) {
        this.#settings = settings;
        this.started();
    }
    started() {
        this.#progress.started();
        this.#check?.start();
    }
    /** A re-run or a wait-only step follows a job it knows: the check is made; the comment waits for a first read. */
    following(settings) {
        this.#settings = settings;
        this.#check?.start();
    }
    /** The wait read a new status or docs pull request. */
    changed() {
        this.#progress.changed();
    }
    /** The step ended: the check's conclusion is decided (for the outputs and the summary) and written beside them. */
    async ended(settings) {
        this.#settings = settings;
        await this.#check?.conclude((0,verdict/* verdict */.WJ)(this.run.state, settings).failed);
    }
    /** After the report: the check completed, then the link-back's last write. */
    async linkBack() {
        await this.#check?.completed();
        await this.#progress.ended();
    }
}

;// CONCATENATED MODULE: ./src/github/nothing-to-document.ts
/** Runs that have nothing to document: the step ends with one log line, and starts no job. */

/**
 * Why this run has nothing to document, for one log line and no job; undefined when it may have
 * something: a push that deleted a branch or tag, a release edit that only rewrote the action's
 * own link-back, a release deleted or unpublished, a pull request closed without being merged (a
 * workflow `on: pull_request: types: [closed]` whose job has no `if: …merged`).
 */
function nothingToDocument(trigger) {
    if (trigger.kind === 'other' && trigger.deletedRef !== undefined) {
        return `The push deleted ${refName(trigger.deletedRef)}: nothing to document.`;
    }
    if (trigger.kind === 'pull-request' && trigger.closedUnmerged) {
        return `Pull request #${trigger.number} was closed without being merged: nothing to document.`;
    }
    if (trigger.kind === 'tag' && trigger.release?.ownLinkBack) {
        return "The release's notes changed only in the action's own link-back block: nothing to document.";
    }
    if (trigger.kind === 'tag' && trigger.release?.withdrawn) {
        return `Release ${(0,base_text/* inline */.mG)(trigger.tag, 100)} was ${trigger.release.withdrawn}: nothing to document.`;
    }
    return undefined;
}
/** `tag v1.2.0`, `branch feature/x`, or the ref as it is. */
function refName(ref) {
    const [, kind, name] = /^refs\/(tags|heads)\/(.+)$/.exec(ref) ?? [];
    if (name === undefined)
        return ref ? (0,base_text/* inline */.mG)(ref, 120) : 'a ref';
    return `${kind === 'tags' ? 'tag' : 'branch'} ${(0,base_text/* inline */.mG)(name, 100)}`;
}

// EXTERNAL MODULE: ./src/base/hidden.ts
var base_hidden = __webpack_require__(1605);
;// CONCATENATED MODULE: ./src/step/comment/command.ts
/**
 * A `/docs` comment on a pull request becomes the step's request: read, checked (who wrote it, and
 * whether they may write), acknowledged with a reaction, and turned into a new job or a follow-up.
 */









/**
 * The request in the event's comment, or why there is none. A writer's `/docs …` on a pull
 * request that links to a job is a follow-up to it; on one that does not, a new job.
 */
async function readCommand(settings, comment, thread, deps) {
    if (!comment || !thread)
        return { ignored: 'Not a comment on a pull request: nothing to do.' };
    const who = `@${(0,base_text/* inline */.mG)(comment.author.login, 60)}`;
    if (comment.action !== 'created' && comment.action !== 'submitted')
        return { ignored: `Comment by ${who} was ${(0,base_text/* inline */.mG)(comment.action, 20)}: only a new comment can be a request.` };
    const asked = commandText(comment.body, settings.triggerPhrase);
    if (asked === undefined)
        return { ignored: `Comment by ${who} does not start with ${settings.triggerPhrase}: nothing to do.` };
    if (!asked)
        return { ignored: `Comment by ${who} has nothing after ${settings.triggerPhrase}: nothing to do.` };
    const refused = await whyNotPermitted(settings, comment, who, deps);
    if (refused)
        return refused;
    // The agent reads no more of the comment than a reviewer sees.
    const visible = await (0,base_hidden/* removeHidden */.ZO)((0,base_text/* normalizeLineEndings */.EW)(asked));
    const requested = visible.text.trim();
    if (!requested)
        return { ignored: `Comment by ${who} has nothing visible after ${settings.triggerPhrase}: nothing to do.` };
    const prompt = withinLimit(requested, deps.log);
    let marker;
    try {
        marker = await thread.marker();
    }
    catch (error) {
        // Unread comments are not "no linked job": a new job could duplicate the linked one.
        deps.log.warning(`Could not read the comments of pull request #${thread.number} (${(0,base_text/* inline */.mG)((0,unreachable/* unreachable */.H)(error) ?? (0,error_message/* errorMessage */.g)(error), 200)}): the command from ${who} is not carried out.`);
        await acknowledge(comment, thread.api, deps.log, 'confused');
        return { ignored: `The command from ${who} was not carried out: the pull request's comments could not be read.` };
    }
    await acknowledge(comment, thread.api, deps.log, 'eyes');
    const linked = linkedJob(marker, comment.id);
    const command = { author: comment.author.login, text: requested, id: comment.id, hidden: visible.removed };
    if (linked) {
        deps.log.info(`${settings.triggerPhrase} from ${who}: a follow-up to job ${(0,base_text/* inline */.mG)(linked)}.`);
        // The linked job's record: whether an outsider's text reached it, for merge: auto (step/outsider.ts).
        const outsider = marker?.outsider && marker.job === linked ? { outsider: true } : {};
        return {
            ...settings,
            mode: 'message',
            jobId: linked,
            prompt,
            command: { ...command, kind: 'follow-up', ...outsider }
        };
    }
    deps.log.info(`${settings.triggerPhrase} from ${who}: no job is linked to this pull request, so a new one.`);
    return { ...settings, mode: 'create', prompt, command: { ...command, kind: 'create' } };
}
/** Why the comment's author may not command (a bot not listed, no write access, a permission not read); undefined: they may. */
async function whyNotPermitted(settings, comment, who, deps) {
    if (comment.author.bot && !(0,permissions/* botAllowed */.ud)(comment.author.login, settings.allowedBots))
        return { ignored: `${who} is a bot not listed in allowed-bots: its comment is not a request.` };
    const read = await deps.permission(comment.author.login);
    if (!read.known) {
        // It may be a writer's command that is dropped: a warning, where the run is looked at (as trust.ts's gate).
        deps.log.warning((0,trust/* permissionUnread */.X7)(who, comment.repo, read, `the ${settings.triggerPhrase} command is not carried out`));
        return { ignored: `Could not read ${who}'s permission on ${comment.repo}: the comment is not acted on.` };
    }
    if (!(0,permissions/* mayWrite */.J)(read.permission))
        return { ignored: `${who} has no write access to ${comment.repo}: the comment is not a request.` };
    return undefined;
}
/** The request as sent: its first MAX_PROMPT_CHARS characters, with a warning when it is longer. */
function withinLimit(requested, log) {
    if (requested.length <= MAX_PROMPT_CHARS)
        return requested;
    log.warning(`The request has ${(0,base_text/* formatCount */.B4)(requested.length)} characters; the first ${(0,base_text/* formatCount */.B4)(MAX_PROMPT_CHARS)} are sent.`);
    // Never between the two halves of a character past U+FFFF: a lone surrogate is not Unicode.
    const cut = requested.slice(0, MAX_PROMPT_CHARS);
    return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}
/** The job comment `id` goes to: the marker's linked job, or the one it went to if it was handled before. */
function linkedJob(marker, id) {
    // A re-run of the run that handled this comment asks the same again, so its re-run record matches.
    const again = [marker?.command, ...(marker?.records ?? []).map((entry) => entry.command)].find((handled) => handled?.id === id);
    return again ? again.job : marker?.job;
}
/**
 * A reaction says the command was read (👀) or read and not carried out (😕); reviews take none
 * (GitHub has no reactions for them).
 */
async function acknowledge(comment, api, log, content) {
    const kind = comment.event === 'issue_comment'
        ? 'issue'
        : comment.event === 'pull_request_review_comment'
            ? 'review-comment'
            : undefined;
    if (!kind)
        return;
    try {
        await api.react(kind, comment.id, content);
    }
    catch (error) {
        log.warning((0,conversation_api/* refused */.J5)('react to the comment', error, 'pull-requests: write (or issues: write)'));
    }
}

;// CONCATENATED MODULE: ./src/step/mode.ts
/**
 * The step's mode, decided once before the flow starts: what is asked of the Agent API (a new job,
 * a follow-up, only a wait, or what a pull request comment's command asks), with where its re-run
 * record is kept and where the job is linked back. Nothing later switches it.
 */






/**
 * Decides the mode from the inputs and the trigger: the comment's request (or why there is none),
 * the pull request or release to link back on, and, on triggers whose Actions cache is read-only
 * (or under a `cache-mode` that does not both save and restore), the link-back comment as the
 * re-run record.
 */
async function decideMode(settings, event, deps) {
    const { trigger, comment } = event;
    // A follow-up to job-id and a wait-only step are explicit requests about a job already made; the
    // release edit of the action's own link-back is an echo for every step (a personal token's edit
    // starts the workflow again, and a follow-up would link back, and so on).
    const explicit = settings.mode === 'message' || settings.mode === 'wait-only';
    const echo = trigger.kind === 'tag' && trigger.release?.ownLinkBack === true;
    const nothing = explicit && !echo ? undefined : nothingToDocument(trigger);
    if (nothing !== undefined)
        return { why: nothing };
    const pull = comment
        ? { repository: comment.repo, number: comment.pullNumber }
        : trigger.kind === 'pull-request'
            ? { repository: trigger.repo, number: trigger.number }
            : undefined;
    const linking = settings.linkBack.has('pull-request');
    // A command reads the pull request's comment for its job even when it is not to be written.
    const thread = pull && (linking || settings.mode === 'command')
        ? new LinkBackThread(deps.api(pull.repository), pull.repository, pull.number, () => deps.identity(), (0,conversation_marker/* markerKey */.s8)(settings.apiKey))
        : undefined;
    const resolved = settings.mode === 'command' ? await readCommand(settings, comment, thread, deps) : settings;
    if ('ignored' in resolved)
        return { why: resolved.ignored };
    const cacheless = READ_ONLY_CACHE_EVENTS.includes(event.name) || !event.cacheKeepsRecords;
    const keepsRecord = cacheless && thread && linking;
    const kept = keepsRecord ? commentRecords(thread, deps.runUrl, handledCommand(resolved)) : undefined;
    return {
        settings: resolved,
        records: kept ?? event.records,
        targets: {
            thread: linking ? thread : undefined,
            superseded: kept?.superseded,
            release: settings.linkBack.has('release') && trigger.kind === 'tag'
                ? { repository: trigger.repo, tag: trigger.tag }
                : undefined,
            docsPr: settings.linkBack.has('docs-pr')
        }
    };
}

;// CONCATENATED MODULE: ./src/step/unevaluated.ts
/**
 * GitHub's runner evaluates every `${{ … }}` before the step starts, action.yml's defaults included;
 * GitHub's local runner (@github/local-action) passes those defaults as written, so `github-token`
 * arrives as the text `${{ github.token }}`. An input that is nothing but such an expression is read
 * as empty (its default where action.yml has a plain one), and one notice names them.
 */
const EXPRESSION = /^\$\{\{[\s\S]*\}\}$/;
function evaluatedInputs(input) {
    const unevaluated = new Set();
    return {
        get(name) {
            const value = input(name);
            if (!EXPRESSION.test(value))
                return value;
            unevaluated.add(name);
            return '';
        },
        notice() {
            const names = [...unevaluated].map((name) => `'${name}'`);
            if (names.length === 0)
                return undefined;
            const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}` : names.join('');
            return (`${names.length > 1 ? 'Inputs' : 'Input'} ${list} ${names.length > 1 ? 'are unevaluated expressions' : 'is an unevaluated expression'} (\${{ … }}), read as empty: ` +
                "only GitHub's runner evaluates expressions, and GitHub's local runner passes action.yml's defaults as written.");
        }
    };
}

;// CONCATENATED MODULE: ./src/step/main.ts

























const USER_AGENT = 'docs-agent-action/1';
/** Longest a permission read may take; past it the permission is unknown, and no job starts. */
const PERMISSION_TIMEOUT_MS = 10_000;
/** Longest a read of the docs repository's open pull requests may take. */
const GROUP_READ_TIMEOUT_MS = 30_000;
/** Longest one request of the owner phase (reviewers, assignees, merge) may take. */
const OWNER_TIMEOUT_MS = 30_000;
/** Masks the secrets, reads the inputs, decides the mode, wires the dependencies and runs the step; the exit code. */
async function main(host) {
    const evaluated = evaluatedInputs((name) => host.input(name));
    // Masked before anything else can print them.
    const secrets = [evaluated.get('api-key'), evaluated.get('github-token'), evaluated.get('docs-token')].filter(Boolean);
    for (const secret of secrets)
        host.setSecret(secret);
    const reporter = redactingReporter(host, secrets);
    const { log } = reporter;
    const stopLogging = logCancel(host, log);
    const inputs = readInputs(host, evaluated);
    const unevaluated = evaluated.notice();
    if (unevaluated)
        log.notice(unevaluated);
    if ('failure' in inputs) {
        // Bad input takes the same exit as any other ending: outputs (a given job-id included), summary, one error.
        const state = badInputState(host.clock.now(), evaluated.get('job-id') || undefined, inputs.failure);
        // Loaded only here and at the end of a run (closing.ts): a run reaches its first request without it.
        const { finish } = await __webpack_require__.e(/* import() */ 547).then(__webpack_require__.bind(__webpack_require__, 9547));
        await finish(state, undefined, reporter);
        return 1;
    }
    const { settings, dispatcher } = inputs;
    const where = { apiUrl: host.env.GITHUB_API_URL, clock: host.clock, pace: host.githubPace, secrets };
    const github = (0,docs_client/* sourceClient */.Bp)(settings, where);
    const docs = (0,docs_client/* docsClient */.vf)(settings, where, github);
    log.debug(`Mode ${settings.mode}; timeout ${settings.timeoutMs}ms; polls from ${settings.pollIntervalMs}ms up to ${settings.maxPollIntervalMs}ms; base URL ${settings.baseUrl.origin}`);
    const { env } = host;
    const readFile = (path) => host.readFile(path);
    const trigger = (0,github_event/* readTrigger */.vE)(env, readFile);
    if (!settings.githubToken)
        sayNoToken(settings, trigger, log);
    const run = runIdentity(env);
    const permissions = permissionReader(host, github);
    const conversation = conversationDeps(env, log, { github, docs }, permissions, run);
    try {
        const event = { name: env.GITHUB_EVENT_NAME ?? '', trigger, comment: readCommentEvent(env, readFile) };
        const records = { records: host.records, cacheKeepsRecords: cacheKeepsRecords(env) };
        const mode = await decideMode(settings, { ...event, ...records }, conversation);
        if ('why' in mode) {
            // A workflow on every comment must not turn red, nor write anything: one line says why.
            log.info(mode.why);
            // `command` says what a comment asked for: empty when the step is not a comment's.
            reporter.setOutput('command', settings.mode === 'command' ? 'ignored' : '');
            // The yes-or-no outputs are false, as action.yml says, for a later step's `if:` to read.
            for (const name of ['skipped', 'timed-out', 'not-permitted', 'grouped'])
                reporter.setOutput(name, 'false');
            return 0;
        }
        const wired = { settings, dispatcher, github, docs, permissions, trigger, run, conversation };
        const deps = stepDeps(host, reporter, wired);
        const { failed } = await runStep(mode, deps);
        return failed ? 1 : 0;
    }
    catch (error) {
        log.error(`Unexpected error: ${(0,error_message/* errorMessage */.g)(error)}`);
        return 1;
    }
    finally {
        stopLogging();
        await dispatcher.destroy();
    }
}
/** The outputs, summary and log, with the secrets redacted. */
function redactingReporter(host, secrets) {
    return {
        log: redactingLog(host.log, secrets),
        serverUrl: host.env.GITHUB_SERVER_URL,
        setOutput: (name, value) => host.setOutput(name, (0,base_text/* redact */.E$)(value, secrets)),
        // The summary is HTML with every value escaped: a secret holding `&<>"` is found as written there.
        writeSummary: (markdown) => host.writeSummary((0,base_text/* redact */.E$)(markdown, [...secrets, ...secrets.map(base_text/* escapeHtml */.ZD)]))
    };
}
/** Logs the runner's cancel when it comes; returns the function that stops listening. */
function logCancel(host, log) {
    const { signal } = host.signals;
    const onSignal = () => log.info(`Received ${host.signals.received() ?? 'a cancel'}: stopping and reporting what is known.`);
    if (signal.aborted)
        onSignal();
    else
        signal.addEventListener('abort', onSignal, { once: true });
    return () => signal.removeEventListener('abort', onSignal);
}
/** The settings and the HTTP dispatcher they ask for, or what is wrong with the inputs. */
function readInputs(host, evaluated) {
    try {
        const workspace = host.env.GITHUB_WORKSPACE || '.';
        const settings = parseSettings({ get: (name) => evaluated.get(name), readFile: (path) => readPromptFile(path, workspace) }, { commands: isCommentEvent(host.env.GITHUB_EVENT_NAME) });
        return { settings, dispatcher: createDispatcher(settings.baseUrl) };
    }
    catch (error) {
        return {
            failure: error instanceof inputs/* InputError */.dz || error instanceof ProxyError
                ? error.message
                : `Could not read the inputs: ${(0,error_message/* errorMessage */.g)(error)}`
        };
    }
}
/** Permissions on the workflow's repository: one read per login for the step (the command's check and the actor gate share it). */
function permissionReader(host, github) {
    return new permissions/* Permissions */.xB((login) => github.permission(host.env.GITHUB_REPOSITORY ?? '', login, AbortSignal.any([host.signals.signal, host.clock.timeout(PERMISSION_TIMEOUT_MS)])));
}
function conversationDeps(env, log, { github, docs }, permissions, run) {
    let identity;
    let docsIdentity;
    const source = () => (identity ??= github.conversation(env.GITHUB_REPOSITORY ?? '').identity());
    return {
        log,
        identity: source,
        api: (repository) => github.conversation(repository),
        docs: {
            // The same token's login is read once.
            identity: () => (docs === github ? source() : (docsIdentity ??= docs.conversation('').identity())),
            api: (repository) => docs.conversation(repository)
        },
        permission: (login) => permissions.of(login),
        serverUrl: env.GITHUB_SERVER_URL,
        runUrl: run && env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY
            ? `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${run.runId}`
            : undefined
    };
}
/** What the step's flow needs, wired to the runner's surroundings. */
function stepDeps(host, reporter, wired) {
    const { env } = host;
    const { github, docs, conversation } = wired;
    const api = agentClient(wired.settings, wired.dispatcher, host, reporter.log);
    return {
        ...reporter,
        api,
        previews: api,
        automations: api,
        clock: host.clock,
        signal: host.signals.signal,
        repository: env.GITHUB_REPOSITORY || undefined,
        trigger: () => wired.trigger,
        trust: () => (0,trust/* readTrustFacts */.SW)(env, (path) => host.readFile(path)),
        permissions: wired.permissions,
        github: {
            reader: (repository, readSignal) => github.reader(repository, readSignal),
            // The docs pull request's: its labels, its branch (the preview), its owner.
            addLabels: (pr, labels) => docs.addLabels(pr, labels),
            pullBranch: (pr, readSignal) => docs.pullBranch(pr, readSignal),
            owner: (pr) => docs.owner(pr, () => AbortSignal.any([host.signals.signal, host.clock.timeout(OWNER_TIMEOUT_MS)]))
        },
        docsChecks: (pr) => docs.docsChecks(pr, () => AbortSignal.any([host.signals.signal, host.clock.timeout(OWNER_TIMEOUT_MS)])),
        author: () => runAuthor(env, (path) => host.readFile(path), wired.settings.releaseTags.length > 0),
        run: wired.run,
        runUrl: conversation.runUrl,
        sha: env.GITHUB_SHA || undefined,
        eventName: env.GITHUB_EVENT_NAME,
        groupDocs: (repository) => {
            const count = new requests/* RequestCount */.X();
            const api = docs.conversation(repository, count);
            const signal = () => AbortSignal.any([host.signals.signal, host.clock.timeout(GROUP_READ_TIMEOUT_MS)]);
            return {
                identity: () => conversation.docs.identity(),
                openPulls: () => docs.openPulls(repository, signal(), count),
                pullState: (number) => docs.pullState(repository, number, signal(), count),
                comments: (number) => api.listComments(number),
                requests: () => count.sent,
                createComment: (number, body) => api.createComment(number, body),
                updateComment: (id, body) => api.updateComment(id, body)
            };
        },
        tracking: (mode, run) => new Tracking(mode, run, {
            conversation,
            asked: askedFor(wired.trigger, mode.settings),
            check: checkDeps(mode.settings, { ...wired, env, clock: host.clock, log: reporter.log, where: conversation })
        })
    };
}
function agentClient(settings, dispatcher, host, log) {
    return new AgentClient({
        baseUrl: settings.baseUrl,
        apiKey: settings.apiKey,
        projectId: settings.projectId,
        dispatcher,
        userAgent: USER_AGENT,
        clock: host.clock,
        debug: (message) => log.debug(message)
    });
}

// EXTERNAL MODULE: ./src/step/signals.ts
var step_signals = __webpack_require__(7119);
;// CONCATENATED MODULE: ./src/step/runner.ts






// The runner's side of `main(host)`, in a module of its own so that the in-process tests, which
// bring their own host, do not load @actions/core.
/** How long a request left over after the step (a cache upload given up on) may hold the process. */
const EXIT_GRACE_MS = 2_000;
/** The runner's entry (and `npm run local-action`'s): the real host, then the exit code. */
async function run(signals = (0,step_signals/* watchSignals */.R)()) {
    const code = await main({
        input: (name) => core/* getInput */.V4(name),
        setSecret: (secret) => core/* setSecret */.Pq(secret),
        setOutput: (name, value) => core/* setOutput */.uH(name, value),
        writeSummary: async (markdown) => {
            await core/* summary */.z.addRaw(markdown).write();
        },
        log: {
            info: (m) => core/* info */.pq(m),
            debug: (m) => core/* debug */.Yz(m),
            notice: (m) => core/* notice */.lm(m),
            warning: (m) => core/* warning */.$e(m),
            error: (m) => core/* error */.z3(m)
        },
        env: process.env,
        readFile: (path) => (0,external_node_fs_.readFileSync)(path, 'utf8'),
        clock: clock/* systemClock */.ml,
        signals,
        records: cacheRecordStore(process.env)
    });
    process.exitCode = code;
    setTimeout(() => process.exit(), EXIT_GRACE_MS).unref();
}


/***/ }),

/***/ 6729:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   u: () => (/* binding */ wait)
/* harmony export */ });
/* harmony import */ var _base_duration_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(5937);
/* harmony import */ var _base_text_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(766);
/* harmony import */ var _agent_api_wait_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(4415);



async function wait(settings, deps, run, deadline, how) {
    const { clock, log } = deps;
    const { jobId } = how;
    if (!settings.wait && how.posted)
        return { kind: 'not-waited', job: run.state.job };
    run.waitStarted();
    const end = await (0,_agent_api_wait_js__WEBPACK_IMPORTED_MODULE_2__/* .waitForJob */ .qt)({
        once: !settings.wait,
        jobId,
        getJob: (id, options) => deps.api.getJob(id, options),
        schedule: { initialMs: settings.pollIntervalMs, maxMs: settings.maxPollIntervalMs },
        deadline,
        pollNow: how.pollNow,
        notFoundUntil: how.notFoundUntil,
        previous: how.previous,
        clock,
        signal: deps.signal,
        onPoll: (event) => {
            run.polled();
            if ('job' in event) {
                const before = shown(run.state.job);
                run.jobRead(event.job);
                if (shown(event.job) !== before)
                    deps.follow?.changed();
                if (event.held)
                    log.info(`Job ${(0,_base_text_js__WEBPACK_IMPORTED_MODULE_1__/* .inline */ .mG)(jobId)} ${event.held}`);
            }
            else {
                log.info(`Poll ${run.state.polls} failed: ${event.error.message}; ${event.retryInMs === undefined ? 'no time left to retry' : `retrying in ${(0,_base_duration_js__WEBPACK_IMPORTED_MODULE_0__/* .formatDuration */ .a3)(event.retryInMs)}`}`);
            }
        },
        onHeartbeat: (message) => log.info(`${message}; job ${(0,_base_text_js__WEBPACK_IMPORTED_MODULE_1__/* .inline */ .mG)(jobId)} is ${(0,_base_text_js__WEBPACK_IMPORTED_MODULE_1__/* .inline */ .mG)(run.state.job?.status ?? 'unknown', 40)}`)
    });
    return { kind: 'waited', end };
}
/** What the progress shows of a job: its status and docs pull request. */
function shown(job) {
    return JSON.stringify([job?.status, job?.prLink]);
}


/***/ })

};
