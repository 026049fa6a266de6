import { type Kysely, sql } from 'kysely'

/*
 * Passages of the long texts (issue 35): a search's excerpt is `ts_headline` over the best-matching file's text,
 * which parses the whole text each time (18–21 ms for a 210 KB report, so a page of twenty such results spent
 * 0.4 s on excerpts alone). A text longer than `PASSAGE_THRESHOLD` characters is also kept cut into passages of
 * `PASSAGE_LENGTH` characters, each with its own words: the excerpt is then written from the passage that
 * matches best (about 1 ms). Consecutive passages overlap by `PASSAGE_OVERLAP` characters so that a phrase
 * across a cut is whole in one of them; the word cut at each end of a passage is dropped.
 *
 * Triggers on `fulltext_texts` keep them, once per statement over the changed rows, like migration 0019's: every
 * writer of a text (the queue, the index port, a reindex) leaves its passages right without knowing of them, and
 * a deleted text takes its passages along (the foreign key).
 */

/** Texts up to this length are excerpted whole: their `ts_headline` costs about what a passage's does. */
const PASSAGE_THRESHOLD = 16_000
const PASSAGE_LENGTH = 8_000
const PASSAGE_OVERLAP = 400

/** Inserts the passages of the long texts among `texts` (a table or transition table of `fulltext_texts` rows). */
function insertPassages(texts: string): string {
  return `insert into fulltext_passages (file_kind, file_id, seq, content, document)
    select t.file_kind, t.file_id, s.seq, s.passage,
        to_tsvector((case when t.language = 'en' then 'mailroom_en' else 'mailroom_fr' end)::regconfig, s.passage)
      from ${texts} as t, lateral mailroom_text_passages(t.content) as s
      where length(t.content) > ${PASSAGE_THRESHOLD}`
}

// Written out here, not shared with the queries: a migration is history (see 0019).
const UP = [
  `create table fulltext_passages (
    file_kind text not null,
    file_id bigint not null,
    seq integer not null,
    content text not null,
    document tsvector not null,
    primary key (file_kind, file_id, seq),
    foreign key (file_kind, file_id) references fulltext_texts (file_kind, file_id) on delete cascade
  )`,
  // A long text's passages: from each cut, the word cut at its start (but the text's first) and at its end (but
  // the text's last) dropped. A passage without a space keeps its characters.
  `create function mailroom_text_passages(content text) returns table (seq integer, passage text)
    language sql immutable strict as $$
    select i, case when (i + 1) * ${PASSAGE_LENGTH} >= length(content) then start
        else regexp_replace(start, '\\s\\S*$', '') end
      from generate_series(0, (length(content) - 1) / ${PASSAGE_LENGTH}) as i,
        lateral substr(content, i * ${PASSAGE_LENGTH} + 1, ${PASSAGE_LENGTH + PASSAGE_OVERLAP}) as piece,
        lateral (select case when i = 0 then piece else regexp_replace(piece, '^\\S*\\s', '') end) as cut(start)
  $$`,
  `create function fulltext_text_passages() returns trigger language plpgsql as $$
  begin
    if tg_op = 'UPDATE' then
      delete from fulltext_passages as p using new_texts as n
        where p.file_kind = n.file_kind and p.file_id = n.file_id;
    end if;
    ${insertPassages('new_texts')};
    return null;
  end
  $$`,
  `create trigger fulltext_texts_insert_passages after insert on fulltext_texts
    referencing new table as new_texts for each statement execute function fulltext_text_passages()`,
  `create trigger fulltext_texts_update_passages after update on fulltext_texts
    referencing new table as new_texts for each statement execute function fulltext_text_passages()`,
  // The texts kept before this migration.
  insertPassages('fulltext_texts'),
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const kind of ['insert', 'update'])
    await sql.raw(`drop trigger fulltext_texts_${kind}_passages on fulltext_texts`).execute(db)
  await sql.raw('drop function fulltext_text_passages()').execute(db)
  await sql.raw('drop table fulltext_passages').execute(db)
  await sql.raw('drop function mailroom_text_passages(text)').execute(db)
}
