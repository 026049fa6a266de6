import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../../testing/src/index.js'

let s: TestServer
beforeAll(async () => {
  s = await startTestServer({ http: { requestTimeoutMs: 200 } })
})
afterAll(async () => s?.close())

describe('request timeout', () => {
  it('answers 503 in JSON instead of hanging', async () => {
    const original = s.mailroom.entities.read
    ;(s.mailroom.entities as { read: typeof original }).read = () => new Promise(() => {})
    try {
      const started = Date.now()
      const r = await s.call('GET', '/rest/entities/PJS')
      expect([r.status, r.json]).toEqual([503, { errors: 'Request took too long and was stopped' }])
      // Far below the default request timeout (120 s): the configured 200 ms stopped it, on a loaded machine too.
      expect(Date.now() - started).toBeLessThan(30_000)
    } finally {
      ;(s.mailroom.entities as { read: typeof original }).read = original
    }
  })
})
