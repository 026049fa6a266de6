import { createHash } from 'node:crypto'
import { get, type IncomingHttpHeaders } from 'node:http'
import type { JournalEvent, LifeCycleEvent } from '@mailroom/core'
import { HmacTokenSigner } from '@mailroom/mailroom'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, TEST_SECRET, type TestServer } from '../../../testing/src/index.js'
import {
  buildConsultationEvent,
  buildDepositEvent,
  chainPositionAfter,
} from '../../../testing/src/test-core-internals.js'
import { digitalSafeErrorBody, serviceAuthToken } from './journal-routes.js'

const SAFE = '21750001600019'
const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex')

let s: TestServer
let serviceToken: string
let seeded: JournalEvent[]

beforeAll(async () => {
  s = await startTestServer()
  serviceToken = await s.mailroom.auth.issueServiceToken('cchaplin')
  seeded = await seed(SAFE, 6, Date.UTC(2024, 4, 2, 8, 0, 0), 3)
})
afterAll(async () => s?.close())

/**
 * Appends chained archive events to a safe with core's builders (the records endpoints that deposit for real
 * are tested elsewhere): `count` events over `count / perArchive` archives, one second apart.
 */
async function seed(safe: string, count: number, start: number, perArchive: number): Promise<JournalEvent[]> {
  const db = s.mailroom.db
  const head = await db.selectFrom('journal_heads').selectAll().where('safe', '=', safe).executeTakeFirst()
  let last: JournalEvent | null = null
  if (head && head.last_sequence > 0) {
    const row = await db
      .selectFrom('journal_events')
      .select(['sequence', 'hash', 'timestamp'])
      .where('safe', '=', safe)
      .where('sequence', '=', head.last_sequence)
      .executeTakeFirstOrThrow()
    last = row as unknown as JournalEvent
  }
  let n = 0
  const deps = {
    sha256Hex,
    newEventId: () =>
      `mailroom_seed${safe.length}-${(++n).toString().padStart(8, '0')}${Math.random().toString(16).slice(2, 6)}`,
  }
  const events: JournalEvent[] = []
  for (let i = 0; i < count; i += 1) {
    const archive = Math.floor(i / perArchive)
    const input = {
      position: chainPositionAfter(safe, last),
      actor: { accountId: 'cchaplin', accountName: 'Charlie CHAPLIN', orgUnitRegNumber: 'VILLE' },
      timestamp: new Date(start + i * 1000),
      archiveId: `mailroom_arch${archive}-${safe.length}`,
      resource: { resId: String(archive + 1), hash: sha256Hex(`file ${archive}`), size: 100 + archive },
      originatorArchiveId: String(archive + 1),
    }
    last =
      i % perArchive === 0
        ? buildDepositEvent(deps, {
            ...input,
            originatorOrgRegNumber: 'PJS',
            depositorOrgRegNumber: 'VILLE',
            archiverOrgRegNumber: 'VILLE',
          })
        : buildConsultationEvent(deps, input)
    events.push(last)
  }
  for (let i = 0; i < events.length; i += 1000) {
    await db
      .insertInto('journal_events')
      .values(
        events.slice(i, i + 1000).map((e) => ({
          safe: e.safe,
          sequence: e.sequence,
          event_id: e.eventId,
          event_type: e.eventType,
          timestamp: e.timestamp,
          instance_name: e.instanceName,
          org_reg_number: e.orgRegNumber,
          org_unit_reg_number: e.orgUnitRegNumber,
          account_id: e.accountId,
          account_name: e.accountName,
          object_class: e.objectClass,
          object_id: e.objectId,
          operation_result: e.operationResult,
          description: e.description,
          info: JSON.stringify(e.info),
          previous_hash: e.previousHash,
          hash: e.hash,
        })),
      )
      .execute()
  }
  if (last) {
    if (head)
      await db
        .updateTable('journal_heads')
        .set({ last_sequence: last.sequence, last_hash: last.hash })
        .where('safe', '=', safe)
        .execute()
    else
      await db
        .insertInto('journal_heads')
        .values({ safe, last_sequence: last.sequence, last_hash: last.hash })
        .execute()
  }
  return events
}

