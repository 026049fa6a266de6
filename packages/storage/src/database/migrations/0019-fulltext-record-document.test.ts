import { VIEW_COLUMNS } from '@mailroom/core'
import { type Kysely, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../../../../testing/src/databases/test-database.js'
import { type MailroomDatabase, openDatabase } from '../open-database.js'
import { MIGRATIONS, migrateToLatest } from './index.js'

const RECORD_DOCUMENT = '0019-fulltext-record-document'

/** A database as the version before 0019 left it: every other migration applied, 0020 and 0021 included. */
async function migrateWithoutRecordDocument(db: Kysely<any>): Promise<void> {
  await migrateToLatest(db, Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name !== RECORD_DOCUMENT)))
}

describe('migration 0019: the words of a record in its own row', () => {
  let database: TestDatabase
  let opened: MailroomDatabase
  let db: Kysely<any>

  async function record(destination: string): Promise<number> {
    const { rows } = await sql<{
      res_id: number
    }>`insert into res_letterbox (typist, category_id, model_id, destination)
      values (1, 'incoming', 1, ${destination}) returning res_id`.execute(db)
    return Number(rows[0]!.res_id)
  }

  async function text(fileKind: string, fileId: number, resId: number, content: string): Promise<void> {
    await sql`insert into fulltext_texts (file_kind, file_id, res_id, method, language, content, document)
      values (${fileKind}, ${fileId}, ${resId}, 'plain', 'fr', ${content}::text, to_tsvector('mailroom_fr', ${content}::text))
      on conflict (file_kind, file_id) do update set content = excluded.content, document = excluded.document`.execute(
      db,
    )
  }

  /** The records of the search view whose words hold `words`. */
  async function found(words: string): Promise<number[]> {
    const { rows } = await sql<{ res_id: number }>`select res_id from res_view_letterbox
      where fulltext_document @@ websearch_to_tsquery('mailroom_fr', ${words}) order by res_id`.execute(db)
    return rows.map((row) => Number(row.res_id))
  }

  const ids = { letter: 0, other: 0, bare: 0 }

  async function recordsWithoutWords(): Promise<number[]> {
    const { rows } = await sql<{ res_id: number }>`select res_id from res_letterbox
      where fulltext_document is null order by res_id`.execute(db)
    return rows.map((row) => Number(row.res_id))
  }

  beforeAll(async () => {
    database = await createTestDatabase()
    opened = await openDatabase(database.target)
    db = opened.db
    await migrateWithoutRecordDocument(db)
    ids.letter = await record('PJS')
    ids.other = await record('DRH')
    ids.bare = await record('PJS')
    // Texts indexed before the migration: the letter's file and one of its attachments, the other's file.
    await text('resource', ids.letter, ids.letter, 'La toiture du gymnase fuit')
    await text('attachment', 9001, ids.letter, 'Réponse : la piscine rouvrira en septembre')
    await text('resource', ids.other, ids.other, 'Le centre équestre demande une subvention')
  }, 120_000)
  afterAll(async () => {
    await opened?.close()
    await database?.drop()
  })

  it('is applied after 0020 and 0021 on a database that already has them', async () => {
    const result = await migrateToLatest(db)
    expect(result.results?.map((r) => [r.migrationName, r.status])).toEqual([[RECORD_DOCUMENT, 'Success']])
  })

  it("leaves the search view with 0003's columns in their order, then the record's words", async () => {
    // Written out, not derived from a migration's text: a later edit of the view's select anywhere shows here.
    const expected = [
      ...['res_id', 'type_id', 'policy_id', 'cycle_id', 'format', 'typist', 'creation_date', 'modification_date'],
      ...['docserver_id', 'path', 'filename', 'fingerprint', 'filesize', 'status', 'work_batch', 'doc_date'],
      ...['external_id', 'departure_date', 'opinion_limit_date', 'barcode', 'initiator', 'destination', 'dest_user'],
      ...['confidentiality', 'category_id', 'alt_identifier', 'admission_date', 'process_limit_date', 'closing_date'],
      ...['alarm1_date', 'alarm2_date', 'flag_alarm1', 'flag_alarm2', 'subject', 'priority', 'locker_user_id'],
      ...['locker_time', 'custom_fields', 'retention_frozen', 'binding', 'type_label', 'doctypes_first_level_id'],
      ...['doctypes_first_level_label', 'doctype_first_level_style', 'doctypes_second_level_id'],
      ...['doctypes_second_level_label', 'doctype_second_level_style', 'entity_label', 'entitytype'],
      'fulltext_document',
    ]
    const { rows } = await sql<{ column_name: string; data_type: string }>`select column_name, data_type
      from information_schema.columns where table_schema = current_schema() and table_name = 'res_view_letterbox'
      order by ordinal_position`.execute(db)
    expect(rows.map((row) => row.column_name)).toEqual(expected)
    expect(rows.at(-1)?.data_type).toBe('tsvector')
    // Every column before it is one the clause language's catalogue names, and the catalogue names no other.
    expect(
      rows
        .slice(0, -1)
        .map((row) => row.column_name)
        .sort(),
    ).toEqual([...VIEW_COLUMNS.keys()].sort())
  })

  it('fills the column from the texts indexed before it, attachments included', async () => {
    expect(await found('gymnase')).toEqual([ids.letter])
    expect(await found('piscines')).toEqual([ids.letter])
    expect(await found('toiture piscine')).toEqual([ids.letter])
    expect(await found('equestre')).toEqual([ids.other])
    expect(await recordsWithoutWords()).toEqual([ids.bare])
  })

  it('keeps the column current when a text is written, changed or removed', async () => {
    await text('attachment', 9002, ids.bare, 'Annexe : plan du vélodrome')
    expect(await found('velodrome')).toEqual([ids.bare])
    await text('attachment', 9002, ids.bare, 'Annexe corrigée : plan de la patinoire')
    expect(await found('velodrome')).toEqual([])
    expect(await found('patinoire')).toEqual([ids.bare])
    // A text moved to another record (an update of res_id) leaves the first and joins the second.
    await sql`update fulltext_texts set res_id = ${ids.other} where file_kind = 'attachment' and file_id = 9002`.execute(
      db,
    )
    expect(await found('patinoire')).toEqual([ids.other])
    await sql`delete from fulltext_texts where file_kind = 'attachment' and file_id = 9001`.execute(db)
    expect(await found('piscine')).toEqual([])
    expect(await found('gymnase')).toEqual([ids.letter])
    expect(await recordsWithoutWords()).toEqual([ids.bare])
  })

  it("drops a superseded attachment's words from its record (migration 0017's trigger removes its text)", async () => {
    const { rows } = await sql<{ res_id: number }>`insert into res_attachments
        (res_id_master, title, typist, status, attachment_type, format, docserver_id, filename)
      values (${ids.letter}, 'Réponse', 1, 'A_TRA', 'simple_attachment', 'pdf', 'FASTHD_ATTACH', 'reply.pdf') returning res_id`.execute(
      db,
    )
    const attachment = Number(rows[0]!.res_id)
    await text('attachment', attachment, ids.letter, 'Réponse : la médiathèque ouvre le dimanche')
    expect(await found('mediatheque')).toEqual([ids.letter])
    await sql`update res_attachments set status = 'DEL' where res_id = ${attachment}`.execute(db)
    expect(await found('mediatheque')).toEqual([])
    expect(await found('gymnase')).toEqual([ids.letter])
  })

  it('joins each text of a record once when one statement writes several of them', async () => {
    const fresh = await record('PJS')
    const first = 'Devis pour la réfection de la toiture'
    const second = 'Relance : devis de toiture toujours attendu'
    await sql`insert into fulltext_texts (file_kind, file_id, res_id, method, language, content, document)
      values ('resource', ${fresh}, ${fresh}, 'plain', 'fr', ${first}::text, to_tsvector('mailroom_fr', ${first}::text)),
        ('attachment', 9100, ${fresh}, 'plain', 'fr', ${second}::text, to_tsvector('mailroom_fr', ${second}::text))`.execute(
      db,
    )
    const { rows } = await sql<{ same: boolean }>`select fulltext_document =
        to_tsvector('mailroom_fr', ${first}::text) || to_tsvector('mailroom_fr', ${second}::text) as same
      from res_letterbox where res_id = ${fresh}`.execute(db)
    expect(rows[0]?.same).toBe(true)
  })

  it('keeps the words of the texts that fit when a record passes the 1 MB a tsvector holds', async () => {
    const big = await record('PJS')
    // Three texts of 50,000 different words each (about 500 KB of lexemes each): the third does not fit.
    const words = (prefix: string) =>
      Array.from({ length: 50_000 }, (_, i) => `${prefix}${i.toString(36).padStart(4, '0')}`).join(' ')
    for (const [kind, id, prefix] of [
      ['resource', big, 'ka'],
      ['attachment', 9201, 'kb'],
      ['attachment', 9202, 'kc'],
    ] as const)
      await text(kind, id, big, words(prefix))
    expect(await found('ka0abc')).toEqual([big])
    expect(await found('kc0abc')).toEqual([])
  }, 120_000)

  it("forgets a deleted record's words with it", async () => {
    await sql`delete from res_letterbox where res_id = ${ids.other}`.execute(db)
    expect(await found('subvention')).toEqual([])
    const { rows } = await sql<{
      n: number
    }>`select count(*)::int as n from fulltext_texts where res_id = ${ids.other}`.execute(db)
    expect(rows[0]?.n).toBe(0)
  })
})
