import type { HistoryRow } from '@mailroom/core'
import type { Insertable, Kysely } from 'kysely'
import type { Database, HistoryTable } from '../database/schema.js'

/** history.remote_ip is varchar(64). */
const REMOTE_IP_MAX = 64

/** Writes history rows in the caller's transaction, for the actor, from the caller's address. */
export async function insertHistoryRows(
  trx: Kysely<Database>,
  actorId: number,
  rows: readonly HistoryRow[],
  remoteIp: string | undefined,
): Promise<void> {
  if (rows.length === 0) return
  const ip = remoteIp ? remoteIp.slice(0, REMOTE_IP_MAX) : null
  await trx
    .insertInto('history')
    .values(
      rows.map(
        (row): Insertable<HistoryTable> => ({
          table_name: row.tableName,
          record_id: String(row.recordId),
          event_type: row.eventType,
          event_id: row.eventId,
          id_module: row.module,
          info: row.info,
          user_id: actorId,
          remote_ip: ip,
        }),
      ),
    )
    .execute()
}
