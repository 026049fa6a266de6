import { type Kysely, sql } from 'kysely'

/**
 * Pending journal events (issue #7, create throughput).
 * Writers insert an event here inside the transaction of the change it records, taking no lock, so creates of
 * one safe no longer queue behind each other's commit. A sealer later links committed rows into the safe's
 * hash chain (journal_events) and deletes them, both in one transaction under the journal_heads row lock.
 * Rows are never updated: the event's content is fixed when written; only its chain position comes later.
 * created_at is the database clock, so `journal verify` can tell events left unsealed for too long.
 */
const UP = [
  `create table journal_pending (
    id bigserial primary key,
    safe varchar(64) not null,
    event_id varchar(128) not null unique,
    event_type varchar(64) not null,
    timestamp timestamptz not null,
    instance_name varchar(64) not null,
    org_reg_number varchar(64) not null,
    org_unit_reg_number varchar(64) not null,
    account_id varchar(128) not null,
    account_name varchar(128) not null,
    object_class varchar(64) not null,
    object_id varchar(128) not null,
    operation_result boolean not null,
    description text not null,
    info jsonb not null,
    created_at timestamptz not null default now()
  )`,
  `create index journal_pending_safe on journal_pending (safe, id)`,
  `create function journal_pending_refuse_update() returns trigger language plpgsql as $$
  begin
    raise exception 'pending journal events cannot be changed';
  end
  $$`,
  `create trigger journal_pending_no_update before update on journal_pending
    for each row execute function journal_pending_refuse_update()`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw('drop table journal_pending').execute(db)
  await sql.raw('drop function journal_pending_refuse_update()').execute(db)
}