const SERVICE_HEADERS = { accept: 'application/json', 'content-type': 'application/json', 'user-agent': 'service' }

function journal(owner: string, token: string | null, query = '', headers: Record<string, string> = SERVICE_HEADERS) {
  return s.call('GET', `/digitalSafe/digitalSafe/${encodeURIComponent(owner)}/events${query}`, {
    auth: null,
    headers: {
      ...headers,
      ...(token === null ? {} : { cookie: `lang=fr; SERVICE-AUTH=${encodeURIComponent(token)}` }),
    },
  })
}

function expectErrorEnvelope(
  response: { status: number; json: unknown },
  status: number,
  owner: string,
  accountName: string,
  message: string,
) {
  expect(response.status).toBe(status)
  expect(response.json).toEqual({
    originatorOwnerOrgRegNumber: owner,
    timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/),
    accountName,
    operationResult: false,
    message,
  })
  expect(Object.keys(response.json as object)).toEqual([
    'originatorOwnerOrgRegNumber',
    'timestamp',
    'accountName',
    'operationResult',
    'message',
  ])
}

describe('serviceAuthToken', () => {
  it('reads and URL-decodes the SERVICE-AUTH cookie', () => {
    expect(serviceAuthToken('SERVICE-AUTH=a%2Bb%2Fc%3D')).toBe('a+b/c=')
    expect(serviceAuthToken('x=1; SERVICE-AUTH="abc"; y=2')).toBe('abc')
    expect(serviceAuthToken('SERVICE-AUTHX=1; service-auth=2')).toBeNull()
    expect(serviceAuthToken('SERVICE-AUTH=%E0%A4%A')).toBeNull()
    expect(serviceAuthToken('SERVICE-AUTH=')).toBeNull()
    expect(serviceAuthToken(undefined)).toBeNull()
  })
})

describe('GET /digitalSafe/digitalSafe/{owner}/events: authentication', () => {
  it('answers 401 with the error envelope when the cookie is missing, forged, expired, revoked or not an access token', async () => {
    const message = 'Missing authentication credential'
    expectErrorEnvelope(await journal(SAFE, null), 401, SAFE, '', message)
    const forged = `${serviceToken.slice(0, -2)}${serviceToken.endsWith('AA') ? 'BB' : 'AA'}`
    expectErrorEnvelope(await journal(SAFE, forged), 401, SAFE, '', message)
    expectErrorEnvelope(await journal(SAFE, 'not-a-token'), 401, SAFE, '', message)
    const signer = new HmacTokenSigner(TEST_SECRET)
    const expired = signer.sign({
      kind: 'access',
      userId: 2,
      tokenId: 'old',
      expiresAt: Math.floor(Date.now() / 1000) - 5,
    })
    expectErrorEnvelope(await journal(SAFE, expired), 401, SAFE, '', message)
    const refresh = signer.sign({
      kind: 'refresh',
      userId: 2,
      tokenId: 'r',
      expiresAt: Math.floor(Date.now() / 1000) + 600,
    })
    expectErrorEnvelope(await journal(SAFE, refresh), 401, SAFE, '', message)
    // HTTP Basic is not a way into /digitalSafe.
    const basic = await s.call('GET', `/digitalSafe/digitalSafe/${SAFE}/events`, { auth: 'cchaplin:maarch' })
    expectErrorEnvelope(basic, 401, SAFE, '', message)
    expect(basic.headers.get('www-authenticate')).toBeNull()
  })

  it('accepts a service token until a new one revokes it, and an access token from POST /rest/authenticate', async () => {
    const old = await s.mailroom.auth.issueServiceToken('bblier')
    expect((await journal(SAFE, old)).status).toBe(200)
    const renewed = await s.mailroom.auth.issueServiceToken('bblier')
    expectErrorEnvelope(await journal(SAFE, old), 401, SAFE, '', 'Missing authentication credential')
    expect((await journal(SAFE, renewed)).status).toBe(200)

    const login = await s.call('POST', '/rest/authenticate', {
      auth: null,
      body: { login: 'ddur', password: 'maarch' },
    })
    const access = login.headers.get('token')!
    const r = await journal(SAFE, access)
    expect(r.status).toBe(200)
    expect(r.json.accountName).toBe('Dominique DUR')
  })

  it('does not require the Accept, Content-Type and User-Agent headers', async () => {
    const r = await journal(SAFE, serviceToken, '', {})
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8')
  })
})

