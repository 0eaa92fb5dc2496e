import type { Server } from 'node:http'

/** Stops a fake's server, destroying hanging and streaming connections rather than waiting for them. */
export async function closeServer(server: Server): Promise<void> {
  if (!server.listening) return
  const closed = new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())))
  server.closeAllConnections()
  await closed
}
