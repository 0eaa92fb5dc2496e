import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'

/**
 * A fake's server. Idle keep-alive sockets stay open until the client or `closeServer` ends them:
 * the fake shares the step's event loop, so its real-time 5 s keep-alive timer, overdue after a
 * long synchronous stretch (thousands of tags parsed under load), would close the socket the
 * client had just reused for its next request ("fetch failed", the request never arriving).
 */
export function fakeServer(handle: (req: IncomingMessage, res: ServerResponse) => void): Server {
  const server = createServer(handle)
  server.keepAliveTimeout = 0
  return server
}

/** Stops a fake's server, destroying hanging and streaming connections rather than waiting for them. */
export async function closeServer(server: Server): Promise<void> {
  if (!server.listening) return
  const closed = new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())))
  server.closeAllConnections()
  await closed
}
