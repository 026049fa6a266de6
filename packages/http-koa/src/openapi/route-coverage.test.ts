import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestMailroom, startTestServer, type TestMailroom, type TestServer } from '../../../testing/src/index.js'
import { createHttpApp } from '../create-http-app.js'
import { listDocumentedOperations, listRoutes, toOpenApiPath } from './list-routes.js'
import { openApiDocument } from './openapi-document.js'

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
