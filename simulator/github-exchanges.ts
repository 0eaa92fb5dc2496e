// Where every answer of the fake GitHub passes on its way out (simulator/github/server.ts, `send`), so that
// a test run can check each one against GitHub's OpenAPI description (__tests__/fixtures/openapi-setup.ts,
// simulator/openapi-contract.ts) without the fake loading that description itself.
import type { RouteName } from './github/routes.js'

/** One request the fake answered, and its answer as sent. */
export interface Exchange {
  method: string
  /** The request target as received, query included. */
  rawPath: string
  route: RouteName | 'unknown'
  status: number
  /** The body as sent ('' for none). */
  body: string
}

let listener: ((exchange: Exchange) => void) | undefined

/** From now on, `watch` sees every answer of every fake GitHub of this process (undefined: none). */
export function watchExchanges(watch: ((exchange: Exchange) => void) | undefined): void {
  listener = watch
}

export function exchanged(exchange: Exchange): void {
  listener?.(exchange)
}
