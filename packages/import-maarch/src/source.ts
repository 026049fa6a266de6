import { fail } from '@mailroom/core'
import pg from 'pg'

/** A Maarch Courrier database opened for reading only. */
export interface MaarchSource {
  /** The `database_version` parameter (20.10.x). */
  readonly version: string
  /**
   * The source's time when the snapshot was taken, moved back to the start of the oldest transaction then
   * open (that the account may see): nothing written after it is in the snapshot, nothing before it is missed.
   */
  readonly cutoff: Date
  rows<T extends Record<string, unknown>>(text: string, values?: readonly unknown[]): Promise<T[]>
  /** A query's rows a page at a time, in the same snapshot (a server-side cursor), between other queries. */
  cursor(text: string, values?: readonly unknown[]): Promise<SourceCursor>
  close(): Promise<void>
}

/** An open cursor of the source: `fetch` returns fewer than `count` rows (none at last) when it is done. */
export interface SourceCursor {
  fetch(count: number): Promise<Record<string, unknown>[]>
  close(): Promise<void>
}

/** Maarch Courrier releases this importer reads. */
export const SUPPORTED_VERSION = /^20\.10(\.\d+)?$/

/**
 * Opens the source in one READ ONLY, REPEATABLE READ transaction held for the whole import: PostgreSQL
 * refuses any write in it, and every query sees the same snapshot, so records, their lists and their
 * history agree even while Maarch keeps running. The transaction is rolled back at close.
 */
export async function openMaarchSource(url: string): Promise<MaarchSource> {
  const client = new pg.Client({ connectionString: url, application_name: 'mailroom import maarch' })
  await client.connect()
  try {
    await client.query('begin transaction isolation level repeatable read read only')
    // The snapshot's first statement: what it sees and the transactions still open are read at once.
    const started = await client.query<{ cutoff: Date }>(
      `select least(now(), coalesce((select min(xact_start) from pg_stat_activity
         where datname = current_database() and pid <> pg_backend_pid()), now())) as cutoff`,
    )
    const found = await client
      .query<{ value: string | null }>(
        `select param_value_string as value from parameters where id = 'database_version'`,
      )
      .catch(() => ({ rows: [] as { value: string | null }[] }))
    const version = found.rows[0]?.value?.trim() ?? ''
    if (!SUPPORTED_VERSION.test(version)) fail('MAARCH_VERSION_REFUSED', { version })
    let cursors = 0
    return {
      version,
      cutoff: new Date(started.rows[0]?.cutoff ?? Date.now()),
      rows: async <T extends Record<string, unknown>>(text: string, values: readonly unknown[] = []) =>
        (await client.query<T>(text, values as unknown[])).rows,
      cursor: async (text, values = []) => {
        // The name is the source's own counter, never caller text.
        const name = `mailroom_cursor_${++cursors}`
        await client.query(`declare ${name} no scroll cursor for ${text}`, values as unknown[])
        return {
          fetch: async (count) => (await client.query(`fetch ${Math.max(1, Math.floor(count))} from ${name}`)).rows,
          close: async () => void (await client.query(`close ${name}`)),
        }
      },
      close: async () => {
        await client.query('rollback').catch(() => {})
        await client.end()
      },
    }
  } catch (error) {
    await client.end().catch(() => {})
    throw error
  }
}
