import { beginImportBatch, verifyJournal } from '@mailroom/storage'
import { createTestMailroom, storedKeys, type TestMailroom } from '@mailroom/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGeneratedSource, type GeneratedSource } from '../test/generated-source.js'
import { failingHistoryInsert, importCollecting } from '../test/import-helpers.js'
import { type MaarchImportTarget, type MaarchSource, openMaarchSource } from './index.js'

let t: TestMailroom
let fixture: GeneratedSource
let source: MaarchSource
beforeAll(async () => {
  fixture = await createGeneratedSource()
  t = await createTestMailroom({ demo: false })
  source = await openMaarchSource(fixture.url)
}, 120_000)
afterAll(async () => {
  await source?.close()
  await t?.cleanup()
  await fixture?.drop()
})

/** The target, whose database fails the `failAt`-th history insert after PostgreSQL ran it (mid-transaction). */
function failingTarget(failAt: number): MaarchImportTarget {
  const m = t.mailroom
  return {
    db: m.db.withPlugin(failingHistoryInsert(failAt, 'the disk went away')),
    documentStore: m.documentStore,
    organisation: m.organisation,
    actor: (user) => m.actor(user),
    journalFlush: () => m.journalFlush(),
  }
}

const countBy = (rows: readonly Record<string, unknown>[]) => {
  const counts = new Map<number, number>()
  for (const r of rows) counts.set(Number(r.res_id), (counts.get(Number(r.res_id)) ?? 0) + 1)
  return counts
}

describe('an import that fails in the middle of a batch', () => {
  it('stops, leaving whole batches only and no file behind, and the next run imports the rest once', async () => {
    const run = { from: fixture.url, docservers: { root: fixture.docservers } }
    const total = fixture.installation.facts.records
    // Batches of 4, one at a time, one history insert each: the second batch fails after its records' rows went in.
    await expect(importCollecting(failingTarget(2), { ...run, batchSize: 4, jobs: 1 })).rejects.toThrow(
      'the disk went away',
    )
    const db = t.mailroom.db
    const records = await db.selectFrom('res_letterbox').select(['res_id', 'filename']).orderBy('res_id').execute()
    // The first batch only: the second's rows, inserted before the failure, went with their transaction.
    const ids = records.map((r) => Number(r.res_id))
    expect(ids).toEqual([1, 2, 3, 4])
    expect(
      await db.selectFrom('import_batches').select(['after_res_id', 'last_res_id', 'committed', 'records']).execute(),
    ).toEqual([{ after_res_id: 0, last_res_id: 4, committed: true, records: 4 }])
    // Whole: each record present has all its list entries and contacts, its IMPORT row, its deposit.
    const expectedLists = countBy(await source.rows('select res_id from listinstance where res_id = any($1)', [ids]))
    const expectedContacts = countBy(
      await source.rows('select res_id from resource_contacts where res_id = any($1)', [ids]),
    )
    expect(countBy(await db.selectFrom('listinstance').select('res_id').execute())).toEqual(expectedLists)
    expect(countBy(await db.selectFrom('resource_contacts').select('res_id').execute())).toEqual(expectedContacts)
    const importRows = await db.selectFrom('history').select('record_id').where('event_type', '=', 'IMPORT').execute()
    expect(importRows.map((h) => Number(h.record_id)).sort((a, b) => a - b)).toEqual(ids)
    await t.mailroom.journalFlush()
    const deposits = await db
      .selectFrom('journal_events')
      .select('description')
      .where('description', 'like', '%imported from Maarch Courrier%')
      .execute()
    expect(deposits).toHaveLength(records.filter((r) => r.filename !== null).length)
    // No file without its record: originals, converted PDFs and attachments of the committed records only.
    const versions = await db.selectFrom('adr_letterbox').select('id').execute()
    const attachments = await db.selectFrom('res_attachments').select('res_id').execute()
    const files = await storedKeys(t.documents)
    expect(files).toHaveLength(records.filter((r) => r.filename !== null).length + versions.length + attachments.length)

    const again = await importCollecting(t.mailroom, { ...run, batchSize: 4 })
    expect(again.resumed).toEqual({ afterResId: 4, batches: 1, records: 4 })
    expect(again.records.skipped.map((r) => r.resId)).toEqual(ids)
    expect([...ids, ...again.records.imported.map((r) => r.resId)].sort((a, b) => a - b)).toEqual(
      Array.from({ length: total }, (_, i) => i + 1),
    )
    expect((await verifyJournal({ db, docservers: t.documents })).ok).toBe(true)
  })
  it('removes, on the next run, the files of a batch stored and never committed (a run killed in between)', async () => {
    const db = t.mailroom.db
    // As a crash leaves it: the batch's files durable and noted, its rows never committed.
    const area =
      (
        await db
          .selectFrom('docservers')
          .select('path_template')
          .where('docserver_id', '=', 'FASTHD_MAN')
          .executeTakeFirst()
      )?.path_template ?? 'resources'
    const files = await Promise.all(
      ['a', 'b'].map((x) => t.documents.write(area, 'pdf', Buffer.from(`never committed ${x}`), new Date())),
    )
    await beginImportBatch(db, { importer: 'maarch', afterResId: 900, lastResId: 903, files: files.map((f) => f.key) })
    expect(await Promise.all(files.map((f) => t.documents.size(f.key)))).toEqual([17, 17])
    const again = await importCollecting(t.mailroom, { from: fixture.url, docservers: { root: fixture.docservers } })
    expect(again.records.imported).toEqual([])
    expect(await Promise.all(files.map((f) => t.documents.size(f.key)))).toEqual([null, null])
    expect(await db.selectFrom('import_batches').select('id').where('committed', '=', false).execute()).toEqual([])
  })
})
