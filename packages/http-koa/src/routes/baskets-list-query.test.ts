import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  demoAuth,
  insertStandInRecord,
  seedBaskets,
  startTestServer,
  type TestServer,
} from '../../../testing/src/index.js'

/*
 * A basket's list query beyond the plain filters (baskets-routes.test.ts): 20.10's `entitiesChildren` filter, its
 * natural chrono order and its registered-mail display items. bbain (id 3, AGENT, serial 4, PJS) owns the basket;
 * its clause names this file's records only (subject starting `Tri`). The demo's tree: DGS > PJS > PE.
 */

let s: TestServer
let basketSerial: number
const ids: Record<string, number> = {}
const AGENT = 4
const bbain = demoAuth('bbain')

const REGISTERED_ITEMS = ['getRegisteredMailRecipient', 'getRegisteredMailReference', 'getRegisteredMailIssuingSite']

const list = (query: string) =>
  s.call('GET', `/rest/resourcesList/users/3/groups/${AGENT}/baskets/${basketSerial}?${query}`, { auth: bbain })

async function allResources(query: string): Promise<number[]> {
  const response = await list(query)
  expect([query, response.status]).toEqual([query, 200])
  return response.json.allResources as number[]
}

beforeAll(async () => {
  s = await startTestServer()
  const db = s.mailroom.db
  // name, destination, status, chrono
  const records: [string, string | null, string, string | null][] = [
    ['pjs9', 'PJS', 'NEW', 'MAARCH/2026A/9'],
    ['pjs10', 'PJS', 'COU', 'MAARCH/2026A/10'],
    ['pe2', 'PE', 'NEW', 'MAARCH/2026A/2'],
    ['pe100', 'PE', 'NEW', 'MAARCH/2026A/100'],
    ['none', null, 'NEW', null],
    ['drh', 'DRH', 'NEW', 'MAARCH/2025A/11'],
  ]
  for (const [name, destination, status, chrono] of records)
    ids[name] = await insertStandInRecord(db, { destination, status, subject: `Tri ${name}`, alt_identifier: chrono })
  const baskets = await seedBaskets(db, [
    {
      basketId: 'SortBasket',
      name: 'Courriers à trier',
      clause: "subject like 'Tri %'",
      groups: [
        {
          groupId: 'AGENT',
          listDisplay: {
            templateColumns: 3,
            subInfos: REGISTERED_ITEMS.map((value) => ({ value, cssClasses: [], icon: 'fa-envelope' })),
          },
          listEvent: 'documentDetails',
        },
      ],
    },
  ])
  basketSerial = baskets.get('SortBasket') as number
})
afterAll(async () => s?.close())

