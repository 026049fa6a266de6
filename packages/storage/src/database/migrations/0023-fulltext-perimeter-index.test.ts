import { type Kysely, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createTestDatabase,
  type TestDatabase,
  testDatabaseKind,
} from '../../../../testing/src/databases/test-database.js'
import { DatabaseFullTextIndex } from '../../fulltext/database-fulltext-index.js'
import { WORDS_INDEX_COLUMNS } from '../../perimeter/words-index.js'
import { type MailroomDatabase, openDatabase } from '../open-database.js'
import { MIGRATIONS, migrateToLatest } from './index.js'

const PERIMETER_INDEX = '0023-fulltext-perimeter-index'
/** The index after the migration: the embedded database is opened without btree_gin (PGLITE_EXTENSIONS). */
const EXPECTED_INDEX =
  testDatabaseKind() === 'postgres' ? 'res_letterbox_fulltext_perimeter' : 'res_letterbox_fulltext_document'

describe("migration 0023: the perimeter's columns in the records' words index", () => {
  let database: TestDatabase
  let opened: MailroomDatabase
  let db: Kysely<any>
  const resIds: number[] = []

  const indexes = async () =>
    (
      await sql<{ indexname: string; indexdef: string }>`select indexname, indexdef from pg_indexes
        where tablename = 'res_letterbox' and indexdef like '%fulltext_document%'`.execute(db)
    ).rows

  beforeAll(async () => {
    database = await createTestDatabase()
    opened = await openDatabase(database.target)
    db = opened.db
    await migrateToLatest(
      db,
      Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name !== PERIMETER_INDEX)),
    )
    for (const destination of ['PJS', 'DGS']) {
      const { rows } = await sql<{
        res_id: number
      }>`insert into res_letterbox (typist, category_id, model_id, destination)
        values (1, 'incoming', 1, ${destination}) returning res_id`.execute(db)
      resIds.push(Number(rows[0]!.res_id))
    }
    // Words kept before the migration, in the record's words under 0019's index.
    for (const [i, resId] of resIds.entries())
      await new DatabaseFullTextIndex(db).put({
        fileKind: 'resource',
        fileId: resId,
        resId,
        language: 'fr',
        text: `La toiture du gymnase fuit, courrier ${i}`,
      })
    const result = await migrateToLatest(db)
    expect(result.results?.map((r) => [r.migrationName, r.status])).toEqual([[PERIMETER_INDEX, 'Success']])
  }, 120_000)

  afterAll(async () => {
    await opened?.close()
    await database?.drop()
  })

  it.runIf(testDatabaseKind() === 'postgres')(
    "replaces 0019's index by one over the words and the perimeter's columns on PostgreSQL",
    async () => {
      const found = await indexes()
      expect(found.map((index) => index.indexname)).toEqual(['res_letterbox_fulltext_perimeter'])
      expect(found[0]!.indexdef).toMatch(/USING gin \(fulltext_document, destination, typist, dest_user, initiator\)/)
    },
  )

  it.runIf(testDatabaseKind() === 'postgres')(
    'carries exactly the columns the perimeter counts on (WORDS_INDEX_COLUMNS), after the words',
    async () => {
      const { rows } = await sql<{ column: string }>`select a.attname as column
        from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
        where i.indexrelid = 'res_letterbox_fulltext_perimeter'::regclass
        order by array_position(i.indkey::int2[], a.attnum)`.execute(db)
      expect(rows.map((row) => row.column)).toEqual(['fulltext_document', ...WORDS_INDEX_COLUMNS])
    },
  )

  it.runIf(testDatabaseKind() === 'pglite')("keeps 0019's index where btree_gin cannot be created", async () => {
    expect((await indexes()).map((index) => index.indexname)).toEqual(['res_letterbox_fulltext_document'])
  })

  it('finds the records kept before it by their words and a perimeter column', async () => {
    const { rows } = await sql<{ res_id: number }>`select res_id from res_letterbox
      where fulltext_document @@ websearch_to_tsquery('mailroom_fr', 'gymnase') and destination = 'PJS'`.execute(db)
    expect(rows.map((row) => Number(row.res_id))).toEqual([resIds[0]])
  })

  it("gives 0019's index back when undone", async () => {
    await MIGRATIONS[PERIMETER_INDEX]!.down!(db)
    try {
      expect((await indexes()).map((index) => index.indexname)).toEqual(['res_letterbox_fulltext_document'])
    } finally {
      await MIGRATIONS[PERIMETER_INDEX]!.up(db)
    }
    expect((await indexes()).map((index) => index.indexname)).toEqual([EXPECTED_INDEX])
  })
})
