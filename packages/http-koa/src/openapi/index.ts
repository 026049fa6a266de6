/** The OpenAPI document of the service and the path it is served at. */

export type { OpenApiDocument } from './document-info.js'
export { createOpenApiDocument, openApiDocument } from './openapi-document.js'
export { OPENAPI_PATH } from './openapi-routes.js'
