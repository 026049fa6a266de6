import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  answerDifferences,
  type MaarchExchange,
  maarchExchange,
  readMaarchExchanges,
  replayMaarchRequest,
  shapeDifferences,
  startTestServer,
  type TestServer,
} from '../../../testing/src/index.js'

const WS = 'cchaplin:maarch'
const YEAR = new Date().getUTCFullYear()
const TEXT_BASE64 = Buffer.from('Bonjour, ceci est un courrier.\n').toString('base64')

let s: TestServer
beforeAll(async () => {
  s = await startTestServer()
  // Letters as the capture client creates them (cchaplin), so that the recorded searches find records here too:
  // MAARCH/<year>A/1 to /12 (the first the client's letter to the pool), one outgoing, a few for PJS (bbain).
  const letter = (n: number) => ({
    modelId: 1,
    status: n === 4 ? 'VAL' : 'NEW',
    chrono: true,
    doctype: 101 + (n % 5),
    priority: 'poiuytre1357nbvc',
    subject: n === 1 ? "DEMANDE D'INSCRIPTION A LA PISCINE" : `Demande numéro ${n}`,
    destination: n % 3 === 0 ? 6 : 8,
    senders: [{ id: 1 + (n % 3), type: 'contact' }],
    arrivalDate: `${YEAR}-01-15`,
    processLimitDate: `${YEAR + 1}-01-08`,
    format: 'txt',
    encodedFile: TEXT_BASE64,
  })
  for (let n = 1; n <= 12; n++) {
    const created = await s.call('POST', '/rest/resources', { auth: WS, body: letter(n) })
    expect(created.status, JSON.stringify(created.json)).toBe(200)
  }
  const outgoing = await s.call('POST', '/rest/resources', {
    auth: WS,
    body: {
      modelId: 2,
      status: 'NEW',
      chrono: true,
      subject: 'Réponse',
      destination: 8,
      doctype: 102,
      priority: 'poiuytre1357nbvc',
    },
  })
  expect(outgoing.status).toBe(200)
}, 120_000)
afterAll(async () => s?.close())

/**
 * Where Mailroom answers differently from 20.10 on purpose (docs/search.md lists each with its reason): a 400
 * naming the criterion where 20.10 answers 500 or ignores the criterion and answers every record; a 200 where
 * 20.10 fails on a date range.
 */
const DIFFERENCES: Record<string, { status: number; errors?: string }> = {
  'status as objects (500 in 20.10)': {
    status: 400,
    errors: 'Body status values must be a non-empty array of status identifiers (integers, not codes) or null',
  },
  'status as status ids': {
    status: 400,
    errors: 'Body status values must be a non-empty array of status identifiers (integers, not codes) or null',
  },
  'doctype as objects (500 in 20.10)': {
    status: 400,
    errors: 'Body doctype values must be a non-empty array of document type ids (integers)',
  },
  'category as objects': {
    status: 400,
    errors: 'Body category values must be a non-empty array of category ids (strings)',
  },
  'destination as objects (500 in 20.10)': {
    status: 400,
    errors: 'Body destination values must be a non-empty array of entity ids (integers) or null',
  },
  'senders as text': {
    status: 400,
    errors:
      'Body senders values must be a non-empty array of {id, type} (type contact, user or entity), or of company names',
  },
  'senders as contact ids': {
    status: 400,
    errors:
      'Body senders values must be a non-empty array of {id, type} (type contact, user or entity), or of company names',
  },
  'unknown criterion': { status: 400, errors: 'Body nope is not a search criterion' },
  'chrono values not a string': { status: 400, errors: 'Body chrono values must be a non-empty string' },
  'chrono without values': { status: 400, errors: 'Body chrono must be an object {"values": ...}' },
  'status values not an array': {
    status: 400,
    errors: 'Body status values must be a non-empty array of status identifiers (integers, not codes) or null',
  },
  'dates not dates': {
    status: 400,
    errors: 'Body creationDate values must be an object {start, end} of dates YYYY-MM-DD (at least one)',
  },
  'body not JSON': { status: 400 },
  // 20.10 answers 500 (its end-of-day date text); Mailroom compares ISO dates.
  'creationDate range': { status: 200 },
}

/**
 * Searches whose recorded answer found records of the publisher's sample that the demo organisation does not
 * hold (2020 chronos, doctype 505, status identifier 10, contact 6, a closed letter, a note): Mailroom's answer
 * is compared with 20.10's answer of a search that found nothing ("chrono, unknown"), or that stopped at a
 * sender, tag or note matching nothing ("tags").
 */
