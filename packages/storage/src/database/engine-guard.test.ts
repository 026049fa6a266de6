import { isDomainError } from '@mailroom/core'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../../../testing/src/databases/test-database.js'
import { type MailroomDatabase, openDatabase } from './open-database.js'

const onPglite = process.env.MAILROOM_TEST_DB !== 'postgres'

/** A jsonb text nested `depth` objects deep, built by the engine so that no bound on parameters sees it. */
const deepJsonb = (depth: number) =>
  sql<{ empty: boolean }>`select (repeat('{"a":', ${depth}) || '1' || repeat('}', ${depth}))::jsonb is null as empty`

async function failure(work: Promise<unknown>): Promise<{ code?: unknown; message?: unknown }> {
  return work.then(
    (value) => ({ code: 'resolved', message: JSON.stringify(value) }),
    (error: { code?: unknown; message?: unknown }) => ({ code: error.code, message: error.message }),
  )
}

describe('a statement that overflows the engine stack (both engines)', () => {
  let database: TestDatabase
  let opened: MailroomDatabase
  // Set when a deep statement did not fail: the engine is then broken, and the next failing statement (closing
  // it too) would spin for ever and block this worker, so the tests fail instead of touching it again.
  let broken = false
  beforeAll(async () => {
    database = await createTestDatabase()
    opened = await openDatabase(database.target)
  })
  afterAll(async () => {
    if (!broken) await opened?.close()
    await database?.drop()
  })

  async function overflowFailure(work: Promise<unknown>) {
    const failed = await failure(work)
    broken = failed.code === 'resolved'
    return failed
  }

  it('fails with 54001 and leaves the engine answering failing and normal statements', async () => {
    // 100,000 levels: past PostgreSQL's max_stack_depth; on PGlite, 10,000 already overflowed V8's stack.
    for (const depth of onPglite ? [10_000, 100_000] : [100_000]) {
      expect(await overflowFailure(deepJsonb(depth).execute(opened.db))).toEqual({
        code: '54001',
        message: 'stack depth limit exceeded',
      })
      // Before the guard, this is where PGlite spun for ever in its error reporting.
      expect(await failure(sql`select 1 / 0 = 1 as x`.execute(opened.db))).toEqual({
        code: '22012',
        message: 'division by zero',
      })
      expect((await sql<{ x: number }>`select 1 as x`.execute(opened.db)).rows).toEqual([{ x: 1 }])
    }
  })

  it('aborts the transaction it ran in: nothing of it is written, the next transaction commits', async () => {
    expect(broken).toBe(false)
    await sql`create table if not exists engine_guard_rows (n int)`.execute(opened.db)
    let deep: { code?: unknown; message?: unknown } = {}
    const inTransaction = opened.db.transaction().execute(async (trx) => {
      await sql`insert into engine_guard_rows values (1)`.execute(trx)
      deep = await overflowFailure(deepJsonb(100_000).execute(trx))
      expect(broken).toBe(false)
    })
    await inTransaction.catch(() => {})
    expect(deep).toEqual({ code: '54001', message: 'stack depth limit exceeded' })
    await opened.db.transaction().execute((trx) => sql`insert into engine_guard_rows values (2)`.execute(trx))
    expect((await sql<{ n: number }>`select n from engine_guard_rows`.execute(opened.db)).rows).toEqual([{ n: 2 }])
  })
})

describe.runIf(onPglite)('the embedded engine watchdog', () => {
  const BOUND_MS = 300
  let opened: MailroomDatabase
  beforeAll(async () => {
    const database = await createTestDatabase('pglite')
    opened = await openDatabase({
      ...(database.target as { kind: 'pglite'; dataDir: string }),
      stallTimeoutMs: BOUND_MS,
    })
  })
  afterAll(async () => {
    await opened?.close()
  })

  /** Holds the one connection in a transaction until `letGo` is called. */
  async function holdConnection() {
    let letGo!: () => void
    const gate = new Promise<void>((resolve) => (letGo = resolve))
    let inside!: () => void
    const entered = new Promise<void>((resolve) => (inside = resolve))
    const holder = opened.db.transaction().execute(async (trx) => {
      await sql`select 1`.execute(trx)
      inside()
      await gate
      return (await sql<{ x: number }>`select 2 as x`.execute(trx)).rows
    })
    await entered
    return { letGo, holder }
  }

  it('refuses a waiting statement with DATABASE_UNRESPONSIVE and fails readiness while held, then recovers', async () => {
    const { letGo, holder } = await holdConnection()
    const started = Date.now()
    const refused = await sql`select 1`.execute(opened.db).catch((error: unknown) => error)
    expect(Date.now() - started).toBeGreaterThanOrEqual(BOUND_MS - 50)
    expect(isDomainError(refused) ? [refused.code, refused.kind] : refused).toEqual([
      'DATABASE_UNRESPONSIVE',
      'unavailable',
    ])
    const ping = await opened.ping().catch((error: unknown) => error)
    expect(isDomainError(ping) ? ping.code : ping).toBe('DATABASE_UNRESPONSIVE')
    letGo()
    expect(await holder).toEqual([{ x: 2 }])
    // The refused caller gave its turn up: the queue moves, and readiness is back.
    expect((await sql<{ x: number }>`select 3 as x`.execute(opened.db)).rows).toEqual([{ x: 3 }])
    await expect(opened.ping()).resolves.toBeUndefined()
  })

  it('lets a caller wait past the bound behind a transaction that keeps finishing statements', async () => {
    const slowButProgressing = opened.db.transaction().execute(async (trx) => {
      for (let step = 0; step < 6; step++) {
        await sql`select ${step}::int as step`.execute(trx)
        await new Promise((resolve) => setTimeout(resolve, BOUND_MS / 2))
      }
      return 'done'
    })
    await new Promise((resolve) => setTimeout(resolve, 20))
    const started = Date.now()
    const waiting = await sql<{ x: number }>`select 4 as x`.execute(opened.db)
    expect(Date.now() - started).toBeGreaterThan(BOUND_MS)
    expect(waiting.rows).toEqual([{ x: 4 }])
    expect(await slowButProgressing).toBe('done')
  })
})
