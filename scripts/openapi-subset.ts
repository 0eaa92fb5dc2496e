// Cuts GitHub's own description of its REST API (@octokit/openapi, api.github.com, OpenAPI 3.0) down
// to the operations the fake GitHub serves (simulator/github-operations.ts): their query parameters,
// their 2xx answers' schemas and every component those reference, written as JSON Schema for Ajv
// (OpenAPI's `nullable` becomes a `null` alternative; descriptions and examples are left out).
// It also lists every operation GitHub has, so a request the fake does not serve can be told apart
// from one GitHub does not have. Then it compiles the answers' schemas once, with Ajv's standalone
// code, into schemas/github-rest-validators.cjs: compiling them in every test file would cost
// seconds. The test regenerates the subset and compares; the validators carry the subset's hash.
//   node build/scripts/openapi-subset.js [--check]   (npm run openapi:subset)
import { _, Ajv, type Format } from 'ajv'
import standalone from 'ajv/dist/standalone/index.js'
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { GITHUB_OPERATIONS, GRAPHQL_OPERATION } from '../simulator/github-operations.js'
import { FORMATS_FILE, SUBSET_FILE, VALIDATORS_FILE, type RestSubset } from '../simulator/openapi-contract.js'

const PACKAGE = '@octokit/openapi'

type Json = Record<string, unknown>

/** The spec as the installed package ships it, and its version. */
export function loadSpec(): { spec: Json; version: string } {
  const require = createRequire(import.meta.url)
  const read = (file: string): Json => JSON.parse(readFileSync(require.resolve(file), 'utf8')) as Json
  const { version } = read(`${PACKAGE}/package.json`) as { version: string }
  return { spec: read(`${PACKAGE}/generated/api.github.com.json`), version }
}

export function buildSubset(spec: Json, version: string): RestSubset {
  const paths = spec.paths as Record<string, Record<string, Json>>
  const components = spec.components as Record<string, Record<string, Json>>
  const wanted = new Set<string>()
  const served: RestSubset['served'] = {}
  const keys = [...new Set(Object.values(GITHUB_OPERATIONS).flat())].filter((op) => op !== GRAPHQL_OPERATION)
  for (const key of keys.sort()) {
    const [method = '', path = ''] = key.split(' ')
    const operation = paths[path]?.[method.toLowerCase()]
    if (!operation) throw new Error(`GitHub's REST description has no operation ${key}`)
    const resolve = (kind: string, item: Json): Json =>
      typeof item.$ref === 'string' ? (components[kind]?.[item.$ref.split('/').pop() ?? ''] ?? {}) : item
    const query: Record<string, Json> = {}
    for (const parameter of (operation.parameters ?? []) as Json[]) {
      const p = resolve('parameters', parameter)
      if (p.in === 'query') query[p.name as string] = toJsonSchema(p.schema as Json, wanted)
    }
    const answers: Record<string, Json | null> = {}
    for (const [status, answer] of Object.entries(operation.responses as Record<string, Json>)) {
      if (!status.startsWith('2')) continue
      const content = resolve('responses', answer).content as Record<string, { schema?: Json }> | undefined
      const schema = content?.['application/json']?.schema ?? Object.values(content ?? {})[0]?.schema
      answers[status] = schema ? toJsonSchema(schema, wanted) : null
    }
    served[key] = { operationId: operation.operationId as string, query, answers }
  }
  const schemas: Record<string, Json> = {}
  for (const name of wanted) {
    // Converting a component may reference more: `wanted` grows while this loop runs.
    schemas[name] = toJsonSchema(components.schemas?.[name] ?? {}, wanted)
  }
  const operations = Object.entries(paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((m) => ['get', 'post', 'put', 'patch', 'delete', 'head'].includes(m))
      .map((m) => `${m.toUpperCase()} ${path}`)
  )
  return {
    source: `${PACKAGE} ${version}, generated/api.github.com.json (OpenAPI ${String(spec.openapi)})`,
    operations: operations.sort(),
    served,
    components: { schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => (a < b ? -1 : 1))) }
  }
}

