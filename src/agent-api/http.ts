import { checkBypass } from '@actions/http-client/lib/proxy'
import { Agent, ProxyAgent, type Dispatcher } from 'undici'

const CONNECT_TIMEOUT_MS = 10_000

const PROXY_FORM = 'expected http://host:port or http://user:password@host:port, with % in a password written %25'

/** A proxy variable that cannot be used: names the variable and the accepted form, never its value. */
export class ProxyError extends Error {
  constructor(
    readonly variable: string,
    message: string
  ) {
    super(`Proxy variable ${variable}: ${message}: ${PROXY_FORM}.`)
    this.name = 'ProxyError'
  }
}

/**
 * The connection pool for the API: through the proxy that `HTTPS_PROXY` / `HTTP_PROXY` name
 * unless `NO_PROXY` (or a loopback host) exempts the API, the way the runner's own tools decide.
 * A proxy variable that cannot be parsed throws a `ProxyError`: going direct instead would bypass
 * a proxy the network may require (or log around).
 */
export function createDispatcher(baseUrl: URL): Dispatcher {
  const env = process.env
  const direct = (): Dispatcher => new Agent({ connect: { timeout: CONNECT_TIMEOUT_MS } })
  if (checkBypass(baseUrl)) return direct()
  const names = baseUrl.protocol === 'https:' ? ['https_proxy', 'HTTPS_PROXY'] : ['http_proxy', 'HTTP_PROXY']
  const variable = names.find((name) => env[name])
  if (variable === undefined) return direct()
  const proxyUrl = parseProxy(variable, env[variable] ?? '')
  const auth = proxyUrl.username
    ? `Basic ${Buffer.from(`${decode(variable, proxyUrl.username)}:${decode(variable, proxyUrl.password)}`).toString('base64')}`
    : undefined
  proxyUrl.username = ''
  proxyUrl.password = ''
  return new ProxyAgent({
    uri: proxyUrl.href,
    ...(auth ? { token: auth } : {}),
    connect: { timeout: CONNECT_TIMEOUT_MS }
  })
}

function parseProxy(variable: string, value: string): URL {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new ProxyError(variable, 'not a URL')
  }
  // `proxy:3128` parses, with `proxy:` for a scheme.
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ProxyError(variable, 'no http:// or https://')
  return url
}

function decode(variable: string, part: string): string {
  try {
    return decodeURIComponent(part)
  } catch {
    throw new ProxyError(variable, 'its user name or password is not percent-encoded')
  }
}
