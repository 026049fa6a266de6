/**
 * @module @mailroom/http-koa
 * The Koa adapter: routes to use cases, authentication, error mapping and limits.
 */
export { createHttpApp, DEFAULT_BODY_LIMIT_BYTES } from './create-http-app.js'
export type { HttpAppOptions } from './create-http-app.js'
export { STATUS_BY_KIND } from './error-status.js'
export { createHttpServer } from './create-http-server.js'
export type { HttpServerLimits } from './create-http-server.js'
export type { AppState } from './app-state.js'
export { digitalSafeErrorBody, SERVICE_AUTH_COOKIE, serviceAuthToken } from './routes/journal-routes.js'
export {
  createOpenApiDocument,
  documentedMessage,
  documentedStatus,
  listDocumentedOperations,
  listRoutes,
  OPENAPI_PATH,
  openApiDocument,
  registerOpenApiRoutes,
  toOpenApiPath,
} from './openapi/index.js'
export type { OpenApiDocument, RouteEntry } from './openapi/index.js'