const NOTHING_HERE = new Set([
  'chrono, sample record',
  'chrono, partial',
  'meta quick search on a chrono',
  'meta between quotes (exact)',
  'doctype',
  'closingDate range',
  'combined status and category',
  'bbain: chrono out of perimeter',
])
const STOPPED_EARLY = new Set(['notes', 'senders'])

/** Values that are null on one side and a string on the other with the data (no barcode, no closing date here). */
const NULLABLE = [
  'barcode',
  'closing_date',
  'statusImage',
  'priorityColor',
  'binding',
  'subject',
  'chrono',
  'confidentiality',
  'integrations',
]
const ANY_TYPE_AT = Array.from({ length: 30 }, (_, i) => [
  ...NULLABLE.map((key) => `resources.${i}.${key}`),
  `resources.${i}.display.1.displayValue.processLimitDate`,
]).flat()

/** 20.10 leaves `expand` out of an empty facet but for categories and folders; Mailroom always sends it. */
const EXTRA_KEYS_AT = ['priorities', 'statuses', 'doctypes', 'entities'].map((facet) => `filters.${facet}.expand`)
const SHAPE = { anyTypeAt: ANY_TYPE_AT, extraKeysAt: EXTRA_KEYS_AT }

/** The request as Mailroom's data needs it: this year's chronos instead of the recording's. */
function localised(exchange: MaarchExchange): MaarchExchange {
  const text = JSON.stringify(exchange.request).replaceAll('MAARCH/2026', `MAARCH/${YEAR}`)
  return { ...exchange, request: JSON.parse(text) }
}

describe('POST /rest/search against the answers of Maarch 20.10', () => {
  const empty = maarchExchange('search.json', 'chrono, unknown').response
  const short = maarchExchange('search.json', 'tags').response

  for (const exchange of readMaarchExchanges('search.json')) {
    it(exchange.name, async () => {
      const r = await replayMaarchRequest(s, localised(exchange))
      const difference = DIFFERENCES[exchange.name]
      if (difference !== undefined) {
        expect(r.status, JSON.stringify(r.json)).toBe(difference.status)
        if (difference.errors !== undefined) expect(r.json).toEqual({ errors: difference.errors })
        if (difference.status === 200) {
          const like = maarchExchange('search.json', 'processLimitDate range').response
          expect(shapeDifferences(r.json, like.body, SHAPE)).toEqual([])
        }
        return
      }
      const recorded = NOTHING_HERE.has(exchange.name)
        ? empty
        : STOPPED_EARLY.has(exchange.name)
          ? short
          : exchange.response
      expect(answerDifferences({ status: r.status, json: r.json }, recorded, SHAPE)).toEqual([])
    })
  }

  it("finds the capture client's letter by its chrono, first (the client reads resources[0].resId)", async () => {
    const r = await s.call('POST', '/rest/search', { auth: WS, body: { chrono: { values: `MAARCH/${YEAR}A/1` } } })
    expect(r.status).toBe(200)
    // 20.10's match is a substring: /1 finds /10, /11 and /12 as well, in creation order.
    expect(r.json.resources.map((resource: { chrono: string }) => resource.chrono)).toEqual(
      [1, 10, 11, 12].map((n) => `MAARCH/${YEAR}A/${n}`),
    )
    expect(r.json.resources[0]).toMatchObject({
      subject: "DEMANDE D'INSCRIPTION A LA PISCINE",
      statusLabel: 'Nouveau courrier',
      hasDocument: true,
    })
    const dates = r.json.resources[0].display.find(
      (d: { value: string }) => d.value === 'getCreationAndProcessLimitDates',
    )
    expect(dates.displayValue).toEqual({
      creationDate: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      processLimitDate: `${YEAR + 1}-01-08T00:00:00.000Z`,
    })
    expect(r.json.resources[0].display.find((d: { value: string }) => d.value === 'getSenders').displayValue).toEqual([
      'Société Alpha',
    ])
  })

  it('answers 400 naming the query parameter where 20.10 falls back to its default', async () => {
    const r = await s.call('POST', '/rest/search?limit=-1', { auth: WS, body: {} })
    expect([r.status, r.json]).toEqual([400, { errors: 'Query limit must be an integer from 1 to 1000' }])
  })

  it('asks for credentials', async () => {
    const r = await s.call('POST', '/rest/search', { auth: null, body: {} })
    expect(r.status).toBe(401)
  })
})

