import { type Kysely, sql } from 'kysely'

/**
 * Records a user follows (reference users_followed_resources): `followed` on create adds the creator's row.
 * Unlike the reference, the row points at existing users and records and a user follows a record once,
 * since a duplicate row would mean nothing more.
 */
const UP = [
  `create table users_followed_resources (
    id serial primary key,
    res_id bigint not null references res_letterbox(res_id),
    user_id integer not null references users(id),
    unique (user_id, res_id)
  )`,
  `create index users_followed_resources_res on users_followed_resources (res_id)`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw('drop table users_followed_resources').execute(db)
}
