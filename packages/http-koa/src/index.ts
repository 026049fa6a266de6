/**
 * @module @mailroom/http-koa
 * The Koa adapter: routes to use cases, authentication, error mapping and limits.
 *
 * The public API serves a Mailroom (`createHttpApp`, `createHttpServer`) and gives its OpenAPI document;
 * route tables, request parsers and error renderers are internals.
 */

export type { AppState } from './app-state.js'
export { DEFAULT_BODY_LIMIT_BYTES } from './body-limit.js'
export type { HttpAppOptions } from './create-http-app.js'
export { createHttpApp, DEFAULT_BODY_IDLE_TIMEOUT_MS } from './create-http-app.js'
export type { HttpServerLimits } from './create-http-server.js'
export { createHttpServer, DEFAULT_HEADERS_TIMEOUT_MS, DEFAULT_RECEIVE_TIMEOUT_MS } from './create-http-server.js'
export { STATUS_BY_KIND } from './error-status.js'
export type { ProxyHeader, TrustedProxies } from './middleware/client-address.js'
export { trustedProxyCheck } from './middleware/client-address.js'
export type { CorsSettings } from './middleware/cross-origin.js'
export { corsSettingsProblem } from './middleware/cross-origin.js'
export type { ReferrerPolicyToken, SecurityHeaderSettings } from './middleware/security-headers.js'
export { REFERRER_POLICIES } from './middleware/security-headers.js'
export type { OpenApiDocument } from './openapi/index.js'
export { createOpenApiDocument, OPENAPI_PATH, openApiDocument } from './openapi/index.js'
export { SERVICE_AUTH_COOKIE } from './routes/journal-routes.js'
export type { MetricsEndpoint, ServerLifecycle } from './routes/route-declaration.js'
export { WEB_CLIENT_PATH, type WebClientFolders } from './web-client/index.js'
