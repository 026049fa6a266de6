import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../../testing/src/index.js'

let s: TestServer
beforeAll(async () => {
  s = await startTestServer({ http: { bodyLimitBytes: 1024 } })
})
afterAll(async () => s?.close())

describe('request bodies and errors', () => {
  it('refuses malformed JSON with 400 and a JSON error', async () => {
    const r = await s.call('POST', '/rest/authenticate', {
      auth: null,
      rawBody: '{"login": "bbain",',
      headers: { 'content-type': 'application/json' },
    })
    expect([r.status, r.json]).toEqual([400, { errors: 'Body is not valid JSON' }])
  })

  it('refuses a body over the limit with 413 (declared length)', async () => {
    const r = await s.call('POST', '/rest/authenticate', {
      auth: null,
      body: { login: 'x'.repeat(2000), password: 'y' },
    })
    expect([r.status, r.json]).toEqual([413, { errors: 'Body is larger than the configured limit' }])
  })

  it('refuses a streamed body over the limit with 413 (no Content-Length)', async () => {
    const chunks = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 10; i++) controller.enqueue(new TextEncoder().encode('x'.repeat(500)))
        controller.close()
      },
    })
    const response = await fetch(`${s.baseUrl}/rest/authenticate`, {
      method: 'POST',
      body: chunks,
      duplex: 'half',
    } as RequestInit)
    expect(response.status).toBe(413)
    expect(await response.json()).toEqual({ errors: 'Body is larger than the configured limit' })
  })

  it('answers unknown routes with a JSON 404', async () => {
    const r = await s.call('GET', '/rest/nothing-here')
    expect([r.status, r.json]).toEqual([404, { errors: 'Route not found' }])
  })

  it('hides internal failures behind a generic 500', async () => {
    const original = s.mailroom.entities.read
    ;(s.mailroom.entities as { read: typeof original }).read = async () => {
      throw new Error('secret detail: connection string postgres://x')
    }
    try {
      const r = await s.call('GET', '/rest/entities/PJS')
      expect(r.status).toBe(500)
      expect(r.json).toEqual({ errors: 'An internal error occurred' })
      expect(r.text).not.toContain('secret')
    } finally {
      ;(s.mailroom.entities as { read: typeof original }).read = original
    }
  })
})

describe('unavailable database and slow requests', () => {
  it('answers 503 with Retry-After when the database connection is refused', async () => {
    const original = s.mailroom.entities.read
    ;(s.mailroom.entities as { read: typeof original }).read = async () => {
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })
    }
    try {
      const r = await s.call('GET', '/rest/entities/PJS')
      expect([r.status, r.json]).toEqual([503, { errors: 'Service temporarily unavailable, try again later' }])
      expect(r.headers.get('retry-after')).toBe('5')
    } finally {
      ;(s.mailroom.entities as { read: typeof original }).read = original
    }
  })
})

describe('hostile bodies and headers', () => {
  it('refuses invalid UTF-8 instead of replacing bytes', async () => {
    const bytes = new Uint8Array([
      ...new TextEncoder().encode('{"login":"'),
      0xff,
      0xfe,
      ...new TextEncoder().encode('","password":"x"}'),
    ])
    const r = await s.call('POST', '/rest/authenticate', {
      auth: null,
      rawBody: bytes,
      headers: { 'content-type': 'application/json' },
    })
    expect([r.status, r.json]).toEqual([400, { errors: 'Body is not valid UTF-8' }])
  })

  it('refuses NUL characters that PostgreSQL could not store', async () => {
    const r = await s.call('POST', '/rest/authenticate', {
      auth: null,
      rawBody: '{"login":"a\\u0000b","password":"x"}',
    })
    expect([r.status, r.json]).toEqual([400, { errors: 'Request contains a NUL character, which cannot be stored' }])
    const inPath = await s.call('GET', '/rest/entities/%00')
    expect([inPath.status, inPath.json]).toEqual([
      400,
      { errors: 'Request contains a NUL character, which cannot be stored' },
    ])
    const inQuery = await s.call('GET', '/rest/authenticate/token?refreshToken=a%00b', { auth: null })
    expect(inQuery.status).toBe(400)
  })

  it('refuses deep nesting as malformed or handles it, never 500', async () => {
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`
    const big = await startTestServer({ http: { bodyLimitBytes: 1024 * 1024 } })
    try {
      const r = await big.call('POST', '/rest/authenticate', { auth: null, rawBody: deep })
      expect(r.status).toBe(400)
      expect(typeof r.json.errors).toBe('string')
    } finally {
      await big.close()
    }
  })

  it('answers oversized headers with a JSON 431', async () => {
    const r = await s.call('GET', '/rest/entities/PJS', { headers: { 'x-filler': 'x'.repeat(20_000) } })
    expect(r.status).toBe(431)
    expect(r.json).toEqual({ errors: 'Request headers are too large' })
  })
})
