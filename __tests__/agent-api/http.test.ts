import { afterAll, beforeEach, describe, expect, it } from '@jest/globals'
import { Agent, ProxyAgent } from 'undici'
import { createDispatcher, ProxyError } from '../../src/agent-api/http.js'

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

    it('takes https_proxy before HTTPS_PROXY, and HTTPS_PROXY when https_proxy is empty', async () => {
      process.env.https_proxy = 'proxy:1'
      process.env.HTTPS_PROXY = 'http://proxy.internal:3128'
      expect(() => createDispatcher(new URL('https://api.mintlify.com'))).toThrow('Proxy variable https_proxy:')
      process.env.https_proxy = ''
      const dispatcher = createDispatcher(new URL('https://api.mintlify.com'))
      expect(dispatcher).toBeInstanceOf(ProxyAgent)
      await dispatcher.close()
    })

    it('takes http_proxy, then HTTP_PROXY, for an http:// API, and never HTTPS_PROXY', async () => {
      process.env.HTTPS_PROXY = 'proxy:1'
      const direct = createDispatcher(new URL('http://api.example.test'))
      expect(direct).toBeInstanceOf(Agent)
      await direct.close()
      process.env.HTTP_PROXY = 'http://proxy.internal:3128'
      const proxied = createDispatcher(new URL('http://api.example.test'))
      expect(proxied).toBeInstanceOf(ProxyAgent)
      await proxied.close()
      process.env.http_proxy = 'http://u:100%@proxy.internal:3128'
      expect(() => createDispatcher(new URL('http://api.example.test'))).toThrow(
        new ProxyError('http_proxy', 'its user name or password is not percent-encoded')
      )
    })

    it.each([
      ['proxy.internal:3128', 'no http:// or https://'],
      ['socks5://proxy.internal:1080', 'no http:// or https://'],
      ['http://', 'not a URL'],
      ['http://user:p%zz@proxy.internal:3128', 'its user name or password is not percent-encoded'],
      ['http://us%er:pass@proxy.internal:3128', 'its user name or password is not percent-encoded']
    ])('refuses HTTPS_PROXY=%s, naming the variable and the form, never the value', (value, why) => {
      process.env.HTTPS_PROXY = value
      let message = ''
      try {
        createDispatcher(new URL('https://api.mintlify.com'))
      } catch (error) {
        expect(error).toBeInstanceOf(ProxyError)
        expect((error as ProxyError).variable).toBe('HTTPS_PROXY')
        message = (error as Error).message
      }
      expect(message).toBe(
        `Proxy variable HTTPS_PROXY: ${why}: expected http://host:port or http://user:password@host:port, with % in a password written %25.`
      )
    })

    it('an https:// proxy is a proxy too', async () => {
      process.env.HTTPS_PROXY = 'https://proxy.internal:3129'
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
