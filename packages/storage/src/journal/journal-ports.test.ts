import {
  type Actor,
  createJournalUseCases,
  type DomainError,
  errorMessage,
  isDomainError,
  type JournalEvent,
  type JournalServices,
  type LifeCycleEvent,
} from '@mailroom/core'
import fc from 'fast-check'
import type { KyselyPlugin } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseJournalQuery, selectJournalPage, toLifeCycleEvent } from '../../../testing/src/test-core-internals.js'
import {
  addOrganisation,
  appendBuiltEvents,
  DEMO_SAFE,
  type EventSpec,
  type JournalTestBed,
  openJournalTestBed,
  safeRows,
} from '../../test/journal-fixtures.js'
import { journalPorts } from './journal-ports.js'
import { rowToEvent } from './journal-rows.js'

let bed: JournalTestBed
let services: JournalServices
let bbain: Actor
let ddur: Actor
let superadmin: Actor

/** The query-test safe: a fixed set of built events with ties, odd identifiers and several archives. */
let QSAFE: string
let qEvents: JournalEvent[]

beforeAll(async () => {
  bed = await openJournalTestBed()
  services = createJournalUseCases(journalPorts(bed.context, { pageSize: 7 }))
  bbain = await bed.actor('bbain')
  ddur = await bed.actor('ddur')
  superadmin = await bed.actor('superadmin')
  QSAFE = await addOrganisation(bed.db, 'QORG', 'Q-123')
  // bbain reads the query safe through a second entity of theirs.
  await bed.db
    .insertInto('users_entities')
    .values({ user_id: bbain.id, entity_id: 'QORG_S', user_role: null, primary_entity: 'N' })
    .execute()
  bbain = await bed.actor('bbain')
  const ids = ['1', '2', '9', '10', '010', '100', 'abc', 'Abc', 'abd', 'é', 'z9', '']
  const archives = ['mailroom_a1', 'mailroom_a2', 'mailroom_b1', 'mailroom_b2', 'mailroom_c']
  const units = ['QORG', 'QORG_S', 'PJS']
  const base = Date.UTC(2024, 0, 30, 22, 0, 0)
  const specs: EventSpec[] = Array.from({ length: 48 }, (_, i) => ({
    kind: (['deposit', 'consultation', 'integrityCheck'] as const)[i % 3]!,
    archiveId: archives[(i * 7) % archives.length]!,
    originatorArchiveId: ids[(i * 5) % ids.length]!,
    // Every third event shares its predecessor's timestamp: ties are ordered by eventId.
    timestamp: new Date(base + Math.floor((i * 2) / 3) * 3_600_000),
    orgUnit: units[i % units.length]!,
    account: i % 2 ? 'cchaplin' : 'bbain',
  }))
  qEvents = await appendBuiltEvents(bed.db, QSAFE, specs)
})
afterAll(async () => bed?.close())

async function collect(reading: { events: AsyncIterable<LifeCycleEvent> }): Promise<LifeCycleEvent[]> {
  const events: LifeCycleEvent[] = []
  for await (const event of reading.events) events.push(event)
  return events
}

async function read(actor: Actor, owner: string, raw: Record<string, string | string[] | undefined> = {}) {
  return collect(await services.readEvents(actor, owner, raw))
}

async function failure(promise: Promise<unknown>): Promise<DomainError> {
  const caught = await promise.then(
    () => null,
    (error: unknown) => error,
  )
  if (!isDomainError(caught)) throw new Error(`expected a DomainError, got ${String(caught)}`)
  return caught
}

