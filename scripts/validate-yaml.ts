// Validates action.yml against the action metadata schema, and every example and repository workflow
// against the workflow schema (both vendored from SchemaStore in schemas/), so a misspelt key or a
// wrong type fails here rather than on GitHub after a push. Steps that use this action (`uses: ./`
// or `<owner>/docs-agent-action@<ref>`) are also checked against action.yml: every `with:` key must
// be an input, and every required input must be given, so examples cannot drift from the action.
//   node build/scripts/validate-yaml.js [--root DIR]
// Prints one line per problem as `file:line:column message` and exits 1 when there is any.
import { Ajv, type AnySchema, type ErrorObject, type ValidateFunction } from 'ajv'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { isNode, LineCounter, parseDocument, type Document } from 'yaml'
import { parseActionMetadata } from './action-metadata.js'

/** One thing wrong with one file; `line` and `column` are 1-based, when known. */
export interface Problem {
  file: string
  line?: number
  column?: number
  message: string
}

/** Which schema each group of files is checked against, relative to the repository root. */
const TARGETS = [
  { schema: 'schemas/github-action.json', files: () => ['action.yml'] },
  { schema: 'schemas/github-workflow.json', files: (root: string) => yamlFilesIn(root, 'examples') },
  { schema: 'schemas/github-workflow.json', files: (root: string) => yamlFilesIn(root, '.github/workflows') }
] as const

function yamlFilesIn(root: string, dir: string): string[] {
  if (!existsSync(join(root, dir))) return []
  return readdirSync(join(root, dir))
    .filter((name) => /\.ya?ml$/.test(name))
    .sort()
    .map((name) => `${dir}/${name}`)
}

/** Validates every target file under `root`; returns the problems found (empty when all is well). */
export function validateRepository(root: string): Problem[] {
  // The schemas are third-party draft-07 documents that predate Ajv's strict mode: strict checks
  // would reject the schemas themselves, not our files.
  const ajv = new Ajv({ allErrors: true, strict: false })
  const compiled = new Map<string, ValidateFunction>()
  const problems: Problem[] = []
  if (!existsSync(join(root, 'action.yml'))) return [{ file: 'action.yml', message: 'not found' }]
  const inputs = actionInputs(readFileSync(join(root, 'action.yml'), 'utf8'))
  for (const target of TARGETS) {
    let validate = compiled.get(target.schema)
    if (!validate) {
      validate = ajv.compile(JSON.parse(readFileSync(join(root, target.schema), 'utf8')) as AnySchema)
      compiled.set(target.schema, validate)
    }
    const isWorkflow = target.schema.endsWith('github-workflow.json')
    for (const file of target.files(root)) {
      problems.push(
        ...validateFile(file, readFileSync(join(root, file), 'utf8'), validate, isWorkflow ? inputs : undefined)
      )
    }
  }
  return problems
}

