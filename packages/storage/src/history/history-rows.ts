import type { HistoryRow } from '@mailroom/core'
import type { Insertable, Kysely } from 'kysely'
import type { Database, HistoryTable } from '../database/schema.js'

/** history.remote_ip is varchar(64). */
const REMOTE_IP_MAX = 64

/**
 * A history row as the table stores it: core's row, the actor, the caller's address (cut to the column) and,
 * when the caller keeps its own clock, the event's date (else the column's default, now).
 */
export function historyRowValues(
  row: HistoryRow,
  actorId: number,
  remoteIp: string | undefined | null,
  eventDate?: Date,
): Insertable<HistoryTable> {
  return {
    table_name: row.tableName,
    record_id: String(row.recordId),
    event_type: row.eventType,
    event_id: row.eventId,
    id_module: row.module,
    info: row.info,
    user_id: actorId,
    remote_ip: remoteIp ? remoteIp.slice(0, REMOTE_IP_MAX) : null,
    ...(eventDate === undefined ? {} : { event_date: eventDate }),
  }
}

/** Writes history rows in the caller's transaction, for the actor, from the caller's address. */
export async function insertHistoryRows(
  trx: Kysely<Database>,
  actorId: number,
  rows: readonly HistoryRow[],
  remoteIp: string | undefined,
): Promise<void> {
  if (rows.length === 0) return
  await trx
    .insertInto('history')
    .values(rows.map((row) => historyRowValues(row, actorId, remoteIp)))
    .execute()
}