describe('readEvents: who may read which safe', () => {
  it('answers 404 for a safe no top-level entity owns', async () => {
    const error = await failure(services.readEvents(bbain, 'NOPE', {}))
    expect([error.code, error.kind, error.message]).toEqual([
      'JOURNAL_SAFE_NOT_FOUND',
      'not-found',
      "Organization NOPE doesn't exist",
    ])
    // A sub-entity is not an owner organisation.
    expect((await failure(services.readEvents(bbain, 'PJS', {}))).code).toBe('JOURNAL_SAFE_NOT_FOUND')
  })

  it('lets anyone positioned under the owner read it (ddur: DRH under DGS under VILLE), whatever their record perimeter', async () => {
    await expect(services.readEvents(ddur, DEMO_SAFE, {})).resolves.toMatchObject({
      head: { owner: DEMO_SAFE, accountName: 'Dominique DUR' },
    })
  })

  it('answers 403 to a user with no entity under the safe, and lets root users read every safe', async () => {
    const other = await addOrganisation(bed.db, 'FAR', '99999999900001')
    const error = await failure(services.readEvents(ddur, other, {}))
    expect([error.code, error.kind, error.message]).toEqual([
      'JOURNAL_NOT_POSITIONED',
      'forbidden',
      'The user is not positioned on the organization.',
    ])
    await expect(services.readEvents(superadmin, other, {})).resolves.toMatchObject({ head: { owner: other } })
  })

  it('checks the safe and the position before the query', async () => {
    expect((await failure(services.readEvents(ddur, 'NOPE', { fromDate: 'x' }))).code).toBe('JOURNAL_SAFE_NOT_FOUND')
    expect((await failure(services.readEvents(ddur, QSAFE, { fromDate: 'x' }))).code).toBe('JOURNAL_NOT_POSITIONED')
    expect((await failure(services.readEvents(bbain, QSAFE, { fromDate: 'x' }))).code).toBe('JOURNAL_INVALID_DATE')
  })
})

describe('readEvents: content and order', () => {
  it('returns archive events in timestamp then eventId order, each with the whole history of its archive', async () => {
    const events = await read(bbain, QSAFE)
    const expected = selectJournalPage(qEvents, QSAFE, {})
    expect(events.map((e) => e.eventId)).toEqual(expected.map((e) => e.eventId))
    for (const event of events) {
      const source = qEvents.find((e) => e.eventId === event.eventId)!
      expect(event).toEqual(toLifeCycleEvent(source, qEvents, 'Barbara BAIN'))
    }
    const first = events[0]!
    expect(Object.keys(first)).toEqual([
      'eventId',
      'eventType',
      'instanceName',
      'timestamp',
      'orgRegNumber',
      'orgUnitRegNumber',
      'accountId',
      'objectClass',
      'objectId',
      'operationResult',
      'description',
      'eventInfo',
      'accountName',
    ])
    expect(first.timestamp).toBe('2024-01-30T22:00:00+00:00')
    expect(first.eventInfo.map((i) => i.eventId)).toEqual(
      qEvents.filter((e) => e.objectId === first.objectId).map((e) => e.eventId),
    )
  })

  it('journals each read as organization/journal, never returned, and answers with the events before it', async () => {
    const before = (await safeRows(bed.db, QSAFE)).length
    const reading = await services.readEvents(bbain, QSAFE, { originatorOrgRegNumber: 'QORG_S' })
    const rows = await safeRows(bed.db, QSAFE)
    expect(rows).toHaveLength(before + 1)
    const readEvent = rowToEvent(rows.at(-1)!)
    expect(readEvent).toMatchObject({
      eventType: 'organization/journal',
      objectClass: 'organization/organization',
      objectId: 'QORG_S',
      accountId: 'bbain',
      orgRegNumber: QSAFE,
      orgUnitRegNumber: 'PJS',
      info: { orgName: 'Service of QORG', ownerOrgId: QSAFE },
    })
    // Appended while the answer streams: not part of this answer.
    await appendBuiltEvents(bed.db, QSAFE, [
      {
        kind: 'deposit',
        archiveId: 'mailroom_late',
        originatorArchiveId: '5',
        timestamp: new Date(Date.UTC(2030, 0, 1)),
        orgUnit: 'QORG_S',
        account: 'bbain',
      },
    ])
    const events = await collect(reading)
    expect(events.map((e) => e.eventId)).toEqual(
      selectJournalPage(qEvents, QSAFE, { originatorOrgRegNumber: 'QORG_S' }).map((e) => e.eventId),
    )
    expect(events.some((e) => e.objectId === 'mailroom_late')).toBe(false)
    const again = await read(bbain, QSAFE)
    expect(again.some((e) => e.objectClass !== 'recordsManagement/archive')).toBe(false)
    expect(again.at(-1)!.objectId).toBe('mailroom_late')
    qEvents = [...qEvents, rowToEvent((await safeRows(bed.db, QSAFE)).find((r) => r.object_id === 'mailroom_late')!)]
  })

  it('serves events written by the JournalWriter with the hash of the stored bytes in eventInfo', async () => {
    const record = await bed.depositRecord(bbain, { destination: 'PE', bytes: 'contenu du courrier' })
    const [archive] = await bed.db
      .selectFrom('journal_archives')
      .selectAll()
      .where('res_id', '=', record.resId)
      .execute()
    const events = await read(ddur, DEMO_SAFE, { archiveId: archive!.archive_id })
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({
      eventType: 'recordsManagement/deposit',
      accountName: 'Dominique DUR',
      accountId: 'bbain',
      orgUnitRegNumber: 'PJS',
    })
    expect(events[0]!.eventInfo).toEqual([
      {
        eventId: events[0]!.eventId,
        eventType: 'recordsManagement/deposit',
        timestamp: events[0]!.timestamp,
        orgRegNumber: DEMO_SAFE,
        orgUnitRegNumber: 'PJS',
        accountId: 'bbain',
        objectId: archive!.archive_id,
        resId: String(record.resId),
        hashAlgorithm: 'SHA256',
        hash: record.sha256,
        originatorOrgRegNumber: 'PE',
        depositorOrgRegNumber: 'PJS',
        archiverOrgRegNumber: 'VILLE',
        size: record.size,
      },
    ])
  })
})

