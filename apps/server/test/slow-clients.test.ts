import { rm } from 'node:fs/promises'
import { connect, type Socket } from 'node:net'
import { pino } from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../src/config.js'
import { type RunningServer, startServer } from '../src/serve.js'
import { embeddedDemoDataDir } from './demo-database.js'

/** Small bounds, so stalled clients are cut within the test; the defaults are 30 s, 5 min and 30 s. */
const TIMEOUTS = {
  MAILROOM_HEADERS_TIMEOUT_MS: '600',
  MAILROOM_RECEIVE_TIMEOUT_MS: '3000',
  MAILROOM_BODY_IDLE_TIMEOUT_MS: '800',
}
/** How long the test waits for a connection to be closed: far above the bounds, for a loaded machine. */
const CLOSED_WITHIN_MS = 20_000

/** A raw connection, what it received, and when the server closed it (null if it did not in time). */
interface RawClient {
  readonly socket: Socket
  readonly closed: Promise<string | null>
}

function openRaw(url: string, firstBytes: string): RawClient {
  const { hostname, port } = new URL(url)
  const socket = connect(Number(port), hostname)
  socket.write(firstBytes)
  let received = ''
  socket.on('data', (chunk) => (received += chunk))
  socket.on('error', () => {})
  const closed = new Promise<string | null>((resolve) => {
    const giveUp = setTimeout(() => resolve(null), CLOSED_WITHIN_MS)
    socket.once('close', () => {
      clearTimeout(giveUp)
      resolve(received)
    })
  })
  return { socket, closed }
}

// The login is no user's: a request whose body arrived whole is answered 401 by authentication, which runs after
// the body is read; one whose body did not, 408.
const headersOf = (contentLength: number) =>
  `POST /rest/res/list HTTP/1.1\r\nHost: mailroom\r\nAuthorization: Basic bm9ib2R5Om1hYXJjaA==\r\nContent-Type: application/json\r\nContent-Length: ${contentLength}\r\n\r\n`

describe('slow clients', () => {
  let dataDir: string
  let server: RunningServer
  beforeAll(async () => {
    // The run's migrated demo database copied in: migrating PGlite here was most of the file's CPU.
    dataDir = await embeddedDemoDataDir('mailroom-slow-clients-')
    server = await startServer(
      loadConfig({ MAILROOM_DATA_DIR: dataDir, PORT: '0', MAILROOM_DEMO: '0', ...TIMEOUTS }),
      pino({ level: 'silent' }),
    )
  })
  afterAll(async () => {
    await server?.stop()
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  it('closes connections that stall in their headers, their body or trickle, while a normal request is served', async () => {
    const stalledHeaders = Array.from({ length: 20 }, () =>
      openRaw(server.url, 'POST /rest/res/list HTTP/1.1\r\nHost: mailroom\r\n'),
    )
    const stalledBodies = Array.from({ length: 20 }, () =>
      openRaw(server.url, `${headersOf(5000)}{"select": "res_id",`),
    )
    // One byte every 200 ms: never idle long enough for the body bound, but far too slow to arrive whole.
    const trickle = openRaw(server.url, `${headersOf(1000)}{"select":"res_id","clause":"1=1"`)
    const drip = setInterval(() => trickle.socket.writable && trickle.socket.write(' '), 200)
    try {
      const served = await fetch(`${server.url}/healthz`)
      expect([served.status, ((await served.json()) as { status: string }).status]).toEqual([200, 'ok'])
      const search = await fetch(`${server.url}/rest/res/list`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"select":"res_id","clause":"1=1"}',
      })
      expect([search.status, await search.json()]).toEqual([401, { errors: 'Authentication Failed' }])

      for (const answer of await Promise.all(stalledHeaders.map((client) => client.closed))) {
        expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/)
        expect(answer).toContain('{"errors":"Request took too long and was stopped"}')
      }
      for (const answer of await Promise.all(stalledBodies.map((client) => client.closed))) {
        expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/)
        expect(answer).toMatch(/\r\nConnection: close\r\n/i)
        expect(answer).toContain('{"errors":"Request body did not arrive in time"}')
      }
      expect(await trickle.closed).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/)
    } finally {
      clearInterval(drip)
      for (const client of [...stalledHeaders, ...stalledBodies, trickle]) client.socket.destroy()
    }

    // And afterwards the server still answers as before.
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
  })

  it('takes a body that arrives in pieces with pauses shorter than the bound', async () => {
    const body = '{"select":"res_id","clause":"1=1"}'
    const client = openRaw(
      server.url,
      headersOf(body.length).replace('Host: mailroom', 'Host: mailroom\r\nConnection: close'),
    )
    for (const piece of body.match(/.{1,8}/g)!) {
      await new Promise((resolve) => setTimeout(resolve, 150))
      client.socket.write(piece)
    }
    const answer = await client.closed
    expect(answer).toMatch(/^HTTP\/1\.1 401 Unauthorized\r\n/)
    expect(answer).toContain('{"errors":"Authentication Failed"}')
  })
})
