import { DomainError, domainError, errorMessage } from '@mailroom/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { demoAuth, startTestServer, type TestServer } from '../../../testing/src/index.js'

/**
 * Issue #51: on PGlite a contact whose externalId nested 10,000 levels overflowed the engine's stack; the next
 * failing statement then spun for ever inside the engine, and the whole server (even /healthz) stopped answering.
 * Whatever the first request is answered (stored, refused at the edge, refused by the database), the server must
 * keep answering: no 5xx but the watchdog's 503, /healthz and /readyz at once, normal requests as before.
 */
let s: TestServer
beforeAll(async () => {
  s = await startTestServer({ mailroom: { throttle: false } })
})
afterAll(async () => {
  await s?.close()
})

/** JSON text of `depth` objects nested, written out (JSON.stringify of such a value may overflow the test's stack). */
const nested = (depth: number) => `${'{"a":'.repeat(depth)}"fond"${'}'.repeat(depth)}`

const ANSWERED_WITHOUT_FAULT = (status: number) => status < 500 || status === 503

describe('a deeply nested externalId, then a failing clause', () => {
  it('leaves the server answering: no hang, no 5xx but 503, health and normal requests served', async () => {
    const contact = await s.call('POST', '/rest/contacts', {
      auth: 'cchaplin:maarch',
      rawBody: `{"lastname":"Profonde","company":"Abysses","externalId":${nested(10_000)}}`,
      headers: { 'content-type': 'application/json' },
    })
    expect(ANSWERED_WITHOUT_FAULT(contact.status), contact.text.slice(0, 200)).toBe(true)
    const record = await s.call('POST', '/rest/resources', {
      auth: 'cchaplin:maarch',
      rawBody: `{"modelId":1,"status":"NEW","subject":"profond","format":"txt","encodedFile":"${Buffer.from('profond').toString('base64')}","externalId":${nested(10_000)}}`,
      headers: { 'content-type': 'application/json' },
    })
    expect(ANSWERED_WITHOUT_FAULT(record.status), record.text.slice(0, 200)).toBe(true)
    // The statement that used to spin for ever: a clause whose SQL fails.
    const failing = await s.call('POST', '/rest/res/list', {
      auth: demoAuth('superadmin'),
      body: { select: 'res_id', clause: '1/0 = 1' },
    })
    expect(ANSWERED_WITHOUT_FAULT(failing.status), failing.text.slice(0, 200)).toBe(true)
    expect((await s.call('GET', '/healthz', { auth: null })).status).toBe(200)
    const ready = await s.call('GET', '/readyz', { auth: null })
    expect([ready.status, ready.json]).toMatchObject([200, { status: 'ready', failing: [] }])
    const normal = await s.call('POST', '/rest/res/list', {
      auth: demoAuth('superadmin'),
      body: { select: 'res_id', clause: '1=1', limit: 1 },
    })
    expect(normal.status).toBe(200)
    expect(normal.json).toMatchObject({ count: expect.any(Number) })
    const created = await s.call('POST', '/rest/contacts', {
      auth: 'cchaplin:maarch',
      body: { lastname: 'Surface', company: 'Abysses', externalId: { m2m: '21750001600019/SURFACE' } },
    })
    expect(created.status).toBe(200)
    const read = await s.call('GET', `/rest/contacts/${created.json.id}`, { auth: 'cchaplin:maarch' })
    expect([read.status, read.json.externalId]).toEqual([200, { m2m: '21750001600019/SURFACE' }])
  })
})

describe('what the engine guards raise, as the HTTP adapter answers it', () => {
  const tooComplex = () => Object.assign(new Error('stack depth limit exceeded'), { code: '54001' })
  const internal = (cause: unknown) => new DomainError('INTERNAL', errorMessage('INTERNAL'), 'internal', { cause })
  const cases: readonly [string, () => unknown, number, string][] = [
    ['SQLSTATE 54001', tooComplex, 400, 'Request is nested too deeply for the database'],
    ['54001 wrapped by a use case', () => internal(tooComplex()), 400, 'Request is nested too deeply for the database'],
    [
      'the watchdog refusal',
      () => domainError('DATABASE_UNRESPONSIVE'),
      503,
      'The database stopped answering, try again later',
    ],
    [
      'the watchdog refusal wrapped by a use case',
      () => internal(domainError('DATABASE_UNRESPONSIVE')),
      503,
      'The database stopped answering, try again later',
    ],
  ]
  it.each(cases)('%s', async (_name, raise, status, message) => {
    const original = s.mailroom.entities.read
    ;(s.mailroom.entities as { read: typeof original }).read = () => Promise.reject(raise())
    try {
      const r = await s.call('GET', '/rest/entities/PJS')
      expect([r.status, r.json]).toEqual([status, { errors: message }])
    } finally {
      ;(s.mailroom.entities as { read: typeof original }).read = original
    }
  })
})
