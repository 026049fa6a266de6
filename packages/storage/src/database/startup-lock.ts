import { type Kysely, sql } from 'kysely'
import type { MailroomDatabase } from './open-database.js'
import type { Database } from './schema.js'

/** The PostgreSQL advisory lock of start-up writes: two int4 keys, 'Mail' and 1, unlikely to meet another application's. */
const LOCK_KEYS = [0x4d61696c, 1] as const

/** How often a server waiting for another's start-up asks for the lock again. */
const RETRY_MS = 100

/** Options of withStartupLock. */
export interface StartupLockOptions {
  /** Called once when another server holds the lock, before waiting for it. */
  readonly onWait?: () => void
}

/**
 * Runs start-up writes (migrations, the demo load) with no other server doing the same: on PostgreSQL
 * under a session advisory lock, whichever server asks first; the others wait, then find the work done.
 * The work gets the connection that holds the lock, so it needs no second connection (a pool of one
 * works) and the lock ends with the session if the process dies.
 * The lock is asked for again and again rather than waited on in one statement, so the wait is not cut
 * short by the statement timeout. PGlite belongs to one process: there the work just runs.
 */
export async function withStartupLock<T>(
  database: MailroomDatabase,
  work: (db: Kysely<Database>) => Promise<T>,
  options: StartupLockOptions = {},
): Promise<T> {
  if (database.kind !== 'postgres') return work(database.db)
  return database.db.connection().execute(async (connection) => {
    let waited = false
    for (;;) {
      const { rows } = await sql<{
        locked: boolean
      }>`select pg_try_advisory_lock(${LOCK_KEYS[0]}, ${LOCK_KEYS[1]}) as locked`.execute(connection)
      if (rows[0]?.locked) break
      if (!waited) options.onWait?.()
      waited = true
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS))
    }
    try {
      return await work(connection)
    } finally {
      await sql`select pg_advisory_unlock(${LOCK_KEYS[0]}, ${LOCK_KEYS[1]})`.execute(connection)
    }
  })
}
