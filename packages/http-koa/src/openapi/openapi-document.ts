import {
  createDocument,
  type oas31,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponsesObject,
} from 'zod-openapi'
import { ROUTES } from '../routes/index.js'
import { type DocumentedRoute, isDocumented, type RouteDeclaration } from '../routes/route-declaration.js'
import { DEMO, INFO, type OpenApiDocument, SECURITY_SCHEMES, TAGS, USER_SECURITY } from './document-info.js'
import {
  BODY_ERRORS,
  CREDENTIALS_ERRORS,
  journalErrorResponses,
  REQUEST_ERRORS,
  restErrorResponses,
  SERVER_ERRORS,
} from './error-examples.js'
import { toOpenApiPath } from './list-routes.js'

/** The security requirement an operation states; `user` routes keep the document's default. */
const SECURITY: Record<'public' | 'serviceCookie', oas31.SecurityRequirementObject[]> = {
  public: [],
  serviceCookie: [{ serviceAuthCookie: [] }],
}

/** A route's path as the document writes it. */
export function documentedPathOf(route: DocumentedRoute): string {
  return route.documentedPath ?? toOpenApiPath(route.path)
}

/**
 * The error responses of a route: its own codes, then those of the stages before its use case runs (the URL's
 * check, the body's, the credentials') and the server's. Errors
 * under /digitalSafe have the journal envelope, as the error handler renders them.
 */
function errorResponsesOf(route: DocumentedRoute): ZodOpenApiResponsesObject {
  // A route without errors of its own (the probes, the document) still refuses a NUL in its URL, as every path does.
  if (route.errors === undefined) return restErrorResponses(REQUEST_ERRORS)
  const codes = [
    ...route.errors,
    ...REQUEST_ERRORS,
    ...(route.request?.body ? BODY_ERRORS : []),
    ...(route.security === 'user' ? CREDENTIALS_ERRORS : []),
    ...SERVER_ERRORS,
  ]
  return route.path.startsWith('/digitalSafe/') ? journalErrorResponses(codes, DEMO.safe) : restErrorResponses(codes)
}

/** The operation a route declares. Keys in the document's order: the committed openapi.json is compared byte for byte. */
function operationOf(route: DocumentedRoute): ZodOpenApiOperationObject {
  const { request } = route
  const operation: Omit<ZodOpenApiOperationObject, 'responses'> = {
    operationId: route.operationId,
    tags: [route.tag],
    summary: route.summary,
  }
  if (route.description !== undefined) operation.description = route.description
  if (route.security !== 'user') operation.security = SECURITY[route.security]
  if (request?.path || request?.query)
    operation.requestParams = {
      ...(request.path ? { path: request.path } : {}),
      ...(request.query ? { query: request.query } : {}),
    }
  if (request?.headers) operation.parameters = [...request.headers]
  if (request?.body) operation.requestBody = { required: true, content: { 'application/json': request.body } }
  return { ...operation, responses: { ...route.responses, ...errorResponsesOf(route) } }
}

/** The OpenAPI 3.1 document of the given routes (undocumented ones left out), in their order. */
export function documentRoutes(routes: readonly RouteDeclaration[]): OpenApiDocument {
  const paths: ZodOpenApiPathsObject = {}
  for (const route of routes.filter(isDocumented)) {
    const path = documentedPathOf(route)
    paths[path] = { ...paths[path], [route.method]: operationOf(route) }
  }
  return createDocument({
    openapi: '3.1.0',
    info: INFO,
    servers: [{ url: '/', description: 'This server' }],
    security: USER_SECURITY,
    tags: TAGS.map((tag) => ({ ...tag })),
    components: { securitySchemes: SECURITY_SCHEMES },
    paths,
  })
}

/** Builds the OpenAPI 3.1 document of every operation Mailroom serves. */
export function createOpenApiDocument(): OpenApiDocument {
  return documentRoutes(ROUTES)
}

let cached: OpenApiDocument | undefined

/** The OpenAPI document, built once per process. */
export function openApiDocument(): OpenApiDocument {
  cached ??= createOpenApiDocument()
  return cached
}
