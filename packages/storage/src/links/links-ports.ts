import type { LinkedResource, LinksDependencies, LinksStore } from '@mailroom/core'
import { type Kysely, sql } from 'kysely'
import type { Database } from '../database/schema.js'
import { insertHistoryRows } from '../history/history-rows.js'
import { recordPerimeterOf } from '../perimeter/record-perimeter.js'
import type { StorageContext } from '../storage-context.js'

type Executor = Kysely<Database>

/** The ports of core's use cases of links between records (core checks in 20.10's order and words the history). */
export function linksPorts(context: StorageContext): LinksDependencies {
  return { links: kyselyLinksStore(context), perimeter: recordPerimeterOf(context) }
}

/**
 * Core's links port. Links live where Maarch 20.10 keeps them, in `res_letterbox.linked_resources` (a jsonb
 * array of res_id strings), written both ways in one transaction whose rows are locked in res_id order, so
 * concurrent links never lose one another's ids.
 */
export function kyselyLinksStore(context: Pick<StorageContext, 'db'>): LinksStore {
  const { db } = context
  return {
    async linkedIds(resId) {
      const { rows } = await sql<{ id: string }>`
        select jsonb_array_elements_text(linked_resources) as id from res_letterbox where res_id = ${resId}`.execute(db)
      return rows.map((row) => row.id)
    },

    describe: (resIds) => describeRecords(db, resIds),

    async link(actor, resId, linked, historyOf, meta) {
      await db.transaction().execute(async (trx) => {
        const chronos = await lockRecords(trx, [resId, ...linked])
        const ids = sql.val(linked.map(String))
        // The record gets every id it lacks, in the caller's order; each linked record gets resId if it lacks it.
        await sql`
          update res_letterbox set linked_resources = linked_resources || coalesce((
            select jsonb_agg(t.id order by t.n) from unnest(${ids}::text[]) with ordinality as t(id, n)
            where not exists (select 1 from jsonb_array_elements_text(linked_resources) as l(id) where l.id = t.id)
          ), '[]'::jsonb)
          where res_id = ${resId}`.execute(trx)
        await sql`
          update res_letterbox set linked_resources = linked_resources || jsonb_build_array(${String(resId)}::text)
          where res_id = any(${sql.val(linked)}::bigint[])
            and not exists (select 1 from jsonb_array_elements_text(linked_resources) as l(id) where l.id = ${String(resId)})`.execute(
          trx,
        )
        await insertHistoryRows(trx, actor.id, historyOf(chronos), meta.remoteIp)
      })
    },

    async unlink(actor, resId, id, historyOf, meta) {
      await db.transaction().execute(async (trx) => {
        const chronos = await lockRecords(trx, [resId, id])
        const removeFrom = (holder: number, removed: number) => sql`
          update res_letterbox set linked_resources = coalesce((
            select jsonb_agg(l.value order by l.n) from jsonb_array_elements(linked_resources) with ordinality as l(value, n)
            where l.value #>> '{}' <> ${String(removed)}::text
          ), '[]'::jsonb)
          where res_id = ${holder}`
        await removeFrom(resId, id).execute(trx)
        await removeFrom(id, resId).execute(trx)
        await insertHistoryRows(trx, actor.id, historyOf(chronos), meta.remoteIp)
      })
    },
  }
}

/** Locks the records in res_id order (no deadlock between overlapping requests) and returns their chronos. */
async function lockRecords(trx: Executor, resIds: readonly number[]): Promise<Map<number, string | null>> {
  const { rows } = await sql<{ res_id: string | number; alt_identifier: string | null }>`
    select res_id, alt_identifier from res_letterbox where res_id = any(${sql.val(resIds)}::bigint[])
    order by res_id for update`.execute(trx)
  return new Map(rows.map((row) => [Number(row.res_id), row.alt_identifier]))
}

