import type {
  Actor,
  HistoryEntry,
  RecordStatusStore,
  StatusChange,
  StatusTargets,
  StatusUpdateMeta,
  TargetLookup,
} from '@mailroom/core'
import { type Kysely, sql } from 'kysely'
import type { Database } from '../database/schema.js'
import type { StorageContext } from '../storage-context.js'
import { setRecordsStatus } from './set-records-status.js'

type Executor = Kysely<Database>

/** history.remote_ip is varchar(64). */
const REMOTE_IP_MAX = 64

/** Core's status port over kysely: the status table, the locked batch change and the history read. */
export class KyselyRecordStatusStore implements RecordStatusStore {
  readonly #context: Pick<StorageContext, 'db' | 'perimeter'>

  constructor(context: Pick<StorageContext, 'db' | 'perimeter'>) {
    this.#context = context
  }

  async findStatus(id: string) {
    const row = await this.#context.db
      .selectFrom('status')
      .select(['id', 'is_closing'])
      .where('id', '=', id)
      .executeTakeFirst()
    return row ? { id: row.id, closing: row.is_closing } : null
  }

  async changeStatus(
    actor: Actor,
    targets: StatusTargets,
    check: (lookup: TargetLookup) => readonly number[],
    change: StatusChange,
    meta: StatusUpdateMeta,
  ): Promise<void> {
    const { db, perimeter } = this.#context
    await db.transaction().execute(async (trx) => {
      const found = await lockTargets(trx, targets)
      const allowed = await perimeter.allowedAmong(trx, actor, [...new Set(found.values())])
      await applyStatus(trx, actor, check({ found, allowed }), change, meta)
    })
  }

  async recordExists(resId: number): Promise<boolean> {
    const record = await this.#context.db
      .selectFrom('res_letterbox')
      .select('res_id')
      .where('res_id', '=', resId)
      .executeTakeFirst()
    return record !== undefined
  }

  async recordsBearing(chronos: readonly string[]): Promise<{ resId: number; chrono: string }[]> {
    const rows = await this.#context.db
      .selectFrom('res_letterbox')
      .select(['res_id', 'alt_identifier'])
      .where('alt_identifier', 'in', chronos)
      .execute()
    return rows.flatMap((row) =>
      row.alt_identifier === null ? [] : [{ resId: Number(row.res_id), chrono: row.alt_identifier }],
    )
  }

  async historyOf(resId: number, tables: readonly string[]): Promise<HistoryEntry[]> {
    const rows = await this.#context.db
      .selectFrom('history as h')
      .leftJoin('users as u', 'u.id', 'h.user_id')
      .select([
        'h.id',
        'h.event_date',
        'h.event_type',
        'h.event_id',
        'h.user_id',
        'u.user_id as login',
        'h.info',
        'h.id_module',
      ])
      .where('h.table_name', 'in', [...tables])
      .where('h.record_id', '=', String(resId))
      .orderBy('h.event_date', 'desc')
      .orderBy('h.id', 'desc')
      .execute()
    return rows.map(
      (row): HistoryEntry => ({
        id: Number(row.id),
        eventDate: new Date(row.event_date).toISOString(),
        eventType: row.event_type,
        eventId: row.event_id,
        userId: row.user_id,
        login: row.login ?? null,
        info: row.info,
        module: row.id_module,
      }),
    )
  }
}

/**
 * Resolves every identifier in one query and locks the matching rows until the transaction ends, so the
 * perimeter check and the update see the same rows. Rows are locked in res_id order: two overlapping
 * batches then wait for each other instead of deadlocking.
 */
async function lockTargets(trx: Executor, targets: StatusTargets): Promise<Map<number | string, number>> {
  const found = new Map<number | string, number>()
  if (targets.kind === 'resId') {
    const rows = await sql<{ res_id: number }>`
      select res_id from res_letterbox where res_id = any(${sql.val(targets.identifiers)}::bigint[]) order by res_id for update`.execute(
      trx,
    )
    for (const row of rows.rows) found.set(Number(row.res_id), Number(row.res_id))
    return found
  }
  // Core leaves out the chronos PostgreSQL cannot hold (they match nothing: "not found").
  const chronos = targets.identifiers
  if (chronos.length === 0) return found
  const rows = await sql<{ res_id: number; alt_identifier: string }>`
    select res_id, alt_identifier from res_letterbox
    where alt_identifier = any(${sql.val(chronos)}::varchar[]) order by res_id for update`.execute(trx)
  for (const row of rows.rows) found.set(row.alt_identifier, Number(row.res_id))
  return found
}

/**
 * Sets the status on every record and writes one history row each, in the caller's transaction, at one instant
 * read after the locks so a waiting writer dates after the one it waited for.
 */
async function applyStatus(
  trx: Executor,
  actor: Actor,
  resIds: readonly number[],
  change: StatusChange,
  meta: StatusUpdateMeta,
): Promise<void> {
  const at = await setRecordsStatus(trx, resIds, change.status)
  const ids = sql.val(resIds)
  // One statement for the whole batch: the ids travel as a single array parameter, whatever their number.
  const { history } = change
  const remoteIp = meta.remoteIp ? meta.remoteIp.slice(0, REMOTE_IP_MAX) : null
  await sql`
    insert into history (table_name, record_id, event_type, user_id, event_date, info, id_module, remote_ip, event_id)
    select ${history.tableName}, t.res_id::text, ${history.eventType}, ${actor.id}::integer, ${at}::timestamptz, ${history.info}::text,
      ${history.module}, ${remoteIp}::varchar, ${history.eventId}
    from unnest(${ids}::bigint[]) with ordinality as t(res_id, n)
    order by t.n`.execute(trx)
}
