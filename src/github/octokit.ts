/**
 * What loads with Octokit, in one chunk of the bundle: `@actions/github`, the throttling plugin, its
 * limiter and the body parse. Imported apart, parse-json and Octokit's request each carried a copy
 * of json-with-bigint.
 */
export { getOctokit } from '@actions/github'
export { throttling } from '@octokit/plugin-throttling'
// The plugin's own build of it (light: no clustering), so the bundle holds one.
export { default as limiter } from 'bottleneck/light.js'
export { parseJson } from './parse-json.js'
