/**
 * Runs the built action (`dist/index.js`) the way the runner does: a child process with
 * `INPUT_*` variables (action.yml's defaults applied) and real GITHUB_OUTPUT and
 * GITHUB_STEP_SUMMARY files.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { inputDefaults, readAction, ROOT } from './action-metadata.js'

export { ROOT }
export const ENTRY = join(ROOT, 'dist', 'index.js')
/** The Node.js that runs the action: this one, or ACTION_NODE (CI also runs the suite on Node 24, as GitHub does). */
export const ACTION_NODE = process.env.ACTION_NODE ?? process.execPath
/** Stands in for `${{ github.token }}`. */
export const FAKE_GITHUB_TOKEN = 'ghs_faketoken0000000000000000000000000'

const defaults = inputDefaults(readAction(), FAKE_GITHUB_TOKEN)

export interface ActionResult {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
  /** GITHUB_OUTPUT as the runner reads it: the last value of each name wins. */
  outputs: Record<string, string>
  summary: string
  /** The workspace the action ran in. */
  workspace: string
}

export interface ActionOptions {
  /** Extra environment (RUNNER_DEBUG, GITHUB_SERVER_URL, proxies, …). */
  env?: Record<string, string>
  /** Files to create in the workspace before the run. */
  files?: Record<string, string>
  /** Symlinks to create in the workspace: path in the workspace → target. */
  symlinks?: Record<string, string>
  /** Copies the action's stdout and stderr to this process's as they come. */
  echo?: boolean
  /** Called once stdout holds the text, with the child (to send signals). */
  onOutput?: { text: string; then(child: ChildProcess): void }
  /** Called with the child as soon as it is spawned. */
  onSpawn?: (child: ChildProcess) => void
  /** Options for node before the entry (e.g. `--import` of module hooks). */
  nodeArgs?: string[]
}

function inputEnv(inputs: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries({ ...defaults, ...inputs })) env[`INPUT_${name.toUpperCase()}`] = value
  return env
}

export function runAction(inputs: Record<string, string>, options: ActionOptions = {}): Promise<ActionResult> {
  const workspace = mkdtempSync(join(tmpdir(), 'docs-agent-'))
  const outputFile = join(workspace, '.github_output')
  const summaryFile = join(workspace, '.step_summary')
  writeFileSync(outputFile, '')
  writeFileSync(summaryFile, '')
  for (const [path, content] of Object.entries(options.files ?? {})) writeFileSync(join(workspace, path), content)
  for (const [path, target] of Object.entries(options.symlinks ?? {})) symlinkSync(target, join(workspace, path))

  const child = spawn(ACTION_NODE, [...(options.nodeArgs ?? []), ENTRY], {
    cwd: workspace,
    env: {
      PATH: process.env.PATH ?? '',
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summaryFile,
      GITHUB_WORKSPACE: workspace,
      ...inputEnv(inputs),
      ...options.env
    },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  options.onSpawn?.(child)
  let stdout = ''
  let stderr = ''
  let triggered = false
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk
    if (options.onOutput && !triggered && stdout.includes(options.onOutput.text)) {
      triggered = true
      options.onOutput.then(child)
    }
  })
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  if (options.echo) {
    child.stdout.pipe(process.stdout)
    child.stderr.pipe(process.stderr)
  }
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code, signal) =>
      resolve({
        code,
        signal,
        stdout,
        stderr,
        outputs: parseOutputs(readFileSync(outputFile, 'utf8')),
        summary: readFileSync(summaryFile, 'utf8'),
        workspace
      })
    )
  })
}

/** Reads `name<<delimiter` blocks, as the runner does. */
export function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {}
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const match = /^([^<=]+)<<(.+)$/.exec(lines[i] ?? '')
    if (!match) continue
    const [, name, delimiter] = match as unknown as [string, string, string]
    const value: string[] = []
    for (i++; i < lines.length && lines[i] !== delimiter; i++) value.push(lines[i] ?? '')
    outputs[name] = value.join('\n')
  }
  return outputs
}

/** The `::error::` annotations, decoded. */
export function annotations(stdout: string, kind: 'error' | 'warning' | 'notice'): string[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith(`::${kind}`))
    .map((line) =>
      line
        .slice(line.indexOf('::', 2) + 2)
        .replace(/%0A/g, '\n')
        .replace(/%0D/g, '\r')
        .replace(/%25/g, '%')
    )
}

/**
 * Where the secret shows in what the run left behind. The one `::add-mask::` command is
 * excluded: the runner consumes it and never displays it.
 */
export function secretLeaks(run: ActionResult, secret: string): string[] {
  const maskLine = `::add-mask::${secret}`
  const stdout = run.stdout
    .split('\n')
    .filter((line) => line !== maskLine)
    .join('\n')
  const places: [string, string][] = [
    ['stdout', stdout],
    ['stderr', run.stderr],
    ['summary', run.summary],
    ['outputs', JSON.stringify(run.outputs)]
  ]
  return places.filter(([, text]) => text.includes(secret)).map(([place]) => place)
}
