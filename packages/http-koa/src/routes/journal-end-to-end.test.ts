import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { putStoredFile, startTestServer, storedKey, type TestServer } from '../../../testing/src/index.js'

/** The digital safe seen from the outside: records created, versioned, read and tampered with through the API. */
let s: TestServer
beforeAll(async () => {
  s = await startTestServer({ mailroom: { throttle: false } })
})
afterAll(async () => s?.close())

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')
const SAFE = '21750001600019'

async function events(query = '') {
  const login = await s.call('POST', '/rest/authenticate', {
    auth: null,
    body: { login: 'bblier', password: 'maarch' },
  })
  const cookie = `SERVICE-AUTH=${encodeURIComponent(login.headers.get('token')!)}`
  const r = await s.call('GET', `/digitalSafe/digitalSafe/${SAFE}/events${query}`, {
    auth: null,
    headers: { cookie, accept: 'application/json', 'user-agent': 'service' },
  })
  expect(r.status).toBe(200)
  return r.json as {
    operationResult: boolean
    lifeCycleEvents: {
      eventType: string
      objectId: string
      operationResult: boolean
      eventInfo: { eventType: string; resId: string; hash: string; size: number }[]
    }[]
  }
}

describe('digital safe through the API', () => {
  it('journals the deposit, the new version, the consultation and a failed integrity check of a record', async () => {
    const original = Buffer.from('Premier envoi du courrier\n')
    const created = await s.call('POST', '/rest/resources', {
      auth: 'cchaplin:maarch',
      body: {
        modelId: 1,
        status: 'NEW',
        subject: 'Coffre',
        destination: 6,
        format: 'txt',
        encodedFile: original.toString('base64'),
      },
    })
    expect(created.status).toBe(200)
    const resId = created.json.resId as number

    const revised = Buffer.from('Second envoi, corrigé\n')
    const version = await s.call('PUT', `/rest/resources/${resId}`, {
      auth: 'cchaplin:maarch',
      body: { format: 'txt', encodedFile: revised.toString('base64') },
    })
    expect([version.status, version.json]).toEqual([200, { resId, version: 2 }])
    expect((await s.call('GET', `/rest/resources/${resId}/originalContent`, { auth: 'bbain:maarch' })).text).toBe(
      revised.toString(),
    )

    const journal = await events()
    expect(journal.operationResult).toBe(true)
    const deposit = journal.lifeCycleEvents.find(
      (e) => e.eventType === 'recordsManagement/deposit' && e.eventInfo[0]?.resId === String(resId),
    )!
    expect(deposit).toBeDefined()
    expect(deposit.eventInfo[0]).toMatchObject({
      eventType: 'recordsManagement/deposit',
      hash: sha256(original),
      size: original.length,
    })
    const kinds = deposit.eventInfo.map((e) => e.eventType)
    expect(kinds).toEqual([
      'recordsManagement/deposit',
      'recordsManagement/depositNewResource',
      'recordsManagement/consultation',
    ])
    expect(deposit.eventInfo[1]).toMatchObject({ hash: sha256(revised), size: revised.length })

    // Alter the stored file behind the service's back: the read is refused and journalled as failed.
    const row = await s.mailroom.db
      .selectFrom('res_letterbox')
      .select(['path', 'filename'])
      .where('res_id', '=', resId)
      .executeTakeFirstOrThrow()
    await putStoredFile(s.documents, storedKey(s.documents, 'resources', row.path!, row.filename!), 'falsifié')
    const refused = await s.call('GET', `/rest/resources/${resId}/originalContent`, { auth: 'bbain:maarch' })
    expect([refused.status, refused.json]).toEqual([400, { errors: 'Fingerprints do not match' }])
    const after = await events(`?archiveId=${encodeURIComponent(deposit.objectId)}`)
    const check = after.lifeCycleEvents.find((e) => e.eventType === 'recordsManagement/integrityCheck')
    expect(check?.operationResult).toBe(false)
  })
})
