// Which files of dist/ a run of the built action loads, and what each file holds: the test of the
// lazy chunks (__tests__/step/chunks.e2e.test.ts) and the bench's bundle table both read them here.
import { readFileSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * A text only the named library's code holds (a name or string of its own, which bundling keeps
 * as written), to tell from a chunk's text what it contains.
 */
export const LIBRARY_MARKERS = {
  /** The markdown parser: one of its token types, which src/ never names. */
  micromark: 'lineEndingBlank',
  /** Octokit (@actions/github): its user agent. */
  octokit: 'octokit-core.js',
  /** The whole of undici (its index: fetch, WebSocket, mocks), not only its connection pools. */
  'undici (whole)': 'class EnvHttpProxyAgent',
  /** @actions/core: its OIDC client's user agent. */
  '@actions/core': 'actions/oidc-client'
} as const

export type Library = keyof typeof LIBRARY_MARKERS

/** The libraries `text` holds, in LIBRARY_MARKERS' order. */
export function librariesIn(text: string): Library[] {
  return (Object.keys(LIBRARY_MARKERS) as Library[]).filter((name) => text.includes(LIBRARY_MARKERS[name]))
}

export interface ChunkProbe {
  /** Node options that load the hooks (before the entry). */
  nodeArgs: string[]
  /** The file names (`index.js`, `158.index.js`) of dist/ loaded since the probe was made, in order. */
  loaded(): string[]
}

/**
 * Module hooks (`node --import`, Node 20.6 and later) that note every module the ES module loader
 * loads: ncc's chunks are ES modules, each loaded by `import()` when the code first needs it.
 * The hooks' files and their notes live in `dir`, one probe per directory.
 */
export function chunkProbe(dir: string, dist: string): ChunkProbe {
  const notes = join(dir, 'loaded')
  writeFileSync(notes, '')
  writeFileSync(
    join(dir, 'hooks.mjs'),
    `import { appendFileSync } from 'node:fs'\nexport async function load(url, context, next) {\n  appendFileSync(${JSON.stringify(notes)}, url + '\\n')\n  return next(url, context)\n}\n`
  )
  writeFileSync(
    join(dir, 'register.mjs'),
    "import { register } from 'node:module'\nregister('./hooks.mjs', import.meta.url)\n"
  )
  return {
    nodeArgs: ['--import', join(dir, 'register.mjs')],
    loaded: () =>
      readFileSync(notes, 'utf8')
        .split('\n')
        .filter((url) => url.startsWith('file:'))
        .map((url) => fileURLToPath(url))
        .filter((path) => dirname(path) === dist)
        .map((path) => basename(path))
  }
}
