import { type Actor, createJournalUseCases, type LifeCycleEvent, verifyChain } from '@mailroom/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildConsultationEvent, chainPositionAfter } from '../../../testing/src/test-core-internals.js'
import {
  addOrganisation,
  type JournalTestBed,
  openJournalTestBed,
  type StoredRecord,
  safeRows,
} from '../../test/journal-fixtures.js'
import type { StorageContext } from '../storage-context.js'
import { journalPorts } from './journal-ports.js'
import { rowToEvent, sha256Hex } from './journal-rows.js'
import { eventToPendingRow, type JournalPendingRow, linkQuery, sealJournal } from './journal-sealer.js'
import { JournalWriter } from './journal-writer.js'
import { verifyJournal } from './verify-journal.js'

let bed: JournalTestBed
let bbain: Actor

beforeAll(async () => {
  bed = await openJournalTestBed()
  bbain = await bed.actor('bbain')
})
afterAll(async () => bed?.close())

/** A new safe (its own top-level entity) and the entity records are deposited under. */
async function freshSafe(): Promise<{ safe: string; unit: string }> {
  const id = `S${Math.random().toString(36).slice(2, 8).toUpperCase()}`
  return { safe: await addOrganisation(bed.db, id, `${id}-SAFE`), unit: `${id}_S` }
}

/** A writer with no background work: what it writes stays pending until someone seals. */
function idleWriter(): JournalWriter {
  return new JournalWriter({ clock: bed.clock })
}

async function pendingOf(safe: string) {
  return bed.db.selectFrom('journal_pending').selectAll().where('safe', '=', safe).orderBy('id').execute()
}

async function deposit(writer: JournalWriter, record: StoredRecord, unit: string) {
  await bed.db.transaction().execute((trx) =>
    writer.deposit(trx, {
      resId: record.resId,
      destination: unit,
      sha256: record.sha256,
      size: record.size,
      actor: bbain,
      kind: 'deposit',
    }),
  )
}

/** The safe's chain is 1..n without gap, verifies against its head, and holds each given event id once. */
async function expectWholeChain(safe: string, count: number) {
  const events = (await safeRows(bed.db, safe)).map(rowToEvent)
  expect(events).toHaveLength(count)
  expect(events.map((e) => e.sequence)).toEqual(events.map((_, i) => i + 1))
  expect(new Set(events.map((e) => e.eventId)).size).toBe(count)
  const head = await bed.db.selectFrom('journal_heads').selectAll().where('safe', '=', safe).executeTakeFirstOrThrow()
  expect(
    verifyChain(events, sha256Hex, { safe, checkpoint: { sequence: head.last_sequence, hash: head.last_hash } }),
  ).toMatchObject({ ok: true })
  for (let i = 1; i < events.length; i += 1)
    expect(events[i]!.timestamp.getTime()).toBeGreaterThanOrEqual(events[i - 1]!.timestamp.getTime())
  return events
}

describe('linkQuery', () => {
  const actor = { accountId: 'bbain', accountName: 'Barbara BAIN', orgUnitRegNumber: 'DGS' }
  const event = (n: number) =>
    buildConsultationEvent(
      { sha256Hex, newEventId: () => `mailroom_t-${n}` },
      {
        position: chainPositionAfter('S', null),
        actor,
        timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, n)),
        archiveId: 'a',
        resource: { resId: String(n), hash: 'ab'.repeat(32), size: n },
        originatorArchiveId: String(n),
      },
    )
  const pending = (id: number) => ({ id }) as JournalPendingRow

  it('links a batch of any size with one statement text, a column per array parameter', () => {
    const head = { safe: 'S', sequence: 3, hash: 'cd'.repeat(32), timestamp: null }
    const one = linkQuery([event(1)], [pending(7)], head)
    const three = linkQuery([event(1), event(2), event(3)], [pending(7), pending(8), pending(9)], head)
    expect(three.sql).toBe(one.sql)
    expect(three.parameters).toHaveLength(21)
    expect(three.parameters[2]).toEqual(['mailroom_t-1', 'mailroom_t-2', 'mailroom_t-3'])
    expect(three.parameters[4]).toEqual([
      '2026-01-01T00:00:01.000Z',
      '2026-01-01T00:00:02.000Z',
      '2026-01-01T00:00:03.000Z',
    ])
    expect(three.parameters.slice(17)).toEqual([[7, 8, 9], 3, 'cd'.repeat(32), 'S'])
  })
})

