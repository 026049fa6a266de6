import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { PgliteDialect } from '@mailroom/storage'
import { Kysely, sql } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createTestDatabase,
  TEST_PASSWORD_HASHER,
  TEST_SECRET,
  type TestDatabase,
} from '../../testing/src/databases/test-database.js'
import { createMailroom } from './mailroom.js'

let docserverDir: string
let database: TestDatabase
beforeAll(async () => {
  docserverDir = await mkdtemp(join(tmpdir(), 'mailroom-embed-'))
  database = await createTestDatabase()
})
afterAll(async () => {
  await database.drop()
  await rm(docserverDir, { recursive: true, force: true })
})

const common = { docserverDir: '', secret: TEST_SECRET, demo: true, passwordHasher: TEST_PASSWORD_HASHER }

describe('createMailroom database inputs', () => {
  it.runIf(process.env.MAILROOM_TEST_DB === 'postgres')(
    'uses a caller-owned pg pool without changing its type parsing or ending it',
    async () => {
      const pool = new pg.Pool({ connectionString: database.url!, max: 2 })
      try {
        const mailroom = await createMailroom({ ...common, docserverDir, database: pool })
        const actor = await mailroom.auth.authenticatePassword('bbain', 'maarch')
        expect(actor.entities[0]).toMatchObject({ id: 6, entityId: 'PJS' })
        const row = await sql<{ v: number }>`select 9007199254740991::int8 as v`.execute(mailroom.db)
        expect(row.rows[0]!.v).toBe(Number.MAX_SAFE_INTEGER)
        await mailroom.close()
        // The pool still works and still parses int8 its own (default: string) way.
        const own = await pool.query('select 42::int8 as v')
        expect(own.rows[0].v).toBe('42')
      } finally {
        await pool.end()
      }
    },
  )

  it('uses a caller-owned kysely instance (PGlite with number parsers) and leaves it open', async () => {
    const pglite = await PGlite.create('memory://', {
      parsers: { 20: (v: string) => Number(v), 1700: (v: string) => Number(v) },
    })
    const db = new Kysely<any>({ dialect: new PgliteDialect(pglite) })
    try {
      const mailroom = await createMailroom({ ...common, docserverDir, database: db })
      expect(
        (await mailroom.entities.read(await mailroom.auth.authenticatePassword('ddur', 'maarch'), 'DRH'))
          .parent_entity_id,
      ).toBe('DGS')
      await mailroom.close()
      expect((await sql<{ n: number }>`select count(*)::int as n from users`.execute(db)).rows[0]!.n).toBe(6)
    } finally {
      await db.destroy()
    }
  })

  it('opens a connection string (memory:// for PGlite)', async () => {
    const mailroom = await createMailroom({ ...common, docserverDir, database: 'memory://' })
    try {
      expect(await mailroom.health()).toEqual({ database: true, migrations: true, storage: true })
    } finally {
      await mailroom.close()
    }
  })
})
