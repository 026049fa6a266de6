import { type Compilable, type Kysely, sql } from 'kysely'

/** Rows one FETCH brings: enough to amortise the round trip, small enough to keep memory flat. */
export const CURSOR_BATCH_ROWS = 1000

/**
 * Reads a query's rows in batches through a server-side cursor, in a read-only REPEATABLE READ
 * transaction, so an answer of any size is one consistent snapshot and never sits in memory whole.
 * The transaction holds one connection until the last batch is read or the consumer stops (a client
 * that disconnects: the generator's return rolls back and releases it). `each` runs on that same
 * connection for every batch (PGlite has only one), for look-ups that must see the same snapshot.
 */
export async function* cursorBatches<Row, Extra>(
  db: Kysely<any>,
  query: Compilable<Row>,
  each: (connection: Kysely<any>, rows: Row[]) => Promise<Extra>,
  batchRows: number = CURSOR_BATCH_ROWS,
): AsyncGenerator<{ rows: Row[]; extra: Extra }, void, undefined> {
  let release: () => void = () => {}
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  let connection: Kysely<any> | undefined
  const acquired = new Promise<Kysely<any>>((resolve, reject) => {
    db.connection()
      .execute(async (held) => {
        resolve(held)
        await released
      })
      .catch(reject)
  })
  let finished = false
  try {
    connection = await acquired
    await sql`begin isolation level repeatable read read only`.execute(connection)
    await sql`declare mailroom_search no scroll cursor for ${query}`.execute(connection)
    const fetch = sql<Row>`fetch ${sql.raw(String(batchRows))} from mailroom_search`
    for (;;) {
      const { rows } = await fetch.execute(connection)
      if (rows.length > 0) yield { rows, extra: await each(connection, rows) }
      if (rows.length < batchRows) break
    }
    await sql`commit`.execute(connection)
    finished = true
  } finally {
    if (connection !== undefined && !finished) await sql`rollback`.execute(connection).catch(() => {})
    release()
  }
}
