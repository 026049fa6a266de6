import { type Kysely, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../../../../testing/src/databases/test-database.js'
import { type MailroomDatabase, openDatabase } from '../open-database.js'
import { MIGRATIONS, migrateToLatest } from './index.js'

/** A migration longer than the requests' statement timeout: a table rewrite at a large installation. */
const SLOW_MIGRATION = {
  async up(db: Kysely<any>) {
    const { rows } = await sql<{ timeout: string }>`select current_setting('statement_timeout') as timeout`.execute(db)
    await sql`create table slow_migration_saw (timeout text)`.execute(db)
    await sql`insert into slow_migration_saw values (${rows[0]!.timeout})`.execute(db)
    await sql`select pg_sleep(1.5)`.execute(db)
  },
}

describe('migrateToLatest', () => {
  let database: TestDatabase
  let opened: MailroomDatabase

  beforeAll(async () => {
    database = await createTestDatabase()
    const target = database.target
    if (target.kind !== 'postgres') throw new Error("a PostgreSQL test: the statement timeout is the pool's")
    // A timeout shorter than the slow migration, as a large table's rewrite is longer than the usual 15 s.
    opened = await openDatabase({ ...target, statementTimeoutMs: 1_000 })
  }, 120_000)
  afterAll(async () => {
    await opened?.close()
    await database?.drop()
  })

  it('runs migrations without the statement timeout of requests, then gives the connection its timeout back', async () => {
    const result = await migrateToLatest(opened.db, { ...MIGRATIONS, '9999-slow-rewrite': SLOW_MIGRATION })
    expect(result.results?.at(-1)).toMatchObject({ migrationName: '9999-slow-rewrite', status: 'Success' })
    const { rows } = await sql<{ timeout: string }>`select timeout from slow_migration_saw`.execute(opened.db)
    expect(rows[0]!.timeout).toBe('0')
    // Every connection of the pool is back under the requests' timeout.
    const timeouts = await Promise.all(
      Array.from({ length: 3 }, () =>
        sql<{ timeout: string }>`select current_setting('statement_timeout') as timeout`.execute(opened.db),
      ),
    )
    expect(timeouts.map((t) => t.rows[0]!.timeout)).toEqual(['1s', '1s', '1s'])
    await expect(sql`select pg_sleep(1.5)`.execute(opened.db)).rejects.toThrow(/statement timeout/)
  })
})
