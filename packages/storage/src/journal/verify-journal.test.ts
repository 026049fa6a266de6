import { createHash } from 'node:crypto'
import type { Actor } from '@mailroom/core'
import { sql } from 'kysely'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { putStoredFile, storedKey } from '../../../testing/src/fixtures/insert-test-record.js'
import {
  addOrganisation,
  appendBuiltEvents,
  DEMO_SAFE,
  type JournalTestBed,
  openJournalTestBed,
  type StoredRecord,
  safeRows,
} from '../../test/journal-fixtures.js'
import { verifyJournal } from './verify-journal.js'

let bed: JournalTestBed
let bbain: Actor

beforeAll(async () => {
  bed = await openJournalTestBed()
  bbain = await bed.actor('bbain')
})
afterAll(async () => bed?.close())

/** A fresh safe with `count` deposits (each a stored record) and consultations in between. */
async function freshSafe(count: number): Promise<{ safe: string; records: StoredRecord[] }> {
  const id = `V${Math.random().toString(36).slice(2, 8).toUpperCase()}`
  const safe = await addOrganisation(bed.db, id, `${id}-SAFE`)
  const records: StoredRecord[] = []
  for (let i = 0; i < count; i += 1) {
    bed.clock.advance(1000)
    const record = await bed.depositRecord(bbain, { destination: `${id}_S` })
    records.push(record)
    bed.clock.advance(1000)
    await bed.db.transaction().execute((trx) =>
      bed.context.journal.consultation(trx, {
        resId: record.resId,
        sha256: record.sha256,
        size: record.size,
        actor: bbain,
      }),
    )
  }
  await bed.flush()
  return { safe, records }
}

const verify = (safe: string, pageSize = 3) => verifyJournal(bed.context, safe, { pageSize })

async function sequenceOf(safe: string, index: number) {
  return (await safeRows(bed.db, safe))[index]!
}

