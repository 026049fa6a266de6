import type { TargetStatus } from '@mailroom/core'
import { type Kysely, sql } from 'kysely'
import type { Database } from '../database/schema.js'

/**
 * Sets a status on records, in the caller's transaction, as every status change writes it (`PUT
 * /rest/res/resource/status`, an action's status): a closing status keeps the closing date of a record already
 * closed (it closed then) and sets it on the others; any other status clears it. Returns the instant written,
 * read after the caller's row locks so a waiting writer dates after the one it waited for. `clearLocks`: the
 * letters' locks are cleared by the same write (an action's letters), one new version of each row rather than two.
 */
export async function setRecordsStatus(
  trx: Kysely<Database>,
  resIds: readonly number[],
  status: TargetStatus,
  options: { readonly clearLocks?: boolean } = {},
): Promise<Date> {
  const { rows } = await sql<{ at: Date }>`select clock_timestamp() as at`.execute(trx)
  const at = rows[0]!.at
  await sql`
    update res_letterbox set
      status = ${status.id},
      closing_date = ${status.closing ? sql`coalesce(closing_date, ${at}::timestamptz)` : sql`null`},
      modification_date = ${at}::timestamptz${options.clearLocks ? sql`, locker_user_id = null, locker_time = null` : sql``}
    where res_id = any(${sql.val(resIds)}::bigint[])`.execute(trx)
  return at
}
