import type { Actor } from '@mailroom/core'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestMailroom, type TestMailroom } from '../../../testing/src/databases/test-database.js'
import { DatabaseFullTextIndex } from '../fulltext/database-fulltext-index.js'
import { JournalWriter } from '../journal/journal-writer.js'
import { existingRecordIds, type ImportedRecord, insertImportedRecord } from './imported-record.js'
import { importedRecordState } from './imported-record-changes.js'
import { highestChronoNumbers, moveRecordIdsPastHighest, raiseChronoCounter } from './record-counters.js'

let t: TestMailroom
let bbain: Actor
beforeAll(async () => {
  t = await createTestMailroom()
  bbain = await t.mailroom.actor('bbain')
}, 60_000)
afterAll(async () => t?.cleanup())

const journal = new JournalWriter()
const CREATED = new Date('2020-03-02T10:00:00Z')

/** A record as an importer hands it over: its own id, a chrono, lists, a converted version, its history. */
function importedRecord(resId: number, overrides: Partial<ImportedRecord> = {}): ImportedRecord {
  return {
    record: {
      res_id: resId,
      subject: `Imported ${resId}`,
      type_id: 101,
      typist: bbain.id,
      creation_date: CREATED,
      modification_date: CREATED,
      status: 'COU',
      destination: 'PJS',
      category_id: 'incoming',
      model_id: 1,
      version: 1,
      alt_identifier: `MAARCH/2020A/${resId}`,
      custom_fields: '{"1":"kept"}',
      external_id: undefined,
      format: 'pdf',
      docserver_id: 'FASTHD_MAN',
      path: '2020/03/0001/',
      filename: `${resId}.pdf`,
      filesize: 10,
      fingerprint: 'ab'.repeat(32),
    },
    versions: [
      {
        type: 'PDF',
        version: 1,
        docserver_id: 'CONVERT_MLB',
        path: '2020/03/0001/',
        filename: `${resId}-v1.pdf`,
        fingerprint: 'cd'.repeat(32),
        filesize: 12,
      },
    ],
    diffusion: [
      { sequence: 0, item_id: bbain.id, item_type: 'user_id', item_mode: 'dest', viewed: 3, signatory: false },
      { sequence: 1, item_id: 13, item_type: 'entity_id', item_mode: 'cc', difflist_type: 'entity_id' },
    ],
    contacts: [{ item_id: 1, type: 'contact', mode: 'sender' }],
    tagIds: [],
    folderIds: [],
    history: [
      { event_type: 'ADD', user_id: bbain.id, event_date: CREATED, info: 'Document added', id_module: 'resource' },
      { event_type: 'IMPORT', user_id: null, event_date: new Date(), info: 'Imported', id_module: 'import' },
    ],
    deposit: {
      destination: 'PJS',
      sha256: 'ab'.repeat(32),
      size: 10,
      actor: bbain,
      provenance: `imported from a test record ${resId}`,
    },
    ...overrides,
  }
}

function rowsOf(resId: number) {
  const db = t.mailroom.db
  return Promise.all([
    db.selectFrom('res_letterbox').selectAll().where('res_id', '=', resId).execute(),
    db.selectFrom('listinstance').selectAll().where('res_id', '=', resId).orderBy('listinstance_id').execute(),
    db.selectFrom('resource_contacts').selectAll().where('res_id', '=', resId).execute(),
    db.selectFrom('adr_letterbox').selectAll().where('res_id', '=', resId).execute(),
    db.selectFrom('history').selectAll().where('record_id', '=', String(resId)).orderBy('id').execute(),
    db.selectFrom('journal_archives').selectAll().where('res_id', '=', resId).execute(),
  ])
}

