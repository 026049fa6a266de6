import type { Actor, CriteriaSearchResponse } from '@mailroom/core'
import { isDomainError } from '@mailroom/core'
import fc from 'fast-check'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { criteriaBodyArbitrary } from '../../../testing/src/arbitraries/criteria-arbitrary.js'
import { createTestMailroom, type TestMailroom } from '../../../testing/src/databases/test-database.js'
import {
  DEMO_USERS,
  naiveVisible,
  type SeededRecord,
  seedSearchDataset,
} from '../../../testing/src/fixtures/search-test-dataset.js'
import { parseSearchCriteria } from '../../../testing/src/test-core-internals.js'
import { databaseFullText } from '../search/compile-clause.js'
import { compileTerm, orderColumns, selectionCondition } from './compile-criteria.js'

let t: TestMailroom
let records: SeededRecord[]
let actors: Map<string, Actor>
/** Status codes by their integer identifier. */
let statusCodes: Map<number, string>

beforeAll(async () => {
  t = await createTestMailroom()
  records = await seedSearchDataset(t.mailroom.db, t.documents)
  actors = new Map(
    await Promise.all(
      DEMO_USERS.map(async (u) => [u.login, await t.mailroom.auth.authenticatePassword(u.login, u.password)] as const),
    ),
  )
  const statuses = await t.mailroom.db.selectFrom('status').select(['identifier', 'id']).execute()
  statusCodes = new Map(statuses.map((s) => [s.identifier, s.id]))
}, 120_000)
afterAll(async () => t?.cleanup())

const ENTITIES = ['VILLE', 'CAB', 'DGS', 'DRH', 'DSI', 'PJS', 'PE', 'COU']

function search(login: string, body: unknown, query: Record<string, string> = {}): Promise<CriteriaSearchResponse> {
  return t.mailroom.criteriaSearch.search(actors.get(login) as Actor, body, query)
}

function visibleTo(login: string): SeededRecord[] {
  const user = DEMO_USERS.find((u) => u.login === login)!
  return records.filter((record) => naiveVisible(user, record))
}

/** 20.10's default order: creation date, then (Mailroom) the record id. */
function inDefaultOrder(list: SeededRecord[]): number[] {
  return [...list]
    .sort((a, b) => a.creationDate.localeCompare(b.creationDate) || a.resId - b.resId)
    .map((record) => record.resId)
}

/** The criteria the seeded records carry, written naively; undefined when the oracle cannot judge one. */
function naiveMatch(name: string, values: any, record: SeededRecord): boolean | undefined {
  switch (name) {
    case 'chrono':
      return (record.chrono ?? '')
        .replaceAll(' ', '')
        .toLowerCase()
        .includes(String(values).trim().replaceAll(' ', '').toLowerCase())
        ? record.chrono !== null
        : false
    case 'resId':
      return (
        (values.start == null || record.resId >= values.start) && (values.end == null || record.resId <= values.end)
      )
    case 'category':
      return values.includes(record.category)
    case 'status':
      return values.some((v: number | null) => v !== null && statusCodes.get(v) === record.status)
    case 'destination':
      return values.some(
        (v: number | null) =>
          (v === null && record.destination === null) || (v !== null && ENTITIES[v - 1] === record.destination),
      )
    case 'creationDate': {
      const day = record.creationDate.slice(0, 10)
      return (values.start == null || day >= values.start) && (values.end == null || day <= values.end)
    }
    default:
      return undefined
  }
}

