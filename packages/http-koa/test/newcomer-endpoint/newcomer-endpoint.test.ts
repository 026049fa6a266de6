import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createTestMailroom,
  demoAuth,
  insertStandInRecord,
  recordPerimeterOver,
  type TestMailroom,
} from '../../../testing/src/index.js'
import { createHttpApp } from '../../src/create-http-app.js'
import { createHttpServer } from '../../src/create-http-server.js'
import { documentRoutes } from '../../src/openapi/openapi-document.js'
import { createRouters } from '../../src/routes/create-routers.js'
import { readRecordSubject } from './read-record-subject.js'
import { recordSubjectRoute } from './record-subject-routes.js'
import { kyselyRecordSubjectStore } from './record-subject-store.js'

/*
 * CONTRIBUTING.md's "add an endpoint" followed end to end: a read endpoint made of one route declaration
 * (record-subject-routes.ts), one use case against a port (read-record-subject.ts, core's share) and one port
 * method over the database (record-subject-store.ts, storage's share), served by an app built as the server
 * builds it. If the recipe stops working (a route's declaration, the perimeter port, the error mapping), this
 * test says so.
 */

let t: TestMailroom
let baseUrl: string
let close: () => Promise<void>
let inPerimeter: number
let outside: number

beforeAll(async () => {
  t = await createTestMailroom()
  inPerimeter = await insertStandInRecord(t.mailroom.db, { destination: 'PJS', subject: 'Demande de subvention' })
  outside = await insertStandInRecord(t.mailroom.db, { destination: 'DSI', subject: 'Secret de la DSI' })
  const route = recordSubjectRoute((actor, resId) =>
    readRecordSubject(
      { subjects: kyselyRecordSubjectStore(t.mailroom.db), perimeter: recordPerimeterOver(t.mailroom) },
      actor,
      resId,
    ),
  )
  const app = createHttpApp({ services: t.mailroom })
  // The app answers its own routes first; the newcomer's route is mounted behind them, after authentication.
  const { restRouter } = createRouters([route], {
    services: t.mailroom,
    openApiDocument: () => documentRoutes([route]),
  })
  app.use(restRouter.routes())
  const server = createHttpServer(app)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  close = () => {
    server.closeAllConnections()
    return new Promise<void>((resolve) => server.close(() => resolve()))
  }
})

afterAll(async () => {
  await close?.()
  await t?.cleanup()
})

async function get(path: string, login: string | null = 'bbain'): Promise<{ status: number; body: unknown }> {
  const headers: Record<string, string> = login
    ? { authorization: `Basic ${Buffer.from(demoAuth(login)).toString('base64')}` }
    : {}
  const response = await fetch(`${baseUrl}${path}`, { headers })
  return { status: response.status, body: await response.json() }
}

describe('an endpoint added by the recipe', () => {
  it('answers the subject of a record in the perimeter', async () => {
    expect(await get(`/rest/resources/${inPerimeter}/subject`)).toEqual({
      status: 200,
      body: { subject: 'Demande de subvention' },
    })
  })

  it('refuses a record outside the perimeter as one that does not exist, revealing nothing', async () => {
    const refused = { status: 403, body: { errors: 'Document out of perimeter' } }
    expect(await get(`/rest/resources/${outside}/subject`)).toEqual(refused)
    expect(await get('/rest/resources/9007199254740991/subject')).toEqual(refused)
  })

  it('refuses hostile ids with a 400 and callers without credentials with a 401', async () => {
    for (const id of ['0', '-1', '1e3', '99999999999999999999', '1.5', ' 1', 'x'.repeat(5000)]) {
      expect(await get(`/rest/resources/${id}/subject`)).toEqual({
        status: 400,
        body: { errors: 'Parameter resId must be greater than 0' },
      })
    }
    expect((await get(`/rest/resources/${inPerimeter}/subject`, null)).status).toBe(401)
  })

  it('is described by the OpenAPI document built from its declaration', () => {
    const document = documentRoutes([recordSubjectRoute(() => Promise.resolve({ subject: null }))]) as unknown as {
      paths: Record<string, Record<string, { operationId: string }>>
    }
    expect(document.paths['/rest/resources/{resId}/subject']?.get?.operationId).toBe('getRecordSubject')
  })
})
