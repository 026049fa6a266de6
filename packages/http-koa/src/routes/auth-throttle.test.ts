import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type TestServer, startTestServer } from '../testing/test-server.js'

let s: TestServer
beforeAll(async () => {
  // Behind a proxy the client address comes from X-Forwarded-For, which lets one test play several clients.
  s = await startTestServer({ mailroom: { throttle: { maxFailuresPerLogin: 100, maxFailuresPerAddress: 4, lockSeconds: 60 } }, http: { trustProxy: true } })
})
afterAll(async () => s?.close())

const from = (address: string) => ({ 'x-forwarded-for': address })

describe('authentication throttling per address', () => {
  it('locks an address that keeps guessing, without slowing other addresses', async () => {
    for (const login of ['bbain', 'bblier', 'ppetit', 'ddur']) {
      const r = await s.call('GET', '/rest/entities/PJS', { auth: `${login}:guess`, headers: from('10.0.0.66') })
      expect(r.status).toBe(401)
    }
    const locked = await s.call('GET', '/rest/entities/PJS', { auth: 'cchaplin:maarch', headers: from('10.0.0.66') })
    expect([locked.status, locked.json]).toEqual([429, { errors: 'Too many failed authentications from this address, try again later' }])
    const started = Date.now()
    const other = await s.call('GET', '/rest/entities/PJS', { auth: 'cchaplin:maarch', headers: from('10.0.0.7') })
    expect(other.status).toBe(200)
    expect(Date.now() - started).toBeLessThan(2_000)
  })
})
