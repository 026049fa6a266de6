import { type Kysely, sql } from 'kysely'

/**
 * The installation's parameters (`workingDays`, `user_quota`, …), with Maarch 20.10's table and columns so
 * that clients reading GET /rest/parameters/{id} and `mailroom import maarch` find them as they were. Written
 * by the organisation document's `parameters` section.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table parameters (
      id varchar(255) not null primary key,
      description text,
      param_value_string text default null,
      param_value_int integer,
      param_value_date timestamp without time zone
    )`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table parameters`.execute(db)
}
