import type { Kysely } from 'kysely'
import type { Database } from '../database/schema.js'

/** The login of every user, whatever their status. */
export async function userLogins(db: Kysely<Database>): Promise<string[]> {
  return (await db.selectFrom('users').select('user_id').execute()).map((u) => u.user_id)
}
