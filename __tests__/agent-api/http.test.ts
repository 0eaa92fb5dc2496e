import { afterAll, beforeEach, describe, expect, it } from '@jest/globals'
import { Agent, ProxyAgent } from 'undici'
import { createDispatcher } from '../../src/agent-api/http.js'

// One describe for the file: its hooks stay its own when the mutation suite runs the files together.
describe('createDispatcher', () => {
  const saved = process.env
  // Each test starts from the real environment without any proxy variable.
  beforeEach(() => {
    process.env = Object.fromEntries(Object.entries(saved).filter(([name]) => !/_proxy$/i.test(name)))
  })
  afterAll(() => {
    process.env = saved
  })

  describe('createDispatcher', () => {
    it('connects directly without a proxy variable', async () => {
      const dispatcher = createDispatcher(new URL('https://api.mintlify.com'))
      expect(dispatcher).toBeInstanceOf(Agent)
      await dispatcher.close()
    })

    it('goes through HTTPS_PROXY (its credentials are checked on the wire in faults.test.ts)', async () => {
      process.env.HTTPS_PROXY = 'http://user:p%40ss@proxy.internal:3128'
      const dispatcher = createDispatcher(new URL('https://api.mintlify.com'))
      expect(dispatcher).toBeInstanceOf(ProxyAgent)
      await dispatcher.close()
    })

    it.each(['api.mintlify.com', '.mintlify.com', 'mintlify.com', '*'])('honours NO_PROXY=%s', async (noProxy) => {
      process.env.HTTPS_PROXY = 'http://proxy.internal:3128'
      process.env.NO_PROXY = `example.org, ${noProxy}`
      const dispatcher = createDispatcher(new URL('https://api.mintlify.com'))
      expect(dispatcher).toBeInstanceOf(Agent)
      await dispatcher.close()
    })

    it('never sends loopback traffic through the proxy', async () => {
      process.env.HTTP_PROXY = 'http://proxy.internal:3128'
      const dispatcher = createDispatcher(new URL('http://127.0.0.1:8080'))
      expect(dispatcher).toBeInstanceOf(Agent)
      await dispatcher.close()
    })
  })
})