describe('readEvents: filters', () => {
  const ids = (events: readonly { eventId: string }[]) => events.map((e) => e.eventId)
  const expectFor = (raw: Record<string, string>, cursor?: JournalEvent) =>
    ids(selectJournalPage(qEvents, QSAFE, parseJournalQuery(raw), cursor))

  it('filters on archiveId, originatorOrgRegNumber (the org unit), dates and originator archive ids', async () => {
    const cases: Record<string, string>[] = [
      { archiveId: 'mailroom_a2' },
      { archiveId: 'mailroom_a2', originatorOrgRegNumber: 'QORG' },
      { originatorOrgRegNumber: 'PJS' },
      { fromDate: '2024-01-31' },
      { toDate: '2024-01-30' },
      { fromDate: '2024-01-31T05:00:00+02:00', toDate: '2024-01-31T10:00:00Z' },
      { fromDate: '2024-01-31 03:00', toDate: '2024-01-31' },
      { fromOriginatorArchiveId: '9', toOriginatorArchiveId: '100' },
      { fromOriginatorArchiveId: '010' },
      { toOriginatorArchiveId: '2' },
      { fromOriginatorArchiveId: 'abc', toOriginatorArchiveId: 'z' },
      { fromOriginatorArchiveId: '1', toOriginatorArchiveId: 'abd' },
      { fromOriginatorArchiveId: 'Abc' },
    ]
    for (const raw of cases) {
      const got = ids(await read(bbain, QSAFE, raw))
      expect([raw, got]).toEqual([raw, expectFor(raw)])
      expect(got.length).toBeGreaterThan(0)
    }
    // Spot checks of the documented rules, independent of core's reference implementation.
    const numeric = await read(bbain, QSAFE, { fromOriginatorArchiveId: '9', toOriginatorArchiveId: '100' })
    const numericIds = new Set(
      numeric.map(
        (e) =>
          (qEvents.find((q) => q.eventId === e.eventId)!.info as { originatorArchiveId: string }).originatorArchiveId,
      ),
    )
    expect([...numericIds].sort()).toEqual(['010', '10', '100', '9'])
    const wholeDay = await read(bbain, QSAFE, { toDate: '2024-01-30' })
    expect(wholeDay.map((e) => e.timestamp.slice(0, 10))).toEqual(wholeDay.map(() => '2024-01-30'))
    expect(wholeDay.at(-1)!.timestamp).toBe('2024-01-30T23:00:00+00:00')
  })

  it('refuses bad filters with 400 and the catalogue message', async () => {
    const cases: [Record<string, string | string[]>, string][] = [
      [{ archiveId: 'mailroom_a1', fromDate: '2024-01-01' }, 'JOURNAL_ARCHIVE_ID_COMBINED'],
      [{ archiveId: 'mailroom_a1', toDate: '2024-01-01' }, 'JOURNAL_ARCHIVE_ID_COMBINED'],
      [{ archiveId: 'mailroom_a1', fromOriginatorArchiveId: '1' }, 'JOURNAL_ARCHIVE_ID_COMBINED'],
      [{ archiveId: 'mailroom_a1', toOriginatorArchiveId: '1' }, 'JOURNAL_ARCHIVE_ID_COMBINED'],
      [{ fromDate: '31/01/2024' }, 'JOURNAL_INVALID_DATE'],
      [{ toDate: '2024-02-30' }, 'JOURNAL_INVALID_DATE'],
      [{ fromDate: '2024-02-01', toDate: '2024-01-01' }, 'JOURNAL_DATE_RANGE_INVERTED'],
      [{ limit: '0' }, 'JOURNAL_INVALID_LIMIT'],
      [{ limit: 'ten' }, 'JOURNAL_INVALID_LIMIT'],
      [{ after: 'not an id' }, 'JOURNAL_INVALID_CURSOR'],
      [{ after: 'mailroom_unknown-0' }, 'JOURNAL_INVALID_CURSOR'],
      [{ archiveId: ['a', 'b'] }, 'JOURNAL_REPEATED_PARAMETER'],
    ]
    for (const [raw, code] of cases) {
      const error = await failure(services.readEvents(bbain, QSAFE, raw))
      expect([raw, error.code, error.kind]).toEqual([raw, code, 'bad-request'])
    }
    expect((await failure(services.readEvents(bbain, QSAFE, { fromDate: 'yesterday' }))).message).toBe(
      errorMessage('JOURNAL_INVALID_DATE'),
    )
    // A cursor must be an archive event of this safe.
    const foreign = (await safeRows(bed.db, DEMO_SAFE)).find((r) => r.object_class === 'recordsManagement/archive')!
    expect((await failure(services.readEvents(bbain, QSAFE, { after: foreign.event_id }))).code).toBe(
      'JOURNAL_INVALID_CURSOR',
    )
  })

  it('pages with limit and after exactly through the unpaged answer', async () => {
    for (const raw of [
      {},
      { originatorOrgRegNumber: 'QORG' },
      { fromOriginatorArchiveId: '1', toOriginatorArchiveId: '9' },
    ] as Record<string, string>[]) {
      const whole = ids(await read(bbain, QSAFE, raw))
      for (const limit of [1, 5, 7, 13]) {
        const paged: string[] = []
        let after: string | undefined
        for (let guard = 0; guard < 100; guard += 1) {
          const page = ids(await read(bbain, QSAFE, { ...raw, limit: String(limit), ...(after ? { after } : {}) }))
          expect(page.length).toBeLessThanOrEqual(limit)
          paged.push(...page)
          if (page.length < limit) break
          after = page.at(-1)
        }
        expect(paged).toEqual(whole)
      }
    }
  })

  it('matches core’s reference semantics for any combination of filters (property)', async () => {
    const times = qEvents.map((e) => e.timestamp.getTime())
    const dateArb = fc.oneof(
      fc.constantFrom(...times).map((t) => new Date(t).toISOString()),
      fc.constantFrom(...times).map((t) => new Date(t).toISOString().slice(0, 10)),
      fc.constantFrom(...times).map((t) => new Date(t + 1).toISOString().replace('Z', '+00:00')),
      fc.constantFrom(...times).map((t) => new Date(t - 1).toISOString().slice(0, 19)),
    )
    const idArb = fc.constantFrom(
      '1',
      '2',
      '9',
      '10',
      '010',
      '100',
      '0',
      'abc',
      'Abc',
      'ab',
      'é',
      'z',
      '99999999999999999999',
    )
    const rawArb = fc.record(
      {
        archiveId: fc.constantFrom('mailroom_a1', 'mailroom_b2', 'mailroom_c', 'mailroom_none'),
        originatorOrgRegNumber: fc.constantFrom('QORG', 'QORG_S', 'PJS', 'X'),
        fromDate: dateArb,
        toDate: dateArb,
        fromOriginatorArchiveId: idArb,
        toOriginatorArchiveId: idArb,
        limit: fc.integer({ min: 1, max: 20 }).map(String),
        after: fc.constantFrom(...qEvents.map((e) => e.eventId)),
      },
      { requiredKeys: [] },
    )
    await fc.assert(
      fc.asyncProperty(rawArb, async (raw) => {
        let expected: string[] | string
        try {
          const query = parseJournalQuery(raw)
          expected = ids(
            selectJournalPage(
              qEvents,
              QSAFE,
              query,
              query.after === undefined ? undefined : qEvents.find((e) => e.eventId === query.after),
            ),
          )
        } catch (error) {
          expected = (error as DomainError).code
        }
        let got: string[] | string
        try {
          got = ids(await read(bbain, QSAFE, raw))
        } catch (error) {
          if (!isDomainError(error)) throw error
          got = error.code
        }
        expect(got).toEqual(expected)
      }),
      { numRuns: 60 },
    )
  })
})