describe('other /digitalSafe paths', () => {
  it('answer 404 with the journal error envelope', async () => {
    for (const path of [
      '/digitalSafe',
      '/digitalSafe/digitalSafe/%2e%2e/events',
      '/digitalSafe/digitalSafe/X/count',
      '/digitalSafe/digitalSafe/X/events/more',
    ]) {
      expectErrorEnvelope(await s.call('GET', path, { auth: null }), 404, '', '', 'Route not found')
    }
    expectErrorEnvelope(
      await s.call('POST', `/digitalSafe/digitalSafe/${SAFE}/events`, { auth: null }),
      404,
      SAFE,
      '',
      'Route not found',
    )
  })
})

describe('digitalSafeErrorBody', () => {
  it('renders the envelope with the owner of the path', () => {
    const error = { message: 'Request contains a NUL character, which cannot be stored' } as Parameters<
      typeof digitalSafeErrorBody
    >[1]
    const body = (path: string) =>
      digitalSafeErrorBody({ path } as Parameters<typeof digitalSafeErrorBody>[0], error, 400)
    expect(body('/digitalSafe/digitalSafe/21750001600019/events')).toMatchObject({
      originatorOwnerOrgRegNumber: SAFE,
      accountName: '',
      operationResult: false,
      message: error.message,
    })
    expect(body('/digitalSafe/digitalSafe/%E0%A4/events')).toMatchObject({ originatorOwnerOrgRegNumber: '' })
    expect(body('/digitalSafe/other')).toMatchObject({ originatorOwnerOrgRegNumber: '' })
  })
})

describe('GET /digitalSafe/digitalSafe/{owner}/events: safes and positions', () => {
  it('answers 404 for an unknown safe and 403 for a caller outside the owner organisation', async () => {
    const token = await s.mailroom.auth.issueServiceToken('ddur')
    expectErrorEnvelope(
      await journal('00000000000000', token),
      404,
      '00000000000000',
      'Dominique DUR',
      "Organization 00000000000000 doesn't exist",
    )
    await s.mailroom.db
      .insertInto('entities')
      .values({
        entity_id: 'REGION',
        entity_label: 'Région',
        short_label: 'Région',
        entity_type: 'Direction',
        parent_entity_id: null,
        business_id: '23000000000017',
      })
      .execute()
    expectErrorEnvelope(
      await journal('23000000000017', token),
      403,
      '23000000000017',
      'Dominique DUR',
      'The user is not positioned on the organization.',
    )
    // ddur sits in DRH, under DGS, under VILLE: positioned in the demo safe.
    expect((await journal(SAFE, token)).status).toBe(200)
    // Root users read every safe.
    const root = await s.mailroom.auth.issueServiceToken('superadmin')
    expect(await journal('23000000000017', root)).toMatchObject({
      status: 200,
      json: { originatorOwnerOrgRegNumber: '23000000000017', lifeCycleEvents: [] },
    })
  })
})

