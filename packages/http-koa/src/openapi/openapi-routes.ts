import type Router from '@koa/router'
import { type OpenApiDocument, openApiDocument } from './openapi-document.js'

/** The path the document is served at. */
export const OPENAPI_PATH = '/rest/openapi.json'

/** GET /rest/openapi.json (no authentication): the OpenAPI 3.1 document of the service. */
export function registerOpenApiRoutes(router: Router, document: () => OpenApiDocument = openApiDocument): void {
  router.get(OPENAPI_PATH, (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=300')
    ctx.body = document()
  })
}
