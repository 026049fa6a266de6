import type { HistoryLine, HistoryPageQuery, ProcessingPageStore, RecordStatusOf } from '@mailroom/core'
import { type Expression, type Kysely, type SqlBool, sql } from 'kysely'
import type { Database } from '../database/schema.js'
import { timestampText } from '../database/timestamp-text.js'

/** The history tables under which a record's own lines are written (20.10's history of a letter). */
const RECORD_TABLES = ['res_letterbox', 'res_view_letterbox']

/** The reads of the letter's page over kysely: a record's status and department, a user's, a page of history lines. */
export function kyselyProcessingPageStore(db: Kysely<Database>): ProcessingPageStore {
  return {
    async recordStatus(resId: number): Promise<RecordStatusOf | null> {
      const row = await db
        .selectFrom('res_letterbox as r')
        .leftJoin('status as s', 's.id', 'r.status')
        .select(['r.status', 's.can_be_modified'])
        .where('r.res_id', '=', resId)
        .executeTakeFirst()
      return row === undefined ? null : { status: row.status, canBeModified: row.can_be_modified === 'Y' }
    },

    async userEntityCodes(userId: number): Promise<readonly string[] | null> {
      const rows = await db
        .selectFrom('users as u')
        .leftJoin('users_entities as ue', 'ue.user_id', 'u.id')
        .select('ue.entity_id')
        .where('u.id', '=', userId)
        .execute()
      if (rows.length === 0) return null
      return rows.flatMap((row) => (row.entity_id === null ? [] : [row.entity_id]))
    },

    async recordDestination(resId: number): Promise<string | null> {
      const row = await db
        .selectFrom('res_letterbox')
        .select('destination')
        .where('res_id', '=', resId)
        .executeTakeFirst()
      return row?.destination || null
    },

    async historyPage(query: HistoryPageQuery) {
      const rows = await db
        .selectFrom('history as h')
        .leftJoin('users as u', 'u.id', 'h.user_id')
        .select([
          'h.record_id',
          timestampText('h.event_date').as('event_date'),
          'h.user_id',
          'h.info',
          'h.remote_ip',
          'u.firstname',
          'u.lastname',
          'u.id as known_user',
          sql<string>`count(*) over ()`.as('total'),
        ])
        .where((eb) => {
          const conditions: Expression<SqlBool>[] = []
          if (query.resId !== null)
            conditions.push(
              eb.and([eb('h.table_name', 'in', RECORD_TABLES), eb('h.record_id', '=', String(query.resId))]),
            )
          if (query.onlyActions) conditions.push(eb('h.event_type', 'like', 'ACTION#%'))
          if (query.users !== null) {
            const { ids, logins } = query.users
            conditions.push(
              eb.or([
                ...(ids.length > 0 ? [eb('h.user_id', 'in', ids)] : []),
                ...(logins.length > 0
                  ? [eb('h.user_id', 'in', eb.selectFrom('users').select('id').where('user_id', 'in', logins))]
                  : []),
              ]),
            )
          }
          if (query.after !== null) conditions.push(eb('h.event_date', '>', query.after))
          if (query.before !== null) conditions.push(eb('h.event_date', '<', query.before))
          if (query.eventTypes !== null) conditions.push(eb('h.event_type', 'in', query.eventTypes))
          for (const pattern of query.searchPatterns)
            conditions.push(
              eb.or([
                sql<SqlBool>`coalesce(h.info, '') ilike ${pattern}`,
                sql<SqlBool>`coalesce(h.remote_ip, '') ilike ${pattern}`,
              ]),
            )
          return eb.and(conditions)
        })
        .orderBy(`h.${query.order.column}`, query.order.direction)
        // Lines of one instant come in the order they were written, newest first.
        .orderBy('h.id', 'desc')
        .limit(query.limit)
        .offset(query.offset)
        .execute()
      const lines = rows.map(
        (row): HistoryLine => ({
          record_id: row.record_id,
          event_date: row.event_date,
          user_id: row.user_id,
          info: row.info,
          remote_ip: row.remote_ip,
          // 20.10's getLabelledUserById: "firstname lastname", '' for no user.
          userLabel: row.known_user === null ? '' : `${row.firstname ?? ''} ${row.lastname ?? ''}`,
        }),
      )
      // Past the last page there is no row to carry the count: 20.10 answers 0 then too.
      return { lines, count: Number(rows[0]?.total ?? 0) }
    },
  }
}
