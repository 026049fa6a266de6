import { type Actor, fail, type HistoryEntry, type StatusServices, type StatusUpdateMeta } from '@mailroom/core'
import {
  checkStatusTargets,
  isStorableText,
  linkedChronoOf,
  parseResIdParam,
  parseStatusUpdateRequest,
  parseTargetStatus,
  RECORD_HISTORY_TABLES,
  redactHistoryEntry,
  STATUS_UPDATE_HISTORY,
  type StatusTargets,
} from '@mailroom/core/internal'
import { type Kysely, sql } from 'kysely'
import type { Database } from '../database/schema.js'
import type { StorageContext } from '../storage-context.js'

type Executor = Kysely<Database>

/** history.remote_ip is varchar(64). */
const REMOTE_IP_MAX = 64

/**
 * Wires the status use cases over kysely: the all-or-nothing status update of
 * `PUT /rest/res/resource/status` and the history read of `GET /rest/resources/{resId}/history`.
 */
export function createStatusServices(context: StorageContext): StatusServices {
  const { db } = context
  return {
    async update(actor, body, meta = {}) {
      // Reference order (§5): the status first, then the message and the lists.
      const status = await findStatus(db, parseTargetStatus(body))
      const request = parseStatusUpdateRequest(body)
      await db.transaction().execute(async (trx) => {
        const found = await lockTargets(trx, request.targets)
        const allowed = await context.perimeter.allowedAmong(trx, actor, [...new Set(found.values())])
        const resIds = checkStatusTargets(request.targets, { found, allowed })
        await applyStatus(
          trx,
          actor,
          resIds,
          { status: status.id, closing: status.is_closing, info: request.historyMessage },
          meta,
        )
      })
      return { success: 'success' }
    },

    async history(actor, resIdText) {
      const resId = parseResIdParam(resIdText)
      const record = await db
        .selectFrom('res_letterbox')
        .select('res_id')
        .where('res_id', '=', resId)
        .executeTakeFirst()
      if (!record) fail('DOCUMENT_NOT_FOUND')
      if (!(await context.perimeter.allowedAmong(db, actor, [resId])).has(resId)) fail('OUT_OF_PERIMETER')
      const rows = await db
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
        .where('h.table_name', 'in', [...RECORD_HISTORY_TABLES])
        .where('h.record_id', '=', String(resId))
        .orderBy('h.event_date', 'desc')
        .orderBy('h.id', 'desc')
        .execute()
      const entries = rows.map(
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
      const visible = await visibleChronos(context, actor, entries)
      return { history: entries.map((entry) => redactHistoryEntry(entry, visible)) }
    },
  }
}

/**
 * Of the chronos the history's link lines name, those the actor may read: every record bearing the chrono is in
 * her perimeter. A chrono no record bears any more, or one shared with a record she may not read, stays hidden.
 */
async function visibleChronos(
  context: StorageContext,
  actor: Actor,
  entries: readonly HistoryEntry[],
): Promise<Set<string>> {
  const named = new Set(entries.map((entry) => linkedChronoOf(entry.info)).filter((c) => c !== null))
  const storable = [...named].filter(isStorableText)
  if (storable.length === 0) return new Set()
  const bearers = await context.db
    .selectFrom('res_letterbox')
    .select(['res_id', 'alt_identifier'])
    .where('alt_identifier', 'in', storable)
    .execute()
  const allowed = await context.perimeter.allowedAmong(
    context.db,
    actor,
    bearers.map((row) => Number(row.res_id)),
  )
  const visible = new Set(bearers.map((row) => row.alt_identifier))
  for (const row of bearers) if (!allowed.has(Number(row.res_id))) visible.delete(row.alt_identifier)
  return new Set(storable.filter((chrono) => visible.has(chrono)))
}

/** The target status row; `status not found` when the identifier is not in the table (case-sensitive). */
async function findStatus(db: Executor, id: string): Promise<{ id: string; is_closing: boolean }> {
  const row = await db.selectFrom('status').select(['id', 'is_closing']).where('id', '=', id).executeTakeFirst()
  return row ?? fail('STATUS_NOT_FOUND')
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
  // A chrono PostgreSQL cannot hold (NUL, lone surrogate) matches nothing: it is left to "not found".
  const chronos = targets.identifiers.filter(isStorableText)
  if (chronos.length === 0) return found
  const rows = await sql<{ res_id: number; alt_identifier: string }>`
    select res_id, alt_identifier from res_letterbox
    where alt_identifier = any(${sql.val(chronos)}::varchar[]) order by res_id for update`.execute(trx)
  for (const row of rows.rows) found.set(row.alt_identifier, Number(row.res_id))
  return found
}

/**
 * Sets the status on every record and writes one history row each, in the caller's transaction. A closing
 * status keeps the closing date of a record already closed (it closed then) and sets it on the others; any
 * other status clears it. The status itself is always set (the reference skipped already-closed records).
 */
async function applyStatus(
  trx: Executor,
  actor: Actor,
  resIds: readonly number[],
  change: { status: string; closing: boolean; info: string },
  meta: StatusUpdateMeta,
): Promise<void> {
  // One instant for the change and its history, read after the locks so a waiting writer dates after the one it waited for.
  const { rows } = await sql<{ at: Date }>`select clock_timestamp() as at`.execute(trx)
  const at = rows[0]!.at
  const ids = sql.val(resIds)
  await sql`
    update res_letterbox set
      status = ${change.status},
      closing_date = ${change.closing ? sql`coalesce(closing_date, ${at}::timestamptz)` : sql`null`},
      modification_date = ${at}::timestamptz
    where res_id = any(${ids}::bigint[])`.execute(trx)
  // One statement for the whole batch: the ids travel as a single array parameter, whatever their number.
  const history = STATUS_UPDATE_HISTORY
  const remoteIp = meta.remoteIp ? meta.remoteIp.slice(0, REMOTE_IP_MAX) : null
  await sql`
    insert into history (table_name, record_id, event_type, user_id, event_date, info, id_module, remote_ip, event_id)
    select ${history.tableName}, t.res_id::text, ${history.eventType}, ${actor.id}::integer, ${at}::timestamptz, ${change.info}::text,
      ${history.module}, ${remoteIp}::varchar, ${history.eventId}
    from unnest(${ids}::bigint[]) with ordinality as t(res_id, n)
    order by t.n`.execute(trx)
}
