import type { HttpObserver, MailroomServices } from '@mailroom/core'
import Koa from 'koa'
import { type Logger, pino } from 'pino'
import type { AppState } from './app-state.js'
import { DEFAULT_BODY_LIMIT_BYTES } from './body-limit.js'
import { serveConsole } from './console/index.js'
import { authenticateRest } from './middleware/authenticate.js'
import { clientAddress, type ProxyHeader, type TrustedProxies } from './middleware/client-address.js'
import { type CorsSettings, crossOrigin } from './middleware/cross-origin.js'
import { errorHandler } from './middleware/error-handler.js'
import { jsonBody } from './middleware/json-body.js'
import { observeRequests } from './middleware/observe-requests.js'
import { requestContext } from './middleware/request-context.js'
import { requestTimeout } from './middleware/request-timeout.js'
import { type SecurityHeaderSettings, securityHeaders } from './middleware/security-headers.js'
import { openApiDocument } from './openapi/openapi-document.js'
import { createMailroomRouters } from './routes/index.js'
import { digitalSafeErrorBody } from './routes/journal-routes.js'
import type { MetricsEndpoint, ServerLifecycle } from './routes/route-declaration.js'
import { answerMaarchRoutesNotServed, serveWebClient, type WebClientFolders } from './web-client/index.js'

/** Settings of the HTTP adapter. */
export interface HttpAppOptions {
  readonly services: MailroomServices
  readonly logger?: Logger
  /** Largest accepted request body in bytes (default 64 MiB). */
  readonly bodyLimitBytes?: number
  /** The proxies in front whose forwarded client addresses are believed (absent or 0: none, the socket's peer is the client). */
  readonly trustProxy?: TrustedProxies
  /** The header those proxies append the client address to (default x-forwarded-for). */
  readonly proxyHeader?: ProxyHeader
  /** Longest time a request may take before it is answered 503 (default 120 s). */
  readonly requestTimeoutMs?: number
  /** Folder of the built web console (index.html, assets/), served at /console; absent: no console. */
  readonly consoleDir?: string
  /**
   * Maarch 20.10's web client: the folder of an operator's build, served at /dist, and the folders of its
   * language files and images (GET /rest/languages/{lang}, GET /rest/images); absent: no client served.
   */
  readonly webClient?: WebClientFolders
  /** Told of every answered request, by route template (metrics); nothing by default. */
  readonly observer?: HttpObserver
  /** Serves GET /metrics on this app (absent: no /metrics here, e.g. when it has a port of its own). */
  readonly metrics?: MetricsEndpoint
  /** Whether the server is stopping, for GET /readyz (absent: never). */
  readonly lifecycle?: ServerLifecycle
  /** Longest pause while a request body arrives before it is answered 408 and its connection closed (default 30 s; 0: none). */
  readonly bodyIdleTimeoutMs?: number
  /** Browser pages of other origins allowed to call (CORS); absent: none. */
  readonly cors?: CorsSettings
  /** HSTS, Referrer-Policy, nosniff and the console's framing, sent on every answer (defaults: no HSTS, no-referrer, nosniff). */
  readonly securityHeaders?: SecurityHeaderSettings
}

/** Default longest pause while a body arrives: a live client on a slow link still sends something every few seconds. */
export const DEFAULT_BODY_IDLE_TIMEOUT_MS = 30_000

/**
 * Builds the Koa application serving the REST interface, /healthz and /digitalSafe (and the console when given).
 *
 * @example
 * ```ts
 * import { createHttpApp, createHttpServer } from '@mailroom/http-koa'
 * import { createMailroom } from '@mailroom/mailroom'
 *
 * const mailroom = await createMailroom({
 *   database: './data/pglite',
 *   docserverDir: './data/docservers',
 *   secret: process.env.MAILROOM_SECRET ?? 'change me',
 * })
 * const app = createHttpApp({ services: mailroom, cors: { origins: ['https://mail.example.org'] } })
 * createHttpServer(app).listen(8080, '127.0.0.1')
 * ```
 */
export function createHttpApp(options: HttpAppOptions): Koa<AppState> {
  const log = options.logger ?? pino({ level: 'silent' })
  const app = new Koa<AppState>()
  app.silent = true

  // Which router serves a route is its declaration's security (routes/route-declaration.ts).
  const { publicRouter, restRouter } = createMailroomRouters({ ...options, openApiDocument })

  const auth = authenticateRest(options.services.auth)
  app.use(clientAddress(options.trustProxy, options.proxyHeader))
  app.use(requestContext(log))
  app.use(securityHeaders(options.securityHeaders))
  // Outside the error handler, so the status observed is the one sent, errors included.
  if (options.observer) app.use(observeRequests(options.observer, [publicRouter, restRouter]))
  // Preflights carry no credentials: they are answered here, before anything asks for them.
  if (options.cors) app.use(crossOrigin(options.cors))
  // Errors raised before a route runs (URL checks, body limits) still get the envelope of their API.
  app.use(errorHandler({ renderers: [['/digitalSafe', digitalSafeErrorBody]] }))
  app.use(requestTimeout(options.requestTimeoutMs ?? 120_000))
  if (options.consoleDir !== undefined) app.use(serveConsole(options.consoleDir))
  if (options.webClient?.clientDir !== undefined) app.use(serveWebClient(options.webClient.clientDir))
  app.use(
    jsonBody(
      options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES,
      options.bodyIdleTimeoutMs ?? DEFAULT_BODY_IDLE_TIMEOUT_MS,
    ),
  )
  app.use(publicRouter.routes())
  // A public route has answered above: whatever else is under /rest or /admin/ asks for credentials, so an
  // unknown path there answers 401, not 404.
  app.use(async (ctx, next) => {
    if (ctx.path.startsWith('/rest')) return auth(ctx, next)
    if (ctx.path.startsWith('/admin/')) return auth(ctx, next)
    return next()
  })
  app.use(restRouter.routes())
  app.use(restRouter.allowedMethods())
  // Reached when no route above matched (allowedMethods waits for it before answering 405).
  app.use(answerMaarchRoutesNotServed())
  return app
}
