import { getProxyUrl } from '@actions/http-client'
import { Agent, ProxyAgent, type Dispatcher } from 'undici'

const CONNECT_TIMEOUT_MS = 10_000

/**
 * The connection pool for the API: through the proxy that `HTTPS_PROXY` / `HTTP_PROXY` name
 * unless `NO_PROXY` (or a loopback host) exempts the API, the way the runner's own tools decide.
 */
export function createDispatcher(baseUrl: URL): Dispatcher {
  const proxy = getProxyUrl(baseUrl.href)
  if (!proxy) return new Agent({ connect: { timeout: CONNECT_TIMEOUT_MS } })
  const proxyUrl = new URL(proxy)
  const auth = proxyUrl.username
    ? `Basic ${Buffer.from(`${decodeURIComponent(proxyUrl.username)}:${decodeURIComponent(proxyUrl.password)}`).toString('base64')}`
    : undefined
  proxyUrl.username = ''
  proxyUrl.password = ''
  return new ProxyAgent({
    uri: proxyUrl.href,
    ...(auth ? { token: auth } : {}),
    connect: { timeout: CONNECT_TIMEOUT_MS }
  })
}
