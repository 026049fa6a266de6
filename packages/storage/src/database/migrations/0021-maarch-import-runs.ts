import { type Kysely, sql } from 'kysely'

/**
 * The Maarch imports run into this installation (docs/migrating-from-maarch.md): which source, when its
 * snapshot was taken (the cut-off a later `--since last` carries changes from), whether the run finished.
 * A run is written when it starts and marked finished when it ends whole, so a run stopped midway and
 * resumed counts from the earliest snapshot it read.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table maarch_import_runs (
    id serial primary key,
    source text not null,
    mode varchar(8) not null check (mode in ('full', 'delta')),
    since timestamptz,
    cutoff timestamptz not null,
    started_at timestamptz not null default now(),
    finished_at timestamptz,
    counts jsonb
  )`.execute(db)
  await sql`create index maarch_import_runs_source on maarch_import_runs (source, id)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table maarch_import_runs`.execute(db)
}
