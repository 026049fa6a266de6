import { type Kysely, sql } from 'kysely'

/** The tables whose rows a create's reference lookup may keep in memory (see ReferenceCache). */
export const VERSIONED_REFERENCE_TABLES = [
  'indexing_models',
  'indexing_models_fields',
  'doctypes',
  'status',
  'priorities',
  'entities',
] as const

/**
 * A counter that any change of the reference tables moves, in the changing transaction (statement-level
 * triggers, truncation included). A process keeps what it read of those tables with the counter it read in
 * the same statement, and reuses it while the counter has not moved: every process sharing the database sees
 * every other's changes, without notifications.
 */
const UP = [
  `create table reference_version (
    id boolean primary key default true check (id),
    version bigint not null
  )`,
  `insert into reference_version (version) values (1)`,
  `create function reference_version_bump() returns trigger language plpgsql as $$
  begin
    update reference_version set version = version + 1;
    return null;
  end
  $$`,
  ...VERSIONED_REFERENCE_TABLES.flatMap((table) => [
    `create trigger ${table}_reference_version after insert or update or delete on ${table}
      for each statement execute function reference_version_bump()`,
    `create trigger ${table}_reference_version_truncate after truncate on ${table}
      for each statement execute function reference_version_bump()`,
  ]),
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of VERSIONED_REFERENCE_TABLES) {
    await sql.raw(`drop trigger ${table}_reference_version on ${table}`).execute(db)
    await sql.raw(`drop trigger ${table}_reference_version_truncate on ${table}`).execute(db)
  }
  await sql.raw('drop function reference_version_bump()').execute(db)
  await sql.raw('drop table reference_version').execute(db)
}