describe('GET /digitalSafe/digitalSafe/{owner}/events: answers', () => {
  it('answers the envelope with the life-cycle events in order and their archive history', async () => {
    const before = Date.now()
    const r = await journal(SAFE, serviceToken, '?originatorOrgRegNumber=VILLE')
    expect(r.status).toBe(200)
    expect(Object.keys(r.json)).toEqual([
      'originatorOwnerOrgRegNumber',
      'timestamp',
      'accountName',
      'operationResult',
      'lifeCycleEvents',
    ])
    expect(r.json).toMatchObject({
      originatorOwnerOrgRegNumber: SAFE,
      accountName: 'Charlie CHAPLIN',
      operationResult: true,
    })
    expect(Date.parse(r.json.timestamp)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000)
    expect(r.json.lifeCycleEvents.map((e: { eventId: string }) => e.eventId)).toEqual(seeded.map((e) => e.eventId))
    const [first] = r.json.lifeCycleEvents
    expect(first).toMatchObject({
      eventType: 'recordsManagement/deposit',
      instanceName: 'mailroom',
      timestamp: '2024-05-02T08:00:00+00:00',
      orgRegNumber: SAFE,
      orgUnitRegNumber: 'VILLE',
      accountId: 'cchaplin',
      objectClass: 'recordsManagement/archive',
      objectId: seeded[0]!.objectId,
      operationResult: true,
      accountName: 'Charlie CHAPLIN',
    })
    expect(first.eventInfo.map((i: { eventType: string }) => i.eventType)).toEqual([
      'recordsManagement/deposit',
      'recordsManagement/consultation',
      'recordsManagement/consultation',
    ])
    expect(first.eventInfo[0]).toEqual({
      eventId: seeded[0]!.eventId,
      eventType: 'recordsManagement/deposit',
      timestamp: '2024-05-02T08:00:00+00:00',
      orgRegNumber: SAFE,
      orgUnitRegNumber: 'VILLE',
      accountId: 'cchaplin',
      objectId: seeded[0]!.objectId,
      resId: '1',
      hashAlgorithm: 'SHA256',
      hash: sha256Hex('file 0'),
      originatorOrgRegNumber: 'PJS',
      depositorOrgRegNumber: 'VILLE',
      archiverOrgRegNumber: 'VILLE',
      size: 100,
    })
  })

  it('journals each read as an organisation event that /events never returns', async () => {
    const rows = () =>
      s.mailroom.db
        .selectFrom('journal_events')
        .select(['event_type', 'object_class', 'account_id'])
        .where('safe', '=', SAFE)
        .orderBy('sequence')
        .execute()
    const before = await rows()
    const r = await journal(SAFE, serviceToken)
    const after = await rows()
    expect(after.slice(before.length)).toEqual([
      { event_type: 'organization/journal', object_class: 'organization/organization', account_id: 'cchaplin' },
    ])
    expect(
      r.json.lifeCycleEvents.every((e: { objectClass: string }) => e.objectClass === 'recordsManagement/archive'),
    ).toBe(true)
  })

  it('filters, pages with limit and after, and refuses bad parameters with 400 envelopes', async () => {
    const archive = seeded[3]!.objectId
    const byArchive = await journal(SAFE, serviceToken, `?archiveId=${archive}`)
    expect(byArchive.json.lifeCycleEvents.map((e: { eventId: string }) => e.eventId)).toEqual(
      seeded.slice(3).map((e) => e.eventId),
    )
    const dated = await journal(SAFE, serviceToken, '?fromDate=2024-05-02T08:00:02Z&toDate=2024-05-02T10:00:03%2B02:00')
    expect(dated.json.lifeCycleEvents.map((e: { eventId: string }) => e.eventId)).toEqual(
      seeded.slice(2, 4).map((e) => e.eventId),
    )
    const ranged = await journal(SAFE, serviceToken, '?fromOriginatorArchiveId=2&toOriginatorArchiveId=10')
    expect(ranged.json.lifeCycleEvents).toHaveLength(3)
    const page1 = await journal(SAFE, serviceToken, '?limit=4')
    const page2 = await journal(SAFE, serviceToken, `?limit=4&after=${page1.json.lifeCycleEvents[3].eventId}`)
    expect(
      [...page1.json.lifeCycleEvents, ...page2.json.lifeCycleEvents].map((e: { eventId: string }) => e.eventId),
    ).toEqual(seeded.map((e) => e.eventId))

    expectErrorEnvelope(
      await journal(SAFE, serviceToken, '?fromDate=02/05/2024'),
      400,
      SAFE,
      'Charlie CHAPLIN',
      'Invalid format date',
    )
    expectErrorEnvelope(
      await journal(SAFE, serviceToken, `?archiveId=${archive}&toDate=2024-05-02`),
      400,
      SAFE,
      'Charlie CHAPLIN',
      'archiveId cannot be combined with dates or originator archive identifiers',
    )
    expectErrorEnvelope(
      await journal(SAFE, serviceToken, '?after=mailroom_nothing-1'),
      400,
      SAFE,
      'Charlie CHAPLIN',
      'after must be the eventId of an event of this digital safe',
    )
    expectErrorEnvelope(
      await journal(SAFE, serviceToken, '?limit=100000'),
      400,
      SAFE,
      'Charlie CHAPLIN',
      'limit must be an integer between 1 and 10000',
    )
  })

  it('streams a 20,000-event journal in chunks, as valid JSON', async () => {
    await s.mailroom.db
      .insertInto('entities')
      .values({
        entity_id: 'BIG',
        entity_label: 'Big',
        short_label: 'Big',
        entity_type: 'Direction',
        parent_entity_id: null,
        business_id: 'BIGSAFE',
      })
      .execute()
    const events = await seed('BIGSAFE', 20_000, Date.UTC(2023, 0, 1), 2)
    const root = await s.mailroom.auth.issueServiceToken('superadmin')
    // A fresh connection (no keep-alive reuse after the long seeding), read chunk by chunk.
    const { status, headers, chunks } = await new Promise<{
      status: number
      headers: IncomingHttpHeaders
      chunks: Buffer[]
    }>((resolve, reject) => {
      const request = get(
        `${s.baseUrl}/digitalSafe/digitalSafe/BIGSAFE/events`,
        { agent: false, headers: { ...SERVICE_HEADERS, cookie: `SERVICE-AUTH=${encodeURIComponent(root)}` } },
        (response) => {
          const received: Buffer[] = []
          response.on('data', (chunk: Buffer) => received.push(chunk))
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, headers: response.headers, chunks: received }),
          )
          response.on('error', reject)
        },
      )
      request.on('error', reject)
    })
    expect(status).toBe(200)
    expect(headers['content-length']).toBeUndefined()
    expect(headers['transfer-encoding']).toBe('chunked')
    expect(chunks.length).toBeGreaterThan(10)
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
    expect(body.lifeCycleEvents).toHaveLength(20_000)
    expect(body.lifeCycleEvents[19_999].eventId).toBe(events[19_999]!.eventId)
    expect(body.lifeCycleEvents[12_345].eventInfo.map((i: { eventId: string }) => i.eventId)).toEqual([
      events[12_344]!.eventId,
      events[12_345]!.eventId,
    ])
  })

  it('stops fetching pages when the client goes away', async () => {
    const journalServices = s.mailroom.journal as { readEvents: typeof s.mailroom.journal.readEvents }
    const original = journalServices.readEvents
    let pulled = 0
    let closed = false
    journalServices.readEvents = async (...args) => {
      const reading = await original(...args)
      const source = reading.events[Symbol.asyncIterator]()
      const events: AsyncIterable<LifeCycleEvent> = {
        [Symbol.asyncIterator]: () => ({
          next: async () => {
            pulled += 1
            return source.next()
          },
          return: async () => {
            closed = true
            return (await source.return?.()) ?? { done: true, value: undefined }
          },
        }),
      }
      return { ...reading, events }
    }
    try {
      const root = await s.mailroom.auth.issueServiceToken('superadmin')
      await new Promise<void>((resolve, reject) => {
        const request = get(
          `${s.baseUrl}/digitalSafe/digitalSafe/BIGSAFE/events`,
          { agent: false, headers: { cookie: `SERVICE-AUTH=${root}` } },
          (response) => {
            response.once('data', () => {
              request.destroy()
              resolve()
            })
          },
        )
        request.on('error', () => {})
        setTimeout(() => reject(new Error('no data')), 10_000)
      })
      for (let i = 0; i < 100 && !closed; i += 1) await new Promise((resolve) => setTimeout(resolve, 50))
      expect(closed).toBe(true)
      expect(pulled).toBeLessThan(20_000)
    } finally {
      journalServices.readEvents = original
    }
  })
})
