import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../../../testing/src/databases/test-database.js'
import { MAILROOM_PG_TYPES } from './open-database.js'
import { preparingPool } from './prepared-statements.js'

// Named prepared statements are a PostgreSQL server feature (PGlite's dialect does not go through pg).
describe.runIf(process.env.MAILROOM_TEST_DB === 'postgres')('preparingPool (PostgreSQL)', () => {
  let database: TestDatabase
  let raw: pg.Pool

  beforeAll(async () => {
    database = await createTestDatabase('postgres')
    // One connection: what one statement prepared, the next sees.
    raw = new pg.Pool({ connectionString: database.url, max: 1, types: MAILROOM_PG_TYPES } as pg.PoolConfig)
    const client = await raw.connect()
    await client.query(
      'create table items (id bigint primary key, label text); insert into items values (1, $$one$$), (2, $$two$$)',
    )
    client.release()
  })
  afterAll(async () => {
    await raw?.end()
    await database?.drop()
  })

  /** Runs `body` on a checked-out connection of a fresh preparing wrapper around the one-connection pool. */
  async function onConnection(
    body: (client: pg.PoolClient) => Promise<void>,
    options: { maxPerConnection?: number } = {},
  ): Promise<void> {
    const client = await preparingPool(raw, options).connect()
    try {
      await body(client)
    } finally {
      client.release()
    }
  }

  /** Names of the statements prepared on the pool's one connection, asked through that connection. */
  async function prepared(client: pg.PoolClient): Promise<string[]> {
    const result = await client.query<{ name: string }>('select name from pg_prepared_statements order by name')
    return result.rows.map((row) => row.name)
  }

  it('prepares a parameterised statement from its second run, once, under a name derived from its text', () =>
    onConnection(async (client) => {
      const before = await prepared(client)
      const text = 'select id, label from items where id = $1'
      expect((await client.query(text, [1])).rows).toEqual([{ id: 1, label: 'one' }])
      expect(await prepared(client)).toEqual(before)
      expect((await client.query(text, [2])).rows).toEqual([{ id: 2, label: 'two' }])
      const names = (await prepared(client)).filter((name) => !before.includes(name))
      expect(names).toHaveLength(1)
      expect(names[0]).toMatch(/^mailroom_[A-Za-z0-9_-]{32}$/)
      // Reused, not prepared again; results keep Mailroom's type parsing (int8 as a number).
      expect((await client.query(text, [1])).rows).toEqual([{ id: 1, label: 'one' }])
      expect((await prepared(client)).filter((name) => !before.includes(name))).toEqual(names)
    }))

  it('leaves parameterless SQL alone: transaction control and several statements in one text still work', () =>
    onConnection(async (client) => {
      const before = await prepared(client)
      for (let i = 0; i < 3; i++) {
        await client.query('begin')
        const result = (await client.query('select 1 as a; select 2 as b', [])) as unknown as pg.QueryResult[]
        expect(result.map((r) => r.rows)).toEqual([[{ a: 1 }], [{ b: 2 }]])
        await client.query('commit')
      }
      expect(await prepared(client)).toEqual(before)
    }))

  it('prepares at most maxPerConnection statements on a connection; the rest run unnamed with the same results', () =>
    onConnection(
      async (client) => {
        await client.query('deallocate all')
        for (let round = 0; round < 2; round++) {
          for (let k = 1; k <= 4; k++) {
            const rows = (await client.query(`select label, ${k}::int as k from items where id = $1`, [1])).rows
            expect(rows).toEqual([{ label: 'one', k }])
          }
        }
        expect(await prepared(client)).toHaveLength(2)
      },
      { maxPerConnection: 2 },
    ))

  it('answers a statement whose cached plan no longer fits the table (a migration meanwhile), then prepares no more on that connection', () =>
    onConnection(async (client) => {
      const text = 'select * from items where id = $1'
      await client.query(text, [1])
      await client.query(text, [1])
      await client.query('alter table items add column note text')
      expect((await client.query(text, [2])).rows).toEqual([{ id: 2, label: 'two', note: null }])
      const count = (await prepared(client)).length
      await client.query('select label from items where id = $1 and label is not null', [1])
      await client.query('select label from items where id = $1 and label is not null', [1])
      expect(await prepared(client)).toHaveLength(count)
    }))

  it('passes errors of a prepared statement through unchanged', () =>
    onConnection(async (client) => {
      const text = 'select id from items where id = $1::int / 0'
      await expect(client.query(text, [1])).rejects.toMatchObject({ code: '22012' })
      await expect(client.query(text, [1])).rejects.toMatchObject({ code: '22012' })
      expect((await client.query('select 1 as ok where $1::int = 1', [1])).rows).toEqual([{ ok: 1 }])
    }))
})