/** The linked records in 20.10's shape, in res_id order. */
async function describeRecords(db: Executor, resIds: readonly number[]): Promise<Omit<LinkedResource, 'canConvert'>[]> {
  if (resIds.length === 0) return []
  const records = await db
    .selectFrom('res_letterbox as r')
    .leftJoin('status as s', 's.id', 'r.status')
    .leftJoin('entities as e', 'e.entity_id', 'r.destination')
    .leftJoin('users as u', 'u.id', 'r.dest_user')
    .select([
      'r.res_id',
      'r.subject',
      'r.doc_date',
      'r.status',
      'r.dest_user',
      'r.destination',
      'r.alt_identifier',
      'r.category_id',
      'r.filename',
      'r.format',
      'r.confidentiality',
      's.label_status',
      's.img_filename',
      'e.short_label',
      'u.firstname as dest_firstname',
      'u.lastname as dest_lastname',
    ])
    .where('r.res_id', 'in', resIds)
    .orderBy('r.res_id')
    .execute()
  const correspondents = await correspondentsOf(db, resIds)
  const circuits = await visaCircuitsOf(db, resIds)
  return records.map((r): Omit<LinkedResource, 'canConvert'> => {
    const resId = Number(r.res_id)
    const people = correspondents.get(resId)
    return {
      resId,
      subject: r.subject,
      documentDate: sqlDateTime(r.doc_date),
      status: r.status,
      ...(r.status ? { statusLabel: r.label_status ?? '', statusImage: r.img_filename ?? null } : {}),
      destUser: r.dest_user,
      ...(r.dest_user ? { destUserLabel: personName(r.dest_firstname, r.dest_lastname) } : {}),
      destination: r.destination,
      ...(r.destination ? { destinationLabel: r.short_label ?? null } : {}),
      chrono: r.alt_identifier,
      categoryId: r.category_id,
      filename: r.filename,
      format: r.format,
      confidentiality: r.confidentiality === 'Y',
      hasDocument: Boolean(r.filename),
      senders: people?.sender ?? [],
      recipients: people?.recipient ?? [],
      visaCircuit: circuits.get(resId) ?? [],
    }
  })
}

/** `YYYY-MM-DD HH:MM:SS` in UTC, as 20.10 writes a timestamp (without its fractional seconds). */
function sqlDateTime(value: Date | string | null): string | null {
  if (value === null) return null
  return new Date(value).toISOString().slice(0, 19).replace('T', ' ')
}

function personName(firstname: string | null, lastname: string | null): string {
  return [firstname, lastname].filter(Boolean).join(' ')
}

/** Each record's senders and recipients as 20.10 displays them: `Firstname Lastname (Company)`, a user's name, an entity's label. */
async function correspondentsOf(db: Executor, resIds: readonly number[]) {
  const rows = await db
    .selectFrom('resource_contacts as rc')
    .leftJoin('contacts as c', (join) => join.onRef('c.id', '=', 'rc.item_id').on('rc.type', '=', 'contact'))
    .leftJoin('users as u', (join) => join.onRef('u.id', '=', 'rc.item_id').on('rc.type', '=', 'user'))
    .leftJoin('entities as e', (join) => join.onRef('e.id', '=', 'rc.item_id').on('rc.type', '=', 'entity'))
    .select([
      'rc.res_id',
      'rc.type',
      'rc.mode',
      'c.firstname as c_firstname',
      'c.lastname as c_lastname',
      'c.company',
      'u.firstname as u_firstname',
      'u.lastname as u_lastname',
      'e.entity_label',
    ])
    .where('rc.res_id', 'in', resIds)
    .orderBy('rc.id')
    .execute()
  const byRecord = new Map<number, Record<string, string[]>>()
  for (const row of rows) {
    let label: string
    if (row.type === 'contact') {
      const name = personName(row.c_firstname, row.c_lastname)
      label = name && row.company ? `${name} (${row.company})` : name || (row.company ?? '')
    } else if (row.type === 'user') label = personName(row.u_firstname, row.u_lastname)
    else label = row.entity_label ?? ''
    const lists = byRecord.get(Number(row.res_id)) ?? {}
    lists[row.mode] = [...(lists[row.mode] ?? []), label]
    byRecord.set(Number(row.res_id), lists)
  }
  return byRecord
}

/** Each record's visa circuit (listinstance rows of type VISA_CIRCUIT): the user and their role. */
async function visaCircuitsOf(db: Executor, resIds: readonly number[]) {
  const rows = await db
    .selectFrom('listinstance as li')
    .leftJoin('users as u', 'u.id', 'li.item_id')
    .select(['li.res_id', 'li.item_id', 'li.item_mode', 'u.firstname', 'u.lastname'])
    .where('li.res_id', 'in', resIds)
    .where('li.difflist_type', '=', 'VISA_CIRCUIT')
    .orderBy('li.sequence')
    .orderBy('li.listinstance_id')
    .execute()
  const byRecord = new Map<number, { item_id: number; item_mode: string; userLabel: string }[]>()
  for (const row of rows) {
    const list = byRecord.get(Number(row.res_id)) ?? []
    list.push({ item_id: row.item_id, item_mode: row.item_mode, userLabel: personName(row.firstname, row.lastname) })
    byRecord.set(Number(row.res_id), list)
  }
  return byRecord
}