describe('insertImportedRecord', () => {
  it('writes the record under its own id with its columns, lists, versions, history in order and deposit', async () => {
    const db = t.mailroom.db
    const [tag, folder] = await Promise.all([
      db.selectFrom('tags').select('id').orderBy('id').executeTakeFirstOrThrow(),
      db.selectFrom('folders').select('id').orderBy('id').executeTakeFirstOrThrow(),
    ])
    const imported = importedRecord(9001, { tagIds: [tag.id], folderIds: [folder.id] })
    await db.transaction().execute((trx) => insertImportedRecord(trx, journal, imported))

    const [[record], lists, contacts, versions, history, archives] = await rowsOf(9001)
    expect(record).toMatchObject({
      res_id: 9001,
      subject: 'Imported 9001',
      typist: bbain.id,
      creation_date: CREATED,
      alt_identifier: 'MAARCH/2020A/9001',
      custom_fields: { 1: 'kept' },
      filename: '9001.pdf',
      fingerprint: 'ab'.repeat(32),
      // Columns the import left out take the table's defaults.
      external_id: {},
      flag_alarm1: 'N',
      linked_resources: [],
      retention_frozen: false,
    })
    expect(lists.map((l) => [l.item_id, l.item_type, l.item_mode, Number(l.sequence), l.viewed])).toEqual([
      [bbain.id, 'user_id', 'dest', 0, 3],
      [13, 'entity_id', 'cc', 1, null],
    ])
    expect(contacts).toMatchObject([{ item_id: 1, type: 'contact', mode: 'sender' }])
    expect(versions).toMatchObject([{ type: 'PDF', version: 1, docserver_id: 'CONVERT_MLB', filename: '9001-v1.pdf' }])
    expect(history.map((h) => [h.table_name, h.event_type, h.id_module])).toEqual([
      ['res_letterbox', 'ADD', 'resource'],
      ['res_letterbox', 'IMPORT', 'import'],
    ])
    expect(history[0]?.event_date).toEqual(CREATED)
    expect(await db.selectFrom('resources_tags').select('tag_id').where('res_id', '=', 9001).execute()).toEqual([
      { tag_id: tag.id },
    ])
    expect(await db.selectFrom('resources_folders').select('folder_id').where('res_id', '=', 9001).execute()).toEqual([
      { folder_id: folder.id },
    ])
    expect(archives).toHaveLength(1)
    // Pending, or already sealed into the journal by the test Mailroom's sealer (it runs on its own schedule).
    const deposits = await db
      .selectFrom('journal_pending')
      .select(['event_type', 'account_id', 'description'])
      .where('object_id', '=', archives[0]?.archive_id ?? '')
      .unionAll(
        db
          .selectFrom('journal_events')
          .select(['event_type', 'account_id', 'description'])
          .where('object_id', '=', archives[0]?.archive_id ?? ''),
      )
      .execute()
    expect(deposits).toMatchObject([{ event_type: 'recordsManagement/deposit', account_id: 'bbain' }])
    expect(deposits[0]?.description).toContain('imported from a test record 9001')
  })

  it('writes no deposit for a record without one', async () => {
    const imported = importedRecord(9002, { deposit: null, versions: [] })
    await t.mailroom.db.transaction().execute((trx) => insertImportedRecord(trx, journal, imported))
    const [[record], , , versions, history, archives] = await rowsOf(9002)
    expect(record?.res_id).toBe(9002)
    expect([versions, archives]).toEqual([[], []])
    expect(history).toHaveLength(2)
  })

  it('lets the database judge: a null where Mailroom needs a value is refused, and nothing of the record stays', async () => {
    const imported = importedRecord(9003, { record: { ...importedRecord(9003).record, flag_alarm1: null } })
    await expect(
      t.mailroom.db.transaction().execute((trx) => insertImportedRecord(trx, journal, imported)),
    ).rejects.toMatchObject({ code: '23502' })
    expect((await rowsOf(9003)).flat()).toEqual([])
  })

  it('is whole or absent in the caller’s transaction: a row refused after the record leaves none of its rows', async () => {
    const imported = importedRecord(9004, {
      history: [{ event_type: 'X'.repeat(40), user_id: null, info: null, id_module: 'import' }],
    })
    await expect(
      t.mailroom.db.transaction().execute((trx) => insertImportedRecord(trx, journal, imported)),
    ).rejects.toMatchObject({ code: '22001' })
    expect((await rowsOf(9004)).flat()).toEqual([])
  })
})

describe('existingRecordIds', () => {
  it('names the ids the database already has, of those asked', async () => {
    expect([...(await existingRecordIds(t.mailroom.db, [9001, 9002, 9003, 77777]))].sort()).toEqual([9001, 9002])
    expect(await existingRecordIds(t.mailroom.db, [])).toEqual(new Set())
  })
})

describe('importedRecordState', () => {
  it("reads every column of the record an import compares, but not the words of the record's texts", async () => {
    const db = t.mailroom.db
    // The record 9001 imported above, given words: its fulltext_document is set (migration 0019's trigger).
    await new DatabaseFullTextIndex(db).put({
      fileKind: 'resource',
      fileId: 9001,
      resId: 9001,
      language: 'fr',
      text: 'Demande de subvention pour le club de voile',
    })
    const words = await sql<{ set: boolean }>`select fulltext_document is not null as set
      from res_letterbox where res_id = 9001`.execute(db)
    expect(words.rows[0]?.set).toBe(true)

    const state = await importedRecordState(db, 9001)
    const { rows } = await sql<{ column_name: string }>`select column_name from information_schema.columns
      where table_schema = current_schema() and table_name = 'res_letterbox'`.execute(db)
    const stored = rows.map((row) => row.column_name).filter((column) => column !== 'fulltext_document')
    expect(Object.keys(state?.record ?? {}).sort()).toEqual(stored.sort())
    expect(state?.record).toMatchObject({
      res_id: 9001,
      subject: 'Imported 9001',
      fingerprint: 'ab'.repeat(32),
      filename: '9001.pdf',
      custom_fields: { 1: 'kept' },
    })
    expect(await importedRecordState(db, 77777)).toBeNull()
  })
})

describe('record counters after an import', () => {
  it('moves the record ids past the highest one imported', async () => {
    const db = t.mailroom.db
    await moveRecordIdsPastHighest(db)
    const created = await db
      .insertInto('res_letterbox')
      .values({ type_id: 101, typist: bbain.id, category_id: 'incoming', model_id: 1, status: 'COU' })
      .returning('res_id')
      .executeTakeFirstOrThrow()
    expect(Number(created.res_id)).toBe(9003)
  })

  it('reads the highest chrono number per year and letter, and raises counters without ever lowering one', async () => {
    expect(await highestChronoNumbers(t.mailroom.db)).toContainEqual({ year: '2020', letter: 'A', value: 9002 })
    const db = t.mailroom.db
    const counter = async () =>
      (
        await db
          .selectFrom('chrono_counters')
          .select('last_value')
          .where('counter_id', '=', 'chrono_incoming_2020')
          .executeTakeFirst()
      )?.last_value
    await raiseChronoCounter(db, 'chrono_incoming_2020', 9002)
    expect(await counter()).toBe(9002)
    await raiseChronoCounter(db, 'chrono_incoming_2020', 12)
    expect(await counter()).toBe(9002)
    await raiseChronoCounter(db, 'chrono_incoming_2020', 9010)
    expect(await counter()).toBe(9010)
  })
})
