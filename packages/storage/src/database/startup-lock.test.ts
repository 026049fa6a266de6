import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../../../testing/src/databases/test-database.js'
import { type MailroomDatabase, openDatabase } from './open-database.js'
import { withStartupLock } from './startup-lock.js'

describe.runIf(process.env.MAILROOM_TEST_DB === 'postgres')('withStartupLock (PostgreSQL)', () => {
  let database: TestDatabase
  let first: MailroomDatabase
  let second: MailroomDatabase
  beforeAll(async () => {
    database = await createTestDatabase('postgres')
    // Pools of one connection, and a statement timeout shorter than the wait: neither may get in the way.
    first = await openDatabase({ kind: 'postgres', url: database.url!, poolSize: 1, statementTimeoutMs: 200 })
    second = await openDatabase({ kind: 'postgres', url: database.url!, poolSize: 1, statementTimeoutMs: 200 })
  })
  afterAll(async () => {
    await first?.close()
    await second?.close()
    await database?.drop()
  })

  it('lets one server at a time do its start-up writes; the other waits, says so once, then runs', async () => {
    const events: string[] = []
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    let started!: () => void
    const firstInside = new Promise<void>((resolve) => (started = resolve))
    const one = withStartupLock(first, async (db) => {
      events.push('first in')
      started()
      await held
      await sql`select 1`.execute(db)
      events.push('first out')
      return 1
    })
    await firstInside
    let waits = 0
    const two = withStartupLock(
      second,
      async (db) => {
        events.push('second in')
        await sql`select 1`.execute(db)
        return 2
      },
      { onWait: () => waits++ },
    )
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(events).toEqual(['first in'])
    release()
    expect(await Promise.all([one, two])).toEqual([1, 2])
    expect(events).toEqual(['first in', 'first out', 'second in'])
    expect(waits).toBe(1)
  })

  it('releases the lock when the work fails', async () => {
    await expect(withStartupLock(first, async () => Promise.reject(new Error('migration failed')))).rejects.toThrow(
      'migration failed',
    )
    expect(await withStartupLock(second, async () => 'ran')).toBe('ran')
  })
})
