// Checks what the fake GitHub answers against GitHub's own description of its REST API
// (@octokit/openapi, cut down by scripts/openapi-subset.ts to schemas/github-rest-subset.json):
// the operation must exist, every query parameter must be one it declares, with a value of its
// type, and a 2xx answer must be a status it documents, with a body its schema accepts. Each
// problem is a drift: the fake is kinder or stranger than GitHub, so a scenario passing on it proves less.
import type { ErrorObject } from 'ajv'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import type { Exchange } from './github-exchanges.js'
import { GITHUB_OPERATIONS, GRAPHQL_OPERATION } from './github-operations.js'

type Json = Record<string, unknown>

export const SUBSET_FILE = 'schemas/github-rest-subset.json'
/** The subset's 2xx answers compiled by Ajv (standalone code), with the hash of the subset compiled. */
export const VALIDATORS_FILE = 'schemas/github-rest-validators.cjs'
/** The formats those validators check. */
export const FORMATS_FILE = 'simulator/openapi-formats.cjs'

/** schemas/github-rest-subset.json, as scripts/openapi-subset.ts writes it. */
export interface RestSubset {
  source: string
  /** `METHOD /path` of every operation GitHub describes. */
  operations: string[]
  /** The operations the fake serves: their query parameters and 2xx answers (null: no body). */
  served: Record<string, { operationId: string; query: Record<string, Json>; answers: Record<string, Json | null> }>
  /** The components they reference, under `$id` github: schemas refer to `github#/components/schemas/…`. */
  components: { schemas: Record<string, Json> }
}

type Validate = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null }

/** schemas/github-rest-validators.cjs: `answers['GET /x 200']` names the export that validates it. */
export interface RestValidators {
  subsetHash: string
  answers: Record<string, string>
  [name: string]: unknown
}

export class RestContract {
  // Built when first needed: most test files never ask the fake for a route it lacks.
  private strict: { operation: string; pattern: RegExp }[] | undefined

  constructor(
    private readonly subset: RestSubset,
    private readonly validators: RestValidators
  ) {}

  /**
   * The contract of the repository at `root`, with its validators as `loaded` (Jest's environment
   * loads them once per worker: __tests__/fixtures/environment.cjs) or loaded here.
   */
  static load(root = process.cwd(), loaded?: RestValidators): RestContract {
    const subset = JSON.parse(readFileSync(join(root, SUBSET_FILE), 'utf8')) as RestSubset
    const validators = loaded ?? (createRequire(join(root, 'package.json'))(`./${VALIDATORS_FILE}`) as RestValidators)
    return new RestContract(subset, validators)
  }

  /** What in `exchange` GitHub would not do; empty when nothing. */
  check(exchange: Exchange): string[] {
    const [path = '', query = ''] = exchange.rawPath.split('?', 2)
    const request = `${exchange.method} ${path}`
    if (exchange.route === 'unknown') {
      this.strict ??= this.subset.operations.map((op) => ({ operation: op, pattern: template(op, false) }))
      const known = this.strict.find((m) => m.pattern.test(request))
      return known ? [`${request}: GitHub has ${known.operation}; the fake has no route for it`] : []
    }
    const operations = GITHUB_OPERATIONS[exchange.route]
    const operation = operations.find((op) => template(op, true).test(request))
    if (!operation) return [`${request}: routed as ${exchange.route}, which is not ${operations.join(' or ')}`]
    if (operation === GRAPHQL_OPERATION) return []
    const served = this.subset.served[operation]
    if (!served) return [`${operation} is missing from the subset: run npm run openapi:subset`]
    return [
      ...this.queryDrifts(operation, served.query, new URLSearchParams(query)),
      ...this.answerDrifts(operation, served.answers, exchange)
    ]
  }

  private queryDrifts(operation: string, declared: Record<string, Json>, query: URLSearchParams): string[] {
    return [...new Set(query.keys())].flatMap((name) => {
      const schema = declared[name]
      if (!schema) return [`${operation}: query parameter '${name}' is not one GitHub declares`]
      return query
        .getAll(name)
        .filter((value) => !fitsQuery(schema, value))
        .map((value) => `${operation}: query parameter ${name}=${value} is not ${JSON.stringify(schema)}`)
    })
  }

  private answerDrifts(operation: string, answers: Record<string, Json | null>, exchange: Exchange): string[] {
    const status = String(exchange.status)
    if (!status.startsWith('2')) return []
    const schema = answers[status]
    if (schema === undefined)
      return [`${operation}: answered ${status}; GitHub documents ${Object.keys(answers).join(', ')}`]
    if (schema === null) return exchange.body === '' ? [] : [`${operation}: answered ${status} with a body`]
    const validate = this.validators[this.validators.answers[`${operation} ${status}`] ?? ''] as Validate | undefined
    if (!validate) return [`${operation} ${status}: no validator, run npm run openapi:subset`]
    if (validate(JSON.parse(exchange.body))) return []
    return describe(validate.errors ?? []).map((problem) => `${operation} ${status}: ${problem}`)
  }
}

let shared: RestContract | undefined

/** The contract of this repository's subset, made once per module registry (once per test file). */
export function restContract(loaded?: RestValidators): RestContract {
  shared ??= RestContract.load(process.cwd(), loaded)
  return shared
}

/**
 * A matcher of `METHOD /path/{param}` against a raw request (segments still percent-encoded). A
 * parameter is one segment; `lenient` lets the last one span `/` too, as GitHub reads a ref, a
 * path or a basehead there.
 */
function template(operation: string, lenient: boolean): RegExp {
  const escaped = operation.replace(/[.*+?^$()|[\]\\]/g, '\\$&')
  const last = escaped.lastIndexOf('{')
  const source = escaped.replace(/\{[^}]+\}/g, (_, offset: number) => (lenient && offset === last ? '[^?]+' : '[^/?]+'))
  return new RegExp(`^${source}$`)
}

/** Whether a query value (always text) fits a parameter's schema: its enum, or its scalar type. */
function fitsQuery(schema: Json, value: string): boolean {
  if (Array.isArray(schema.enum)) return schema.enum.includes(value)
  if (schema.type === 'integer') return /^-?\d+$/.test(value)
  if (schema.type === 'boolean') return value === 'true' || value === 'false'
  return true
}

/** Ajv's errors, one line each, without the repeats `anyOf` and `oneOf` make. */
function describe(errors: ErrorObject[]): string[] {
  const lines = errors.map(
    (e) => `${e.instancePath || '(the body)'} ${e.message ?? 'is invalid'}${paramsText(e.params as Json)}`
  )
  return [...new Set(lines)].slice(0, 12)
}

function paramsText(params: Json): string {
  if (typeof params.missingProperty === 'string') return ''
  if (Array.isArray(params.allowedValues)) return ` (${params.allowedValues.join(', ')})`
  return ''
}
