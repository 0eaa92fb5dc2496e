// Builds the tools (src, simulator, scripts, bench) into build/ as ES modules, file by file, with
// esbuild: types are stripped, not checked. `tsc --noEmit` checks them (CI runs it first), so
// `npm run demo` and the other tools start in a second rather than after a second type-check.
import { readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { buildSync } from 'esbuild'

const FOLDERS = ['src', 'simulator', 'scripts', 'bench']
const entryPoints = FOLDERS.flatMap((folder) =>
  readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .map((file) => join(folder, file))
)

rmSync('build', { recursive: true, force: true })
buildSync({
  entryPoints,
  outdir: 'build',
  outbase: '.',
  format: 'esm',
  platform: 'node',
  target: 'es2022',
  logLevel: 'warning',
  // tsconfig.json's options that change what esbuild emits (as in __tests__/fixtures/transform.cjs).
  tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true, useDefineForClassFields: true } }
})
