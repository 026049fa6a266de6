import { type Kysely, sql } from 'kysely'

/**
 * Indexes for `POST /rest/search` by chrono, which matches a substring of the chrono with its spaces removed
 * (20.10's `replace(alt_identifier, ' ', '') ilike '%v%'`, and the `identifier` of attachments): pg_trgm GIN
 * indexes on those expressions. pg_trgm is a
 * trusted extension (PostgreSQL 13 and later: a database owner may create it); where it cannot be created (no
 * right, a PGlite opened without it) the migration creates nothing and the search reads the table instead,
 * slower but with the same answers.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`do $$ begin
    create extension if not exists pg_trgm;
  exception when others then
    raise notice 'pg_trgm is not available (%): searches by chrono will not be indexed', sqlerrm;
  end $$`.execute(db)
  await sql`do $$ begin
    if exists (select 1 from pg_extension where extname = 'pg_trgm') then
      create index if not exists res_letterbox_chrono_trgm on res_letterbox
        using gin ((replace(alt_identifier, ' ', '')) gin_trgm_ops);
      -- Attachments' chronos too, where the attachments capability (migration 0014) created their table.
      if to_regclass('res_attachments') is not null then
        create index if not exists res_attachments_identifier_trgm on res_attachments using gin (identifier gin_trgm_ops);
      end if;
    end if;
  end $$`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  // The extension stays: other objects may use it.
  await sql`drop index if exists res_letterbox_chrono_trgm`.execute(db)
  await sql`drop index if exists res_attachments_identifier_trgm`.execute(db)
}
