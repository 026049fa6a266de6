import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  expectSameShape,
  type MaarchExchange,
  maarchExchange,
  readMaarchExchanges,
  replayMaarchRequest,
  startTestServer,
  type TestServer,
} from '../../../testing/src/index.js'

/**
 * Each recorded request of Maarch 20.10's contacts routes, sent to Mailroom (demo organisation, plus what the
 * test creates), and Mailroom's answer compared with Maarch's: status, error message, body shape. Where Mailroom
 * answers otherwise on purpose (docs/contacts.md lists each difference), the test says what it answers instead.
 */

/** Text fields Maarch's sample fills with "" where the demo has null, or the other way round. */
const NULLABLE_TEXT = [
  'civility',
  'firstname',
  'lastname',
  'company',
  'department',
  'function',
  'addressNumber',
  'addressStreet',
  'addressAdditional1',
  'addressAdditional2',
  'addressPostcode',
  'addressTown',
  'addressCountry',
  'email',
  'phone',
  'communicationMeans',
  'notes',
  'modificationDate',
  'customFields',
]

function nullableAt(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, index) => NULLABLE_TEXT.map((field) => `${prefix}.${index}.${field}`)).flat()
}

function withRequest(exchange: MaarchExchange, change: Partial<MaarchExchange['request']>): MaarchExchange {
  return { ...exchange, request: { ...exchange.request, ...change } }
}

let s: TestServer
beforeAll(async () => {
  s = await startTestServer()
})
afterAll(async () => s?.close())

describe('GET /rest/contacts as Maarch 20.10 answers it', () => {
  const file = 'contacts-list.json'

  it('refuses a user without admin_contacts and lists every contact for root', async () => {
    const forbidden = maarchExchange(file, 'as cchaplin (no admin_contacts)')
    expectSameShape(await replayMaarchRequest(s, forbidden), forbidden.response)
    const all = maarchExchange(file, 'as superadmin')
    const answer = await replayMaarchRequest(s, all)
    expectSameShape(answer, all.response, { anyTypeAt: nullableAt('contacts', answer.json.contacts.length) })
    expect(answer.json.count).toBe(answer.json.contacts.length)
  })

  it('searches every word, accents and case aside', async () => {
    const one = maarchExchange(file, 'search')
    const found = await replayMaarchRequest(s, withRequest(one, { query: { search: 'DUPONT' } }))
    expectSameShape(found, one.response, { anyTypeAt: nullableAt('contacts', 1) })
    expect(found.json.contacts.map((c: { id: number }) => c.id)).toEqual([1])
    const two = maarchExchange(file, 'search two words')
    const both = await replayMaarchRequest(s, withRequest(two, { query: { search: 'jean bâins' } }))
    expectSameShape(both, two.response, { anyTypeAt: nullableAt('contacts', 1) })
    expect(both.json.count).toBe(1)
    const none = maarchExchange(file, 'search no match')
    expectSameShape(await replayMaarchRequest(s, none), none.response)
  })

  it('pages and orders', async () => {
    const paging = maarchExchange(file, 'paging')
    const answer = await replayMaarchRequest(s, paging)
    expectSameShape(answer, paging.response, { anyTypeAt: nullableAt('contacts', answer.json.contacts.length) })
    expect(answer.json.count).toBeGreaterThanOrEqual(3)
  })

  it('answers 400 naming limit where Maarch answers 500', async () => {
    const bad = maarchExchange(file, 'paging, bad values fall back')
    expect(bad.response.status).toBe(500)
    const answer = await replayMaarchRequest(s, bad)
    expect([answer.status, answer.json]).toEqual([400, { errors: 'Query limit must be an integer from 1 to 1000' }])
  })
})

