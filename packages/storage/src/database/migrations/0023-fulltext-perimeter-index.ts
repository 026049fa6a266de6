import { type Kysely, sql } from 'kysely'

/*
 * The records' words index also carries the columns perimeters are written on (issue 35). A full-text search
 * within a clerk's perimeter read every record holding the words, then dropped those the clerk may not see: for
 * a word in 1.2 % of a million letters, 11,600 heap pages for the 3,000 records bbain may see. With the columns in
 * one GIN index (btree_gin gives their operator classes), PostgreSQL can OR index scans — the words with the
 * groups' destinations, the words with the typist, the diffusion lists' records by primary key — and read only
 * the records the caller may see (docs/architecture.md, "The query plan").
 *
 * The index replaces 0019's `res_letterbox_fulltext_document`: a search of words alone uses it as well, and each
 * write of a record's words updates one index, not two. btree_gin is trusted (PostgreSQL 13 and later: a database
 * owner may create it); where it cannot be created, 0019's index stays and the searches give the same answers,
 * reading more.
 *
 * Migrations may run out of order (migrations/index.ts): on a database without 0019's column yet, this one creates
 * nothing and 0019 makes its own index.
 *
 * The columns: destination, typist, dest_user, initiator (20.10's security clauses are written on them, and
 * every perimeter holds the typist). Mailroom's perimeter reads the same list (`WORDS_INDEX_COLUMNS`); this is
 * history and keeps its own.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`do $$ begin
    create extension if not exists btree_gin;
  exception when others then
    raise notice 'btree_gin is not available (%): full-text searches will read every matching record', sqlerrm;
  end $$`.execute(db)
  await sql`do $$ begin
    if exists (select 1 from pg_extension where extname = 'btree_gin')
        and exists (select 1 from information_schema.columns
          where table_name = 'res_letterbox' and column_name = 'fulltext_document') then
      create index res_letterbox_fulltext_perimeter on res_letterbox
        using gin (fulltext_document, destination, typist, dest_user, initiator);
      drop index if exists res_letterbox_fulltext_document;
    end if;
  end $$`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  // The extension stays: other objects may use it.
  await sql`do $$ begin
    if exists (select 1 from pg_indexes where indexname = 'res_letterbox_fulltext_perimeter') then
      create index if not exists res_letterbox_fulltext_document on res_letterbox using gin (fulltext_document);
      drop index res_letterbox_fulltext_perimeter;
    end if;
  end $$`.execute(db)
}
