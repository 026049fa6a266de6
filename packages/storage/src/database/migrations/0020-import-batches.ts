import { type Kysely, sql } from 'kysely'

/**
 * Batches of an import from another installation (`mailroom import maarch`): a row per batch of source
 * records, `committed` in the same transaction as the batch's rows. Before that commit the row holds the
 * keys of the batch's stored files, written (and committed on their own) once the files are durable, so a
 * run stopped between the files and the commit leaves a row naming them: the next run removes them. A
 * committed batch's range (`after_res_id`, `last_res_id`] is where a rerun resumes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table import_batches (
    id bigint generated always as identity primary key,
    importer varchar(32) not null,
    after_res_id bigint not null,
    last_res_id bigint not null,
    records integer not null default 0,
    committed boolean not null default false,
    files jsonb,
    updated_at timestamptz not null default now()
  )`.execute(db)
  await sql`create index import_batches_importer on import_batches (importer, committed, after_res_id)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table import_batches`.execute(db)
}
