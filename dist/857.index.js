export const id = 857;
export const ids = [857];
export const modules = {

/***/ 8857:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  getOctokit: () => (/* reexport */ github/* getOctokit */.Q),
  limiter: () => (/* reexport */ (light_default())),
  parseJson: () => (/* reexport */ parseJson),
  throttling: () => (/* reexport */ dist_bundle/* throttling */.A)
});

// EXTERNAL MODULE: ./node_modules/@actions/github/lib/github.js + 21 modules
var github = __webpack_require__(1928);
// EXTERNAL MODULE: ./node_modules/@octokit/plugin-throttling/dist-bundle/index.js
var dist_bundle = __webpack_require__(6856);
// EXTERNAL MODULE: ./node_modules/bottleneck/light.js
var light = __webpack_require__(3251);
var light_default = /*#__PURE__*/__webpack_require__.n(light);
// EXTERNAL MODULE: ./node_modules/json-with-bigint/json-with-bigint.js
var json_with_bigint = __webpack_require__(8429);
;// CONCATENATED MODULE: ./src/github/parse-json.ts

/** Reads each success answer's body itself: JSON when GitHub says so, else its text. */
function parseJson(octokit) {
    octokit.hook.wrap('request', async (request, options) => {
        // In place: the hooks inside this one are bound to this very object (before-after-hook), and
        // options given to `request` would not reach them.
        options.request = { ...options.request, parseSuccessResponseBody: false };
        const response = await request(options);
        // The body's stream; '' for a 204, a 205 or a HEAD, which Octokit answers without reading one.
        const body = response.data;
        response.data = parseBody(await new Response(body).text(), String(response.headers['content-type']));
        return response;
    });
}
/**
 * A body as Octokit reads it: JSON for a JSON type (its text when it does not parse), else the text
 * (Octokit gives a binary type as an ArrayBuffer; the step asks GitHub for none).
 */
function parseBody(text, contentType) {
    // The JSON types, as Octokit tells them apart.
    if (!/^application\/(scim\+)?json\s*(;|$)/i.test(contentType))
        return text;
    try {
        return mayHoldBigInteger(text) ? (0,json_with_bigint/* JSONParse */.Q)(text) : JSON.parse(text);
    }
    catch {
        return text;
    }
}
/** Whether a JSON text may hold an integer past 2^53: false means JSON.parse reads it exactly. */
function mayHoldBigInteger(text) {
    // 16 digits or more where a number starts.
    return /(^|[:[,])\s*-?\d{16}/.test(text);
}

;// CONCATENATED MODULE: ./src/github/octokit.ts
/**
 * What loads with Octokit, in one chunk of the bundle: `@actions/github`, the throttling plugin, its
 * limiter and the body parse. Imported apart, parse-json and Octokit's request each carried a copy
 * of json-with-bigint.
 */


// The plugin's own build of it (light: no clustering), so the bundle holds one.




/***/ })

};