// What Ajv validates; the rest (descriptions, examples, readOnly, OpenAPI's discriminator) is documentation.
const KEEP = new Set(
  'type properties required items additionalProperties enum allOf anyOf oneOf not format minimum maximum minLength maxLength pattern minItems maxItems uniqueItems minProperties maxProperties'.split(
    ' '
  )
)

/** One OpenAPI 3.0 schema as JSON Schema; the component names it references are added to `wanted`. */
function toJsonSchema(schema: Json, wanted: Set<string>): Json {
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.replace('#/components/schemas/', '')
    wanted.add(name)
    return { $ref: `github#/components/schemas/${name}` }
  }
  const out: Json = {}
  for (const [key, value] of Object.entries(schema)) {
    if (!KEEP.has(key)) continue
    if (key === 'properties')
      out[key] = Object.fromEntries(
        Object.entries(value as Record<string, Json>).map(([name, s]) => [name, toJsonSchema(s, wanted)])
      )
    else if (key === 'allOf' || key === 'anyOf' || key === 'oneOf')
      out[key] = (value as Json[]).map((s) => toJsonSchema(s, wanted))
    else if ((key === 'items' || key === 'additionalProperties' || key === 'not') && typeof value === 'object')
      out[key] = toJsonSchema(value as Json, wanted)
    else out[key] = value
  }
  // OpenAPI 3.0: `nullable: true` allows null besides what the schema says (enum included).
  return schema.nullable === true ? { anyOf: [{ type: 'null' }, out] } : out
}

/** The subset file's text, as written. */
export function subsetText(subset: RestSubset): string {
  return `${JSON.stringify(subset, null, 1)}\n`
}

/** What the validators file records of the subset it was compiled from. */
export function subsetHash(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}

/**
 * CommonJS code exporting one validator per 2xx answer of `subset` (`validators['GET /x 200']`),
 * compiled by Ajv with the formats of simulator/openapi-formats.cjs, and the hash of `text`.
 */
export function validatorsCode(subset: RestSubset, text: string, root = process.cwd()): string {
  const formats = createRequire(join(root, 'package.json'))(`./${FORMATS_FILE}`) as Record<string, Format>
  const answers: Record<string, object> = {}
  for (const [operation, { answers: byStatus }] of Object.entries(subset.served))
    for (const [status, schema] of Object.entries(byStatus)) if (schema) answers[`${operation} ${status}`] = schema
  const names = Object.keys(answers)
  const ajv = new Ajv({
    // strict: false, because the description's schemas carry keywords of OpenAPI's own.
    strict: false,
    // Each component compiled once, shared by every answer that refers to it.
    inlineRefs: false,
    formats,
    code: { source: true, formats: _`require(${`../${FORMATS_FILE}`})` }
  })
  ajv.addSchema({ $id: 'github', components: subset.components, answers })
  const pointer = (name: string): string => `github#/answers/${encodeURIComponent(name.replaceAll('~', '~0'))}`
  const code = standalone.default(ajv, Object.fromEntries(names.map((name, i) => [`v${i}`, pointer(name)])))
  const index = Object.fromEntries(names.map((name, i) => [name, `v${i}`]))
  return [
    `// Generated by scripts/openapi-subset.ts (npm run openapi:subset) from ${SUBSET_FILE}: do not edit.`,
    code,
    `exports.subsetHash = ${JSON.stringify(subsetHash(text))};`,
    `exports.answers = ${JSON.stringify(index)};`,
    ''
  ].join('\n')
}

function main(): void {
  const { values } = parseArgs({ options: { check: { type: 'boolean', default: false } } })
  const { spec, version } = loadSpec()
  const subset = buildSubset(spec, version)
  const text = subsetText(subset)
  const files = { [SUBSET_FILE]: text, [VALIDATORS_FILE]: validatorsCode(subset, text) }
  for (const [file, content] of Object.entries(files)) {
    if (!values.check) writeFileSync(file, content)
    else if (readFileSync(file, 'utf8') !== content) {
      console.error(`${file} is stale: run npm run openapi:subset`)
      process.exitCode = 1
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main()
