import type { RouteDeclaration } from '../routes/route-declaration.js'

/** The path the document is served at. */
export const OPENAPI_PATH = '/rest/openapi.json'

/** GET /rest/openapi.json (no authentication): the OpenAPI 3.1 document of the service. */
export const openApiRoute: RouteDeclaration = {
  method: 'get',
  path: OPENAPI_PATH,
  operationId: 'openapi',
  tag: 'service',
  summary: 'This OpenAPI document',
  security: 'public',
  responses: {
    '200': {
      description: 'The OpenAPI 3.1 document of the service',
      content: { 'application/json': { schema: { type: 'object', description: 'An OpenAPI 3.1 document' } } },
    },
  },
  serve:
    ({ openApiDocument }) =>
    (ctx) => {
      ctx.set('Cache-Control', 'public, max-age=300')
      ctx.body = openApiDocument()
    },
}
