export const id = 547;
export const ids = [547];
export const modules = {

/***/ 9547:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   finish: () => (/* binding */ finish)
/* harmony export */ });
/* unused harmony exports OUTPUT_NAMES, renderOutputs */
/* harmony import */ var _base_error_message_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(9225);
/* harmony import */ var _verdict_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(687);
/* harmony import */ var _github_pr_link_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(4046);
/* harmony import */ var _summary_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(4704);
/** The one exit path: outputs, summary and the last log line, for every ending, bad input included. */





/** The action's outputs, as declared in action.yml. */
const OUTPUT_NAMES = [
    'job-id',
    'status',
    'pr-link',
    'pr-number',
    'pr-repository',
    'source-repository',
    'source-ref',
    'model',
    'created-at',
    'archived-at',
    'timed-out',
    'not-permitted',
    'job',
    'prompt',
    'command',
    'grouped',
    'preview-url',
    'automation-run-id',
    'reviewers',
    'assignees',
    'merge',
    'skipped',
    'skip-reason',
    'check-run-id',
    'docs-checks',
    'fix-rounds'
];
/**
 * Every output's value ('' when unknown). Outputs are data for later steps: they keep the
 * server's bytes as sent (only `pr-link` is left empty when it is not an http(s) URL), where the
 * log and the summary, which people read, show the same text made safe to read.
 */
function renderOutputs(state, serverUrl, settings) {
    const job = state.job;
    const link = (0,_verdict_js__WEBPACK_IMPORTED_MODULE_0__/* .pullRequest */ .VV)(state);
    // A follow-up into the group's docs pull request: the job shows no link again until it ends.
    const grouped = state.group?.via === 'follow-up' ? state.group.pull?.url : undefined;
    const prLink = link.kind === 'link' ? link.url : (grouped ?? '');
    const pr = (0,_github_pr_link_js__WEBPACK_IMPORTED_MODULE_2__/* .parsePullRequestUrl */ .X)(prLink, serverUrl);
    return {
        'job-id': state.jobId ?? '',
        status: job?.status ?? '',
        'pr-link': prLink,
        'pr-number': pr ? String(pr.number) : '',
        'pr-repository': pr ? `${pr.owner}/${pr.repo}` : '',
        'source-repository': job?.source?.repository ?? '',
        'source-ref': job?.source?.ref ?? '',
        model: job?.model ?? '',
        'created-at': job?.createdAt ?? '',
        'archived-at': job?.archivedAt ?? '',
        'timed-out': String(state.outcome === 'timed-out'),
        'not-permitted': String(state.outcome === 'not-permitted'),
        job: job ? JSON.stringify(job.raw) : '',
        prompt: state.prompt ?? '',
        command: settings?.command?.kind ?? '',
        grouped: String(state.group?.via === 'follow-up'),
        'preview-url': state.preview?.url ?? '',
        'automation-run-id': state.automation?.run ?? '',
        reviewers: state.owner?.reviewers.join(',') ?? '',
        assignees: state.owner?.assignees.join(',') ?? '',
        merge: state.owner?.merge?.result === 'open' ? '' : (state.owner?.merge?.result ?? ''),
        skipped: String(state.outcome === 'skipped'),
        'skip-reason': state.outcome === 'skipped' ? (state.skip?.reason ?? '') : '',
        'check-run-id': state.check?.id === undefined ? '' : String(state.check.id),
        // `waiting` is the progress's: a step stopped then has no verdict.
        'docs-checks': !state.docsChecks || state.docsChecks.result === 'waiting' ? '' : state.docsChecks.result,
        'fix-rounds': state.docsChecks ? String(state.docsChecks.rounds) : ''
    };
}
/**
 * Writes the outputs and the summary, then logs the verdict; true when the step must fail. A
 * summary that cannot be written is a warning, never the step's result.
 */
async function finish(state, settings, out) {
    const outputs = renderOutputs(state, out.serverUrl, settings);
    for (const name of OUTPUT_NAMES)
        out.setOutput(name, outputs[name]);
    try {
        await out.writeSummary((0,_summary_js__WEBPACK_IMPORTED_MODULE_1__/* .renderSummary */ .Br)({ state, settings, serverUrl: out.serverUrl }));
    }
    catch (error) {
        out.log.warning(`Could not write the job summary: ${(0,_base_error_message_js__WEBPACK_IMPORTED_MODULE_3__/* .errorMessage */ .g)(error)}`);
    }
    const { failed, level, message } = (0,_verdict_js__WEBPACK_IMPORTED_MODULE_0__/* .verdict */ .WJ)(state, settings);
    out.log[level](message);
    if (failed || !settings?.failOn.has('docs-checks') || state.docsChecks?.result !== 'failure')
        return failed;
    out.log.error("The docs pull request's checks failed (fail-on includes 'docs-checks').");
    return true;
}


/***/ })

};
