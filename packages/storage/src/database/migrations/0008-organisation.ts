import { type Kysely, sql } from 'kysely'

/**
 * Tables whose changes can change who a user is or may do: authentication re-reads a user, and the perimeter
 * its entity tree, when they move.
 */
export const ACCESS_TABLES = ['users_entities', 'usergroups', 'usergroup_content', 'security', 'entities'] as const

/**
 * Organisation administration (docs/organisation.md):
 * - `usergroups.can_read_safe`: the group's right to read the digital-safe journal. Groups that existed
 *   before keep reading as they did; new ones get the right only when given it.
 * - `access_version`: a counter moved, in the changing transaction, by every change of a user's login,
 *   password, status or mode and of memberships, groups and clauses. Authentication compares it with the
 *   one it read when it kept a user in memory, so a disabled user's tokens stop working at once on every
 *   server sharing the database, while refresh-token and lock-out bookkeeping on users moves nothing.
 */
const UP = [
  `alter table usergroups add column can_read_safe boolean not null default false`,
  `update usergroups set can_read_safe = true`,
  `create table access_version (
    id boolean primary key default true check (id),
    version bigint not null
  )`,
  `insert into access_version (version) values (1)`,
  `create function access_version_bump() returns trigger language plpgsql as $$
  begin
    update access_version set version = version + 1;
    return null;
  end
  $$`,
  `create trigger users_access_version after insert or delete or update of user_id, password, status, mode on users
    for each statement execute function access_version_bump()`,
  ...ACCESS_TABLES.map(
    (table) => `create trigger ${table}_access_version after insert or update or delete on ${table}
      for each statement execute function access_version_bump()`,
  ),
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['users', ...ACCESS_TABLES])
    await sql.raw(`drop trigger ${table}_access_version on ${table}`).execute(db)
  await sql.raw('drop function access_version_bump()').execute(db)
  await sql.raw('drop table access_version').execute(db)
  await sql.raw('alter table usergroups drop column can_read_safe').execute(db)
}