describe('POST /rest/search within the perimeter', () => {
  it("answers every record of each demo user's perimeter to an empty body, in 20.10's order", async () => {
    for (const user of DEMO_USERS) {
      const answer = await search(user.login, {}, { limit: '1000' })
      expect(answer.allResources, user.login).toEqual(inDefaultOrder(visibleTo(user.login)))
      expect(answer.count).toBe(answer.allResources.length)
    }
  })

  it('gives bbain only PJS and below (plus what the contract adds), and ddur nothing by chrono of a record of another', async () => {
    const bbain = await search('bbain', {}, { limit: '1000' })
    for (const id of bbain.allResources) {
      const record = records.find((r) => r.resId === id)!
      expect(
        ['PJS', 'PE'].includes(record.destination ?? '') || record.typist === 3 || record.diffusion.length > 0,
      ).toBe(true)
    }
    // A chrono no record of ddur's perimeter holds as a substring (20.10's chrono match is a substring match).
    const ddurChronos = visibleTo('ddur').flatMap((r) => (r.chrono === null ? [] : [r.chrono]))
    const foreign = records.find(
      (r) => r.chrono !== null && !naiveVisible(DEMO_USERS[5]!, r) && !ddurChronos.some((c) => c.includes(r.chrono!)),
    )!
    const ddur = await search('ddur', { chrono: { values: foreign.chrono } })
    expect(ddur).toMatchObject({ resources: [], count: 0, allResources: [] })
    const cchaplin = await search('cchaplin', { chrono: { values: foreign.chrono } })
    expect(cchaplin.allResources).toContain(foreign.resId)
  })

  it('matches what a naive reading of each criterion finds, within the perimeter (property)', async () => {
    const judged = criteriaBodyArbitrary.filter((body) =>
      Object.entries(body).every(([name]) =>
        ['chrono', 'resId', 'category', 'status', 'destination', 'creationDate'].includes(name),
      ),
    )
    await fc.assert(
      fc.asyncProperty(judged, fc.constantFrom('cchaplin', 'bbain', 'ddur'), async (body, login) => {
        const expected = visibleTo(login).filter((record) =>
          Object.entries(body).every(([name, criterion]) => naiveMatch(name, criterion.values, record)),
        )
        const answer = await search(login, body, { limit: '1000' })
        expect(answer.allResources).toEqual(inDefaultOrder(expected))
      }),
      { numRuns: 60 },
    )
  })

  it('runs every well-formed body, on both databases, without a database refusal (property)', async () => {
    await fc.assert(
      fc.asyncProperty(criteriaBodyArbitrary, async (body) => {
        const answer = await search('bbain', body)
        expect(answer.count === 0 || answer.allResources.length === answer.count).toBe(true)
        const visible = new Set(visibleTo('bbain').map((r) => r.resId))
        for (const id of answer.allResources) expect(visible.has(id)).toBe(true)
      }),
      { numRuns: 80 },
    )
  })

  it('pages in the asked order, and answers count 0 past the end as 20.10', async () => {
    const all = await search(
      'cchaplin',
      { category: { values: ['incoming'] } },
      { limit: '1000', order: 'chrono', orderDir: 'DESC' },
    )
    const page = await search(
      'cchaplin',
      { category: { values: ['incoming'] } },
      { offset: '5', limit: '3', order: 'chrono', orderDir: 'DESC' },
    )
    expect(page.resources.map((r) => r.resId)).toEqual(all.allResources.slice(5, 8))
    expect(page.allResources).toEqual(all.allResources)
    const past = await search('cchaplin', {}, { offset: '100000' })
    expect(past).toMatchObject({ resources: [], count: 0, allResources: [] })
    expect(past.filters).toBeDefined()
  })

  it('counts the facets of the matches and narrows by the selected ones', async () => {
    const answer = await search('cchaplin', { chrono: { values: '2025' } }, { limit: '1000' })
    const statusCounts = Object.fromEntries(answer.filters!.statuses.values.map((v) => [v.id, v.count]))
    const withChrono = records.filter((r) => r.chrono !== null)
    for (const code of ['NEW', 'COU', 'END', 'DEL'])
      expect(statusCounts[code] ?? 0).toBe(withChrono.filter((r) => r.status === code).length)
    const narrowed = await search(
      'cchaplin',
      { chrono: { values: '2025' }, filters: { statuses: { values: [{ id: 'NEW', selected: true }] } } },
      { limit: '1000' },
    )
    expect(narrowed.count).toBe(withChrono.filter((r) => r.status === 'NEW').length)
    expect(narrowed.filters!.statuses.values.find((v) => v.id === 'NEW')?.selected).toBe(true)
  })

  it('leaves out the records of a status that cannot be searched, and only those', async () => {
    const hidden = visibleTo('cchaplin').filter((record) => record.status === 'COU')
    expect(hidden.length).toBeGreaterThan(0)
    await t.mailroom.db.updateTable('status').set({ can_be_searched: 'N' }).where('id', '=', 'COU').execute()
    try {
      const answer = await search('cchaplin', {}, { limit: '1000' })
      expect(answer.allResources).toEqual(inDefaultOrder(visibleTo('cchaplin').filter((r) => r.status !== 'COU')))
    } finally {
      await t.mailroom.db.updateTable('status').set({ can_be_searched: 'Y' }).where('id', '=', 'COU').execute()
    }
  })

  it('answers 400, not 500, when the database refuses a value (a date PostgreSQL cannot read)', async () => {
    const error = await search('cchaplin', { creationDate: { values: { start: '2021-02-30' } } }).catch((e) => e)
    expect(isDomainError(error) ? error.kind : error).toBe('bad-request')
  })
})

describe('caller text never reaches SQL text', () => {
  const marker = '\u2603mark\u2603'
  /** A body whose every text carries the marker, with SQL-looking tails. */
  const markedBody = fc
    .tuple(fc.constantFrom('chrono', 'meta', 'subject', 'barcode', 'notes'), fc.string(), fc.string())
    .map(([name, text, company]) => ({
      [name]: { values: `${marker}${text.replaceAll('\0', '')}'; select pg_sleep(1); --` },
      senders: { values: [`${marker}${company.replaceAll('\0', '')} x`] },
      priority: { values: [`${marker}'); drop table users; --`] },
      attachment_type: { values: [`${marker}' or '1'='1`] },
      filters: { statuses: { values: [{ id: `${marker}' or 1=1 --`, selected: true }] } },
    }))

  it('binds every text of a body as a value: no statement the compiler writes holds one (property)', () => {
    fc.assert(
      fc.property(markedBody, (body) => {
        const criteria = parseSearchCriteria(body)
        const notes = { recordsWithNote: (text: string) => sql`select ${sql.val(text)}::bigint` }
        const where = sql.join(
          criteria.terms.map((term) => compileTerm(term, { notes, attachments: true, fullText: databaseFullText() })),
          sql` and `,
        )
        const order = orderColumns({ order: 'chrono', direction: 'DESC' })
        const compiled =
          sql`select res_id, ${order.select} from res_view_letterbox where ${where} and ${selectionCondition(criteria.selection)}
          order by ${order.orderBy}`.compile(t.mailroom.db)
        expect(compiled.sql).not.toContain(marker)
        expect(compiled.parameters.some((p) => typeof p === 'string' && p.includes(marker))).toBe(true)
      }),
    )
  })

  it('answers such bodies as searches for the text, not as SQL', async () => {
    await fc.assert(
      fc.asyncProperty(markedBody, async (body) => {
        const answer = await search('cchaplin', body)
        expect(answer).toMatchObject({ resources: [], count: 0, allResources: [] })
      }),
      { numRuns: 15 },
    )
    expect(
      Number((await sql<{ n: number }>`select count(*)::int as n from users`.execute(t.mailroom.db)).rows[0]?.n),
    ).toBe(6)
  })
})
