// action.yml, read once for everyone who needs it: the README tables, the YAML checks, the
// tests and the bench. It is the one source of the inputs' defaults: the runner applies them, and
// so do the test harnesses, through `inputDefaults`.
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export interface ActionInput {
  name: string
  description: string
  required: boolean
  default: string | undefined
}

export interface ActionOutput {
  name: string
  description: string
}

export interface ActionMetadata {
  inputs: ActionInput[]
  outputs: ActionOutput[]
}

/**
 * Reads the inputs and outputs of an action.yml text, in file order; throws on a malformed entry.
 * The result is kept in node_modules/.cache, by the text and this file's own source: the mutation
 * run reads action.yml in each of its ~3,000 Jest runs, and loading and running the YAML parser
 * was a sixth of each.
 */
export function parseActionMetadata(text: string, cacheDir = CACHE_DIR): ActionMetadata {
  const key = createHash('sha256').update(SELF).update(text).digest('hex').slice(0, 16)
  const file = join(cacheDir, `action-${key}.json`)
  if (existsSync(file)) {
    const cached = JSON.parse(readFileSync(file, 'utf8')) as ActionMetadata
    // JSON has no undefined: an input without a default comes back without the key.
    return { ...cached, inputs: cached.inputs.map((input) => ({ ...input, default: input.default })) }
  }
  const meta = parseUncached(text)
  // Written whole then renamed: Stryker's workers read it concurrently.
  mkdirSync(cacheDir, { recursive: true })
  const partial = `${file}.${process.pid}`
  writeFileSync(partial, JSON.stringify(meta))
  renameSync(partial, file)
  return meta
}

function parseUncached(text: string): ActionMetadata {
  const { parse } = createRequire(import.meta.url)('yaml') as typeof import('yaml')
  const doc: unknown = parse(text)
  if (!isRecord(doc)) throw new Error('action.yml: expected a mapping at the top level')
  const inputs = Object.entries(mapping(doc.inputs, 'inputs')).map(([name, value]): ActionInput => {
    const entry = mapping(value, `inputs.${name}`)
    const required = entry.required ?? false
    if (typeof required !== 'boolean') throw new Error(`action.yml: inputs.${name}.required must be true or false`)
    const dflt = entry.default
    if (dflt !== undefined && typeof dflt !== 'string') {
      throw new Error(`action.yml: inputs.${name}.default must be a string (quote it)`)
    }
    return {
      name,
      description: nonEmptyString(entry.description, `inputs.${name}.description`),
      required,
      default: dflt
    }
  })
  const outputs = Object.entries(mapping(doc.outputs, 'outputs')).map(([name, value]): ActionOutput => ({
    name,
    description: nonEmptyString(mapping(value, `outputs.${name}`).description, `outputs.${name}.description`)
  }))
  return { inputs, outputs }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function mapping(value: unknown, where: string): Record<string, unknown> {
  if (value === undefined || value === null) return {}
  if (!isRecord(value)) throw new Error(`action.yml: ${where} must be a mapping`)
  return value
}

function nonEmptyString(value: unknown, where: string): string {
  if (typeof value !== 'string' || value.trim() === '')
    throw new Error(`action.yml: ${where} must be a non-empty string`)
  return value
}

/** The repository root: this file runs from scripts/ (tests) and from build/scripts/ (tools). */
function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url))
  while (!existsSync(join(dir, 'action.yml'))) {
    const parent = dirname(dir)
    if (parent === dir) throw new Error('action.yml not found above scripts/')
    dir = parent
  }
  return dir
}

export const ROOT = findRoot()
const CACHE_DIR = join(ROOT, 'node_modules', '.cache', 'docs-agent-action')
const SELF = readFileSync(fileURLToPath(import.meta.url))

/** The repository's action.yml, parsed. */
export function readAction(root = ROOT): ActionMetadata {
  return parseActionMetadata(readFileSync(join(root, 'action.yml'), 'utf8'))
}

/**
 * Every input's default as the runner would pass it. Defaults that are expressions get what the
 * runner would put there in a run outside a matrix: `${{ github.token }}` becomes `token`.
 */
export function inputDefaults(meta: ActionMetadata, token: string): Record<string, string> {
  const expressions: Record<string, string> = {
    '${{ github.token }}': token,
    '${{ toJSON(matrix) }}': 'null'
  }
  const defaults: Record<string, string> = {}
  for (const input of meta.inputs) {
    if (input.default === undefined) continue
    const value = input.default.includes('${{') ? expressions[input.default] : input.default
    if (value === undefined)
      throw new Error(`action.yml: no stand-in for the default of ${input.name}: ${input.default}`)
    defaults[input.name] = value
  }
  return defaults
}
