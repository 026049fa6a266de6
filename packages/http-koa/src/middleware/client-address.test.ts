import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../../testing/src/index.js'
import { capturedLog } from '../../test/captured-log.js'
import { forwardedFor, type ProxyHeader, type TrustedProxies } from './client-address.js'

/** The client addresses the throttle logged, sorted. */
function addressesSeen(lines: readonly Record<string, unknown>[]): string[] {
  const seen = lines.flatMap((line) => {
    const address = (line.authentication as { address?: string } | undefined)?.address
    return address === undefined ? [] : [address]
  })
  return [...new Set(seen)].sort()
}

/**
 * A reverse proxy on 127.0.0.1 that forwards to `target` and appends the connection's address to the
 * header, as nginx's `$proxy_add_x_forwarded_for` does (or a `for=` element to Forwarded).
 */
async function appendingProxy(target: string, header: ProxyHeader): Promise<{ url: string; server: Server }> {
  const server = createServer((incoming, outgoing) => {
    const client = incoming.socket.remoteAddress ?? ''
    const headers = { ...incoming.headers }
    const before = headers[header]
    const appended = header === 'forwarded' ? `for="${client}:${incoming.socket.remotePort}"` : client
    headers[header] = before ? `${before}, ${appended}` : appended
    const upstream = request(`${target}${incoming.url}`, { method: incoming.method, headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(outgoing)
    })
    incoming.pipe(upstream)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }
}

/** A GET with Basic credentials from the local address `from` (any address of 127.0.0.0/8 is this machine). */
function call(
  url: string,
  credentials: string,
  headers: Record<string, string>,
  from = '127.0.0.2',
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(
      `${url}/rest/entities/PJS`,
      {
        localAddress: from,
        headers: { ...headers, authorization: `Basic ${Buffer.from(credentials).toString('base64')}` },
      },
      (answer) => {
        let body = ''
        answer.setEncoding('utf8')
        answer.on('data', (chunk: string) => {
          body += chunk
        })
        answer.on('end', () => resolve({ status: answer.statusCode ?? 0, body }))
      },
    )
    sent.on('error', reject)
    sent.end()
  })
}

const THROTTLED = { errors: 'Too many failed authentications from this address, try again later' }
const running: { close(): Promise<void> | void }[] = []
afterAll(async () => {
  for (const item of running.reverse()) await item.close()
})

async function proxiedMailroom(trustProxy: TrustedProxies | undefined, header: ProxyHeader = 'x-forwarded-for') {
  const log = capturedLog()
  const server: TestServer = await startTestServer({
    http: { logger: log.logger, ...(trustProxy === undefined ? {} : { trustProxy, proxyHeader: header }) },
  })
  running.push(server)
  const proxy = await appendingProxy(server.baseUrl, header)
  running.push({ close: () => new Promise<void>((resolve) => proxy.server.close(() => resolve())) })
  return { server, proxy: proxy.url, log }
}

/** Statuses of 40 wrong passwords for one login, each with another forged leftmost address. */
async function fortyForgedGuesses(url: string, header: ProxyHeader, login: string): Promise<number[]> {
  const statuses: number[] = []
  for (let i = 0; i < 40; i++) {
    const forged = header === 'forwarded' ? `for=198.51.100.${i}` : `198.51.100.${i}`
    statuses.push((await call(url, `${login}:wrong${i}`, { [header]: forged })).status)
  }
  return statuses
}

const ONE_ADDRESS = [...Array(5).fill(401), ...Array(35).fill(429)]

// Each case starts its own server and sends some forty requests: slow on a busy machine.
describe('the client address behind trusted proxies', { timeout: 90_000 }, () => {
  for (const [name, trust] of [
    ['a list of networks', ['127.0.0.1/32']],
    ['a hop count', 1],
  ] as const) {
    it(`ignores forged leftmost X-Forwarded-For entries: throttled after 5 as one address (${name})`, async () => {
      const { proxy, log } = await proxiedMailroom(trust)
      expect(await fortyForgedGuesses(proxy, 'x-forwarded-for', 'ddur')).toEqual(ONE_ADDRESS)
      // The throttle (and its log) saw the proxy's entry: the connection's address at the proxy.
      expect(addressesSeen(log.lines)).toEqual(['127.0.0.2'])
      const refused = await call(proxy, 'ddur:maarch', { 'x-forwarded-for': '192.0.2.1' }, '127.0.0.2')
      expect([refused.status, JSON.parse(refused.body)]).toEqual([429, THROTTLED])
      // Another client behind the same proxy is not held back by that one's guesses.
      expect((await call(proxy, 'ddur:maarch', {}, '127.0.0.3')).status).toBe(200)
    })
  }

  it("reads Forwarded's for= when told to, and then never X-Forwarded-For", async () => {
    const { proxy, log } = await proxiedMailroom(['127.0.0.1'], 'forwarded')
    expect(await fortyForgedGuesses(proxy, 'forwarded', 'bbain')).toEqual(ONE_ADDRESS)
    expect((await call(proxy, 'ppetit:wrong', { 'x-forwarded-for': '203.0.113.9' }, '127.0.0.4')).status).toBe(401)
    expect(addressesSeen(log.lines)).toEqual(['127.0.0.2', '127.0.0.4'])
  })

  it('ignores X-Forwarded-For entirely when no proxy is trusted, even a well-formed single entry', async () => {
    const { server, proxy, log } = await proxiedMailroom(undefined)
    // Straight to the server, each request claiming another address: one address all the same.
    const direct: number[] = []
    for (let i = 0; i < 40; i++)
      direct.push((await call(server.baseUrl, `ppetit:wrong${i}`, { 'x-forwarded-for': `198.51.100.${i}` })).status)
    expect(direct).toEqual(ONE_ADDRESS)
    // Through the proxy every client is the proxy's address, whatever the header says.
    expect((await call(proxy, 'bbain:wrong', {}, '127.0.0.5')).status).toBe(401)
    expect(addressesSeen(log.lines)).toEqual(['127.0.0.1', '127.0.0.2'])
  })
})

describe('forwardedFor', () => {
  it("reads each element's for= address, without port or IPv6 brackets, keeping unknown nodes", () => {
    expect(
      forwardedFor('for=192.0.2.60;proto=http;by=203.0.113.43, for="[2001:db8:cafe::17]:4711", for=unknown'),
    ).toEqual(['192.0.2.60', '2001:db8:cafe::17', 'unknown'])
    expect(forwardedFor('for="192.0.2.1:80", proto=https, for=_hidden')).toEqual(['192.0.2.1', '_hidden'])
  })

  it('keeps a malformed element as written, never losing the well-formed ones to its right', () => {
    expect(forwardedFor('for="unterminated, for=192.0.2.7')).toEqual(['for="unterminated', '192.0.2.7'])
  })

  it('gives back the addresses of any list of elements, with or without ports, and never throws', () => {
    const address = fc.oneof(fc.ipV4(), fc.ipV6())
    fc.assert(
      fc.property(fc.array(fc.tuple(address, fc.option(fc.integer({ min: 1, max: 65535 })))), (nodes) => {
        const header = nodes
          .map(([ip, port]) => {
            const host = ip.includes(':') ? `[${ip}]` : ip
            return `for="${port === null ? host : `${host}:${port}`}"`
          })
          .join(', ')
        expect(forwardedFor(header)).toEqual(nodes.map(([ip]) => ip))
      }),
    )
    fc.assert(fc.property(fc.string(), (text) => Array.isArray(forwardedFor(text))))
  })
})
