/** The OpenAPI document of the service, its route, and the route listing the coverage test uses. */

export { documentedMessage, documentedStatus } from './error-examples.js'
export type { RouteEntry } from './list-routes.js'
export { listDocumentedOperations, listRoutes, toOpenApiPath } from './list-routes.js'
export type { OpenApiDocument } from './openapi-document.js'
export { createOpenApiDocument, openApiDocument } from './openapi-document.js'
export { OPENAPI_PATH, registerOpenApiRoutes } from './openapi-routes.js'
