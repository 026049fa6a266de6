import { type Kysely, sql } from 'kysely'

/**
 * The privileges of a group (Maarch's `usergroups_services.service_id`: `create_contacts`, `add_links`,
 * `admin_users`, …) that the routes around the interface check. A column rather than Maarch's table: a user's
 * groups are read in one query at authentication, and the organisation document writes a group whole. Groups
 * that existed before get none: no route they could call before checks one.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table usergroups add column privileges text[] not null default '{}'`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table usergroups drop column privileges`.execute(db)
}
