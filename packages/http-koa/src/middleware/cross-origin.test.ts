import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../../testing/src/index.js'
import { corsSettingsProblem, crossOrigin } from './cross-origin.js'

const PORTAL = 'http://portal.example.test:5173'
const OTHER = 'http://elsewhere.example.test'

let withCors: TestServer
let withoutCors: TestServer
beforeAll(async () => {
  withCors = await startTestServer({ http: { cors: { origins: [PORTAL], credentials: true, maxAgeSeconds: 120 } } })
  withoutCors = await startTestServer()
})
afterAll(async () => {
  await withCors?.close()
  await withoutCors?.close()
})

const preflight = (origin: string, method = 'POST') => ({
  auth: null,
  headers: {
    origin,
    'access-control-request-method': method,
    'access-control-request-headers': 'authorization, content-type',
  },
})

describe('CORS for a listed origin', () => {
  it('answers the preflight 204 before authentication, with the methods, headers and max age', async () => {
    const r = await withCors.call('OPTIONS', '/rest/resources', preflight(PORTAL))
    expect(r.status).toBe(204)
    expect(r.headers.get('access-control-allow-origin')).toBe(PORTAL)
    expect(r.headers.get('access-control-allow-credentials')).toBe('true')
    expect(r.headers.get('access-control-allow-methods')).toBe('GET,HEAD,POST,PUT,DELETE,PATCH')
    expect(r.headers.get('access-control-allow-headers')).toBe('authorization, content-type')
    expect(r.headers.get('access-control-max-age')).toBe('120')
    expect(r.headers.get('www-authenticate')).toBeNull()
  })

  it('exposes Token and Refresh-Token on /rest/authenticate, and the request id', async () => {
    const r = await withCors.call('POST', '/rest/authenticate', {
      auth: null,
      body: { login: 'bbain', password: 'maarch' },
      headers: { origin: PORTAL },
    })
    expect(r.status).toBe(204)
    expect(r.headers.get('access-control-allow-origin')).toBe(PORTAL)
    expect(r.headers.get('access-control-expose-headers')).toBe('Token,Refresh-Token,Content-Disposition,X-Request-Id')
    expect(r.headers.get('token')).toBeTruthy()
    expect(r.headers.get('vary')).toMatch(/Origin/)
  })

  it('keeps the CORS headers on error answers, so the page can read the error', async () => {
    const r = await withCors.call('GET', '/rest/entities/PJS', {
      auth: 'bbain:wrong-password',
      headers: { origin: PORTAL },
    })
    expect(r.status).toBe(401)
    expect(r.json).toEqual({ errors: 'Authentication Failed' })
    expect(r.headers.get('access-control-allow-origin')).toBe(PORTAL)
  })
})

describe('CORS for an origin not listed', () => {
  it('sends no CORS header on a call, and the preflight is not answered', async () => {
    const call = await withCors.call('GET', '/rest/entities/PJS', { headers: { origin: OTHER } })
    expect(call.status).toBe(200)
    expect(call.headers.get('access-control-allow-origin')).toBeNull()
    expect(call.headers.get('access-control-expose-headers')).toBeNull()
    const pre = await withCors.call('OPTIONS', '/rest/resources', preflight(OTHER))
    expect(pre.status).toBe(401)
    expect(pre.headers.get('access-control-allow-origin')).toBeNull()
  })

  it('is every origin when CORS is off (the default)', async () => {
    const pre = await withoutCors.call('OPTIONS', '/rest/resources', preflight(PORTAL))
    expect(pre.status).toBe(401)
    expect(pre.headers.get('access-control-allow-origin')).toBeNull()
    const call = await withoutCors.call('GET', '/rest/entities/PJS', { headers: { origin: PORTAL } })
    expect([call.status, call.headers.get('access-control-allow-origin')]).toEqual([200, null])
  })
})

describe('CORS settings', () => {
  it('refuses "*" with credentials, a "*" among origins, and anything that is not an origin', () => {
    expect(corsSettingsProblem({ origins: '*', credentials: true })).toMatch(/"\*" cannot be combined with credentials/)
    expect(() => crossOrigin({ origins: '*', credentials: true })).toThrow(/cannot be combined with credentials/)
    expect(corsSettingsProblem({ origins: [PORTAL, '*'] })).toMatch(/must be the only origin/)
    expect(corsSettingsProblem({ origins: [] })).toMatch(/at least one origin/)
    for (const bad of [
      'portal.example.test',
      'http://portal.example.test/',
      'http://portal.example.test/app',
      'ftp://x.test',
      'HTTP://X.TEST',
    ])
      expect(corsSettingsProblem({ origins: [bad] })).toMatch(/is not an origin/)
    expect(corsSettingsProblem({ origins: '*' })).toBeNull()
    expect(corsSettingsProblem({ origins: [PORTAL, 'https://[::1]:8443'], credentials: true })).toBeNull()
  })

  it('accepts exactly what a browser sends as Origin', () => {
    fc.assert(
      fc.property(fc.webUrl({ size: 'small' }), (url) => {
        const origin = new URL(url).origin
        expect(corsSettingsProblem({ origins: [origin] })).toBeNull()
        if (url !== origin) expect(corsSettingsProblem({ origins: [url] })).not.toBeNull()
      }),
      { numRuns: 50 },
    )
  })
})
