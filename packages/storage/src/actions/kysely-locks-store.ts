import type { Actor, LocksStore } from '@mailroom/core'
import { sql } from 'kysely'
import type { StorageContext } from '../storage-context.js'

/** Whether no one but the actor holds a live lock on the row: the lock is taken or cleared in the same statement. */
const freeFor = (actor: Actor) =>
  sql`(locker_user_id is null or locker_user_id = ${actor.id} or locker_time is null or locker_time <= clock_timestamp())`

/** Core's locks port over kysely: `res_letterbox.locker_user_id` and `locker_time`. */
export function kyselyLocksStore(context: Pick<StorageContext, 'db'>): LocksStore {
  const { db } = context
  return {
    async lock(actor, resIds, seconds) {
      // Conditional in the statement itself: two clerks locking one letter at once cannot both take it.
      await sql`update res_letterbox
        set locker_user_id = ${actor.id}, locker_time = clock_timestamp() + make_interval(secs => ${seconds})
        where res_id = any(${sql.val(resIds)}::bigint[]) and ${freeFor(actor)}`.execute(db)
    },
    async unlock(actor, resIds) {
      await sql`update res_letterbox set locker_user_id = null, locker_time = null
        where res_id = any(${sql.val(resIds)}::bigint[]) and ${freeFor(actor)}`.execute(db)
    },
    async userLabels(userIds) {
      if (userIds.length === 0) return []
      const rows = await db
        .selectFrom('users')
        .select(['id', 'firstname', 'lastname'])
        .where('id', 'in', [...userIds])
        .execute()
      const byId = new Map(rows.map((row) => [row.id, [row.firstname, row.lastname].filter(Boolean).join(' ')]))
      return userIds.map((id) => byId.get(id) ?? '')
    },
  }
}
