import { type Kysely, sql } from 'kysely'

/*
 * The words of a record in the record's own row (issue 35): `res_letterbox.fulltext_document`, the tsvectors of
 * every kept text of the record (its file, its attachments: `fulltext_texts`, migration 0016) joined with `||`,
 * under a GIN index. A full-text condition is then a condition on the record's row, so PostgreSQL can AND the
 * words' index with the perimeter's indexes (a bitmap AND) and read and rank only the records the caller may
 * see, where the texts' own index gave every matching file first, the perimeter dropping most of them after.
 *
 * Triggers on `fulltext_texts` keep the column: whatever writes or removes a text (the queue's completion, an
 * external index's `put`/`remove`, a superseded attachment, a reindex, a deleted record) changes its record's
 * document in the same statement. They run once per statement over the changed rows (transition tables), so a
 * bulk load is one set-based update. The records' rows are locked first, then read again (a statement of its
 * own, so a new snapshot): two servers finishing two files of one record at once each see the other's text.
 *
 * The view of searches carries the column (last, after the catalogue's: `select *` of the view is unchanged for
 * callers, who name columns from the catalogue, which does not list it).
 */

/**
 * The select of `res_view_letterbox` as this migration leaves it (`extra` = `, r.fulltext_document`) and as it
 * found it, migration 0003's (`extra` empty, for `down`). Written out here rather than taken from 0003: a
 * migration is history, so a later edit elsewhere must not change what this one creates on a fresh database.
 */
function letterboxViewSelect(extra: string): string {
  return `select r.res_id, r.type_id, r.policy_id, r.cycle_id, r.format, r.typist, r.creation_date,
      r.modification_date, r.docserver_id, r.path, r.filename, r.fingerprint, r.filesize, r.status,
      r.work_batch, r.doc_date, r.external_id, r.departure_date, r.opinion_limit_date, r.barcode,
      r.initiator, r.destination, r.dest_user, r.confidentiality, r.category_id, r.alt_identifier,
      r.admission_date, r.process_limit_date, r.closing_date, r.alarm1_date, r.alarm2_date,
      r.flag_alarm1, r.flag_alarm2, r.subject, r.priority, r.locker_user_id, r.locker_time,
      r.custom_fields, r.retention_frozen, r.binding,
      d.description as type_label,
      d.doctypes_first_level_id,
      dfl.doctypes_first_level_label,
      dfl.css_style as doctype_first_level_style,
      d.doctypes_second_level_id,
      dsl.doctypes_second_level_label,
      dsl.css_style as doctype_second_level_style,
      e.entity_label,
      e.entity_type as entitytype${extra}
    from res_letterbox r
      left join doctypes d on d.type_id = r.type_id
      left join doctypes_first_level dfl on dfl.doctypes_first_level_id = d.doctypes_first_level_id
      left join doctypes_second_level dsl on dsl.doctypes_second_level_id = d.doctypes_second_level_id
      left join entities e on e.entity_id = r.destination`
}

/**
 * Locks the rows of the records `changed` (a query of res_id) lists, then sets each one's document from its
 * texts; a record left without text gets null. Joined, not correlated: a bulk load (the benchmark's seed drops
 * the texts' indexes while it loads) is a hash join, not a look-up per record. `distinct`: a statement that
 * writes two texts of one record lists it twice, and each text would be joined twice.
 */
function refreshDocuments(changed: string): string {
  return `perform from res_letterbox where res_id in (${changed}) order by res_id for no key update;
      update res_letterbox as r set fulltext_document = d.document
        from (select c.res_id, mailroom_tsvector_concat(t.document order by t.file_kind desc, t.file_id) as document
          from (select distinct res_id from (${changed}) as listed) as c
          left join fulltext_texts as t on t.res_id = c.res_id
          group by c.res_id) as d
        where r.res_id = d.res_id and r.fulltext_document is distinct from d.document;`
}

const UP = [
  // A tsvector holds at most 1 MB of lexemes: a record whose texts together pass it keeps the words of the texts
  // that fit (its own file first, by the callers' order) rather than failing the statement, which would fail this
  // migration at every start, or the job that completes the text. Strict, as tsvector_concat: texts missing (a
  // record without any) are skipped, and the first one found starts the record's words.
  `create function mailroom_tsvector_append(words tsvector, more tsvector) returns tsvector language plpgsql
    immutable strict as $$
  begin
    return words || more;
  exception when program_limit_exceeded then
    return words;
  end
  $$`,
  `create aggregate mailroom_tsvector_concat(tsvector) (sfunc = mailroom_tsvector_append, stype = tsvector)`,
  `alter table res_letterbox add column fulltext_document tsvector`,
  `update res_letterbox as r set fulltext_document = d.document
    from (select res_id, mailroom_tsvector_concat(document order by file_kind desc, file_id) as document
      from fulltext_texts group by res_id) as d
    where d.res_id = r.res_id`,
  `create index res_letterbox_fulltext_document on res_letterbox using gin (fulltext_document)`,
  // The planner's statistics of the new column (its words' frequencies), before the first search plans on it.
  `analyze res_letterbox`,
  `create function fulltext_record_documents() returns trigger language plpgsql as $$
  begin
    if tg_op = 'INSERT' then
      ${refreshDocuments('select res_id from new_texts')}
    elsif tg_op = 'DELETE' then
      ${refreshDocuments('select res_id from old_texts')}
    else
      ${refreshDocuments('select res_id from new_texts union select res_id from old_texts')}
    end if;
    return null;
  end
  $$`,
  `create trigger fulltext_texts_insert_record_document after insert on fulltext_texts
    referencing new table as new_texts for each statement execute function fulltext_record_documents()`,
  `create trigger fulltext_texts_update_record_document after update on fulltext_texts
    referencing old table as old_texts new table as new_texts for each statement
    execute function fulltext_record_documents()`,
  `create trigger fulltext_texts_delete_record_document after delete on fulltext_texts
    referencing old table as old_texts for each statement execute function fulltext_record_documents()`,
  `create or replace view res_view_letterbox as ${letterboxViewSelect(', r.fulltext_document')}`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  // A view loses no column by `create or replace`: it is made again without it.
  await sql.raw('drop view res_view_letterbox').execute(db)
  for (const kind of ['insert', 'update', 'delete'])
    await sql.raw(`drop trigger fulltext_texts_${kind}_record_document on fulltext_texts`).execute(db)
  await sql.raw('drop function fulltext_record_documents()').execute(db)
  await sql.raw('alter table res_letterbox drop column fulltext_document').execute(db)
  await sql.raw('drop aggregate mailroom_tsvector_concat(tsvector)').execute(db)
  await sql.raw('drop function mailroom_tsvector_append(tsvector, tsvector)').execute(db)
  await sql.raw(`create view res_view_letterbox as ${letterboxViewSelect('')}`).execute(db)
}
