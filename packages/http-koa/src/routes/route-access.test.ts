import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../../testing/src/index.js'

/**
 * Which requests ask for credentials and what unknown paths and methods answer, across the public routes,
 * the authenticated `/rest` and `/admin` routes and `/digitalSafe`: the behaviour the route declarations'
 * security must keep.
 */
let s: TestServer
const ROOT = 'superadmin:superadmin'
beforeAll(async () => {
  s = await startTestServer({ mailroom: { throttle: false } })
})
afterAll(async () => s?.close())

describe('which requests ask for credentials', () => {
  it.each([
    ['GET', '/healthz', 200],
    ['HEAD', '/healthz', 200],
    ['GET', '/readyz', 200],
    ['GET', '/rest/openapi.json', 200],
    ['HEAD', '/rest/openapi.json', 200],
    ['POST', '/rest/authenticate', 400],
    ['GET', '/rest/authenticate/token', 400],
    ['HEAD', '/rest/authenticate/token', 400],
  ] as const)('%s %s answers without credentials (%i)', async (method, path, status) => {
    expect((await s.call(method, path, { auth: null })).status).toBe(status)
  })

  it.each([
    ['GET', '/rest/authenticate'],
    ['PUT', '/rest/authenticate/token'],
    ['OPTIONS', '/rest/authenticate'],
    ['DELETE', '/rest/openapi.json'],
    ['GET', '/rest/entities/PJS'],
    ['HEAD', '/rest/entities/PJS'],
    ['DELETE', '/rest/entities/PJS'],
    ['GET', '/rest/nowhere'],
    ['GET', '/rest'],
  ] as const)('%s %s without credentials answers 401 with a Basic challenge', async (method, path) => {
    const r = await s.call(method, path, { auth: null })
    expect(r.status).toBe(401)
    expect(r.headers.get('www-authenticate')).toMatch(/^Basic /)
  })

  it.each([
    ['GET', '/admin/users'],
    ['PATCH', '/admin/users'],
    ['OPTIONS', '/admin/users'],
    ['GET', '/admin/nowhere'],
  ] as const)('%s %s without credentials answers 401 Authentication Failed', async (method, path) => {
    const r = await s.call(method, path, { auth: null })
    expect([r.status, r.json]).toEqual([401, { errors: 'Authentication Failed' }])
  })

  it.each([
    [null, 'GET', '/admin'],
    [null, 'GET', '/elsewhere'],
    [ROOT, 'GET', '/admin'],
    [ROOT, 'GET', '/elsewhere'],
    [ROOT, 'GET', '/rest/nowhere'],
    [ROOT, 'GET', '/rest'],
    [ROOT, 'GET', '/admin/nowhere'],
  ] as const)('with %s, %s %s answers 404 Route not found', async (auth, method, path) => {
    const r = await s.call(method, path, { auth })
    expect([r.status, r.json]).toEqual([404, { errors: 'Route not found' }])
  })
})

describe('methods a path does not serve', () => {
  it.each([
    [null, 'POST', '/healthz', 'HEAD, GET'],
    [ROOT, 'POST', '/healthz', 'HEAD, GET'],
    [ROOT, 'DELETE', '/rest/openapi.json', 'HEAD, GET'],
    [ROOT, 'GET', '/rest/authenticate', 'POST'],
    [ROOT, 'PUT', '/rest/authenticate/token', 'HEAD, GET'],
    // DELETE /rest/entities/{id} is a route of 20.10 not served yet: 501 (routes-not-served.test.ts).
    [ROOT, 'PATCH', '/rest/entities/PJS', 'HEAD, GET'],
    [ROOT, 'POST', '/rest/resources/1/content', 'HEAD, GET'],
    [ROOT, 'GET', '/rest/res/list', 'POST'],
    [ROOT, 'DELETE', '/admin/organisation', 'HEAD, GET, PUT'],
    [ROOT, 'PATCH', '/admin/users', 'HEAD, GET, POST'],
  ] as const)('with %s, %s %s answers 400 Method not allowed, Allow: %s', async (auth, method, path, allow) => {
    const r = await s.call(method, path, { auth })
    expect([r.status, r.json]).toEqual([400, { errors: 'Method not allowed on this route' }])
    expect(r.headers.get('allow')).toBe(allow)
  })

  it.each([
    [null, '/healthz', 'HEAD, GET'],
    [ROOT, '/rest/authenticate', 'POST'],
    [ROOT, '/admin/users', 'HEAD, GET, POST'],
  ] as const)('with %s, OPTIONS %s answers 200 with Allow: %s', async (auth, path, allow) => {
    const r = await s.call('OPTIONS', path, { auth })
    expect(r.status).toBe(200)
    expect(r.headers.get('allow')).toBe(allow)
  })

  it('answers HEAD of an authenticated GET route', async () => {
    const r = await s.call('HEAD', '/rest/entities/PJS', { auth: ROOT })
    expect([r.status, r.text]).toEqual([200, ''])
  })
})

describe('/digitalSafe', () => {
  it.each([
    ['POST', '/digitalSafe/digitalSafe/21750001600019/events'],
    ['OPTIONS', '/digitalSafe/digitalSafe/21750001600019/events'],
    ['GET', '/digitalSafe/elsewhere'],
    ['GET', '/digitalSafe'],
  ] as const)('%s %s answers 404 in the journal envelope, whatever the credentials', async (method, path) => {
    for (const auth of [null, ROOT]) {
      const r = await s.call(method, path, { auth })
      expect(r.status).toBe(404)
      expect(r.json).toMatchObject({ operationResult: false, message: 'Route not found', accountName: '' })
      expect(r.headers.get('www-authenticate')).toBeNull()
    }
  })

  it('reads the journal with the SERVICE-AUTH cookie only: Basic credentials are not asked for nor taken', async () => {
    const r = await s.call('GET', '/digitalSafe/digitalSafe/21750001600019/events', { auth: ROOT })
    expect(r.status).toBe(401)
    expect(r.json).toMatchObject({ operationResult: false })
    expect(r.headers.get('www-authenticate')).toBeNull()
  })
})