describe('POST, PUT and GET /rest/contacts/{id} as Maarch 20.10 answers them', () => {
  const created = new Map<number, number>()

  it('creates contacts and refuses bad bodies with the same messages', async () => {
    // Mailroom's deliberate differences, by exchange name: what it answers instead.
    const differences: Record<string, [number, unknown]> = {
      'duplicate mail without allowDuplicateMail': [
        409,
        { errors: 'A contact with this email already exists (id §); send allowDuplicateMail=true to create another' },
      ],
      '10,000-character addressAdditional1': [400, { errors: 'Body addressAdditional1 length is not valid (1..256)' }],
      'body not JSON': [400, { errors: 'Body is not valid JSON' }],
      'duplicate mail as bbain (standard user)': [
        409,
        { errors: 'A contact with this email already exists (id §); send allowDuplicateMail=true to create another' },
      ],
    }
    for (const exchange of readMaarchExchanges('contacts-create.json')) {
      const answer = await replayMaarchRequest(s, exchange)
      const expected = differences[exchange.name]
      if (expected) {
        const [status, body] = expected
        const id = created.get(13)
        expect([exchange.name, answer.status, answer.json]).toEqual([
          exchange.name,
          status,
          JSON.parse(JSON.stringify(body).replace('§', String(id))),
        ])
        continue
      }
      expectSameShape(answer, exchange.response, { extraKeysAt: ['warning'] })
      const recordedId = (exchange.response.body as { id?: number } | null)?.id
      if (exchange.response.status === 200 && recordedId !== undefined && !created.has(recordedId))
        created.set(recordedId, answer.json.id)
    }
    expect(created.size).toBeGreaterThan(5)
  })

  it('reads a contact, any user, with 400s for unknown and malformed ids', async () => {
    for (const exchange of readMaarchExchanges('contacts-get.json')) {
      const path = exchange.request.path.replace(/^\/contacts\/(1|6)$/, '/contacts/1')
      const answer = await replayMaarchRequest(s, withRequest(exchange, { path }))
      expectSameShape(answer, exchange.response, { anyTypeAt: NULLABLE_TEXT })
    }
  })

  it('replaces every field, and reads back what it wrote', async () => {
    const id = created.get(13)
    expect(id).toBeDefined()
    for (const exchange of readMaarchExchanges('contacts-update.json')) {
      const path = exchange.request.path.replace('/contacts/13', `/contacts/${id}`)
      const answer = await replayMaarchRequest(s, withRequest(exchange, { path }))
      expectSameShape(answer, exchange.response, { anyTypeAt: NULLABLE_TEXT })
      if (exchange.name === 'read back after partial body') {
        expect(answer.json).toMatchObject({ lastname: 'Capture', firstname: null, email: null, customFields: null })
        expect(answer.json.externalId).toEqual([])
      }
    }
  })
})

describe("the capture client's contact steps (capture-workflow.json)", () => {
  it('creates with allowDuplicateMail, reads, and sends back what it read with a new external id', async () => {
    const steps = readMaarchExchanges('capture-workflow.json').filter((e) => e.request.path.startsWith('/contacts'))
    expect(steps.map((e) => e.name)).toEqual(['create_contact', 'retrieve_contact_by_id', 'update_contact_external_id'])
    const [create, read, update] = steps as [MaarchExchange, MaarchExchange, MaarchExchange]
    const created = await replayMaarchRequest(s, create)
    expectSameShape(created, create.response)
    const path = `/contacts/${created.json.id}`
    const answer = await replayMaarchRequest(s, withRequest(read, { path }))
    expectSameShape(answer, read.response, { anyTypeAt: ['creationDate', 'modificationDate'] })
    const body = { ...(update.request.body as object), id: created.json.id }
    expectSameShape(await replayMaarchRequest(s, withRequest(update, { path, body })), update.response)
    const after = await replayMaarchRequest(s, withRequest(read, { path }))
    expect(after.json.externalId).toEqual({ ia_tmp_contact_id: '8' })
    expect(after.json.customFields).toBeNull()
  })
})
