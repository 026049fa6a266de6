import { mkdir, rm } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type TestServer, startTestServer } from '../testing/test-server.js'

let s: TestServer
beforeAll(async () => {
  s = await startTestServer()
})
afterAll(async () => s?.close())

describe('GET /healthz', () => {
  it('answers 200 without authentication when database and storage work', async () => {
    const r = await s.call('GET', '/healthz', { auth: null })
    expect([r.status, r.json]).toEqual([200, { status: 'ok', database: true, storage: true }])
  })

  it('answers 503 when the database does not answer', async () => {
    const original = s.mailroom.database.ping
    ;(s.mailroom.database as { ping: typeof original }).ping = async () => {
      throw new Error('down')
    }
    try {
      const r = await s.call('GET', '/healthz', { auth: null })
      expect([r.status, r.json]).toEqual([503, { status: 'unavailable', database: false, storage: true }])
    } finally {
      ;(s.mailroom.database as { ping: typeof original }).ping = original
    }
  })

  it('answers 503 when the document storage is gone', async () => {
    await rm(s.docserverDir, { recursive: true, force: true })
    try {
      const r = await s.call('GET', '/healthz', { auth: null })
      expect([r.status, r.json]).toEqual([503, { status: 'unavailable', database: true, storage: false }])
    } finally {
      await mkdir(s.docserverDir, { recursive: true })
    }
  })
})
