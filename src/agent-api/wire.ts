import { subscribe, unsubscribe } from 'node:diagnostics_channel'

// undici publishes here just before it writes a request's head to the socket: from then on the
// server may receive it. (Node's own fetch publishes on the same channel, hence the match below.)
const SEND_HEADERS = 'undici:client:sendHeaders'

interface SendHeadersMessage {
  request: { method?: unknown; path?: unknown }
}

/** Tells whether a request's bytes left: watches for `method path` until `stop()`. */
export function watchSend(method: string, path: string): { readonly sent: boolean; stop(): void } {
  let sent = false
  const onSend = (message: unknown): void => {
    const { request } = message as SendHeadersMessage
    if (request.method === method && request.path === path) sent = true
  }
  subscribe(SEND_HEADERS, onSend)
  return {
    get sent() {
      return sent
    },
    stop: () => unsubscribe(SEND_HEADERS, onSend)
  }
}
