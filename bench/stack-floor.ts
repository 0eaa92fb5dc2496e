// The stack's floor: what any action built on this stack does before its first request (load
// @actions/core and undici, read one input, make one request), bundled by ncc as dist/ is. The
// bench times it beside dist/index.js: the action's own overhead is what it takes beyond this.
import { getInput } from '@actions/core'
import { request } from 'undici'

const { body } = await request(`${getInput('base-url')}/bench-floor`)
await body.dump()
