import type { Server } from 'node:http'
import { type AddressInfo, createServer as createNetServer } from 'node:net'
import type { MailroomServices } from '@mailroom/core'
import { createHttpApp, createHttpServer, type HttpAppOptions, openApiDocument } from '@mailroom/http-koa'
import { createMailroom, DEMO_PASSWORDS, type Mailroom, type MailroomOptions } from '@mailroom/mailroom'
import { createTestMailroom, type TestMailroom } from '../databases/test-database.js'
import { type ErrorAnswer, recordErrorAnswers, undocumentedErrorAnswers } from './error-answers.js'

/** A Mailroom served over HTTP on a loopback port, on the test database and document store of the current project. */
export interface TestServer extends TestMailroom {
  readonly baseUrl: string
  readonly server: Server
  /** fetch against the server with a demo user's Basic credentials (or none). */
  call(method: string, path: string, options?: CallOptions): Promise<TestResponse>
  close(): Promise<void>
}

/** Options of one test call. */
export interface CallOptions {
  /** `login:password`, a `{ bearer }` token, or null for no credentials. Default: bbain:maarch. */
  readonly auth?: string | { bearer: string } | null
  readonly body?: unknown
  /** Raw body text (sent as is). */
  readonly rawBody?: string | Uint8Array
  readonly headers?: Record<string, string>
}

/** A response with its body read as text, and as JSON when it parses. */
export interface TestResponse {
  readonly status: number
  readonly headers: Headers
  readonly text: string
  readonly bytes: Uint8Array
  readonly json: any
}

/** Basic credentials of a demo user. */
export function demoAuth(login: keyof typeof DEMO_PASSWORDS | string): string {
  return `${login}:${DEMO_PASSWORDS[login] ?? 'maarch'}`
}

/**
 * Mailroom services served over HTTP on a free loopback port; `close` stops the server, not the services, and
 * fails naming every error it answered that the OpenAPI document does not describe (a route answering a code
 * its declaration's `errors` does not list): every test that serves Mailroom checks the document this way.
 */
export interface LoopbackServer {
  readonly baseUrl: string
  readonly server: Server
  close(): Promise<void>
}

export async function serveOnLoopback(
  services: MailroomServices,
  http: Partial<Omit<HttpAppOptions, 'services'>> = {},
  port = 0,
): Promise<LoopbackServer> {
  const app = createHttpApp({ services, ...http })
  const errorAnswers: ErrorAnswer[] = []
  // Before every other middleware, so it sees each answer as sent; Koa composes them when the server is made.
  app.middleware.unshift(recordErrorAnswers(errorAnswers))
  const server = createHttpServer(app)
  // A test's fetch reuses idle connections. With the production 5 s, a connection the server closes just as the
  // client, its event loop held up on a loaded machine, sends on it fails the request with ECONNRESET (seen in CI).
  server.keepAliveTimeout = 120_000
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    server,
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      const undocumented = undocumentedErrorAnswers(errorAnswers, openApiDocument())
      if (undocumented.length > 0)
        throw new Error(
          `The server answered errors its OpenAPI document does not describe; add each code to its route's declared errors (packages/http-koa/src/routes):\n${undocumented.join('\n')}`,
        )
    },
  }
}

/** A Mailroom of its own served on a loopback port; `close` stops the server, then the Mailroom. */
export interface LoopbackMailroom extends LoopbackServer {
  readonly mailroom: Mailroom
}

/**
 * Creates a Mailroom from `options` and serves it on a free loopback port: one server of several sharing a
 * database or a bucket, each with its own pool, caches and store client, as separate processes have.
 */
export async function serveMailroomOnLoopback(
  options: MailroomOptions,
  http: Partial<Omit<HttpAppOptions, 'services'>> = {},
): Promise<LoopbackMailroom> {
  // No background extraction unless the test asks for it (see createTestMailroom).
  const mailroom = await createMailroom({ fulltext: { workers: 0 }, ...options })
  const served = await serveOnLoopback(mailroom, http)
  return {
    ...served,
    mailroom,
    async close() {
      try {
        await served.close()
      } finally {
        await mailroom.close()
      }
    },
  }
}

export async function startTestServer(
  options: {
    mailroom?: Partial<Omit<MailroomOptions, 'database' | 'docserverDir' | 'docserverUrl' | 's3' | 'documentStore'>>
    http?: Partial<Omit<HttpAppOptions, 'services'>>
    /** A port of one's own (see freeLoopbackPort), when the server's address must be known before it starts. */
    port?: number
  } = {},
): Promise<TestServer> {
  const t = await createTestMailroom(options.mailroom)
  const { baseUrl, server, close } = await serveOnLoopback(t.mailroom, options.http, options.port)
  return {
    mailroom: t.mailroom,
    database: t.database,
    store: t.store,
    storeOptions: t.storeOptions,
    documents: t.documents,
    secret: t.secret,
    cleanup: t.cleanup,
    // A getter, not a copy: the s3 project's TestMailroom throws when a test reads the folder it has not.
    get docserverDir() {
      return t.docserverDir
    },
    baseUrl,
    server,
    async call(method, path, callOptions = {}) {
      const headers: Record<string, string> = { ...callOptions.headers }
      const auth = callOptions.auth === undefined ? demoAuth('bbain') : callOptions.auth
      if (typeof auth === 'string') headers.authorization = `Basic ${Buffer.from(auth).toString('base64')}`
      else if (auth) headers.authorization = `Bearer ${auth.bearer}`
      // An ArrayBuffer-backed copy: what fetch takes under both Node's and the DOM's types (the console's tests).
      let body: string | Uint8Array<ArrayBuffer> | undefined
      if (callOptions.rawBody !== undefined)
        body = typeof callOptions.rawBody === 'string' ? callOptions.rawBody : new Uint8Array(callOptions.rawBody)
      else if (callOptions.body !== undefined) {
        body = JSON.stringify(callOptions.body)
        headers['content-type'] ??= 'application/json'
      }
      const response = await fetch(`${baseUrl}${path}`, { method, headers, ...(body === undefined ? {} : { body }) })
      const bytes = new Uint8Array(await response.arrayBuffer())
      const text = Buffer.from(bytes).toString('utf8')
      let json: unknown
      try {
        json = JSON.parse(text)
      } catch {
        json = undefined
      }
      return { status: response.status, headers: response.headers, text, bytes, json }
    },
    async close() {
      try {
        await close()
      } finally {
        await t.cleanup()
      }
    },
  }
}

/** A port free on 127.0.0.1 now (for a server whose address others must know before it listens). */
export async function freeLoopbackPort(): Promise<number> {
  const probe = createNetServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as AddressInfo
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  return port
}
