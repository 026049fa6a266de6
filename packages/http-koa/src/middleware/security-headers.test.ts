import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeText } from '../../../testing/src/fixtures/files/index.js'
import {
  insertTestRecord,
  serveOnLoopback,
  startTestServer,
  type TestResponse,
  type TestServer,
} from '../../../testing/src/index.js'

let s: TestServer
let relaxed: TestServer
let dir: string

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'console-headers-'))
  mkdirSync(join(dir, 'assets'))
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Mailroom</title>')
  writeFileSync(join(dir, 'assets', 'main-abc123.js'), 'console.log(1)')
  s = await startTestServer({ http: { consoleDir: dir, securityHeaders: { hstsMaxAgeSeconds: 31_536_000 } } })
  relaxed = await startTestServer({
    http: {
      consoleDir: dir,
      securityHeaders: {
        referrerPolicy: 'strict-origin-when-cross-origin',
        noSniff: false,
        consoleFrameAncestors: ['https://portal.example.org'],
      },
    },
  })
})

afterAll(async () => {
  await s?.close()
  await relaxed?.close()
  rmSync(dir, { recursive: true, force: true })
})

const CONSOLE_POLICY =
  "default-src 'self';script-src 'self';worker-src 'self' blob:;img-src 'self' blob: data:;" +
  "style-src 'self';connect-src 'self';object-src 'none';base-uri 'none';frame-ancestors 'none'"

function expectApiHeaders(response: TestResponse, what: string) {
  expect(response.headers.get('x-content-type-options'), what).toBe('nosniff')
  expect(response.headers.get('referrer-policy'), what).toBe('no-referrer')
  expect(response.headers.get('strict-transport-security'), what).toBe('max-age=31536000')
  expect(response.headers.get('content-security-policy'), what).toBeNull()
}

describe('security headers on every answer', () => {
  it('are on JSON answers, files, /healthz, the OpenAPI document and /digitalSafe', async () => {
    const { resId } = await insertTestRecord(s.mailroom.db, s.documents, { bytes: makeText('hello') })
    const answers: [string, TestResponse, number][] = [
      ['entity', await s.call('GET', '/rest/entities/PJS'), 200],
      ['file', await s.call('GET', `/rest/resources/${resId}/originalContent`, { auth: 'superadmin:superadmin' }), 200],
      ['healthz', await s.call('GET', '/healthz', { auth: null }), 200],
      ['openapi', await s.call('GET', '/rest/openapi.json', { auth: null }), 200],
      ['digitalSafe', await s.call('GET', '/digitalSafe/digitalSafe/VILLE/events', { auth: null }), 401],
    ]
    for (const [what, response, status] of answers) {
      expect(response.status, what).toBe(status)
      expectApiHeaders(response, what)
    }
  })

  it('are on error answers: 401, 403, 404, 400 and the 404 of a missing console file', async () => {
    const answers: [string, TestResponse, number][] = [
      ['no credentials', await s.call('GET', '/rest/entities/PJS', { auth: null }), 401],
      ['wrong password', await s.call('GET', '/rest/entities/PJS', { auth: 'bbain:wrong' }), 401],
      ['not root', await s.call('GET', '/admin/users'), 403],
      ['no route', await s.call('GET', '/rest/nothing-here'), 404],
      [
        'bad JSON',
        await s.call('POST', '/rest/resources', {
          rawBody: '{"subject":',
          headers: { 'content-type': 'application/json' },
        }),
        400,
      ],
    ]
    for (const [what, response, status] of answers) {
      expect([what, response.status]).toEqual([what, status])
      expect(response.json, what).toEqual({ errors: expect.any(String) })
      expectApiHeaders(response, what)
    }
    const missing = await s.call('GET', '/console/assets/missing.js', { auth: null })
    expect(missing.status).toBe(404)
    expect(missing.headers.get('x-content-type-options')).toBe('nosniff')
  })

  it('are on the 500 of an unexpected failure', async () => {
    // The same services, but an entity read that fails the way a bug would.
    const failing = {
      ...s.mailroom,
      entities: { ...s.mailroom.entities, read: () => Promise.reject(new Error('unexpected')) },
    }
    const served = await serveOnLoopback(failing, { securityHeaders: { hstsMaxAgeSeconds: 31_536_000 } })
    try {
      const response = await fetch(`${served.baseUrl}/rest/entities/PJS`, {
        headers: { authorization: `Basic ${Buffer.from('bbain:maarch').toString('base64')}` },
      })
      expect(response.status).toBe(500)
      expect(await response.json()).toEqual({ errors: expect.any(String) })
      for (const [name, value] of [
        ['x-content-type-options', 'nosniff'],
        ['referrer-policy', 'no-referrer'],
        ['strict-transport-security', 'max-age=31536000'],
      ])
        expect(response.headers.get(name!), name).toBe(value)
    } finally {
      await served.close()
    }
  })

  it("give the console's pages their policy on HEAD as on GET", async () => {
    for (const path of ['/console/', '/console/assets/main-abc123.js', '//console/']) {
      for (const method of ['GET', 'HEAD']) {
        const response = await s.call(method, path, { auth: null })
        expect([path, method, response.status]).toEqual([path, method, 200])
        expect(response.headers.get('content-security-policy'), `${method} ${path}`).toBe(CONSOLE_POLICY)
        expect(response.headers.get('x-content-type-options'), `${method} ${path}`).toBe('nosniff')
        expect(response.headers.get('referrer-policy'), `${method} ${path}`).toBe('no-referrer')
      }
    }
  })

  it('follow the settings of an operator who must relax them, and send no HSTS unless told to', async () => {
    for (const path of ['/rest/entities/PJS', '/rest/nothing-here', '/console/']) {
      const response = await relaxed.call('GET', path)
      expect(response.headers.get('referrer-policy'), path).toBe('strict-origin-when-cross-origin')
      expect(response.headers.get('x-content-type-options'), path).toBeNull()
      expect(response.headers.get('strict-transport-security'), path).toBeNull()
    }
    const page = await relaxed.call('HEAD', '/console/', { auth: null })
    expect(page.headers.get('content-security-policy')).toBe(
      CONSOLE_POLICY.replace("frame-ancestors 'none'", 'frame-ancestors https://portal.example.org'),
    )
  })
})