describe('entitiesChildren: a department and every department below it, as 20.10', () => {
  it('selects the records whose destination is one of the codes or below one, at any depth', async () => {
    const below = async (query: string) => new Set(await allResources(`entitiesChildren=${query}`))
    expect(await below('PE')).toEqual(new Set([ids.pe2, ids.pe100]))
    expect(await below('PJS')).toEqual(new Set([ids.pjs9, ids.pjs10, ids.pe2, ids.pe100]))
    // Two levels down: DGS > PJS > PE; DRH is DGS's too.
    expect(await below('DGS')).toEqual(new Set([ids.pjs9, ids.pjs10, ids.pe2, ids.pe100, ids.drh]))
    expect(await below('PE,DRH')).toEqual(new Set([ids.pe2, ids.pe100, ids.drh]))
    // Empty: the records without a destination; a trailing, leading or doubled comma adds them.
    expect(await below('')).toEqual(new Set([ids.none]))
    expect(await below('PE,')).toEqual(new Set([ids.pe2, ids.pe100, ids.none]))
    expect(await below(',,')).toEqual(new Set([ids.none]))
    // A code no entity has names itself only (20.10's getEntityChildren): nothing here.
    expect(await below('NOPE')).toEqual(new Set())
  })

  it('combines with the other filters, and the filters route counts the other facets below the codes', async () => {
    expect(new Set(await allResources('entitiesChildren=PJS&statuses=NEW'))).toEqual(
      new Set([ids.pjs9, ids.pe2, ids.pe100]),
    )
    const filters = await s.call(
      'GET',
      `/rest/resourcesList/users/3/groups/${AGENT}/baskets/${basketSerial}/filters?entitiesChildren=PJS`,
      { auth: bbain },
    )
    expect(filters.status).toBe(200)
    // Statuses over PJS and PE only: 3 NEW, 1 COU (without the filter: 5 NEW).
    expect(filters.json.statuses.map((e: { id: string; count: number }) => [e.id, e.count])).toEqual([
      ['COU', 1],
      ['NEW', 3],
    ])
    // The entities' own counts leave the filter out, as 20.10's: every destination of the basket.
    expect(filters.json.entities.map((e: { entityId: string | null }) => e.entityId).sort()).toEqual(
      ['DRH', 'PE', 'PJS', null].sort(),
    )
  })

  it('takes hostile values as data: NULs refused with 400, quotes and huge lists select nothing, never a 500', async () => {
    for (const query of ['entitiesChildren=PE%00', 'entitiesChildren=%00,PJS']) {
      const response = await list(query)
      expect([query, response.status]).toEqual([query, 400])
      expect(typeof response.json.errors).toBe('string')
    }
    for (const value of ["PE') or 1=1 --", 'PE\\', "'", 'A'.repeat(3000)])
      expect(await allResources(`entitiesChildren=${encodeURIComponent(value)}`)).toEqual([])
    // More codes than a filter takes (1,000): the first thousand, here none of them an entity.
    const many = await list(`entitiesChildren=${Array(3000).fill('X').join(',')},PE`)
    expect([many.status, many.json.allResources]).toEqual([200, []])
    expect(await allResources('entitiesChildren=PE&entitiesChildren=DRH')).toEqual([ids.drh]) // the last one, as PHP
  })
})

describe('order=alt_identifier: chronos in natural order, as 20.10 (order_alphanum)', () => {
  it('compares each run of digits as a number, in either direction, the records without a chrono at the end', async () => {
    const asc = [ids.drh, ids.pe2, ids.pjs9, ids.pjs10, ids.pe100]
    // PostgreSQL puts nulls last ascending and first descending, as 20.10's ORDER BY does.
    expect(await allResources('order=alt_identifier asc')).toEqual([...asc, ids.none])
    expect(await allResources('order=alt_identifier')).toEqual([...asc, ids.none])
    expect(await allResources('order=alt_identifier%20DESC')).toEqual([ids.none, ...asc.reverse()])
    // The list's page follows the same order.
    const page = await list('order=alt_identifier%20asc&limit=3')
    expect(page.json.resources.map((r: { resId: number }) => r.resId)).toEqual([ids.drh, ids.pe2, ids.pjs9])
  })

  it('refuses a direction that is not asc or desc with 400, writing nothing of the caller into SQL', async () => {
    for (const order of [
      'alt_identifier desc; drop table users',
      'alt_identifier (select 1)',
      'alt_identifier desc,res_id',
      ' alt_identifier desc',
      'alt_identifier \u0001',
    ]) {
      const response = await list(`order=${encodeURIComponent(order)}`)
      expect([order, response.status]).toEqual([order, 400])
      expect(response.json.errors).toMatch(/^Bad Request: orderBy parameter not valid/)
    }
    const users = await s.mailroom.db.selectFrom('users').select('id').execute()
    expect(users.length).toBeGreaterThan(0)
  })
})

describe('the registered-mail display items: what 20.10 shows for a letter that is not registered mail', () => {
  it('gives each item of the display an empty value, in the order of list_display', async () => {
    const response = await list(`search=${encodeURIComponent('"Tri pe2"')}`)
    expect(response.status).toBe(200)
    expect(response.json.resources).toHaveLength(1)
    expect(response.json.resources[0].display).toEqual(
      REGISTERED_ITEMS.map((value) => ({ value, cssClasses: [], icon: 'fa-envelope', displayValue: '' })),
    )
    expect(response.json.templateColumns).toBe(3)
  })
})
