import { type Kysely, sql } from 'kysely'

/**
 * The last point of each safe's chain that `GET /rest/digitalSafe/{safe}/verification` found intact (its
 * sequence and hash), so the next call walks only what was added after it, re-checking that event. Moving
 * it is the verifier's business only: the journal never writes here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table journal_verified_points (
    safe text primary key,
    sequence integer not null check (sequence > 0),
    hash text not null,
    verified_at timestamptz not null default now()
  )`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table journal_verified_points`.execute(db)
}
