import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestMailroom, startTestServer, type TestMailroom, type TestServer } from '../../../testing/src/index.js'
import { createHttpApp } from '../create-http-app.js'
import { ROUTES } from '../routes/index.js'
import { isDocumented } from '../routes/route-declaration.js'
import { listDocumentedOperations, listRoutes, toOpenApiPath } from './list-routes.js'
import { documentedPathOf, openApiDocument } from './openapi-document.js'

let t: TestMailroom
let s: TestServer
beforeAll(async () => {
  t = await createTestMailroom()
  s = await startTestServer()
})
afterAll(async () => {
  await s?.close()
  await t?.cleanup()
})

// Parameter names are the adapter's choice (`:owner`); the document uses the interface's names.
const key = (r: { method: string; path: string }) => `${r.method.toUpperCase()} ${r.path.replace(/\{[^}]+\}/g, '{}')}`
// Served routes as listRoutes writes them (parameter names kept).
const asServed = (r: { method: string; path: string }) => `${r.method} ${toOpenApiPath(r.path)}`

describe('route coverage of the OpenAPI document', () => {
  it('documents every route the Koa application serves, and serves every documented operation', () => {
    const served = listRoutes(createHttpApp({ services: t.mailroom })).map(key)
    const documented = listDocumentedOperations(openApiDocument() as never).map(key)
    expect(
      served.filter((route) => !documented.includes(route)),
      'served but not documented',
    ).toEqual([])
    expect(
      documented.filter((operation) => !served.includes(operation)),
      'documented but not served',
    ).toEqual([])
  })

  it('serves every declared route and only those, each under its declared method and path', () => {
    const metrics = { render: async () => ({ contentType: 'text/plain', body: '' }), allows: () => true }
    const served = listRoutes(createHttpApp({ services: t.mailroom, metrics })).map(asServed)
    expect(served.sort()).toEqual(ROUTES.map(asServed).sort())
  })

  it('documents every declaration not marked undocumented, under its path, and nothing else', () => {
    const documented = listDocumentedOperations(openApiDocument() as never).map(asServed)
    const declared = ROUTES.filter(isDocumented).map((route) => asServed({ ...route, path: documentedPathOf(route) }))
    expect(documented.sort()).toEqual(declared.sort())
    expect(ROUTES.filter((route) => !isDocumented(route)).map(asServed)).toEqual(['get /metrics'])
  })

  it("writes documented paths with the served path's shape, only the parameter names differing", () => {
    for (const route of ROUTES.filter(isDocumented))
      expect(key({ method: route.method, path: documentedPathOf(route) }), route.operationId).toBe(
        key({ method: route.method, path: toOpenApiPath(route.path) }),
      )
  })

  it('declares each method and path once, and each operationId once', () => {
    const routes = ROUTES.map(asServed)
    expect(new Set(routes).size).toBe(routes.length)
    const ids = ROUTES.filter(isDocumented).map((route) => route.operationId)
    expect(new Set(ids).size).toBe(ids.length)
  })

  it('serves the administration routes only with organisation services, /metrics only with an endpoint', () => {
    const served = listRoutes(createHttpApp({ services: { ...t.mailroom, organisation: undefined } })).map(asServed)
    const always = ROUTES.filter((route) => !route.path.startsWith('/admin/') && route.path !== '/metrics')
    expect(served.sort()).toEqual(always.map(asServed).sort())
  })

  it('writes Koa paths the OpenAPI way', () => {
    expect(toOpenApiPath('/rest/resources/:resId/content/:version')).toBe('/rest/resources/{resId}/content/{version}')
    expect(toOpenApiPath('/digitalSafe/digitalSafe/:originatorOwnerOrgRegNumber/events')).toBe(
      '/digitalSafe/digitalSafe/{originatorOwnerOrgRegNumber}/events',
    )
    expect(toOpenApiPath('/healthz')).toBe('/healthz')
  })
})

describe('GET /rest/openapi.json', () => {
  it('serves the document without credentials', async () => {
    const r = await s.call('GET', '/rest/openapi.json', { auth: null })
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toMatch(/^application\/json/)
    expect(r.json).toEqual(JSON.parse(JSON.stringify(openApiDocument())))
  })

  it('serves it to authenticated callers too, and ignores wrong credentials', async () => {
    expect((await s.call('GET', '/rest/openapi.json')).status).toBe(200)
    expect((await s.call('GET', '/rest/openapi.json', { auth: 'bbain:wrong' })).status).toBe(200)
  })
})