describe('verifyJournal', () => {
  beforeEach(() => {
    bed.clock.advance(60_000)
  })

  it('accepts an intact journal, checking every deposited file, across pages', async () => {
    const { safe } = await freshSafe(4)
    for (const pageSize of [1, 2, 3, 8, 1000]) {
      const result = await verify(safe, pageSize)
      expect(result.ok).toBe(true)
      expect(result.safes).toHaveLength(1)
      expect(result.safes[0]).toMatchObject({ safe, ok: true, events: 8, files: 4, head: { sequence: 8 } })
      expect(result.safes[0]!.break).toBeUndefined()
    }
  })

  it('verifies every safe when none is named, and reports unknown safes', async () => {
    await bed.depositRecord(bbain, { destination: 'PJS' })
    const { safe } = await freshSafe(1)
    const all = await verifyJournal(bed.context)
    expect(all.safes.map((s) => s.safe)).toEqual(expect.arrayContaining([DEMO_SAFE, safe]))
    expect(all.safes.every((s) => s.ok)).toBe(true)
    expect(await verifyJournal(bed.context, 'NO-SUCH-SAFE')).toMatchObject({
      ok: false,
      safes: [{ ok: false, break: { reason: 'unknown-safe' } }],
    })
    // A known safe with nothing journalled yet is intact.
    const empty = await addOrganisation(bed.db, 'EMPTYORG', 'EMPTY-SAFE')
    expect(await verifyJournal(bed.context, empty)).toMatchObject({ ok: true, safes: [{ events: 0 }] })
  })

  it('detects an edited event', async () => {
    const { safe } = await freshSafe(3)
    const target = await sequenceOf(safe, 2)
    await bed.withTriggersDisabled((db) =>
      db
        .updateTable('journal_events')
        .set({ description: 'Nothing to see' })
        .where('event_id', '=', target.event_id)
        .execute(),
    )
    expect(await verify(safe)).toMatchObject({
      ok: false,
      safes: [{ ok: false, events: 2, break: { reason: 'edited', sequence: 3, eventId: target.event_id } }],
    })
  })

  it('detects an edited fingerprint in eventInfo (jsonb)', async () => {
    const { safe } = await freshSafe(2)
    const target = await sequenceOf(safe, 0)
    await bed.withTriggersDisabled((db) =>
      sql`update journal_events set info = jsonb_set(info, '{hash}', to_jsonb(${'0'.repeat(64)}::text)) where event_id = ${target.event_id}`.execute(
        db,
      ),
    )
    expect(await verify(safe)).toMatchObject({ ok: false, safes: [{ break: { reason: 'edited', sequence: 1 } }] })
  })

  it('detects a deleted event in the middle', async () => {
    const { safe } = await freshSafe(3)
    const target = await sequenceOf(safe, 3)
    await bed.withTriggersDisabled((db) =>
      db.deleteFrom('journal_events').where('event_id', '=', target.event_id).execute(),
    )
    const next = await sequenceOf(safe, 3)
    expect(await verify(safe)).toMatchObject({
      ok: false,
      safes: [{ break: { reason: 'deleted-or-inserted', sequence: 5, eventId: next.event_id } }],
    })
  })

  it('detects a deleted last event against the recorded head', async () => {
    const { safe } = await freshSafe(3)
    const rows = await safeRows(bed.db, safe)
    await bed.withTriggersDisabled((db) =>
      db.deleteFrom('journal_events').where('event_id', '=', rows.at(-1)!.event_id).execute(),
    )
    for (const pageSize of [1, 5, 6, 1000]) {
      expect(await verify(safe, pageSize)).toMatchObject({
        ok: false,
        safes: [{ events: 5, break: { reason: 'truncated', sequence: null } }],
      })
    }
  })

  it('detects the deletion of every event of a safe', async () => {
    const { safe } = await freshSafe(1)
    await bed.withTriggersDisabled((db) => db.deleteFrom('journal_events').where('safe', '=', safe).execute())
    expect(await verify(safe)).toMatchObject({ ok: false, safes: [{ events: 0, break: { reason: 'truncated' } }] })
  })

  it('detects two swapped events', async () => {
    const { safe } = await freshSafe(3)
    const [a, b] = [await sequenceOf(safe, 1), await sequenceOf(safe, 4)]
    await bed.withTriggersDisabled(async (db) => {
      await db.updateTable('journal_events').set({ sequence: -1 }).where('event_id', '=', a.event_id).execute()
      await db.updateTable('journal_events').set({ sequence: a.sequence }).where('event_id', '=', b.event_id).execute()
      await db.updateTable('journal_events').set({ sequence: b.sequence }).where('event_id', '=', a.event_id).execute()
    })
    const result = await verify(safe)
    expect(result).toMatchObject({ ok: false, safes: [{ events: 1, break: { sequence: 2, eventId: b.event_id } }] })
    expect(['edited', 'reordered']).toContain(result.safes[0]!.break!.reason)
  })

  it('detects swapped timestamps (a rewritten order)', async () => {
    const { safe } = await freshSafe(2)
    const [a, b] = [await sequenceOf(safe, 0), await sequenceOf(safe, 2)]
    await bed.withTriggersDisabled(async (db) => {
      await db
        .updateTable('journal_events')
        .set({ timestamp: b.timestamp })
        .where('event_id', '=', a.event_id)
        .execute()
      await db
        .updateTable('journal_events')
        .set({ timestamp: a.timestamp })
        .where('event_id', '=', b.event_id)
        .execute()
    })
    expect(await verify(safe)).toMatchObject({ ok: false, safes: [{ break: { reason: 'edited', sequence: 1 } }] })
  })

  it('detects inserted events: a copy at a free sequence, and a well-formed event the journal never appended', async () => {
    const { safe } = await freshSafe(2)
    const rows = await safeRows(bed.db, safe)
    const copy = { ...rows[1]!, event_id: 'mailroom_forged-1', sequence: 0 }
    await bed.db
      .insertInto('journal_events')
      .values({ ...copy, info: JSON.stringify(copy.info) })
      .execute()
    expect(await verify(safe)).toMatchObject({ ok: false, safes: [{ break: { reason: 'edited', sequence: 0 } }] })
    await bed.withTriggersDisabled((db) =>
      db.deleteFrom('journal_events').where('event_id', '=', 'mailroom_forged-1').execute(),
    )
    expect((await verify(safe)).ok).toBe(true)

    // A forgery with full knowledge of the chain, appended behind the journal's back (head not moved).
    const head = await bed.db.selectFrom('journal_heads').selectAll().where('safe', '=', safe).executeTakeFirstOrThrow()
    const [forged] = await bed.withTriggersDisabled(async (db) => {
      const built = await appendBuiltEvents(db, safe, [
        {
          kind: 'consultation',
          archiveId: rows[0]!.object_id,
          originatorArchiveId: '1',
          timestamp: bed.clock.now(),
          orgUnit: 'PJS',
          account: 'bbain',
        },
      ])
      // Put the head back where the journal left it.
      await db
        .updateTable('journal_heads')
        .set({ last_sequence: head.last_sequence, last_hash: head.last_hash })
        .where('safe', '=', safe)
        .execute()
      return built
    })
    for (const pageSize of [1, 2, 4, 5, 1000]) {
      expect(await verify(safe, pageSize)).toMatchObject({
        ok: false,
        safes: [{ events: 5, break: { reason: 'deleted-or-inserted', sequence: 5, eventId: forged!.eventId } }],
      })
    }
  })

  it('detects an altered, a missing and a replaced stored file, naming the record', async () => {
    const { safe, records } = await freshSafe(3)
    await putStoredFile(bed.t.documents, records[1]!.key, 'tampered content')
    expect(await verify(safe)).toMatchObject({
      ok: false,
      safes: [{ events: 2, break: { reason: 'altered-file', sequence: 3, resId: String(records[1]!.resId) } }],
    })
    await putStoredFile(bed.t.documents, records[1]!.key, records[1]!.bytes)
    expect((await verify(safe)).ok).toBe(true)

    await bed.t.documents.remove(records[2]!.key)
    const missing = await verify(safe)
    expect(missing).toMatchObject({
      ok: false,
      safes: [{ break: { reason: 'altered-file', sequence: 5, resId: String(records[2]!.resId) } }],
    })
    expect(missing.safes[0]!.break!.detail).toContain('missing')
    await putStoredFile(bed.t.documents, records[2]!.key, records[2]!.bytes)

    // Pointing the record at another file with a matching fingerprint column does not fool it.
    const other = await bed.storeRecord({ bytes: 'other bytes' })
    const otherRow = await bed.db
      .selectFrom('res_letterbox')
      .select(['path', 'filename'])
      .where('res_id', '=', other.resId)
      .executeTakeFirstOrThrow()
    await bed.db
      .updateTable('res_letterbox')
      .set({ ...otherRow, fingerprint: records[0]!.sha256 })
      .where('res_id', '=', records[0]!.resId)
      .execute()
    expect(await verify(safe)).toMatchObject({
      ok: false,
      safes: [{ break: { reason: 'altered-file', sequence: 1, resId: String(records[0]!.resId) } }],
    })
  })

  it('walks the chain alone with checkFiles: false (what the HTTP verification does)', async () => {
    const { safe, records } = await freshSafe(2)
    await putStoredFile(bed.t.documents, records[0]!.key, 'tampered content')
    const chainOnly = await verifyJournal(bed.context, safe, { pageSize: 3, checkFiles: false })
    expect(chainOnly).toMatchObject({
      ok: true,
      safes: [{ ok: true, events: 4, files: 0, pending: 0, head: { sequence: 4 } }],
    })
    expect((await verify(safe)).safes[0]!.break?.reason).toBe('altered-file')
    await putStoredFile(bed.t.documents, records[0]!.key, records[0]!.bytes)
  })

  it('finds earlier versions in adr_letterbox after a new version replaced the file', async () => {
    const { safe, records } = await freshSafe(1)
    const record = records[0]!
    const row = await bed.db
      .selectFrom('res_letterbox')
      .select(['path', 'filename'])
      .where('res_id', '=', record.resId)
      .executeTakeFirstOrThrow()
    // Version 1 moves to adr_letterbox, version 2 becomes the record's file.
    await bed.db
      .insertInto('adr_letterbox')
      .values({
        res_id: record.resId,
        type: 'DOC',
        version: 1,
        docserver_id: 'FASTHD_MAN',
        path: row.path!.replace(/\//g, '#'),
        filename: row.filename!,
        fingerprint: record.sha256,
        filesize: record.size,
      })
      .execute()
    const v2 = new TextEncoder().encode('version two')
    const v2Name = `${row.filename}.v2`
    await putStoredFile(bed.t.documents, storedKey(bed.t.documents, 'resources', row.path!, v2Name), v2)
    const v2Hash = createHash('sha256').update(v2).digest('hex')
    await bed.db
      .updateTable('res_letterbox')
      .set({ filename: v2Name, fingerprint: v2Hash, filesize: v2.length, version: 2 })
      .where('res_id', '=', record.resId)
      .execute()
    await bed.db.transaction().execute((trx) =>
      bed.context.journal.deposit(trx, {
        resId: record.resId,
        destination: null,
        sha256: v2Hash,
        size: v2.length,
        actor: bbain,
        kind: 'newResource',
      }),
    )
    expect(await verify(safe)).toMatchObject({ ok: true, safes: [{ events: 3, files: 2 }] })
    await bed.t.documents.remove(record.key)
    expect(await verify(safe)).toMatchObject({ ok: false, safes: [{ break: { reason: 'altered-file', sequence: 1 } }] })
  })
})