/** The inputs of action.yml by name, with whether each is required. */
export function actionInputs(text: string): Map<string, { required: boolean }> {
  return new Map(parseActionMetadata(text).inputs.map(({ name, required }) => [name, { required }]))
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** `uses:` values that run this action: the repository itself, or any owner's docs-agent-action at a ref. */
const USES_THIS_ACTION = /^(\.\/?|[^/]+\/docs-agent-action@.+)$/

/**
 * Parses one YAML text and checks it against a compiled schema; with `inputs`, also checks the
 * steps that use this action against them.
 */
export function validateFile(
  file: string,
  text: string,
  validate: ValidateFunction,
  inputs?: Map<string, { required: boolean }>
): Problem[] {
  const lineCounter = new LineCounter()
  const doc = parseDocument(text, { lineCounter, prettyErrors: false })
  const at = (offset: number | undefined): Pick<Problem, 'line' | 'column'> => {
    if (offset === undefined) return {}
    const { line, col } = lineCounter.linePos(offset)
    return { line, column: col }
  }
  if (doc.errors.length > 0) {
    return doc.errors.map((error) => ({ file, ...at(error.pos[0]), message: `YAML: ${error.message}` }))
  }
  const data: unknown = doc.toJS()
  if (!validate(data)) {
    return describeErrors(validate.errors ?? []).map(({ path, message }) => ({
      file,
      ...at(offsetOf(doc, path)),
      message: `${path === '' ? '(top level)' : path} ${message}`
    }))
  }
  if (!inputs) return []
  return actionSteps(data).flatMap(({ path, withKeys }) => {
    const problems: Problem[] = []
    for (const key of withKeys) {
      if (!inputs.has(key)) {
        problems.push({
          file,
          ...at(offsetOf(doc, `${path}/with/${key}`)),
          message: `${path} passes "${key}", which action.yml does not declare`
        })
      }
    }
    for (const [name, { required }] of inputs) {
      if (required && !withKeys.includes(name)) {
        problems.push({
          file,
          ...at(offsetOf(doc, path)),
          message: `${path} does not pass the required input "${name}"`
        })
      }
    }
    return problems
  })
}

/** The steps of a (schema-valid) workflow that use this action, as JSON Pointers with their `with:` keys. */
function actionSteps(workflow: unknown): { path: string; withKeys: string[] }[] {
  if (!isRecord(workflow) || !isRecord(workflow.jobs)) return []
  const found: { path: string; withKeys: string[] }[] = []
  for (const [jobName, job] of Object.entries(workflow.jobs)) {
    if (!isRecord(job) || !Array.isArray(job.steps)) continue
    job.steps.forEach((step: unknown, index) => {
      if (!isRecord(step) || typeof step.uses !== 'string' || !USES_THIS_ACTION.test(step.uses)) return
      found.push({
        path: `/jobs/${jobName}/steps/${index}`,
        withKeys: isRecord(step.with) ? Object.keys(step.with) : []
      })
    })
  }
  return found
}

/**
 * Turns Ajv's errors into readable lines. A oneOf that fails reports every branch's errors; the
 * deepest paths come first because they usually name the actual mistake.
 */
function describeErrors(errors: ErrorObject[]): { path: string; message: string }[] {
  const lines = errors.map((error) => ({
    path: error.instancePath,
    message: `${error.message ?? 'is invalid'}${detail(error)}`
  }))
  const unique = [...new Map(lines.map((l) => [`${l.path} ${l.message}`, l])).values()]
  return unique.sort((a, b) => depth(b.path) - depth(a.path))
}

function detail(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>
  if (typeof params.additionalProperty === 'string') return `: "${params.additionalProperty}"`
  if (Array.isArray(params.allowedValues)) return `: ${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`
  return ''
}

function depth(path: string): number {
  return path === '' ? 0 : path.split('/').length
}

/** The offset in the text of the node at a JSON Pointer, or of its nearest ancestor that exists. */
function offsetOf(doc: Document, pointer: string): number | undefined {
  const segments = pointer === '' ? [] : pointer.slice(1).split('/').map(unescapePointer)
  for (let n = segments.length; n >= 0; n--) {
    const keys = segments.slice(0, n).map((s) => (/^\d+$/.test(s) ? Number(s) : s))
    const node: unknown = n === 0 ? doc.contents : doc.getIn(keys, true)
    if (isNode(node) && node.range) return node.range[0]
  }
  return undefined
}

function unescapePointer(segment: string): string {
  return segment.replaceAll('~1', '/').replaceAll('~0', '~')
}

function main(): void {
  const { values } = parseArgs({ options: { root: { type: 'string', default: '.' } } })
  const problems = validateRepository(values.root)
  for (const p of problems) {
    const where = p.line === undefined ? p.file : `${p.file}:${p.line}:${p.column ?? 1}`
    process.stderr.write(`${where} ${p.message}\n`)
  }
  if (problems.length > 0) {
    process.stderr.write(`validate-yaml: ${problems.length} problem(s)\n`)
    process.exitCode = 1
  } else {
    process.stdout.write(
      'validate-yaml: action.yml, examples/ and .github/workflows/ match their schemas and action.yml\n'
    )
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main()