describe('pending journal events', () => {
  it('are written in the caller’s transaction, outside the chain, and vanish with a rollback', async () => {
    const { safe, unit } = await freshSafe()
    const writer = idleWriter()
    const kept = await bed.storeRecord({ destination: unit })
    await deposit(writer, kept, unit)
    const pending = await pendingOf(safe)
    expect(pending).toHaveLength(1)
    expect(pending[0]).toMatchObject({
      event_type: 'recordsManagement/deposit',
      account_id: 'bbain',
      info: { resId: String(kept.resId), hash: kept.sha256 },
    })
    expect(await safeRows(bed.db, safe)).toEqual([])

    const dropped = await bed.storeRecord({ destination: unit })
    await expect(
      bed.db.transaction().execute(async (trx) => {
        await writer.deposit(trx, {
          resId: dropped.resId,
          destination: unit,
          sha256: dropped.sha256,
          size: dropped.size,
          actor: bbain,
          kind: 'deposit',
        })
        await writer.consultation(trx, { resId: kept.resId, sha256: kept.sha256, size: kept.size, actor: bbain })
        throw new Error('rolled back')
      }),
    ).rejects.toThrow('rolled back')
    expect(await pendingOf(safe)).toHaveLength(1)
    expect(await writer.seal(bed.db, safe)).toBe(1)
    const [event] = await expectWholeChain(safe, 1)
    expect(event).toMatchObject({ eventId: pending[0]!.event_id, info: { resId: String(kept.resId) } })
    expect(await pendingOf(safe)).toEqual([])
    expect(
      await bed.db.selectFrom('journal_archives').select('res_id').where('res_id', '=', dropped.resId).execute(),
    ).toEqual([])
  })

  it('cannot be changed', async () => {
    const { safe, unit } = await freshSafe()
    await deposit(idleWriter(), await bed.storeRecord({ destination: unit }), unit)
    await expect(
      bed.db.updateTable('journal_pending').set({ description: 'x' }).where('safe', '=', safe).execute(),
    ).rejects.toThrow(/cannot be changed/)
    await bed.flush()
  })

  it('50 deposits through 8 parallel transactions, sealed in the background meanwhile, make one whole chain', async () => {
    const { safe, unit } = await freshSafe()
    const writer = new JournalWriter({ clock: bed.clock, db: bed.db, sealDelayMs: 1, sweepIntervalMs: 0 })
    try {
      const records = await Promise.all(Array.from({ length: 50 }, () => bed.storeRecord({ destination: unit })))
      const lanes = Array.from({ length: 8 }, (_, lane) => records.filter((_, i) => i % 8 === lane))
      await Promise.all(
        lanes.map(async (lane) => {
          for (const record of lane) {
            await bed.db.transaction().execute(async (trx) => {
              await writer.deposit(trx, {
                resId: record.resId,
                destination: unit,
                sha256: record.sha256,
                size: record.size,
                actor: bbain,
                kind: 'deposit',
              })
              // Let the background seal run while this transaction is still open.
              await new Promise((resolve) => setTimeout(resolve, 2))
            })
          }
        }),
      )
      await writer.flush()
      const events = await expectWholeChain(safe, 50)
      expect(new Set(events.map((e) => (e.info as { resId: string }).resId))).toEqual(
        new Set(records.map((r) => String(r.resId))),
      )
      expect(await pendingOf(safe)).toEqual([])
      expect(await verifyJournal(bed.context, safe)).toMatchObject({
        ok: true,
        safes: [{ ok: true, events: 50, files: 50 }],
      })
    } finally {
      await writer.close()
    }
  })

  it('are sealed once each by concurrent sealers', async () => {
    const { safe, unit } = await freshSafe()
    const writer = idleWriter()
    const records = await Promise.all(Array.from({ length: 40 }, () => bed.storeRecord({ destination: unit })))
    for (const record of records) await deposit(writer, record, unit)
    const counts = await Promise.all([
      sealJournal(bed.db, { safe, batchSize: 3 }),
      sealJournal(bed.db, { batchSize: 5 }),
      writer.seal(bed.db, safe),
    ])
    expect(counts.reduce((a, b) => a + b, 0)).toBe(40)
    await expectWholeChain(safe, 40)
    expect(await pendingOf(safe)).toEqual([])
  })

  it('left by a process that died are sealed by the next writer’s start-up sweep', async () => {
    const { safe, unit } = await freshSafe()
    const dead = idleWriter()
    for (let i = 0; i < 3; i += 1) await deposit(dead, await bed.storeRecord({ destination: unit }), unit)
    expect(await pendingOf(safe)).toHaveLength(3)
    const next = new JournalWriter({ clock: bed.clock, db: bed.db, sweepIntervalMs: 20 })
    try {
      for (let waited = 0; (await pendingOf(safe)).length > 0 && waited < 5000; waited += 20)
        await new Promise((resolve) => setTimeout(resolve, 20))
      await expectWholeChain(safe, 3)
    } finally {
      await next.close()
    }
  })

  it('are sealed by flush and on close', async () => {
    const { safe, unit } = await freshSafe()
    for (let i = 0; i < 2; i += 1) await deposit(idleWriter(), await bed.storeRecord({ destination: unit }), unit)
    const writer = new JournalWriter({ clock: bed.clock, db: bed.db, sweepIntervalMs: 0, sealDelayMs: 60_000 })
    await writer.flush()
    await expectWholeChain(safe, 2)
    await deposit(writer, await bed.storeRecord({ destination: unit }), unit)
    expect(await pendingOf(safe)).toHaveLength(1)
    await writer.close()
    await expectWholeChain(safe, 3)
  })

  it('are seen by an /events read right after their commit', async () => {
    const { safe, unit } = await freshSafe()
    const writer = idleWriter()
    const context: StorageContext = { ...bed.context, journal: writer }
    const record = await bed.storeRecord({ destination: unit })
    await deposit(writer, record, unit)
    const reading = await createJournalUseCases(journalPorts(context)).readEvents(
      await bed.actor('superadmin'),
      safe,
      {},
    )
    const events: LifeCycleEvent[] = []
    for await (const event of reading.events) events.push(event)
    expect(events.map((e) => [e.eventType, e.eventInfo[0]?.resId])).toEqual([
      ['recordsManagement/deposit', String(record.resId)],
    ])
    // The read event follows the deposit in the chain.
    const rows = await expectWholeChain(safe, 2)
    expect(rows.map((e) => e.eventType)).toEqual(['recordsManagement/deposit', 'organization/journal'])
  })

  it('written long ago and never sealed fail verification as unsealed', async () => {
    const { safe, unit } = await freshSafe()
    const record = await bed.depositRecord(bbain, { destination: unit })
    const [archive] = await bed.db
      .selectFrom('journal_archives')
      .select('archive_id')
      .where('res_id', '=', record.resId)
      .execute()
    const event = buildConsultationEvent(
      { sha256Hex, newEventId: () => `mailroom_stale-${Math.random().toString(16).slice(2)}` },
      {
        position: chainPositionAfter(safe, null),
        actor: { accountId: 'bbain', accountName: 'Barbara BAIN', orgUnitRegNumber: 'PJS' },
        timestamp: bed.clock.now(),
        archiveId: archive!.archive_id,
        resource: { resId: String(record.resId), hash: record.sha256, size: record.size },
        originatorArchiveId: String(record.resId),
      },
    )
    await bed.db
      .insertInto('journal_pending')
      .values({ ...eventToPendingRow(event), created_at: new Date(Date.now() - 120_000) })
      .execute()
    const fresh = { ...eventToPendingRow({ ...event, eventId: `${event.eventId}x` }) }
    await bed.db.insertInto('journal_pending').values(fresh).execute()

    const stale = await verifyJournal(bed.context, safe, { seal: false })
    expect(stale).toMatchObject({
      ok: false,
      safes: [
        {
          safe,
          ok: false,
          events: 1,
          pending: 2,
          break: { reason: 'unsealed', sequence: null, eventId: event.eventId },
        },
      ],
    })
    expect(stale.safes[0]!.break!.detail).toMatch(
      /^1 event\(s\) written more than 60 s ago are not linked into the chain/,
    )
    expect(await verifyJournal(bed.context, undefined, { seal: false })).toMatchObject({ ok: false })
    expect(await verifyJournal(bed.context, safe, { seal: false, unsealedAfterMs: 600_000 })).toMatchObject({
      ok: true,
    })
    // By default verification seals first: nothing is left pending, and the chain holds both.
    expect(await verifyJournal(bed.context, safe)).toMatchObject({
      ok: true,
      safes: [{ ok: true, events: 3, pending: 0 }],
    })
    expect(await pendingOf(safe)).toEqual([])
  })
})