describe('readEvents: large journals', () => {
  it('streams 20,000 events page by page: one page query and one history query per page, on demand', async () => {
    const big = await addOrganisation(bed.db, 'BIG', 'BIGSAFE')
    const start = Date.UTC(2023, 0, 1)
    const specs: EventSpec[] = Array.from({ length: 20_000 }, (_, i) => ({
      kind: i % 2 ? 'consultation' : 'deposit',
      archiveId: `mailroom_big${Math.floor(i / 2)}`,
      originatorArchiveId: String(Math.floor(i / 2)),
      timestamp: new Date(start + i * 1000),
      orgUnit: 'BIG_S',
      account: 'cchaplin',
    }))
    await appendBuiltEvents(bed.db, big, specs)

    let selects = 0
    const counting: KyselyPlugin = {
      transformQuery: (args) => {
        if (args.node.kind === 'SelectQueryNode') selects += 1
        return args.node
      },
      transformResult: async (args) => args.result,
    }
    const paged = createJournalUseCases(
      journalPorts({ ...bed.context, db: bed.db.withPlugin(counting) }, { pageSize: 500 }),
    )
    const reading = await paged.readEvents(superadmin, big, {})
    const iterator = reading.events[Symbol.asyncIterator]()
    selects = 0
    const first = await iterator.next()
    expect(first.value).toMatchObject({
      objectId: 'mailroom_big0',
      eventInfo: [{ eventType: 'recordsManagement/deposit' }, { eventType: 'recordsManagement/consultation' }],
    })
    expect(selects).toBe(2)
    for (let i = 1; i < 500; i += 1) await iterator.next()
    expect(selects).toBe(2)
    let count = 500
    let previous = ''
    for (;;) {
      const next = await iterator.next()
      if (next.done) break
      count += 1
      expect(next.value.eventInfo).toHaveLength(2)
      if (count % 997 === 0) {
        expect(next.value.timestamp >= previous).toBe(true)
        previous = next.value.timestamp
      }
    }
    expect(count).toBe(20_000)
    // 40 full pages and their histories, then one empty page closes the walk.
    expect(selects).toBe(81)
  })
})
