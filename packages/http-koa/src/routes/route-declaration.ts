import type { RouterMiddleware } from '@koa/router'
import type { ErrorCode, MailroomServices } from '@mailroom/core'
import type {
  oas31,
  ZodObjectInput,
  ZodOpenApiContentObject,
  ZodOpenApiMediaTypeObject,
  ZodOpenApiResponsesObject,
} from 'zod-openapi'
import type { AppState } from '../app-state.js'
import type { OpenApiDocument, RouteTag } from '../openapi/document-info.js'
import type { WebClientFolders } from '../web-client/index.js'

/**
 * Who may call a route. `public`: anyone, no credentials asked. `user`: HTTP Basic or a bearer token, checked
 * before the route runs (with every other path under `/rest` and `/admin/`, so an unknown path there answers
 * 401, not 404). `serviceCookie`: the SERVICE-AUTH cookie, which the route checks itself (the digital safe).
 */
export type RouteSecurity = 'public' | 'user' | 'serviceCookie'

/** Whether the server is stopping: a stopping instance is alive but must not be sent new traffic (GET /readyz). */
export interface ServerLifecycle {
  shuttingDown(): boolean
}

/** What serving GET /metrics needs; the server builds it (Prometheus), the adapter only answers with it. */
export interface MetricsEndpoint {
  /** The metrics in the exposition format, with its content type. */
  render(): Promise<{ readonly contentType: string; readonly body: string }>
  /** Whether a connection from this address may read them (its socket address, never a forwarded header). */
  allows(address: string): boolean
}

/** What a route's handler is built from: the settings of the application that serves it. */
export interface RouteDependencies {
  readonly services: MailroomServices
  readonly lifecycle?: ServerLifecycle | undefined
  readonly metrics?: MetricsEndpoint | undefined
  /** The operator's folders for 20.10's web client (its language files and images); absent: none. */
  readonly webClient?: WebClientFolders | undefined
  /** The largest request body (bytes) the application reads: the largest file a record's body may carry follows. */
  readonly bodyLimitBytes?: number | undefined
  /** The OpenAPI document built from the declarations (served by GET /rest/openapi.json). */
  readonly openApiDocument: () => OpenApiDocument
}

/** The Koa handler of one route. */
export type RouteHandler = RouterMiddleware<AppState>

/** What a documented route takes besides its method and path. */
export interface RouteRequest {
  /** Path parameters (a zod object; the document names them as its keys). */
  readonly path?: ZodObjectInput
  /** Query parameters (a zod object). */
  readonly query?: ZodObjectInput
  /** Header parameters, written the OpenAPI way: documented only. */
  readonly headers?: readonly oas31.ParameterObject[]
  /** The JSON body, always required: its schema with one `example` or named `examples`. */
  readonly body?: ZodOpenApiMediaTypeObject
}

interface RouteBase {
  readonly method: 'get' | 'post' | 'put' | 'patch' | 'delete'
  /** Koa's template (`/rest/resources/:resId`): the router matches it, and logs and metrics name requests by it. */
  readonly path: string
  readonly security: RouteSecurity
  /**
   * The handler, given the application's dependencies; `undefined` when this application does not serve the
   * route (the administration routes without organisation services, /metrics without a metrics endpoint).
   * Handlers stay thin: they pass the request's values as received to a use case, which checks them in the
   * reference's order, and shape the answer.
   */
  readonly serve: (dependencies: RouteDependencies) => RouteHandler | undefined
}

/** A route that is an operation of the OpenAPI document. */
export interface DocumentedRoute extends RouteBase {
  readonly operationId: string
  readonly tag: RouteTag
  readonly summary: string
  readonly description?: string
  /**
   * The path as the document writes it, when its parameter names differ from {@link RouteBase.path}'s
   * (`/digitalSafe/digitalSafe/{originatorOwnerOrgRegNumber}/events` for `…/:owner/events`); default: the
   * path with `:name` written `{name}`.
   */
  readonly documentedPath?: string
  readonly request?: RouteRequest
  /** The answers that are not errors, with their examples (typed with `satisfies` against core's types). */
  readonly responses: ZodOpenApiResponsesObject
  /**
   * The catalogue codes the route's use case may answer. The document renders one response per status with
   * each code's exact message, and adds the codes of the stages before the use case: the URL's (every route
   * with errors), the body's (a route with a body), the credentials' (`user` routes) and the server's (every
   * route with errors). The test servers fail a test file whose requests were answered a code its route's
   * document does not list (packages/testing's error-answers.ts).
   * Absent: the route documents no error of its own (the probes and the document itself), only the URL's check.
   */
  readonly errors?: readonly ErrorCode[]
}

/** A route served but kept out of the OpenAPI document; `undocumented` says why. */
export interface UndocumentedRoute extends RouteBase {
  readonly undocumented: string
}

/**
 * One route, declared once: the routers serve it and the OpenAPI document describes it from this. A route
 * module exports its declarations; `routes/index.ts` lists every module's, in the document's order.
 */
export type RouteDeclaration = DocumentedRoute | UndocumentedRoute

/** Whether a declaration is an operation of the document. */
export function isDocumented(route: RouteDeclaration): route is DocumentedRoute {
  return !('undocumented' in route)
}

/** A JSON content with its schema and example. */
export function json(schema: ZodOpenApiMediaTypeObject['schema'], example: unknown): ZodOpenApiContentObject {
  return { 'application/json': { schema, example } }
}
