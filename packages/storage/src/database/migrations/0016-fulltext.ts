import { type Kysely, sql } from 'kysely'

/**
 * Full-text search over the files (issue 35).
 *
 * - `mailroom_fr` and `mailroom_en`: the French and English text search configurations with accents folded
 *   (`unaccent` before the stemmer), so `ecole` finds `école` and the reverse. Where the server has no
 *   `unaccent` extension (a caller's PGlite built without it), the configurations stem without folding.
 * - `fulltext_jobs`: the durable extraction queue, one row per stored file (`file_kind` `resource` for a
 *   record's current file; attachments are another kind). A trigger on `res_letterbox` enqueues the file
 *   of every new record and every new version in the writing transaction: committed exactly when the record
 *   is, and the create statement itself is unchanged. Servers claim rows with `for update skip locked` and
 *   hold them by a lease that expires when a server dies.
 * - `fulltext_texts`: the extracted text of each file, kept (reindexing needs no OCR again), with its
 *   tsvector under a GIN index; `res_id` is the record the file belongs to (attachments too), the key of
 *   search and perimeter.
 */
const UP = [
  `do $$
  begin
    if exists (select 1 from pg_available_extensions where name = 'unaccent') then
      create extension if not exists unaccent;
      create text search configuration mailroom_fr (copy = pg_catalog.french);
      alter text search configuration mailroom_fr alter mapping for hword, hword_part, word with unaccent, french_stem;
      create text search configuration mailroom_en (copy = pg_catalog.english);
      alter text search configuration mailroom_en alter mapping for hword, hword_part, word with unaccent, english_stem;
    else
      create text search configuration mailroom_fr (copy = pg_catalog.french);
      create text search configuration mailroom_en (copy = pg_catalog.english);
    end if;
  end
  $$`,
  `create table fulltext_jobs (
    id bigint generated always as identity primary key,
    file_kind text not null check (file_kind in ('resource', 'attachment')),
    file_id bigint not null,
    res_id bigint not null references res_letterbox(res_id) on delete cascade,
    state text not null default 'pending' check (state in ('pending', 'running', 'done', 'failed')),
    attempts integer not null default 0,
    not_before timestamptz not null default now(),
    lease_token uuid,
    leased_by text,
    lease_until timestamptz,
    last_error text,
    enqueued_at timestamptz not null default now(),
    finished_at timestamptz,
    unique (file_kind, file_id)
  )`,
  // Only the jobs still to do are in it: claiming stays an index scan however many files were done.
  `create index fulltext_jobs_open on fulltext_jobs (id) where state in ('pending', 'running')`,
  `create index fulltext_jobs_failed on fulltext_jobs (id) where state = 'failed'`,
  `create index fulltext_jobs_res on fulltext_jobs (res_id)`,
  `create table fulltext_texts (
    file_kind text not null,
    file_id bigint not null,
    res_id bigint not null references res_letterbox(res_id) on delete cascade,
    fingerprint text,
    method text not null,
    ocr_pages integer not null default 0,
    language text not null,
    content text not null,
    document tsvector not null,
    extracted_at timestamptz not null default now(),
    primary key (file_kind, file_id)
  )`,
  `create index fulltext_texts_document on fulltext_texts using gin (document)`,
  `create index fulltext_texts_res on fulltext_texts (res_id)`,
  `create function fulltext_enqueue_resource() returns trigger language plpgsql as $$
  begin
    if new.filename is not null and (tg_op = 'INSERT' or new.filename is distinct from old.filename
        or new.path is distinct from old.path or new.docserver_id is distinct from old.docserver_id) then
      insert into fulltext_jobs (file_kind, file_id, res_id) values ('resource', new.res_id, new.res_id)
      on conflict (file_kind, file_id) do update set state = 'pending', attempts = 0, not_before = now(),
        lease_token = null, leased_by = null, lease_until = null, last_error = null, enqueued_at = now(),
        finished_at = null;
    end if;
    return null;
  end
  $$`,
  `create trigger res_letterbox_fulltext after insert or update of filename, path, docserver_id on res_letterbox
    for each row execute function fulltext_enqueue_resource()`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw('drop trigger res_letterbox_fulltext on res_letterbox').execute(db)
  await sql.raw('drop function fulltext_enqueue_resource()').execute(db)
  await sql.raw('drop table fulltext_texts').execute(db)
  await sql.raw('drop table fulltext_jobs').execute(db)
  await sql.raw('drop text search configuration mailroom_fr').execute(db)
  await sql.raw('drop text search configuration mailroom_en').execute(db)
}