/**
 * The criteria of 20.10's search form beyond the capture client's, recorded on the publisher's sample alone
 * (search-criteria.json). Each request is sent with the demo's ids for the sample's (bbain 19 → 3, ppetit 10 → 5,
 * the entity DSG 12 in copy → PJS 6, custom fields by type), on stand-in diffusion lists and sender addresses
 * made so that Mailroom finds records where 20.10 did; the answers must have 20.10's shape, its early empty
 * answer included.
 */
describe('POST /rest/search criteria of the search form against the answers of Maarch 20.10', () => {
  const bodies: Record<string, unknown> = {
    'role_dest, a user': { role_dest: { values: [{ id: 3, type: 'user' }] } },
    'role_dest, a user who is dest of nothing': { role_dest: { values: [{ id: 6, type: 'user' }] } },
    'role_cc, an entity': { role_cc: { values: [{ id: 6, type: 'entity' }] } },
    'role_dest, null': { role_dest: { values: [null] } },
    role_sign: { role_sign: { values: [{ id: 5, type: 'user' }] } },
    role_visa: { role_visa: { values: [{ id: 4, type: 'user' }] } },
    'role_dest as bare ids': { role_dest: { values: [3] } },
    groupSign: { groupSign: { values: [1] } },
    'indexingCustomField string': { indexingCustomField_1: { values: 'REF' } },
    'indexingCustomField select': { indexingCustomField_3: { values: ['Fax'] } },
    'indexingCustomField date': { indexingCustomField_2: { values: { start: '2020-01-01', end: '2030-12-31' } } },
  }
  /** Where Mailroom answers 400 naming the criterion (docs/user-guide.md lists why). */
  const REFUSED: Record<string, string> = {
    'role_dest as bare ids':
      'Body role_dest values must be a non-empty array of {id, type} (type user or entity) or null',
    'indexingCustomField unknown': 'Body indexingCustomField_99 names no custom field of this installation',
  }

  beforeAll(async () => {
    const db = s.mailroom.db
    const ids = (await db.selectFrom('res_letterbox').select('res_id').orderBy('res_id').execute()).map((r) =>
      Number(r.res_id),
    )
    // Every letter gets a dest (bbain on the first two, ppetit on the others), PJS in copy on three, a visa by
    // bblier on one; Société Alpha (sender of a third of the letters) is in the department 99, as the sample's.
    await db.deleteFrom('listinstance').where('item_mode', 'in', ['dest', 'cc', 'visa']).execute()
    for (const [index, resId] of ids.entries()) {
      await db
        .insertInto('listinstance')
        .values({ res_id: resId, item_id: index < 2 ? 3 : 5, item_type: 'user_id', item_mode: 'dest' })
        .execute()
      if (index < 3)
        await db
          .insertInto('listinstance')
          .values({ res_id: resId, item_id: 6, item_type: 'entity_id', item_mode: 'cc' })
          .execute()
    }
    await db
      .insertInto('listinstance')
      .values({ res_id: ids[0]!, item_id: 4, item_type: 'user_id', item_mode: 'visa', difflist_type: 'VISA_CIRCUIT' })
      .execute()
    await db.updateTable('contacts').set({ address_postcode: '99000' }).where('id', '=', 2).execute()
  })

  for (const exchange of readMaarchExchanges('search-criteria.json')) {
    it(exchange.name, async () => {
      const body = bodies[exchange.name] ?? exchange.request.body
      const r = await replayMaarchRequest(s, { ...exchange, request: { ...exchange.request, body } })
      const refused = REFUSED[exchange.name]
      if (refused !== undefined) {
        expect([r.status, r.json]).toEqual([400, { errors: refused }])
        return
      }
      expect(answerDifferences({ status: r.status, json: r.json }, exchange.response, SHAPE)).toEqual([])
      // Found where 20.10 found, nothing where it found nothing.
      expect(r.json.count > 0).toBe((exchange.response.body as { count: number }).count > 0)
    })
  }
})

describe('GET /rest/search/configuration', () => {
  it("answers 20.10's installed configuration, value for value", async () => {
    const [exchange] = readMaarchExchanges('search-configuration.json')
    const r = await replayMaarchRequest(s, exchange!)
    expect(
      answerDifferences({ status: r.status, json: r.json }, exchange!.response, { sameValuesAt: ['configuration'] }),
    ).toEqual([])
  })
})
